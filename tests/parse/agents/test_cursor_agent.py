"""Cursor agent transcripts: what the user typed inside `<user_query>`, answers and calls, turn markers, and
detection against plain JSON Lines."""
from __future__ import annotations

import json

from tests.conftest import SAMPLES
from tests.parse.agents.test_claude_code import shown
from tests.parse.helpers import codes
from viewer import parse

SAMPLE = "cursor-agent-2026-aborted-error.jsonl"


def lines(*made: dict) -> str:
    return "".join(json.dumps(line) + "\n" for line in made)


def asked(text: str) -> dict:
    return {"role": "user", "message": {"content": [{"type": "text", "text": text}]}}


def said(*blocks: dict) -> dict:
    return {"role": "assistant", "message": {"content": list(blocks)}}


def test_every_sample_is_detected_as_a_cursor_transcript():
    for path in SAMPLES.glob("cursor-agent-*"):
        assert parse(path.read_bytes()).dialect == "cursor-agent", path.name


def test_what_the_user_typed_is_inside_user_query_and_what_cursor_added_is_context():
    transcript = parse(lines(asked("<timestamp>now</timestamp>\n<user_query>\nfix it\n</user_query>\n<user_info>"
                                   "OS linux</user_info>"), said({"type": "text", "text": "Done."})))
    assert [(m.role, m.content, m.intent) for m in transcript.messages] == [
        ("user", "fix it", None), ("user", "<timestamp>now</timestamp>\n\n<user_info>OS linux</user_info>", "context"),
        ("assistant", "Done.", None)]


def test_the_default_view_reads_like_the_chat_the_user_had():
    assert [text for how, text in shown(parse((SAMPLES / SAMPLE).read_bytes())) if how == "message"] == [
        "Fix the rounding in shop/rates.py so convert() rounds half up to cents, then run the tests.",
        "Fixed: `convert()` rounds half up to cents now and the 4 tests pass.",
        "Also add a test for negative amounts",
        "try again",
    ]


def test_an_aborted_turn_is_an_interruption_and_a_failed_one_a_hidden_error():
    transcript = parse((SAMPLES / SAMPLE).read_bytes())
    assert {"W-SESSION-INTERRUPTED", "W-API-ERROR"} <= set(codes(transcript))
    assert transcript.messages[-1].role == "system" and transcript.messages[-1].content.startswith("Connection")


def test_calls_have_no_ids_and_no_results_in_the_file():
    transcript = parse(lines(asked("<user_query>ls</user_query>"),
                             said({"type": "text", "text": "Listing."},
                                  {"type": "tool_use", "name": "Shell", "input": {"command": "ls"}}),
                             {"type": "turn_ended", "status": "success"}))
    assert [(m.channel, m.recipient, m.call_id) for m in transcript.messages[1:]] == [
        ("commentary", None, None), ("commentary", "functions.Shell", None)]
    assert transcript.pairs == ()


def test_lines_of_role_and_message_without_cursor_s_marks_are_plain_json():
    plain = lines({"role": "user", "message": {"content": "hi"}}, {"role": "assistant", "message": {"content": "x"}})
    assert parse(plain).dialect == "json"
    assert parse(lines(asked("<user_query>hi</user_query>"))).dialect == "cursor-agent"


def test_a_metadata_line_is_kept_in_the_header_and_a_member_no_table_names_unread():
    transcript = parse(lines({"type": "metadata", "model": "claude-4.5-sonnet"}, asked("<user_query>hi</user_query>"),
                             {"type": "turn_ended", "status": "success", "x_took_ms": 812}))
    assert transcript.header["metadata"] == [{"model": "claude-4.5-sonnet"}]
    assert transcript.header["unread"] == [{"line": 3, "members": {"x_took_ms": 812}}]


def test_a_cursor_transcript_s_calls_are_not_said_to_be_unanswered():
    """Cursor records no tool results: that its calls have none is the format, not a defect of the file."""
    transcript = parse((SAMPLES / SAMPLE).read_bytes())
    assert any(message.is_call for message in transcript.messages)
    assert not transcript.pairs
    assert "W-UNANSWERED-CALL" not in {diagnostic.code for diagnostic in transcript.diagnostics}
