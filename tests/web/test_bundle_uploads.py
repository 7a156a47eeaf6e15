"""Uploads of several files read as one transcript: a zip archive of a session's folder through the API or the
form, several files chosen at once in the form (packed into one zip, stored byte-exact and downloadable), and a
SQLite database; a corrupt or oversized archive or database is a 4xx, never a 500."""
from __future__ import annotations

import io
import json
import sqlite3
import zipfile

import pytest

from tests.conftest import SAMPLES
from tests.web.conftest import soup
from viewer.bundles import archive, pack

SESSION = SAMPLES / "claude-code-2.1-subagent-agent-id.jsonl"


def session_files() -> list[tuple[str, bytes]]:
    """A Claude Code 2.x session and its sub-agent's log, as the agent stores them apart."""
    lines = SESSION.read_text().splitlines(keepends=True)
    main = "".join(line for line in lines if '"isSidechain":false' in line)
    side = "".join(line for line in lines if '"isSidechain":true' in line)
    meta = json.dumps({"agentType": "Explore", "description": "Review the rates module", "toolUseId": "nowhere"})
    return [("s1/5e1f7d22.jsonl", main.encode()), ("s1/5e1f7d22/subagents/agent-a9f4657.jsonl", side.encode()),
            ("s1/5e1f7d22/subagents/agent-a9f4657.meta.json", meta.encode())]


def api(client, body: bytes):
    return client.post("/api/transcripts?debug=allow", data=body, content_type="application/octet-stream")


def test_a_zip_of_a_session_folder_through_the_api_is_one_transcript_whose_threads_are_sub_agents(client):
    answer = api(client, pack.packed(session_files()))
    assert answer.status_code == 201
    model = client.get(f"/t/{answer.json['id']}.json?view=debug").json
    assert model["dialect"] == "claude-code"
    assert {entry.get("thread") for entry in model["messages"]} == {None, "a9f4657"}
    thread = soup(client.get(f"/t/{answer.json['id']}?view=debug")).find("details", class_="thread")
    assert "a9f4657" in thread.summary.get_text(" ", strip=True)
    assert thread.find("p", class_="thread-origin").get_text(" ", strip=True).startswith("Started by call #")


def test_several_files_chosen_at_once_are_packed_into_one_stored_zip(client):
    files = session_files()
    response = client.post("/transcripts", data={"file": [(io.BytesIO(data), name) for name, data in files]},
                           content_type="multipart/form-data")
    assert response.status_code == 303
    location = response.headers["Location"]
    raw = client.get(location + "/raw").data
    with zipfile.ZipFile(io.BytesIO(raw)) as stored:
        assert {info.filename: stored.read(info) for info in stored.infolist()} == dict(files)
    assert raw == pack.packed(files)  # the same files always make the same bytes
    assert "a9f4657" in {entry.get("thread") for entry in client.get(location + ".json?view=debug").json["messages"]}


def test_several_files_that_climb_out_of_their_folder_are_a_400(client):
    response = client.post("/transcripts", data={"file": [(io.BytesIO(b"a"), "../a.jsonl"),
                                                          (io.BytesIO(b"b"), "b.jsonl")]},
                           content_type="multipart/form-data")
    assert response.status_code == 400


@pytest.mark.parametrize("cut", [30, -10])
def test_a_corrupt_zip_is_a_400_with_a_clear_message(client, cut):
    answer = api(client, pack.packed(session_files())[:cut])
    assert answer.status_code == 400 and "zip archive cannot be read" in answer.json["error"]["message"]


def test_a_zip_that_would_unpack_past_the_bound_is_a_413(client, monkeypatch):
    monkeypatch.setattr(archive, "MAX_UNPACKED", 100_000)
    answer = api(client, pack.packed([("big.txt", b" " * 200_000)]))
    assert answer.status_code == 413 and "would unpack to 200,000 bytes" in answer.json["error"]["message"]


def test_a_sqlite_database_is_taken_and_read_as_a_bundle(client, tmp_path):
    path = tmp_path / "store.db"
    with sqlite3.connect(path) as made:
        made.execute("CREATE TABLE notes (body TEXT)")
        made.execute("INSERT INTO notes VALUES ('hello')")
    made.close()
    data = path.read_bytes()
    answer = api(client, data)
    assert answer.status_code == 201
    shared = client.get(f"/t/{answer.json['id']}/raw").data  # a link holder: the database's text, never its pages
    assert shared.startswith(b'{"bundle": 1') and b"hello" in shared
    client.get(answer.json["manage_url"])  # the uploader's browser
    assert client.get(f"/t/{answer.json['id']}/raw").data == data
    debug = client.get(f"/t/{answer.json['id']}.json?view=debug").json
    assert "W-BUNDLE-MEMBER" in {diagnostic["code"] for diagnostic in debug["diagnostics"]}


def test_a_database_whose_header_sqlite_never_writes_is_a_400(client):
    answer = api(client, b"SQLite format 3\x00" + (999).to_bytes(2, "big") + bytes(200))
    assert answer.status_code == 400 and "page size of 999" in answer.json["error"]["message"]


def test_a_database_corrupt_past_its_header_is_stored_with_a_diagnostic_not_a_500(client):
    data = b"SQLite format 3\x00" + (4096).to_bytes(2, "big") + bytes(4096 * 3 - 18)
    answer = api(client, data)
    assert answer.status_code == 201
    debug = client.get(f"/t/{answer.json['id']}.json?view=debug").json
    assert "W-DATABASE" in {diagnostic["code"] for diagnostic in debug["diagnostics"]}
