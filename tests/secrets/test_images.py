"""Pasted images and the scan for secrets: the text around an image is scanned as before (every text byte), an
image's bytes are not text and are never masked, and masking a secret before an image moves the image's span
with the text, so the masked parse still points at its payload."""
from __future__ import annotations

import base64
import json

from tests.images.pictures import photo_with_gps
from tests.secrets.canaries import canaries
from viewer import ingest
from viewer.parse.inline_media import payload_bytes

PHOTO = photo_with_gps((300, 200))
TOKEN = next(canary.secret for canary in canaries() if canary.kind == "GitHub token")


def upload(text_before: str, text_after: str) -> bytes:
    image = {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64," + base64.b64encode(PHOTO).decode()}}
    return json.dumps({"messages": [
        {"role": "user", "content": [{"type": "text", "text": text_before}, image,
                                     {"type": "text", "text": text_after}]}]}).encode()


def test_secrets_beside_an_image_are_found_and_the_image_s_span_moves_with_the_masking():
    examined = ingest.examine(upload(f"my token {TOKEN}", f"and again {TOKEN}"))
    assert examined.secret_kinds == {"GitHub token": 2}
    masked = examined.shared.transcript
    (media,) = masked.messages[0].media
    assert TOKEN not in masked.source and TOKEN not in masked.messages[0].content
    assert payload_bytes(masked.source[media.span[0]:media.span[1]]) == PHOTO
    (written,) = examined.original.transcript.messages[0].media
    assert written.sha256 == media.sha256 and written.span != media.span


def test_an_image_alone_gives_no_secret():
    examined = ingest.examine(upload("nothing secret here", "still nothing"))
    assert examined.secret_kinds == {} and examined.original is None
