"""Qwen Code sessions: told apart from Claude Code's both ways, response fragments merged, tool results paired,
injected parts hidden, the parentUuid tree, sub-agent threads and system records."""
from __future__ import annotations

from tests.conftest import SAMPLES
from tests.parse.agents.test_claude_code import assistant as claude_assistant, log, shown, user as claude_user
from tests.parse.helpers import codes, only
from viewer import parse

SAMPLE = "qwen-code-0.17-subagent-cancelled.jsonl"


def sample(name: str = SAMPLE):
    return parse((SAMPLES / name).read_bytes())


def record(uuid: str, parent: str | None, kind: str, **extra) -> dict:
    return {"uuid": uuid, "parentUuid": parent, "sessionId": "s", "timestamp": "2026-08-03T19:20:14.662Z",
            "type": kind, "cwd": "/w", "version": "0.17.1", **extra}


def asked(uuid, parent, *texts, **extra) -> dict:
    return record(uuid, parent, "user", message={"role": "user", "parts": [{"text": text} for text in texts]},
                  **extra)


def answered(uuid, parent, *parts, **extra) -> dict:
    return record(uuid, parent, "assistant", message={"role": "model", "parts": list(parts)}, **extra)


def result(uuid, parent, call_id, output, status="success") -> dict:
    response = {"functionResponse": {"id": call_id, "name": "run_shell_command", "response": {"output": output}}}
    return record(uuid, parent, "tool_result", message={"role": "user", "parts": [response]},
                  toolCallResult={"callId": call_id, "status": status})


def shell(call_id: str, command: str = "ls") -> dict:
    return {"functionCall": {"id": call_id, "name": "run_shell_command", "args": {"command": command}}}


def test_every_sample_is_detected_as_a_qwen_code_session():
    for path in SAMPLES.glob("qwen-code-*"):
        assert parse(path.read_bytes()).dialect == "qwen-code", path.name


def test_the_default_view_reads_like_the_chat_the_user_had():
    assert shown(sample()) == [
        ("message", "convert() in shop/rates.py must round half up to cents. Fix it and run the tests."),
        ("preamble", "I'll read the rates module first."),
        ("marker", "used read_file"),
        ("preamble", "`round()` rounds half to even; I'll import `ROUND_HALF_UP` and use `Decimal.quantize`."),
        ("marker", "used edit, run_shell_command, task"),
        ("message", "Fixed: `convert()` now rounds half up to cents (2.675 EUR becomes 2.68) and the 4 tests pass."),
        ("message", "Also add a test for negative amounts"),
        ("marker", "used write_file"),
        ("message", "/stats"),
    ]


def test_a_qwen_line_is_not_read_as_claude_code_and_a_claude_code_line_not_as_qwen():
    assert parse(log(asked("u1", None, "hi"))).dialect == "qwen-code"
    assert parse(log(answered("a1", None, {"text": "hello"}))).dialect == "qwen-code"
    assert parse(log(record("y1", None, "system", subtype="custom_title",
                            systemPayload={"customTitle": "t"}))).dialect == "qwen-code"
    assert parse(log(claude_user("u1", None, "hi"))).dialect == "claude-code"
    assert parse(log(claude_assistant("a1", None, "m1", {"type": "text", "text": "hello"}))).dialect == "claude-code"
    assert parse(log(record("y1", None, "system", subtype="informational", content="x"))).dialect == "claude-code"


