"""Uploads processed after their answer (viewer/store/processing.py, staged.py): accepted raw first, then the
first page's rows, then the rest and the index; the rows stored in two steps are exactly the rows of one
`Store.add`; a deleted or failed upload stores nothing more; a dead worker's upload is claimed once. Run on
SQLite and on PostgreSQL (PostgreSQL's rows go in by COPY)."""
from __future__ import annotations

import base64
import hashlib
import io
import json
from pathlib import Path

import pytest
from PIL import Image
from sqlalchemy import select

from tests.web.conftest import WEATHER
from viewer import ingest
from viewer.ingest import STORED_VERSION, examine
from viewer.store import Store
from viewer.store.processing import FAILED, INDEXING, PARSING, PROCESSING, QUEUED
from viewer.store.schema import message_kinds, messages, pairs, transcript_media, unmasked_messages
from viewer.store.staged import Staged, first_rows

SAMPLES = Path(__file__).resolve().parents[2] / "sample_transcripts"
SECRET = b"<|start|>user<|message|>my key is ghp_abcdefghijklmnopqrstuvwxyz0123456789AB ok<|end|>"


def _rows(store: Store, id: str) -> dict[str, list]:
    """Every parse row of `id`, table by table, without the id."""
    found = {}
    with store.engine.connect() as conn:
        for table in (messages, unmasked_messages, message_kinds, pairs, transcript_media):
            key = [column for column in table.primary_key.columns if column.name != "transcript_id"]
            found[table.name] = [tuple(row)[1:] for row in conn.execute(
                select(table).where(table.c.transcript_id == id).order_by(*key))]
    return found


def _process_in_two_steps(store: Store, id: str, raw: bytes, upto: int) -> None:
    ingest.accept(store, raw, id=id, worker="test")
    examined = examine(raw)
    staged = Staged(id, examined.shared, examined.original, upto)
    assert store.processing.show_first(id, staged, STORED_VERSION, original=examined.original,
                                       secret_kinds=examined.secret_kinds)
    assert store.get(id).state == PROCESSING and store.processing.progress(id).readable
    assert store.processing.finish(id, examined.shared, STORED_VERSION, index_search=False, staged=staged,
                                   original=examined.original, secret_kinds=examined.secret_kinds)
    assert store.get(id).ready and store.processing.progress(id).stage == INDEXING
    assert not store.processing.searchable(id)
    assert store.processing.index(id, examined.shared)


@pytest.mark.parametrize("raw", [WEATHER.read_bytes() * 3, WEATHER.read_bytes() + SECRET,
                                 (SAMPLES / "claude-code-1.0-bugfix-mcp.jsonl").read_bytes(),
                                 (SAMPLES / "claude-code-1.0-screenshots.jsonl").read_bytes()],
                         ids=["harmony", "with a secret", "claude code", "with images"])
@pytest.mark.parametrize("upto", [0, 3, 10_000])
def test_rows_stored_in_two_steps_are_the_rows_of_one_upload(store, raw, upto):
    ingest.store_upload(store, raw, id="whole")
    _process_in_two_steps(store, "staged", raw, upto)
    assert _rows(store, "staged") == _rows(store, "whole")
    whole, staged = store.get("whole"), store.get("staged")
    assert (staged.message_count, staged.hidden_count, staged.secret_kinds) == (
        whole.message_count, whole.hidden_count, whole.secret_kinds)
    assert store.raw("staged") == raw and store.secrets.shared_raw("staged") == store.secrets.shared_raw("whole")
    assert store.processing.searchable("staged") and store.processing.progress("staged") is None


def test_accepted_bytes_are_readable_before_they_are_parsed(store):
    ingest.accept(store, WEATHER.read_bytes(), id="early", worker="test", name="w.txt")
    record = store.get("early")
    assert record.state == PROCESSING and not record.ready and record.message_count == 0
    assert store.raw("early") == WEATHER.read_bytes() and store.processing.progress("early").stage == PARSING
    assert "early" not in store.ids(stale_for=STORED_VERSION)  # left to its worker, not to `viewer reparse`


def test_an_upload_deleted_while_processed_stores_nothing_more(store):
    raw = WEATHER.read_bytes()
    ingest.accept(store, raw, id="gone", worker="test")
    store.delete("gone")
    examined = examine(raw)
    assert not store.processing.show_first("gone", Staged("gone", examined.shared, None, 3), STORED_VERSION)
    assert not store.processing.finish("gone", examined.shared, STORED_VERSION)
    assert store.message_row_count("gone") == 0 and store.get("gone").deleted


