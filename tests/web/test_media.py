"""Pasted images on the web (viewer/web/views/media.py and the cards' thumbnails): served from the viewer's own
origin with their exact type, `nosniff` and a sandboxing policy; without metadata; to a default-view reader only
through a message the default view shows; drawn as thumbnails only where that message is; named in the JSON twin
and by placeholders in the exports."""
from __future__ import annotations

import base64
import hashlib
import io
import json

from PIL import Image

from tests.images.pictures import GPS_IFD, photo_with_gps, png_with_text
from tests.web.conftest import soup, text_of

SHOWN, HIDDEN = photo_with_gps(), png_with_text()
SHOWN_SHA, HIDDEN_SHA = hashlib.sha256(SHOWN).hexdigest(), hashlib.sha256(HIDDEN).hexdigest()
SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'


def block(data: bytes, media_type: str) -> dict:
    return {"type": "image", "source": {"type": "base64", "media_type": media_type,
                                        "data": base64.b64encode(data).decode()}}


def session() -> bytes:
    """The user's photo (shown), an SVG (refused), and a tool result's PNG (hidden by default)."""
    return json.dumps({"messages": [
        {"role": "user", "content": [{"type": "text", "text": "my photo"}, block(SHOWN, "image/jpeg"),
                                     block(SVG, "image/svg+xml")]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "shot", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1",
                                      "content": [{"type": "text", "text": "captured"},
                                                  block(HIDDEN, "image/png")]}]},
        {"role": "assistant", "content": "done"}]}).encode()


def test_a_shown_image_is_served_cleaned_with_its_exact_type_and_a_sandbox(upload, stranger):
    id = upload(session())["id"]
    response = stranger.get(f"/t/{id}/media/{SHOWN_SHA}")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "image/jpeg"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Content-Security-Policy"].strip() == "default-src 'none'; sandbox"
    assert response.headers["Cache-Control"] == "private, no-store"
    served = Image.open(io.BytesIO(response.data))
    assert not served.getexif().get_ifd(GPS_IFD) and len(served.getexif()) == 0
    assert b"SecretCam" not in response.data and b"taken at home" not in response.data
    thumb = stranger.get(f"/t/{id}/media/{SHOWN_SHA}?size=thumb")
    assert thumb.status_code == 200 and Image.open(io.BytesIO(thumb.data)).size == (64, 48)


def test_a_hidden_message_s_image_answers_404_in_the_default_view_and_is_served_in_the_debug_view(
        owned, client, stranger):
    id = owned(session())
    assert stranger.get(f"/t/{id}/media/{HIDDEN_SHA}").status_code == 404
    assert stranger.get(f"/t/{id}/media/{HIDDEN_SHA}?size=thumb").status_code == 404
    assert stranger.get(f"/t/{id}/media/{HIDDEN_SHA}?view=debug").status_code == 403  # debug not allowed
    debug = client.get(f"/t/{id}/media/{HIDDEN_SHA}?view=debug")  # the uploader may debug
    assert debug.status_code == 200 and debug.headers["Content-Type"] == "image/png"
    assert b"hunter2" not in debug.data and b"xmpmeta" not in debug.data


def test_refused_unknown_and_malformed_images_answer_404_or_400(upload, stranger):
    id = upload(session())["id"]
    svg_sha = hashlib.sha256(SVG).hexdigest()
    assert stranger.get(f"/t/{id}/media/{svg_sha}?view=").status_code in (400, 404)
    assert stranger.get(f"/t/{id}/media/{svg_sha}").status_code == 404
    assert stranger.get(f"/t/{id}/media/{'0' * 64}").status_code == 404
    assert stranger.get(f"/t/{id}/media/not-a-hash").status_code == 404
    assert stranger.get(f"/t/{id}/media/{SHOWN_SHA}?size=huge").status_code == 400
    assert stranger.get(f"/t/nosuchtranscript00000/media/{SHOWN_SHA}").status_code == 404


def test_an_image_is_not_served_through_another_transcript(upload, stranger):
    upload(session())
    other = upload(json.dumps([{"role": "user", "content": "nothing"}]).encode())["id"]
    assert stranger.get(f"/t/{other}/media/{SHOWN_SHA}").status_code == 404


