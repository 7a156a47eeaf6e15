"""The accounting rule of the agents' readers (viewer/parse/agents/lines.py, session.py): what a reader's table
does not name of a line is kept in the header's `unread` and said; a line of a type the table forgets is not read
whole by default (fail closed), unless its reader shows it whole."""
from __future__ import annotations

import json

from viewer.parse import parse
from viewer.parse.agents.lines import claims_by, read_lines, unclaimed
from viewer.parse.agents.session import Session

CLAIMS = claims_by("type", {"note": ("text",)}, common=("type", "timestamp"))


def _line(value: dict):
    lines, _ = read_lines(json.dumps(value) + "\n")
    return next(lines)


def test_a_type_the_table_names_claims_its_paths_and_the_common_ones():
    line = _line({"type": "note", "timestamp": "2026-01-01T00:00:00Z", "text": "read", "extra": "not read"})
    assert unclaimed(line.value, CLAIMS(line)) == {"extra": "not read"}


def test_a_type_the_table_does_not_name_claims_only_the_common_paths():
    line = _line({"type": "forgotten", "timestamp": "2026-01-01T00:00:00Z", "text": "never claimed"})
    assert unclaimed(line.value, CLAIMS(line)) == {"text": "never claimed"}


def test_a_line_with_no_type_claims_only_the_common_paths():
    line = _line({"timestamp": "2026-01-01T00:00:00Z", "text": "never claimed"})
    assert unclaimed(line.value, CLAIMS(line)) == {"text": "never claimed"}


def test_what_a_line_leaves_unread_is_kept_and_said():
    session = Session("")
    line = _line({"type": "forgotten", "text": "never claimed"})
    session.account(line, CLAIMS(line))
    assert session.unread == [{"line": 1, "members": {"text": "never claimed"}}]
    assert [diagnostic.code for diagnostic in session.diagnostics] == ["W-JSON-UNREAD"]


def test_a_line_shown_whole_has_nothing_unread_and_the_others_keep_theirs():
    written = [json.dumps(value) for value in ({"type": "forgotten", "text": "first"},
                                                {"type": "unknown", "text": "shown whole"},
                                                {"type": "forgotten", "text": "third"})]
    text = "\n".join(written) + "\n"
    session = Session(text)
    lines, _ = read_lines(text)
    for line in session.accounted(lines, CLAIMS):
        if line.get("type") == "unknown":
            session.shown_whole(line)
    assert [entry["line"] for entry in session.unread] == [1, 3]
    assert [text[slice(*diagnostic.span)] for diagnostic in session.diagnostics] == [written[0], written[2]]


def test_an_agent_line_of_an_unknown_type_is_shown_whole_with_nothing_unread():
    text = "\n".join(json.dumps(value) for value in (
        {"type": "session", "version": 3, "id": "s1", "timestamp": "2026-03-10T14:02:11.407Z", "cwd": "/w"},
        {"type": "a_future_line", "id": "e1", "parentId": None, "timestamp": "2026-03-10T14:02:12.000Z",
         "note": "what a later pi writes"})) + "\n"
    transcript = parse(text, "pi")
    assert "unread" not in transcript.header
    assert [diagnostic.code for diagnostic in transcript.diagnostics] == ["W-JSON-UNKNOWN-ITEM"]
    assert "what a later pi writes" in transcript.messages[0].content


def test_an_agent_line_of_a_known_type_keeps_what_its_table_does_not_name():
    text = "\n".join(json.dumps(value) for value in (
        {"type": "session", "version": 3, "id": "s1", "timestamp": "2026-03-10T14:02:11.407Z", "cwd": "/w"},
        {"type": "label", "id": "e1", "parentId": None, "timestamp": "2026-03-10T14:02:12.000Z",
         "label": "a label pi shows in its tree"})) + "\n"
    transcript = parse(text, "pi")
    assert transcript.header["unread"] == [{"line": 2, "members": {"label": "a label pi shows in its tree"}}]