def test_a_failed_upload_keeps_its_raw_bytes_and_stores_nothing_more(store):
    raw = WEATHER.read_bytes()
    ingest.accept(store, raw, id="broken", worker="test")
    store.processing.fail("broken", "RuntimeError: the parse could not be stored.")
    assert store.get("broken").state == FAILED and store.raw("broken") == raw
    assert store.processing.progress("broken").error.startswith("RuntimeError")
    assert not store.processing.finish("broken", examine(raw).shared, STORED_VERSION)
    assert store.processing.held() == []  # not taken over at the next start: its page says it failed


def test_an_abandoned_upload_is_claimed_by_one_process_and_processed_again(store):
    raw = WEATHER.read_bytes()
    ingest.accept(store, raw, id="left", worker="dead")
    assert [held[:2] for held in store.processing.held()] == [("left", "dead")]
    assert store.processing.claim("left", "dead", "first")
    assert not store.processing.claim("left", "dead", "second")
    assert store.processing.progress("left").stage == QUEUED
    assert ingest.process(store, "left")
    assert store.get("left").ready and store.message_row_count("left") == store.get("left").message_count


def test_processing_again_after_a_crash_between_the_steps_replaces_the_first_rows(store):
    raw = WEATHER.read_bytes() * 2
    ingest.store_upload(store, raw, id="whole")
    ingest.accept(store, raw, id="again", worker="dead")
    examined = examine(raw)
    assert store.processing.show_first("again", Staged("again", examined.shared, None, 5), STORED_VERSION)
    assert store.processing.claim("again", "dead", "alive")  # the first process died here
    assert ingest.process(store, "again")
    assert _rows(store, "again") == _rows(store, "whole")


def test_the_first_rows_hold_two_windows_of_both_views():
    projection = examine(WEATHER.read_bytes() * 40).shared
    upto = first_rows(projection, 5)
    ranks = list(projection.ranks())[:upto]
    assert upto >= 11 and sum(rank is not None for rank in ranks) >= 11
    assert first_rows(projection, 10_000) == len(projection.transcript.messages)


def _pictures(count: int) -> tuple[bytes, list[str]]:
    """An Anthropic conversation of `count` turns, each user turn a distinct small PNG; and their SHA-256s."""
    turns, hashes = [], []
    for number in range(count):
        picture = io.BytesIO()
        Image.new("RGB", (8, 8), (number * 20 % 256, 40, 90)).save(picture, "PNG")
        hashes.append(hashlib.sha256(picture.getvalue()).hexdigest())
        turns += [{"role": "user", "content": [{"type": "image", "source": {
                      "type": "base64", "media_type": "image/png",
                      "data": base64.b64encode(picture.getvalue()).decode()}}]},
                  {"role": "assistant", "content": f"picture {number}"}]
    return json.dumps({"messages": turns}).encode(), hashes


def test_a_first_page_s_images_are_stored_before_its_rows_and_the_others_before_the_rest(store, monkeypatch):
    raw, hashes = _pictures(8)
    ingest.accept(store, raw, id="pictures", worker="test")
    missing_when = {}
    for step in ("show_first", "finish"):
        real = getattr(store.processing, step)

        def noting(*args, _real=real, _step=step, **kwargs):
            missing_when[_step] = store.media.missing(hashes)
            return _real(*args, **kwargs)
        monkeypatch.setattr(store.processing, step, noting)
    assert ingest.process(store, "pictures", window=1)  # a first page of a few messages, the rest after
    first, rest = missing_when["show_first"], missing_when["finish"]
    assert first and set(hashes[:1]).isdisjoint(first) and hashes[-1] in first
    assert rest == set() and store.media.missing(hashes) == set()


def test_an_upload_handed_back_is_taken_over_and_its_first_worker_stores_nothing_more(store):
    from viewer.ingest.processor import abandoned
    from viewer.store.processing import RELEASED

    raw = WEATHER.read_bytes() * 3
    ingest.accept(store, raw, id="handed", worker="host:1:first")
    assert store.processing.release("host:1:first") == ["handed"]
    (id, worker, beat), = store.processing.held()
    assert worker == RELEASED and abandoned(worker, beat, "host:2:second")  # at once: no lease to wait for
    assert store.processing.claim("handed", RELEASED, "host:2:second")
    examined = examine(raw)
    staged = Staged("handed", examined.shared, examined.original, 3)
    for write in (lambda: store.processing.show_first("handed", staged, STORED_VERSION, worker="host:1:first"),
                  lambda: store.processing.finish("handed", examined.shared, STORED_VERSION, worker="host:1:first")):
        assert not write()  # the first worker no longer holds it
    store.processing.fail("handed", "too late", worker="host:1:first")
    assert store.get("handed").state == PROCESSING and store.message_row_count("handed") == 0
    assert store.processing.finish("handed", examined.shared, STORED_VERSION, worker="host:2:second")
    assert store.get("handed").ready
