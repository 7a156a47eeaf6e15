"""Claude Code on the web's session document (`{"loglines": [...]}`, the session API's answer as
`claude-code-transcripts web --json` saves it): detected as a Claude Code session and read entry by entry as the
same entries written as a log are."""
from __future__ import annotations

import io
import json

from tests.conftest import SAMPLES
from tests.parse.helpers import codes
from viewer import parse
from viewer.ingest import sessions as session_ingest
from viewer.parse import streamed
from viewer.parse.agents.claude_code_web import is_document

SAMPLE = SAMPLES / "claude-code-2.0-web-session.json"
READ = ("index", "turn", "role", "content", "name", "recipient", "channel", "channel_explicit", "content_type",
        "constrained", "intent", "call_id", "end", "thread", "parent", "meta", "aside")
"""What a message says, not where it stands (which differs between a document and a log)."""


def entries() -> list[dict]:
    return json.loads(SAMPLE.read_text(encoding="utf-8"))["loglines"]


def as_log(values: list[dict]) -> str:
    return "".join(json.dumps(value) + "\n" for value in values)


def read(transcript) -> list[dict]:
    """Each message's fields but where it stands."""
    return [{key: getattr(message, key) for key in READ} for message in transcript.messages]


def test_a_session_document_reads_as_its_entries_written_as_a_log():
    document, log = parse(SAMPLE.read_bytes()), parse(as_log(entries()))
    assert document.dialect == log.dialect == "claude-code"
    assert read(document) == read(log) and len(document.messages) == 14
    assert document.header == log.header
    assert codes(document) == codes(log) == ["W-JSON-OPAQUE-DATA"]


def test_a_session_document_is_detected_indented_or_on_one_line():
    one_line = json.dumps({"loglines": entries()})
    assert parse(one_line).dialect == "claude-code" and read(parse(one_line)) == read(parse(SAMPLE.read_bytes()))
    assert is_document(SAMPLE.read_text()) and is_document(one_line)


def test_a_log_that_names_loglines_in_a_message_is_still_a_log():
    values = entries()
    values[0]["message"]["content"] = 'Read the "loglines": [ ] member of the answer.'
    values[0]["toolUseResult"] = {"loglines": []}
    log = as_log(values)
    assert not is_document(log)
    assert read(parse(log))[0]["content"] == 'Read the "loglines": [ ] member of the answer.'


def test_a_document_cut_short_keeps_every_entry_before_the_cut():
    text = SAMPLE.read_text()
    cut = text.index('"uuid": "e09"')
    transcript = parse(text[:cut])
    assert "E-STREAM-TRUNCATED" in codes(transcript)
    assert read(transcript) == read(parse(as_log(entries()[:8])))


def test_what_the_document_holds_beside_its_entries_is_kept_unread():
    transcript = parse(json.dumps({"loglines": entries(), "next_cursor": "c_0042"}, indent=2))
    assert [item for item in transcript.header["unread"] if "next_cursor" in item["members"]] == [
        {"members": {"next_cursor": "c_0042"}}]
    unread = [diagnostic for diagnostic in transcript.diagnostics if diagnostic.code == "W-JSON-UNREAD"]
    assert len(unread) == 1 and "'next_cursor' of the session document" in unread[0].message
    assert len(transcript.messages) == 14


def test_an_entry_that_is_no_object_is_skipped_with_a_diagnostic():
    transcript = parse(json.dumps({"loglines": [*entries()[:2], "a stray string", *entries()[2:]]}, indent=2))
    assert [d.message for d in transcript.diagnostics if d.code == "W-JSON-SHAPE"] == [
        "Entry 3 is not a JSON object; it was skipped."]
    assert read(transcript) == read(parse(SAMPLE.read_bytes()))


def test_a_big_session_document_is_read_whole_not_a_piece_at_a_time(monkeypatch):
    monkeypatch.setattr(streamed, "STREAM_FROM", 0)
    assert session_ingest.streams(io.BytesIO(SAMPLE.read_bytes())) is None
    assert session_ingest.streams(io.BytesIO(as_log(entries()).encode())) == "claude-code"


def test_a_document_cut_after_its_entries_keeps_them_all_and_says_where_it_breaks_off():
    text = json.dumps({"loglines": entries(), "next_cursor": "c_0042"}, indent=2)
    transcript = parse(text[:text.index('"c_0042"') + 3])
    truncated = [d for d in transcript.diagnostics if d.code == "E-STREAM-TRUNCATED"]
    assert len(truncated) == 1 and "the 14 entries before the cut are read" in truncated[0].message
    assert truncated[0].span[0] > text.index("next_cursor") - 10
    assert read(transcript) == read(parse(SAMPLE.read_bytes()))
