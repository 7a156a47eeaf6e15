"""A big agent session stored from a thin text (its image payloads cut out: viewer/parse/thinning.py) stores what
the whole parse stores: every row a page, the JSON twin or a search reads, the images, and with a secret, the masked
text link holders download, byte for byte. In the request, processed after the answer, and parsed again from the
stored bytes. On SQLite and PostgreSQL."""
from __future__ import annotations

import io
import json

import msgspec
import pytest

from tests.parse.agents.test_thinning import claude_lines, codex_lines
from tests.secrets.canaries import canaries
from tests.store.test_live import snapshot
from viewer import ingest
from viewer.ingest import deferred
from viewer.parse import thinning
from viewer.store import Store

GITHUB = next(canary.secret for canary in canaries(seed=5) if canary.secret.startswith("ghp_"))


@pytest.fixture
def thinned(monkeypatch):
    """Every agent session is thinned, each image of a few KiB cut out."""
    monkeypatch.setattr(thinning, "THIN_FROM", 0)
    monkeypatch.setattr(thinning, "CUT_FROM", 1024)


def with_secret(data: bytes) -> bytes:
    line = {"type": "user", "uuid": "sx", "message": {"role": "user", "content": f"deploy with {GITHUB} now"}}
    return data + (json.dumps(line) + "\n").encode()


def comparable(found: dict) -> dict:
    """A snapshot with each entry's source left out (a thin parse's says in words where a payload was)."""
    entries = [msgspec.structs.replace(entry, source="") for entry in found["entries"]]
    return {**found, "entries": entries}


def images(store: Store, id: str) -> list[str]:
    return [media.sha256 for entry in store.iter_entries(id, "debug") for media in entry.message.media]


@pytest.mark.parametrize("data", [claude_lines(4), codex_lines(3), with_secret(claude_lines(2))],
                         ids=["claude-code", "codex", "with-secret"])
def test_a_thinned_session_stores_what_the_whole_parse_stores(store, thinned, data):
    ingest.store_upload(store, data, id="whole")  # bytes in memory: parsed whole
    record = ingest.store_spooled(store, io.BytesIO(data), id="thin")
    assert record.ready and store.raw("thin") == data
    assert comparable(snapshot(store, "thin")) == comparable(snapshot(store, "whole"))
    assert images(store, "thin") == images(store, "whole") and images(store, "thin")
    assert store.media.missing(set(images(store, "thin"))) == set()
    assert store.secrets.shared_raw("thin") == store.secrets.shared_raw("whole")
    shown = [entry.source for entry in store.iter_entries("thin", "debug")]
    assert any("characters of base64, not shown here" in source for source in shown)


def test_a_masked_thin_session_is_downloaded_with_its_images_and_without_its_secret(store, thinned):
    data = with_secret(claude_lines(2))
    ingest.store_spooled(store, io.BytesIO(data), id="thin")
    shared = store.secrets.shared_raw("thin")
    assert GITHUB.encode() not in shared and b"[secret: GitHub token]" in shared
    assert shared.replace(b"[secret: GitHub token]", GITHUB.encode()) == data


def test_a_thinned_session_processed_after_its_answer_and_parsed_again_stores_the_same(store, thinned):
    data = claude_lines(3)
    ingest.store_upload(store, data, id="whole")
    ingest.accept(store, io.BytesIO(data), id="later", worker="w")
    assert deferred.process(store, "later")  # from the stored bytes, as after a restart
    expected = comparable(snapshot(store, "whole"))
    assert comparable(snapshot(store, "later")) == expected
    spool = io.BytesIO(data)
    upload = ingest.Upload(ingest.contents(spool), "auto", lambda: True)
    ingest.accept(store, io.BytesIO(data), id="in-request", worker="w")
    assert isinstance(upload.raw, thinning.Thinned) and deferred.process(store, "in-request", upload=upload)
    assert comparable(snapshot(store, "in-request")) == expected
    ingest.reparse(store, store.get("later"))
    assert comparable(snapshot(store, "later")) == expected
    for id in ("whole", "later", "in-request"):  # the media route finds each image its message shows
        assert all(store.media.served(id, sha256, debug=False, thumbnail=True) for sha256 in images(store, id))


def test_a_key_shaped_string_inside_an_image_payload_is_not_a_secret_of_a_thinned_session(store, thinned):
    data = claude_lines(1)
    inside = data.index(b'"data": "') + len(b'"data": "') + 200
    key = b"+AKIADQBWZB90XYA2CLMH/"  # base64 characters: the whole scan reads it as an AWS access key
    data = data[:inside] + key + data[inside + len(key):]
    assert ingest.store_upload(store, data, id="whole").secret_kinds == {"AWS access key": 1}
    record = ingest.store_spooled(store, io.BytesIO(data), id="thin")
    assert not record.secret_kinds and store.secrets.shared_raw("thin") == data