def test_fragments_of_one_response_share_its_uuid_and_are_one_turn_with_its_usage_once():
    usage = {"promptTokenCount": 1000, "candidatesTokenCount": 40, "thoughtsTokenCount": 10,
             "cachedContentTokenCount": 900}
    transcript = parse(log(asked("u1", None, "list files"),
                           answered("a1", "u1", {"text": "thinking", "thought": True}),
                           answered("a1", "u1", {"text": "Let me look."}, shell("c1"), usageMetadata=usage),
                           result("r1", "a1", "c1", "a b")))
    assert [(m.turn, m.channel) for m in transcript.messages[1:4]] == [(1, "analysis"), (1, "commentary"),
                                                                       (1, "commentary")]
    assert [m.meta.usage for m in transcript.messages[1:3]] == [None, None]
    assert (transcript.messages[3].meta.usage.input, transcript.messages[3].meta.usage.output) == (100, 50)
    assert transcript.header["usage"]["cache_read"] == 900 and transcript.header["responses"] == 1


def test_a_tool_result_is_the_reply_to_its_call_and_a_cancelled_or_failed_one_says_so():
    transcript = parse(log(asked("u1", None, "go"), answered("a1", "u1", shell("c1"), shell("c2", "pwd")),
                           result("r1", "a1", "c1", "[Operation Cancelled]", "cancelled"),
                           result("r2", "r1", "c2", "boom", "error")))
    assert sorted((p.call, p.reply) for p in transcript.pairs) == [(1, 3), (2, 4)]
    assert transcript.messages[3].content == "[Operation Cancelled]"
    assert {"W-SESSION-INTERRUPTED", "W-TOOL-ERROR"} <= set(codes(transcript))


def test_what_the_cli_wrote_into_the_user_s_turn_is_hidden_context():
    transcript = parse(log(asked("u1", None, "fix it", "<system-reminder>cwd /w</system-reminder>"),
                           asked("u2", "u1", "Goal: keep going", provenance="goal_runtime")))
    assert [m.intent for m in transcript.messages] == [None, "context", "context"]
    assert shown(transcript) == [("message", "fix it")]


def test_a_branch_the_session_left_is_aside():
    transcript = parse(log(asked("u1", None, "hi"), answered("a1", "u1", {"text": "one"}),
                           answered("a2", "u1", {"text": "two"}), asked("u2", "a2", "thanks")))
    assert [m.aside for m in transcript.messages] == [False, True, False, False]
    assert only(transcript, "W-SESSION-FORK").message_index == 1


def test_a_title_record_between_two_messages_does_not_break_the_chain():
    transcript = parse(log(asked("u1", None, "hi"), answered("a1", "u1", {"text": "hello"}),
                           record("t1", "a1", "system", subtype="custom_title",
                                  systemPayload={"customTitle": "Greeting"}),
                           asked("u2", "t1", "bye")))
    assert transcript.messages[2].parent == 1 and transcript.header["session_title"] == "Greeting"


def test_a_sub_agent_s_side_chain_is_a_thread_under_its_call():
    transcript = sample()
    (thread,) = transcript.threads
    assert thread.id == "general-purpose-3f1a"
    assert transcript.messages[thread.call].recipient == "functions.task"
    ready = parse(log(asked("u1", None, "go"), answered("a1", "u1", shell("c1")),
                      record("y1", "a1", "system", subtype="agent_session_ready", agentId="ag",
                             systemPayload={"callId": "c1", "subagentSessionReady": True}),
                      {**asked("s1", None, "do the part"), "isSidechain": True, "agentId": "ag"},
                      result("r1", "a1", "c1", "done")))
    assert ready.threads[0].call == 1 and ready.messages[2].thread == "ag"


def test_a_compression_is_a_hidden_system_record_and_a_slash_command_is_what_the_user_typed():
    transcript = parse(log(asked("u1", None, "hi"),
                           record("y1", "u1", "system", subtype="chat_compression",
                                  systemPayload={"info": {"originalTokenCount": 900}, "compressedHistory": []}),
                           record("y2", "y1", "system", subtype="slash_command",
                                  systemPayload={"phase": "invocation", "rawCommand": "/compress"})))
    assert [(m.role, m.content) for m in transcript.messages][1:] == [
        ("system", '{"originalTokenCount": 900}'), ("user", "/compress")]
    assert only(transcript, "W-SESSION-COMPACTED").message_index == 1
