"""Pasted images in the store (viewer/store/media.py, with viewer/ingest/images.py): kept once each across
uploads, served only through a message that holds them (a default-view reader only through one the default view
shows), and deleted with the last transcript that holds them. Both databases (the `store` fixture)."""
from __future__ import annotations

import base64
import datetime as dt
import hashlib
import json


from tests.images.pictures import photo_with_gps, plain, png_with_bad_pixels
from viewer import images, ingest

PNG, JPEG = plain("PNG", (30, 20)), photo_with_gps()


def image_block(data: bytes, media_type: str = "image/png") -> dict:
    return {"type": "image", "source": {"type": "base64", "media_type": media_type,
                                        "data": base64.b64encode(data).decode()}}


def session(*, shown: bytes = PNG, hidden: bytes = JPEG) -> bytes:
    """An Anthropic request: the user's image (shown), and a tool result's image (hidden by default)."""
    return json.dumps({"messages": [
        {"role": "user", "content": [{"type": "text", "text": "see"}, image_block(shown)]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "shot", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1",
                                      "content": [image_block(hidden, "image/jpeg")]}]},
        {"role": "assistant", "content": "done"}]}).encode()


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_an_image_in_two_uploads_is_stored_once(store):
    ingest.store_upload(store, session(), id="first-upload-0000000001")
    ingest.store_upload(store, session(hidden=plain("GIF")), id="second-upload-000000002")
    assert store.media.count() == 3  # the PNG both hold, the first's JPEG, the second's GIF
    assert store.media.missing([sha(PNG), sha(JPEG), "0" * 64]) == {"0" * 64}


def test_a_default_view_reader_is_served_only_the_images_of_messages_it_shows(store):
    id = ingest.store_upload(store, session(), id="access-upload-000000001").id
    shown = store.media.served(id, sha(PNG), debug=False, thumbnail=False)
    assert shown is not None and shown.type == "image/png" and shown.data.startswith(b"\x89PNG")
    assert store.media.served(id, sha(JPEG), debug=False, thumbnail=False) is None
    assert store.media.served(id, sha(JPEG), debug=False, thumbnail=True) is None
    hidden = store.media.served(id, sha(JPEG), debug=True, thumbnail=True)
    assert hidden is not None and hidden.type == "image/jpeg"


def test_an_image_is_served_only_to_the_transcripts_that_hold_it(store):
    ingest.store_upload(store, session(), id="holder-upload-000000001")
    other = ingest.store_upload(store, json.dumps([{"role": "user", "content": "no images"}]).encode(),
                                id="other-upload-0000000002").id
    assert store.media.served(other, sha(PNG), debug=True, thumbnail=False) is None


def test_deleting_a_transcript_removes_the_images_no_other_transcript_holds(store):
    first = ingest.store_upload(store, session(), id="first-upload-0000000001").id
    second = ingest.store_upload(store, session(hidden=plain("GIF")), id="second-upload-000000002").id
    store.delete(first)
    assert store.media.missing([sha(PNG), sha(JPEG)]) == {sha(JPEG)}  # the PNG is still the second's
    assert store.media.served(first, sha(PNG), debug=True, thumbnail=False) is None
    store.delete(second)
    assert store.media.count() == 0


def test_expired_uploads_take_their_images_with_them_when_pruned(store):
    id = ingest.store_upload(store, session(), id="expiring-upload-0000001").id
    store.set_expiry(id, dt.datetime.now(dt.timezone.utc) - dt.timedelta(seconds=1))
    assert store.prune() == [id]
    assert store.media.count() == 0


def test_parsing_again_keeps_the_images_the_new_parse_holds(store):
    record = ingest.store_upload(store, session(), id="reparsed-upload-0000001")
    ingest.reparse(store, record)
    assert store.media.count() == 2
    assert store.media.served(record.id, sha(PNG), debug=False, thumbnail=True) is not None


def test_an_image_whose_pixels_do_not_decode_is_not_stored_or_served(store):
    bad = png_with_bad_pixels()
    record = ingest.store_upload(store, session(shown=bad), id="bad-pixels-upload-00001")
    (media,) = next(entry for entry in store.iter_entries(record.id, "debug") if entry.message.media).message.media
    assert media.refused is None  # whole by its structure, as far as reading it tells
    assert store.media.missing([sha(bad)]) == {sha(bad)}
    assert store.media.served(record.id, sha(bad), debug=True, thumbnail=True) is None


def test_an_image_already_stored_is_not_decoded_again(store, monkeypatch):
    cleaned = []
    real = images.clean
    monkeypatch.setattr(images, "clean", lambda data, media_type: cleaned.append(media_type) or real(data, media_type))
    ingest.store_upload(store, session(), id="first-upload-0000000001")
    ingest.store_upload(store, session(), id="second-upload-000000002")
    assert sorted(cleaned) == ["image/jpeg", "image/png"]  # once each, at the first upload
