"""Pasted images in the HTML export (viewer/present/html.py, embedded.py): each image of a message the view
shows is its thumbnail, cleaned of metadata as the media route serves it, inside the file as a `data:` URL that
the file's own policy allows and nothing else; the image of a message the default view hides is in no
default-view export; past the file's cap an image is a note, and the file says how much it holds."""
from __future__ import annotations

import base64
import io
import json
import re

from PIL import Image

from tests.web.conftest import soup
from tests.web.test_media import HIDDEN_SHA, SHOWN_SHA, session
from viewer.present import embedded

_DATA_URL = re.compile(r"data:image/[a-z]+;base64,([A-Za-z0-9+/=]+)")


def _data_urls(text: str) -> list[str]:
    return _DATA_URL.findall(text)


def test_a_shown_image_is_in_the_file_as_its_cleaned_thumbnail(upload, stranger):
    id = upload(session())["id"]
    page = soup(stranger.get(f"/t/{id}.html"))
    sources = [image["src"] for image in page.select(".pictures img")]
    assert len(sources) == 1 and sources[0].startswith("data:image/")
    inside = base64.b64decode(sources[0].partition(",")[2])
    assert inside == stranger.get(f"/t/{id}/media/{SHOWN_SHA}?size=thumb").data
    assert not Image.open(io.BytesIO(inside)).getexif()  # the photo's GPS block is not in the file
    assert page.select(".pictures a") == []  # no link out of the file, to a server or to a full size
    policy = page.select_one("meta[http-equiv=Content-Security-Policy]")["content"]
    assert "img-src data:;" in policy and "default-src 'none'" in policy
    assert "1 image embedded as a thumbnail" in page.select_one(".export-images").get_text()


def test_no_default_view_export_holds_the_hidden_message_s_image(owned, client, stranger):
    id = owned(session(), debug="allow")
    debug = client.get(f"/t/{id}.html?view=debug").get_data(as_text=True)
    hidden = base64.b64encode(client.get(f"/t/{id}/media/{HIDDEN_SHA}?view=debug&size=thumb").data).decode()
    assert hidden in _data_urls(debug)  # the canary is there to be found: the debug view's file holds it
    for reader in (stranger, client):
        for suffix in (".html", ".md", ".json"):
            text = reader.get(f"/t/{id}{suffix}").get_data(as_text=True)
            assert hidden[:64] not in text and HIDDEN_SHA[:12] not in text
            assert all(not found.startswith(hidden[:64]) for found in _data_urls(text))


def test_images_past_the_file_s_cap_are_named_by_a_note(upload, stranger, monkeypatch):
    monkeypatch.setattr(embedded, "MAX_EMBEDDED_BYTES", 100)
    id = upload(session())["id"]
    page = soup(stranger.get(f"/t/{id}.html"))
    assert page.select(".pictures img") == []
    assert "not in this file" in page.select_one(".picture-left-out").get_text()
    note = page.select_one(".export-images").get_text()
    assert "0 images embedded" in note and "1 not embedded, past this file's limit of 100 bytes" in note


def test_a_dataset_s_file_holds_each_conversation_s_shown_images_and_no_hidden_one(owned, client, stranger):
    conversation = json.dumps(json.loads(session())) + "\n"
    id = owned((conversation * 3).encode(), debug="allow")
    hidden = base64.b64encode(client.get(f"/t/{id}/c/0/media/{HIDDEN_SHA}?view=debug&size=thumb").data).decode()
    assert len(_data_urls(client.get(f"/t/{id}.html?view=debug").get_data(as_text=True))) == 6
    text = stranger.get(f"/t/{id}.html").get_data(as_text=True)
    shown = base64.b64encode(stranger.get(f"/t/{id}/c/0/media/{SHOWN_SHA}?size=thumb").data).decode()
    assert _data_urls(text) == [shown] * 3 and hidden[:64] not in text
    assert "3 images embedded as thumbnails" in soup(stranger.get(f"/t/{id}.html")).select_one(".export-images").text
