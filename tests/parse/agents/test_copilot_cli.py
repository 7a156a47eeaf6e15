"""GitHub Copilot CLI session logs: the conversation from the events, reasoning once, calls paired with their
completions, injected context hidden, sub-agents as threads, the session's totals, and detection."""
from __future__ import annotations

import json

from tests.conftest import SAMPLES
from tests.parse.agents.test_claude_code import shown
from tests.parse.helpers import codes, only
from viewer import parse

SAMPLE = "copilot-cli-1.0-subagent-abort-rate-limit.jsonl"


def sample(name: str = SAMPLE):
    return parse((SAMPLES / name).read_bytes())


def events(*made: tuple[str, dict] | tuple[str, dict, dict]) -> str:
    lines = []
    for number, event in enumerate(made):
        kind, data, *extra = event
        lines.append({"type": kind, "data": data, "id": f"e{number}",
                      "timestamp": f"2026-08-03T10:15:{number:02d}.000Z",
                      "parentId": f"e{number - 1}" if number else None, **(extra[0] if extra else {})})
    return "".join(json.dumps(line) + "\n" for line in lines)


def said(content="", *requests, turn="0", **extra) -> tuple[str, dict]:
    return "assistant.message", {"messageId": "m", "content": content, "toolRequests": list(requests),
                                 "turnId": turn, **extra}


def request(call_id: str, name: str, **arguments) -> dict:
    return {"toolCallId": call_id, "name": name, "arguments": arguments, "type": "function"}


def completed(call_id: str, content: str = "ok", success: bool = True, **extra) -> tuple[str, dict]:
    return "tool.execution_complete", {"toolCallId": call_id, "success": success, "result": {"content": content},
                                       **extra}


def test_every_sample_is_detected_as_a_copilot_cli_session():
    for path in SAMPLES.glob("copilot-cli-*"):
        assert parse(path.read_bytes()).dialect == "copilot-cli", path.name


def test_the_default_view_reads_like_the_chat_the_user_had():
    assert shown(sample()) == [
        ("message", "Fix the rounding in shop/rates.py: convert() must round half up to cents. Then run the tests."),
        ("preamble", "I'll look at the rates module first."),
        ("marker", "used report_intent, view"),
        ("preamble", "`round()` rounds half to even. I'll switch to `Decimal.quantize` with `ROUND_HALF_UP`."),
        ("marker", "used edit, bash"),
        ("preamble", "The import is missing. I'll have a reviewer check the change while I fix it."),
        ("marker", "used task, edit"),
        ("message", 'Fixed: `convert()` now uses `quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)`, so 2.675 EUR '
                    "becomes 2.68. The missing import is added; the reviewer found nothing else."),
        ("message", "Also add a test for negative amounts"),
        ("marker", "used view"),
        ("message", "try again"),
    ]


def test_a_tool_event_first_is_a_copilot_session_and_an_event_stream_stays_one():
    cut_at_start = events(completed("t1"), ("assistant.turn_end", {"turnId": "0"}))
    assert parse(cut_at_start).dialect == "copilot-cli"
    stream = json.dumps({"type": "tool.result", "call_id": "k1", "name": "f", "output": "x"}) + "\n"
    assert parse(stream).dialect == "events"


def test_reasoning_written_as_an_event_and_on_the_message_is_read_once_and_opaque_reasoning_never_as_text():
    transcript = parse(events(("user.message", {"content": "go"}), ("assistant.turn_start", {"turnId": "0"}),
                              ("assistant.reasoning", {"reasoningId": "r", "content": "thinking it over"}),
                              said("done", reasoningText="thinking it over", reasoningOpaque="RW5jcnlwdGVk")))
    assert [(m.channel, m.content) for m in transcript.messages if m.role == "assistant"] == [
        ("analysis", "thinking it over"), ("final", "done")]
    assert not any(m.holds("RW5jcnlwdGVk") for m in transcript.messages)
    assert only(transcript, "W-JSON-OPAQUE-DATA")


