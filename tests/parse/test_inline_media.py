import base64
import hashlib
import json

from tests.images.pictures import plain
from viewer.parse import detect, parse
from viewer.parse.inline_media import payload_bytes

PNG = plain("PNG")
SHA = hashlib.sha256(PNG).hexdigest()
B64 = base64.b64encode(PNG).decode()


def chat(*messages) -> str:
    return json.dumps({"messages": list(messages)})


def image_part(data: str = B64) -> dict:
    return {"type": "image_url", "image_url": {"url": "data:image/png;base64," + data}}


def test_an_inline_image_becomes_a_reference_to_its_bytes_named_in_the_placeholder():
    text = chat({"role": "user", "content": [{"type": "text", "text": "look"}, image_part()]})
    message = parse(text).messages[0]
    assert message.content == f"look\n[image: image/png, {len(PNG)} bytes, sha256 {SHA[:12]}]"
    (media,) = message.media
    assert (media.sha256, media.size, media.type, media.width, media.height, media.refused) == (
        SHA, len(PNG), "image/png", 20, 10, None)
    assert payload_bytes(text[media.span[0]:media.span[1]]) == PNG  # the store decodes it again from the source


def test_a_payload_written_with_escaped_slashes_is_found_and_decoded():
    text = chat({"role": "user", "content": [image_part()]}).replace("/", "\\/")
    (media,) = parse(text).messages[0].media
    assert media.sha256 == SHA and payload_bytes(text[media.span[0]:media.span[1]]) == PNG


def test_a_message_naming_an_image_cannot_claim_one_another_message_carries():
    claimed = f"[image: image/png, 1 bytes, sha256 {SHA[:12]}]"
    text = chat({"role": "user", "content": claimed}, {"role": "user", "content": [image_part()]})
    first, second = parse(text).messages
    assert first.media == () and len(second.media) == 1


def test_an_image_written_twice_is_referenced_twice():
    message = parse(chat({"role": "user", "content": [image_part(), image_part()]})).messages[0]
    assert [media.sha256 for media in message.media] == [SHA, SHA]


def test_a_refused_image_keeps_its_reference_and_reason_and_is_reported():
    svg = base64.b64encode(b'<svg xmlns="http://www.w3.org/2000/svg"/>').decode()
    transcript = parse(chat({"role": "user", "content": [
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": svg}}]}))
    (media,) = transcript.messages[0].media
    assert (media.type, media.refused) == ("image/svg+xml", "an SVG drawing")
    assert transcript.messages[0].content.endswith(", not shown: an SVG drawing]")
    assert [(d.code, d.span, d.message_index) for d in transcript.diagnostics] == [
        ("W-MEDIA-REFUSED", media.span, 0)]


def test_an_image_url_is_never_decoded_or_referenced():
    message = parse(chat({"role": "user", "content": [
        {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}]})).messages[0]
    assert message.content == "[image: https://example.com/a.png]" and message.media == ()


def test_a_session_whose_first_line_holds_a_big_screenshot_is_still_read_as_claude_code():
    big = base64.b64encode(bytes(range(256)) * 400).decode()  # 100 KB of base64: past the 64 KiB sniffed
    line = {"parentUuid": None, "isSidechain": False, "sessionId": "s", "type": "user", "uuid": "u1",
            "message": {"role": "user", "content": [
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": big}}]}}
    assert detect(json.dumps(line) + "\n") == "claude-code"
    assert detect(json.dumps(line)) == "claude-code"  # a file of that one line, without its newline
