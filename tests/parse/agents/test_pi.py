"""Pi sessions: told apart from Claude Code's, the id/parentId tree followed to the last line as pi does, the
older linear layout, a response's reasoning, calls and preamble, the user's `!` commands, injected context and
bookkeeping, interruptions and errors, and the cost pi priced each response at."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from tests.conftest import SAMPLES
from tests.parse.agents.default_view import CANARY, default_view_json
from tests.parse.agents.test_claude_code import shown
from tests.parse.helpers import codes, only
from viewer import parse
from viewer.parse import detect

HEADER = {"type": "session", "version": 3, "id": "6b0f2c9e-41d7-4a8e-9e53-8c1d2f7a90b4",
          "timestamp": "2026-03-10T14:02:11.407Z", "cwd": "/w"}


def session(*entries: dict, header: dict | None = HEADER) -> str:
    lines = ([header] if header else []) + list(entries)
    return "".join(json.dumps(line) + "\n" for line in lines)


def entry(id: str, parent: str | None, kind: str = "message", **fields) -> dict:
    return {"type": kind, "id": id, "parentId": parent, "timestamp": "2026-03-10T14:02:29.607Z", **fields}


def user(id, parent, text):
    return entry(id, parent, message={"role": "user", "content": [{"type": "text", "text": text}],
                                      "timestamp": 1773151349607})


def assistant(id, parent, *content, **extra):
    return entry(id, parent, message={"role": "assistant", "content": list(content), "api": "anthropic-messages",
                                      "provider": "anthropic", "model": "claude-opus-4-6",
                                      "usage": {"input": 3, "output": 5, "cacheRead": 7, "cacheWrite": 11,
                                                "totalTokens": 26, "cost": {"total": 0.25}},
                                      "stopReason": "stop", **extra})


def text(value):
    return {"type": "text", "text": value}


def test_every_sample_is_detected_as_pi():
    for path in SAMPLES.glob("pi-*"):
        assert parse(path.read_bytes()).dialect == "pi", path.name


def test_a_pi_session_and_a_claude_code_session_are_told_apart_both_ways():
    for path in SAMPLES.glob("claude-code-*.jsonl"):
        assert detect(path.read_text()) == "claude-code", path.name
    assert detect(session(user("a", None, "hi"))) == "pi"
    assert detect(session(user("a", None, "hi"), header=None)) == "pi"  # its header line lost


def test_the_view_follows_the_branch_that_ends_at_the_last_line_and_keeps_the_other_aside():
    transcript = parse((SAMPLES / "pi-0.58-session-tree-branches.jsonl").read_bytes())
    left = [m for m in transcript.messages if m.aside]
    assert [m.content[:20] for m in left] == ['{"command": "npm tes', "> budget-app@0.3.0 t", "The report tests pas"]
    fork = only(transcript, "W-SESSION-FORK")
    assert fork.message_index == left[0].index
    assert transcript.header["forks"] == [[7, [8, 11]]]
    assert transcript.messages[11].parent == 7 and transcript.messages[11].name == "branch summary"
    assert shown(transcript)[-1] == ("message", "fix(report): stop subtracting refunds twice in monthlyTotal")


def test_a_branch_that_starts_with_bookkeeping_still_hangs_off_the_message_above_it():
    transcript = parse(session(user("a", None, "first"), assistant("b", "a", text("one")),
                               entry("m", "a", "model_change", provider="openai", modelId="gpt-5.2"),
                               assistant("c", "m", text("two")), entry("l", "c", "label", targetId="a", label="x")))
    assert [m.parent for m in transcript.messages] == [None, 0, 0]
    assert [m.aside for m in transcript.messages] == [False, True, False]
    assert shown(transcript) == [("message", "first"), ("message", "two")]


def test_the_linear_layout_chains_each_entry_to_the_one_before():
    transcript = parse((SAMPLES / "pi-0.2x-session-linear.jsonl").read_bytes())
    assert [m.parent for m in transcript.messages] == [None, 0, 1, 2, 3]
    assert not any(m.aside for m in transcript.messages) and "forks" not in transcript.header
    assert shown(transcript)[0] == ("message", "why does my zshrc print 'command not found: pyenv'?")


def test_text_before_a_tool_call_is_a_preamble_and_reasoning_and_signatures_are_hidden():
    transcript = parse(session(
        user("a", None, "Fix it"),
        assistant("b", "a", {"type": "thinking", "thinking": "secret plan", "thinkingSignature": "sig"},
                  text("Reading it."), {"type": "toolCall", "id": "t1", "name": "read",
                                        "arguments": {"path": "a.ts"}}, stopReason="toolUse"),
        entry("c", "b", message={"role": "toolResult", "toolCallId": "t1", "toolName": "read",
                                 "content": [text("file text")], "isError": False}),
        assistant("d", "c", text("Done."))))
    assert shown(transcript) == [("message", "Fix it"), ("preamble", "Reading it."), ("marker", "used read"),
                                 ("message", "Done.")]
    assert transcript.messages[1].channel == "analysis" and "W-JSON-OPAQUE-DATA" in codes(transcript)
    assert [(p.call, p.reply, p.by) for p in transcript.pairs] == [(3, 4, "call_id")]


def test_usage_and_cost_are_each_response_s_and_totalled():
    transcript = parse(session(user("a", None, "hi"), assistant("b", "a", text("hello"))))
    meta = transcript.messages[1].meta
    assert (meta.model, meta.stop_reason) == ("claude-opus-4-6", "stop")
    assert meta.usage.to_json() == {"input": 3, "output": 5, "cache_read": 7, "cache_write": 11, "cost": 0.25}
    assert transcript.header["responses"] == 1 and transcript.header["models"] == ["claude-opus-4-6"]


def test_a_command_the_user_ran_is_shown_as_typed_and_its_output_hidden():
    transcript = parse(session(user("a", None, "hi"), entry("b", "a", message={
        "role": "bashExecution", "command": "git diff --stat", "output": "secret output", "exitCode": 1,
        "cancelled": False, "truncated": False})))
    assert shown(transcript) == [("message", "hi"), ("message", "!git diff --stat")]
    assert transcript.messages[2].intent == "context" and "exit code 1" in transcript.messages[2].content


def test_an_expanded_skill_is_context_and_the_text_after_it_typed():
    transcript = parse(session(user("a", None, '<skill name="review" location="/s">\nReview rules\n</skill>\n\n'
                                               "check src/")))
    assert [(m.intent, m.content) for m in transcript.messages] == [
        ("context", '<skill name="review" location="/s">\nReview rules\n</skill>'), (None, "check src/")]


@pytest.mark.parametrize("stop, code", [("aborted", "W-SESSION-INTERRUPTED"), ("error", "W-API-ERROR")])
def test_an_aborted_or_failed_response_is_reported_on_it(stop, code):
    transcript = parse(session(user("a", None, "hi"), assistant("b", "a", text("Part"), stopReason=stop,
                                                                errorMessage="overloaded")))
    assert only(transcript, code).message_index == 1


def test_compaction_branch_summaries_and_extension_messages_are_hidden_context():
    transcript = parse(session(
        user("a", None, "hi"), entry("b", "a", "compaction", summary="sum", firstKeptEntryId="a", tokensBefore=900),
        entry("c", "b", "custom_message", customType="guard", content="note", display=False),
        entry("d", "c", "session_info", name="My session")))
    assert [m.intent for m in transcript.messages] == [None, "context", "context"]
    assert "W-SESSION-COMPACTED" in codes(transcript) and transcript.header["title"] == "My session"
    assert transcript.frame[-1].kind == "event"


def test_a_failed_tool_is_reported_and_an_unknown_line_is_hidden_with_a_diagnostic():
    transcript = parse(session(user("a", None, "hi"), entry("b", "a", message={
        "role": "toolResult", "toolCallId": "t9", "toolName": "bash", "content": [text("boom")], "isError": True}),
        entry("c", "b", "teleport", data="secret")))
    assert "W-TOOL-ERROR" in codes(transcript) and "W-JSON-UNKNOWN-ITEM" in codes(transcript)
    assert "secret" not in str(shown(transcript))


def test_a_session_cut_mid_line_keeps_what_came_before():
    transcript = parse((SAMPLES / "pi-broken-cut-edit.jsonl").read_bytes())
    assert codes(transcript)[-1] == "E-STREAM-TRUNCATED" and shown(transcript)[0][0] == "message"


def test_no_canary_of_a_sample_reaches_the_default_view():
    for path in SAMPLES.glob("pi-*"):
        assert "CANARY" not in str(shown(parse(path.read_bytes()))), path.name


PI_KINDS = ("typed", "answer", "thinking", "call", "failed-call", "shell", "skill", "custom", "compaction",
            "branch", "bookkeeping", "aborted", "unknown", "redacted")


def _pi_entries(kind: str, number: int, parent: str) -> list[dict]:
    """One event of a session with a canary in each hidden part, chained under `parent`; its first id is
    `e<number>`."""
    me = f"e{number}"
    if kind == "typed":
        return [user(me, parent, f"SHOWN-{number}")]
    if kind == "answer":
        return [assistant(me, parent, text(f"SHOWN-{number}"))]
    if kind == "thinking":
        return [assistant(me, parent, {"type": "thinking", "thinking": CANARY, "thinkingSignature": CANARY},
                          {"type": "text", "text": f"SHOWN-{number}", "textSignature": CANARY})]
    if kind in ("call", "failed-call"):
        return [assistant(me, parent, text(f"SHOWN-{number}"),
                          {"type": "toolCall", "id": f"t{number}", "name": "bash", "arguments": {"command": f"make\n{CANARY}"}}),
                entry(f"{me}r", me, message={"role": "toolResult", "toolCallId": f"t{number}", "toolName": "bash",
                                             "content": [text(CANARY)], "details": {"diff": CANARY},
                                             "isError": kind == "failed-call"})]
    if kind == "shell":
        return [entry(me, parent, message={"role": "bashExecution", "command": f"SHOWN-{number}",
                                           "output": CANARY, "exitCode": 0})]
    if kind == "skill":
        return [user(me, parent, f"<skill name=\"s\" location=\"/s\">\n{CANARY}\n</skill>\n\nSHOWN-{number}")]
    if kind == "custom":
        return [entry(me, parent, "custom_message", customType="x", content=CANARY, display=False),
                entry(f"{me}c", me, message={"role": "custom", "customType": "x", "content": CANARY})]
    if kind == "compaction":
        return [entry(me, parent, "compaction", summary=CANARY, firstKeptEntryId=parent, tokensBefore=9)]
    if kind == "branch":  # a /tree jump back to the conversation's start, with a summary of the branch left
        return [entry(me, "e0", "branch_summary", fromId=parent, summary=CANARY)]
    if kind == "bookkeeping":
        return [entry(me, parent, "model_change", provider="p", modelId=CANARY),
                entry(f"{me}l", me, "label", targetId=parent, label=CANARY),
                entry(f"{me}x", f"{me}l", "custom", customType="state", data=CANARY)]
    if kind == "aborted":
        return [assistant(me, parent, {"type": "thinking", "thinking": CANARY}, text(f"SHOWN-{number}"),
                          stopReason="aborted", errorMessage=CANARY)]
    if kind == "redacted":
        return [assistant(me, parent, {"type": "thinking", "thinking": "[Reasoning redacted]", "redacted": True,
                                       "thinkingSignature": CANARY})]
    return [entry(me, parent, "teleport", data=CANARY), entry(f"{me}u", me, message={"role": "oracle",
                                                                                     "content": CANARY})]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(PI_KINDS), min_size=1, max_size=10))
def test_no_hidden_part_of_a_pi_session_reaches_the_default_view(kinds):
    entries: list[dict] = []
    parent = None
    for number, kind in enumerate(["typed", *kinds]):
        made = _pi_entries(kind, number, parent)
        entries += made
        parent = made[-1]["id"]
    shown_json = default_view_json(session(*entries), "pi")
    assert CANARY not in shown_json
    assert "SHOWN-0" in shown_json