def test_a_call_is_answered_by_its_completion_with_the_time_it_took_and_a_failure_is_an_error():
    transcript = parse(events(("user.message", {"content": "go"}),
                              said("", request("t1", "bash", command="ls"), request("t2", "view", path="a")),
                              ("tool.execution_start", {"toolCallId": "t1", "toolName": "bash"}),
                              ("tool.execution_start", {"toolCallId": "t2", "toolName": "view"}),
                              completed("t2", "contents"),
                              ("tool.execution_complete", {"toolCallId": "t1", "success": False,
                                                           "error": {"message": "exit 2", "code": "failure"}})))
    assert sorted((p.call, p.reply, p.by) for p in transcript.pairs) == [(1, 4, "call_id"), (2, 3, "call_id")]
    assert transcript.messages[3].meta.duration_ms == 1000  # from its start (line 3) to its completion (line 4)
    assert transcript.messages[4].content == "exit 2" and "W-TOOL-ERROR" in codes(transcript)
    assert [m.content for m in transcript.messages if m.role == "assistant"] == ['{"command": "ls"}',
                                                                                 '{"path": "a"}']


def test_a_cancelled_call_and_an_abort_are_interruptions():
    transcript = sample()
    assert codes(transcript).count("W-SESSION-INTERRUPTED") == 2


def test_what_the_model_got_with_the_prompt_and_what_the_cli_injected_are_hidden_context():
    transcript = parse(events(("system.message", {"content": "You are Copilot.", "role": "system"}),
                              ("user.message", {"content": "fix it", "transformedContent": "<reminder>x</reminder>\n"
                                                                                          "fix it"}),
                              ("user.message", {"content": "Use the pdf skill", "source": "skill-pdf"}),
                              ("skill.invoked", {"name": "pdf", "content": "# PDF skill"}),
                              ("system.notification", {"content": "<system_notification>done</system_notification>"})))
    assert [(m.role, m.intent) for m in transcript.messages] == [
        ("system", None), ("user", None), ("user", "context"), ("user", "context"), ("user", "context"),
        ("user", "context")]
    assert shown(transcript) == [("message", "fix it")]


def test_a_sub_agent_s_events_are_a_thread_under_the_call_that_started_it():
    transcript = sample()
    (thread,) = transcript.threads
    assert thread.id == "code-review-7c2e41" and transcript.messages[thread.call].recipient == "functions.task"
    inside = [m for m in transcript.messages if m.thread == thread.id]
    assert [m.role for m in inside] == ["assistant", "tool", "assistant"]


def test_older_sub_agent_events_name_their_call_by_parent_tool_call_id():
    transcript = parse(events(("user.message", {"content": "review"}), said("", request("task1", "task", prompt="p")),
                              said("looks fine", turn="0", parentToolCallId="task1"), completed("task1", "fine")))
    assert transcript.messages[2].thread == "task1"
    assert transcript.threads[0].call == 1


def test_the_session_s_totals_come_from_its_shutdown_else_from_the_messages():
    header = sample().header
    assert header["usage"] == {"input": 66415, "output": 897, "cache_read": 48960, "cache_write": 11876}
    assert header["models"] == ["claude-sonnet-4.5", "claude-haiku-4.5"] and header["premium_requests"] == 7
    assert header["cwd"] == "/home/ana/src/shop" and header["version"] == "1.0.77"
    cut = sample("copilot-cli-broken-cut-short.jsonl").header
    assert cut["usage"]["output"] == sum(m.meta.usage.output for m in sample("copilot-cli-broken-cut-short.jsonl")
                                         .messages if m.meta and m.meta.usage)


def test_a_tool_the_user_ran_has_no_assistant_request_so_its_start_is_the_call():
    transcript = parse(events(("tool.user_requested", {"toolCallId": "u1", "toolName": "bash"}),
                              ("tool.execution_start", {"toolCallId": "u1", "toolName": "bash",
                                                        "arguments": {"command": "ls"}}),
                              completed("u1", "a b")))
    assert [(m.role, m.call_id) for m in transcript.messages] == [("assistant", "u1"), ("tool", "u1")]
    assert len(transcript.pairs) == 1


def test_an_event_of_an_unknown_type_is_kept_hidden_with_a_diagnostic():
    transcript = parse(events(("user.message", {"content": "hi"}), ("session.holograms", {"secret": "x"})))
    assert transcript.messages[1].role == "unknown" and "W-JSON-UNKNOWN-ITEM" in codes(transcript)
    assert shown(transcript) == [("message", "hi")]
