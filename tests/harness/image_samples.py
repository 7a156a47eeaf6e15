"""Writes the samples that carry real image bytes (`python tests/harness/image_samples.py`): a Claude Code
session with a pasted screenshot, a screenshot tool's result (a JPEG with EXIF GPS) and an SVG, and an Anthropic
and an OpenAI chat request with inline images. The images are drawn here with Pillow, so the files are ours and
the same at every run (fixed content, no timestamps in the encoders)."""
from __future__ import annotations

import base64
import io
import json
from pathlib import Path

from PIL import Image, ImageDraw

SAMPLES = Path(__file__).resolve().parents[2] / "sample_transcripts"
SESSION = "5d2b7e1c-8a4f-4c3e-9b6d-1e0f2a3b4c5d"
GPS_IFD = 0x8825


def screenshot(label: str, size=(240, 150), background=(246, 248, 250)) -> Image.Image:
    """A small drawing of a browser page with a failing build's red banner, and `label` on it."""
    image = Image.new("RGB", size, background)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, size[0], 18), fill=(36, 41, 47))
    draw.rectangle((8, 30, size[0] - 8, 52), fill=(207, 34, 46))
    draw.text((14, 36), label, fill=(255, 255, 255))
    for row in range(4):
        draw.rectangle((8, 64 + row * 18, size[0] - 40 - row * 25, 72 + row * 18), fill=(208, 215, 222))
    return image


def png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def jpeg_with_gps(image: Image.Image) -> bytes:
    """A JPEG whose EXIF says where and with what it was taken: what a served copy must not carry."""
    exif = Image.Exif()
    exif[0x010F] = "ExampleCam"  # Make
    exif[0x0132] = "2025:09:14 09:00:00"  # DateTime
    exif.get_ifd(GPS_IFD).update({1: "N", 2: (59.0, 54.0, 42.0), 3: "E", 4: (10.0, 45.0, 7.0)})
    out = io.BytesIO()
    image.save(out, "JPEG", quality=80, exif=exif.tobytes())
    return out.getvalue()


SVG = (b'<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><circle cx="20" cy="20" r="18" '
       b'fill="#0969da"/></svg>')


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def claude_code_session() -> str:
    pasted = png(screenshot("test_leap_day FAILED"))
    tool_shot = jpeg_with_gps(screenshot("All checks passed", background=(230, 255, 236)))
    lines, parent = [], None

    def line(kind: str, number: int, message: dict, **extra) -> None:
        nonlocal parent
        uuid = f"9e8d7c6b-0000-4000-8000-0000000000{number:02d}"
        lines.append({"parentUuid": parent, "isSidechain": False, "userType": "external",
                      "cwd": "/home/ada/code/tidy-dates", "sessionId": SESSION, "version": "1.0.98",
                      "gitBranch": "main", "type": kind, "message": message, "uuid": uuid,
                      "timestamp": f"2025-09-14T10:00:{number:02d}.000Z", **extra})
        parent = uuid

    def assistant(number: int, content: list, stop: str | None) -> None:
        line("assistant", number, {"id": f"msg_01Img{number}", "type": "message", "role": "assistant",
                                   "model": "claude-sonnet-4-20250514", "content": content, "stop_reason": stop,
                                   "stop_sequence": None,
                                   "usage": {"input_tokens": 12, "cache_creation_input_tokens": 0,
                                             "cache_read_input_tokens": 2048, "output_tokens": 40}},
             requestId=f"req_01Img{number}")

    line("user", 1, {"role": "user", "content": [
        {"type": "text", "text": "The CI page is red again, see the screenshot:"},
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": b64(pasted)}}]})
    assistant(2, [{"type": "text", "text": "I will open the CI page and take a screenshot after the fix."}], None)
    assistant(3, [{"type": "tool_use", "id": "toolu_01Shot", "name": "mcp__playwright__browser_take_screenshot",
                   "input": {"fullPage": False}}], "tool_use")
    line("user", 4, {"role": "user", "content": [{"tool_use_id": "toolu_01Shot", "type": "tool_result", "content": [
        {"type": "text", "text": "Took a screenshot of the current page."},
        {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": b64(tool_shot)}}]}]},
         toolUseResult=[{"type": "text", "text": "Took a screenshot of the current page."}])
    assistant(5, [{"type": "text", "text": "The checks pass now (the screenshot above is the CI page)."}], "end_turn")
    line("user", 6, {"role": "user", "content": [
        {"type": "text", "text": "Great. Here is the logo for the README, and the first screenshot again:"},
        {"type": "image", "source": {"type": "base64", "media_type": "image/svg+xml", "data": b64(SVG)}},
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": b64(pasted)}}]})
    assistant(7, [{"type": "text", "text": "SVG logos are fine for the README."}], "end_turn")
    return "".join(json.dumps(item, separators=(",", ":")) + "\n" for item in lines)


def anthropic_request() -> str:
    shot = png(screenshot("Build #412 failed", size=(200, 120)))
    return json.dumps({"model": "claude-sonnet-4-20250514", "max_tokens": 1024, "messages": [
        {"role": "user", "content": [
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": b64(shot)}},
            {"type": "image", "source": {"type": "url", "url": "https://example.com/ci/412.png"}},
            {"type": "text", "text": "Why did this build fail?"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "The red banner says test_leap_day failed."}]}]},
        indent=2) + "\n"


def openai_chat_request() -> str:
    shot = jpeg_with_gps(screenshot("Deploy preview", size=(200, 120), background=(255, 248, 230)))
    return json.dumps({"model": "gpt-4o", "messages": [
        {"role": "system", "content": "You describe screenshots briefly."},
        {"role": "user", "content": [
            {"type": "text", "text": "What does this page show?"},
            {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64," + b64(shot), "detail": "low"}}]},
        {"role": "assistant", "content": "A deploy preview page with a yellow background."}]}, indent=2) + "\n"


def main() -> None:
    (SAMPLES / "claude-code-1.0-screenshots.jsonl").write_text(claude_code_session(), encoding="utf-8")
    (SAMPLES / "json-anthropic-request-images.json").write_text(anthropic_request(), encoding="utf-8")
    (SAMPLES / "json-openai-chat-image-data-url.json").write_text(openai_chat_request(), encoding="utf-8")


if __name__ == "__main__":
    main()