def test_the_default_view_draws_thumbnails_of_shown_messages_only(upload, stranger):
    id = upload(session())["id"]
    page = soup(stranger.get(f"/t/{id}"))
    (image,) = page.select(".pictures img")
    assert image["src"] == f"/t/{id}/media/{SHOWN_SHA}?size=thumb"
    assert (image["width"], image["height"], image["loading"]) == ("64", "48", "lazy")
    assert image["alt"].startswith(f"Image sha256 {SHOWN_SHA[:12]} (JPEG")
    assert image.parent.name == "a" and image.parent["href"] == f"/t/{id}/media/{SHOWN_SHA}"
    text = text_of(stranger.get(f"/t/{id}"))
    assert HIDDEN_SHA[:12] not in text and "not shown: an SVG drawing" in text


def test_the_debug_view_draws_every_shown_image_with_its_view_in_the_url(owned, client):
    id = owned(session())
    page = soup(client.get(f"/t/{id}?view=debug"))
    sources = [image["src"] for image in page.select(".pictures img")]
    assert sources == [f"/t/{id}/media/{SHOWN_SHA}?view=debug&size=thumb",
                       f"/t/{id}/media/{HIDDEN_SHA}?view=debug&size=thumb"]


def test_the_json_twin_names_the_media_url_of_shown_images_only(upload, stranger, client):
    id = upload(session())["id"]
    twin = stranger.get(f"/t/{id}.json").get_json()
    media = [item for message in twin["messages"] for item in message.get("media", [])]
    assert [item.get("url") for item in media] == [f"/t/{id}/media/{SHOWN_SHA}", None]
    assert all("span" not in item for item in media)
    assert HIDDEN_SHA[:12] not in json.dumps(twin)


def test_exports_name_images_by_placeholders_and_never_the_hidden_one(upload, stranger):
    id = upload(session())["id"]
    for suffix in (".md", ".html"):
        text = stranger.get(f"/t/{id}{suffix}").get_data(as_text=True)
        assert f"sha256 {SHOWN_SHA[:12]}" in text
        assert HIDDEN_SHA[:12] not in text and "/media/" not in text


def test_no_default_view_answer_names_the_hidden_message_s_image(upload, stranger):
    id = upload(session())["id"]
    answers = [stranger.get(f"/t/{id}"), stranger.get(f"/t/{id}", headers={"HX-Request": "true"}),
               stranger.get(f"/t/{id}/window?start=0", headers={"HX-Request": "true"}),
               stranger.get(f"/t/{id}.json"), stranger.get(f"/t/{id}.md"), stranger.get(f"/t/{id}.html"),
               stranger.get(f"/t/{id}/search?q=captured"), stranger.get(f"/t/{id}/media/{HIDDEN_SHA}")]
    for answer in answers:
        assert HIDDEN_SHA[:12] not in answer.get_data(as_text=True)
        assert answer.status_code in (200, 404)
    assert answers[-1].status_code == 404
    found = soup(stranger.get(f"/t/{id}/search?q={HIDDEN_SHA[:12]}")).select_one(".search-body")
    assert found["data-total"] == "0"  # the query is echoed in its form, but nothing hidden is found


def test_a_refused_image_answer_carries_the_sandbox_too(upload, stranger):
    id = upload(session())["id"]
    response = stranger.get(f"/t/{id}/media/{HIDDEN_SHA}")
    assert response.status_code == 404
    assert response.headers["Content-Security-Policy"].strip() == "default-src 'none'; sandbox"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_an_image_named_by_its_web_address_is_a_link_never_loaded(upload, stranger):
    address = "https://example.com/ci/412.png"
    id = upload(json.dumps({"messages": [{"role": "user", "content": [
        {"type": "image", "source": {"type": "url", "url": address}},
        {"type": "image", "source": {"type": "url", "url": "javascript:alert(1)"}}]}]}).encode())["id"]
    page = soup(stranger.get(f"/t/{id}"))
    (link,) = page.select(".remote-image a")
    assert link["href"] == address and "noopener" in link["rel"]
    assert not [image for image in page.find_all("img") if "example.com" in image.get("src", "")]
    assert "javascript:" not in " ".join(a.get("href", "") for a in page.find_all("a"))
