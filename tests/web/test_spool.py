"""Upload bodies go to spool files as they arrive, never whole into memory, with the size limit enforced while
they stream (viewer/web/spool.py)."""
from __future__ import annotations

import errno
import io

import pytest
from flask import Request

from tests.web.conftest import WEATHER, soup
from viewer.web import spool


@pytest.fixture
def spools(monkeypatch) -> list:
    """Every spool file made, with the folder it was made in."""
    made = []
    real = spool._anonymous

    def recording(folder):
        file = real(folder)
        made.append((folder, file))
        return file

    monkeypatch.setattr(spool, "_anonymous", recording)
    return made


@pytest.fixture
def no_whole_body(monkeypatch) -> None:
    """Reading a request's body whole into memory fails the test."""
    def refused(*args, **kwargs):
        raise AssertionError("the request body was read whole into memory")

    monkeypatch.setattr(Request, "get_data", refused)


def test_an_api_upload_is_spooled_in_the_spool_folder_and_closed_after(make_app, tmp_path, spools, no_whole_body):
    client = make_app(SPOOL_DIR=str(tmp_path)).test_client()
    assert client.post("/api/transcripts", data=WEATHER.read_bytes()).status_code == 201
    assert [folder for folder, _ in spools] == [str(tmp_path)]
    assert all(file.closed for _, file in spools)


def test_a_form_file_is_spooled_in_the_spool_folder(make_app, tmp_path, spools, no_whole_body):
    client = make_app(SPOOL_DIR=str(tmp_path)).test_client()
    response = client.post("/transcripts", data={"file": (io.BytesIO(WEATHER.read_bytes()), "weather.txt")},
                           content_type="multipart/form-data")
    assert response.status_code == 303
    assert [folder for folder, _ in spools] == [str(tmp_path)]
    assert all(file.closed for _, file in spools)


def test_an_append_is_spooled(client, spools, no_whole_body):
    created = client.post("/api/transcripts?live=1", data=b"<|start|>user<|message|>hi").get_json()
    key = created["manage_url"].split("key=")[1]
    response = client.post(f"/api/transcripts/{created['id']}/append?key={key}", data=b"<|end|>")
    assert response.status_code == 200
    assert len(spools) == 2 and all(file.closed for _, file in spools)


def test_a_chunked_body_is_stopped_at_the_limit_with_413(make_app, spools):
    client = make_app(MAX_UPLOAD_BYTES=3 * spool.BLOCK).test_client()
    endless = io.BytesIO(b"x" * (5 * spool.BLOCK))  # no Content-Length: only reading it finds its size
    response = client.post("/api/transcripts", input_stream=endless,
                           environ_overrides={"wsgi.input_terminated": True})
    assert response.status_code == 413
    assert "limit of 3 MiB" in response.get_json()["error"]["message"]
    assert endless.tell() <= 4 * spool.BLOCK  # stopped at the limit, not read to the end
    assert all(file.closed for _, file in spools)


def test_pasted_text_over_its_own_limit_says_to_choose_the_file(make_app, monkeypatch):
    monkeypatch.setattr(spool, "PASTE_LIMIT", 1000)
    client = make_app(MAX_UPLOAD_BYTES=10_000).test_client()
    response = client.post("/transcripts", data={"text": "x" * 2000})
    assert response.status_code == 413
    assert "choose the file instead" in soup(response).find(class_="error").get_text()


def test_a_view_that_names_its_own_413_keeps_its_words(make_app):
    client = make_app(MAX_UPLOAD_BYTES=200).test_client()
    created = client.post("/api/transcripts?live=1", data=b"<|start|>user<|message|>hi").get_json()
    key = created["manage_url"].split("key=")[1]
    response = client.post(f"/api/transcripts/{created['id']}/append?key={key}", data=b"x" * 190)
    assert response.status_code == 413
    assert "would make the transcript larger" in response.get_json()["error"]["message"]


def test_white_space_alone_is_an_empty_upload_however_long(client):
    assert client.post("/api/transcripts", data=b" \n" * (spool.BLOCK)).status_code == 400


def test_a_full_disk_while_spooling_is_a_507_not_a_500(client, monkeypatch):
    class FullDisk(io.BytesIO):
        def write(self, data):
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(spool, "new_spool", FullDisk)
    response = client.post("/api/transcripts", data=WEATHER.read_bytes())
    assert response.status_code == 507 and "disk is full" in response.get_json()["error"]["message"]


def test_the_spool_folder_is_made_at_startup(make_app, tmp_path):
    folder = tmp_path / "spool" / "uploads"
    client = make_app(SPOOL_DIR=str(folder)).test_client()
    assert folder.is_dir() and client.post("/api/transcripts", data=WEATHER.read_bytes()).status_code == 201


def test_a_full_disk_while_a_form_file_is_spooled_is_a_507(client, monkeypatch):
    class FullDisk(io.BytesIO):
        def write(self, data):
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(spool, "new_spool", FullDisk)
    response = client.post("/transcripts", data={"file": (io.BytesIO(WEATHER.read_bytes()), "weather.txt")},
                           content_type="multipart/form-data")
    assert response.status_code == 507 and "disk is full" in soup(response).find(class_="error").get_text()
