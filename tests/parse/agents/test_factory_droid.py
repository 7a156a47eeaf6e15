"""Factory Droid sessions: told apart from Claude Code's both ways, reminders hidden, tool results paired, a
compaction, and a sub-agent's session joined after its parent's as a thread under its Task call."""
from __future__ import annotations

import json

from tests.conftest import SAMPLES
from tests.parse.agents.test_claude_code import assistant as claude_assistant, log, shown, user as claude_user
from tests.parse.helpers import codes, only
from viewer import parse

SAMPLE = "factory-droid-v2-task-subagent-compaction.jsonl"
START = {"type": "session_start", "id": "s1", "title": "t", "version": 2, "cwd": "/w"}


def sample(name: str = SAMPLE):
    return parse((SAMPLES / name).read_bytes())


def message(id: str, role: str, *content: dict, parent: str | None = None) -> dict:
    made = {"type": "message", "id": id, "timestamp": "2026-03-21T09:14:02.118Z",
            "message": {"role": role, "content": list(content)}}
    return {**made, "parentId": parent} if parent else made


def text(said: str) -> dict:
    return {"type": "text", "text": said}


def test_every_sample_is_detected_as_a_droid_session():
    for path in SAMPLES.glob("factory-droid-*"):
        assert parse(path.read_bytes()).dialect == "factory-droid", path.name


def test_the_default_view_reads_like_the_chat_the_user_had():
    assert [text for how, text in shown(sample()) if how != "marker"] == [
        "vat() in shop/rates.py returns 20.099999999999998 for 100.5 - fix the rounding",
        "I'll look at the rates module first.",
        "The rate is a float. I'll switch to Decimal and round half-up to cents.",
        "One test compares against a float. Before changing it, I'll have a sub-agent find every caller of vat().",
        "Fixed: `vat()` now computes with `Decimal` and rounds half-up to cents, so `vat(100.5)` is "
        "`Decimal('20.10')`. Both callers (cart.py, invoice.py) accept the new type, and the test now compares with "
        "a Decimal.",
    ]


def test_a_droid_session_is_not_read_as_claude_code_and_a_claude_code_session_not_as_droid():
    use = {"type": "tool_use", "id": "t1", "name": "Read", "input": {}}
    assert parse(log(START, message("m1", "user", text("hi")))).dialect == "factory-droid"
    assert parse(log(message("m2", "assistant", use))).dialect == "factory-droid"
    assert parse(log(claude_user("u1", None, "hi"))).dialect == "claude-code"
    assert parse(log(claude_assistant("a1", None, "m1", use))).dialect == "claude-code"
    assert parse(log(message("m3", "user", text("hi")))).dialect != "factory-droid"  # nothing only Droid writes


def test_a_reminder_droid_wrote_into_the_user_s_turn_is_hidden_context():
    transcript = parse(log(START, message("m1", "user", text("<system-reminder>cwd /w</system-reminder>\nfix it"))))
    assert [(m.content, m.intent) for m in transcript.messages] == [
        ("fix it", None), ("<system-reminder>cwd /w</system-reminder>", "context")]


def test_tool_results_are_replies_paired_by_id_and_an_error_says_so():
    transcript = sample()
    assert len(transcript.pairs) == 6
    assert only(transcript, "W-TOOL-ERROR").message_index == 10


def test_a_compaction_is_hidden_and_reported():
    transcript = sample()
    summary = transcript.messages[only(transcript, "W-SESSION-COMPACTED").message_index]
    assert summary.intent == "context" and summary.content.startswith("vat() now uses Decimal")


def test_a_sub_agent_s_session_joined_after_is_a_thread_under_its_task_call():
    transcript = sample()
    (thread,) = transcript.threads
    assert thread.id == "9a1e7b44-2c5d-4f60-8b19-d3e4f5a6b7c8"
    assert transcript.messages[thread.call].call_id == "toolu_01DroidTask0004"
    assert [m.role for m in transcript.messages if m.thread == thread.id] == ["user", "assistant", "assistant",
                                                                             "tool", "assistant"]
    assert "W-SESSION-THREAD" not in codes(transcript)


def test_a_sub_agent_s_session_read_alone_is_its_own_conversation():
    lines = (SAMPLES / SAMPLE).read_text().splitlines()
    alone = parse("\n".join(lines[lines.index(next(line for line in lines[1:] if '"session_start"' in line)):]) + "\n")
    assert alone.threads == () and alone.header["calling_session_id"] == "3f6c2a10-8d4e-4b7a-9c21-5e0f7a1b2c3d"
    assert json.loads(lines[0])["type"] == "session_start"
