"""Generated Claude Code sessions of distinct pasted screenshots, for the image benches (bench/images.py,
bench/images_browser.py) and the browser test of many images: each turn a user's screenshot (a PNG drawn with
Pillow, its number on it and a noisy picture so that it weighs what a real one does) and the assistant's short
answer, lines chained by `parentUuid` as Claude Code writes them."""
from __future__ import annotations

import base64
import hashlib
import io
import json
from typing import Iterator

from PIL import Image, ImageDraw

SCREEN = (1280, 800)


def screenshot(number: int, size: tuple[int, int] = SCREEN) -> bytes:
    """A PNG of a page (1280 × 800: a few hundred kilobytes): bars of text-like grey, a noisy picture a quarter of
    its width, and its number."""
    width, height = size
    image = Image.new("RGB", size, (250, 250, 252))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width, 40), fill=(36, 41, 47))
    for row in range((height - 140) // 22):
        bar = width * 15 // 32 + (row * 37 + number * 13) % (width * 25 // 64)
        draw.rectangle((40, 70 + row * 22, bar, 80 + row * 22), fill=(200, 205, 212))
    noisy = (width // 4, height * 3 // 10)
    noise = Image.frombytes("RGB", noisy, hashlib.shake_256(str(number).encode()).digest(noisy[0] * noisy[1] * 3))
    image.paste(noise, (width * 45 // 64, height * 3 // 20))
    draw.text((50, 12), f"screenshot {number}", fill=(255, 255, 255))
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=6)
    return out.getvalue()


def session_lines(megabytes: float, screen: tuple[int, int] = SCREEN) -> Iterator[str]:
    """The lines of a Claude Code session of about `megabytes`: each turn a user's pasted screenshot of `screen`
    pixels (a distinct one each) and a short answer."""
    number, size, parent = 0, 0, None
    while size < megabytes * 1e6:
        uuid = f"00000000-0000-4000-8000-{number:012d}"
        shot = base64.b64encode(screenshot(number, screen)).decode()
        common = {"isSidechain": False, "userType": "external", "cwd": "/home/ada/code/bench",
                  "sessionId": "5d2b7e1c-8a4f-4c3e-9b6d-1e0f2a3b4c5d", "version": "1.0.98", "gitBranch": "main"}
        user = {"parentUuid": parent, **common, "type": "user", "uuid": uuid,
                "timestamp": "2025-09-14T10:00:00.000Z", "message": {"role": "user", "content": [
                    {"type": "text", "text": f"What is wrong on screen {number}?"},
                    {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": shot}}]}}
        answer = {"parentUuid": uuid, **common, "type": "assistant",
                  "uuid": f"00000000-0000-4000-8001-{number:012d}",  # its own: a shared one would fork the session
                  "timestamp": "2025-09-14T10:00:01.000Z",
                  "message": {"id": f"msg_{number}", "type": "message", "role": "assistant",
                              "model": "claude-sonnet-4-20250514", "stop_reason": "end_turn",
                              "content": [{"type": "text", "text": f"Screen {number} shows a failing build."}]}}
        for item in (user, answer):
            line = json.dumps(item, separators=(",", ":")) + "\n"
            size += len(line)
            yield line
        parent, number = answer["uuid"], number + 1


def session(megabytes: float, screen: tuple[int, int] = SCREEN) -> tuple[bytes, int]:
    """A Claude Code session of about `megabytes` (`session_lines`) and its number of screenshots."""
    lines = list(session_lines(megabytes, screen))
    return "".join(lines).encode(), len(lines) // 2
