"""The raw download of uploads named in Chinese, Japanese or with an emoji, through gunicorn (which answers its
own 500 for a header value it cannot send, and before that fix did so for every such name)."""
from __future__ import annotations

import http.client
import json
import urllib.parse
from urllib.parse import unquote

import pytest

from tests.harness.crash import HOST, Server, create_schema
from tests.web.conftest import WEATHER

NAMES = ["模型对话记录.txt", "会話ログ.jsonl", "debug 🙂.txt", "ログ"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("names")
    create_schema(folder / "viewer.sqlite3")
    running = Server(folder / "viewer.sqlite3", 1, folder / "gunicorn.log")
    running.start()
    yield running
    running.kill()


def _request(port: int, method: str, path: str, body: bytes | None = None) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection(HOST, port, timeout=30)
    connection.request(method, path, body=body)
    response = connection.getresponse()
    response.body = response.read()  # type: ignore[attr-defined]
    connection.close()
    return response


@pytest.mark.parametrize("name", NAMES)
def test_gunicorn_serves_the_raw_download_of_an_upload_named_in_any_script(server, name):
    query = urllib.parse.urlencode({"name": name, "debug": "allow"})
    created = _request(server.port, "POST", f"/api/transcripts?{query}", WEATHER.read_bytes())
    assert created.status == 201, created.body
    id = json.loads(created.body)["id"]
    raw = _request(server.port, "GET", f"/t/{id}/raw")
    assert raw.status == 200 and raw.body == WEATHER.read_bytes()
    header = raw.getheader("Content-Disposition")
    assert unquote(header.split("filename*=UTF-8''", 1)[1]) == (name if "." in name else f"{name}.txt")
    assert header.split("; ")[1].startswith("filename=")
