"""Kimi Code wires (flat records) and the Python Kimi CLI's wires (event envelopes): told apart from each other
and from the other agents' logs, typed input shown and injections hidden, steps as responses with their usage,
calls paired, streamed arguments joined, interruptions, and sub-agents (in their own wire, or nested as threads)."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from tests.conftest import SAMPLES
from tests.parse.agents.default_view import CANARY, default_view_json
from tests.parse.agents.test_claude_code import shown
from tests.parse.helpers import codes, only
from viewer import parse
from viewer.parse.decode import decode
from viewer.parse import detect

METADATA = {"type": "metadata", "protocol_version": "1.5", "created_at": 1787223600000}


def wire(*records: dict) -> str:
    return "".join(json.dumps(record, separators=(",", ":")) + "\n" for record in (METADATA, *records))


def record(kind: str, **fields) -> dict:
    return {"type": kind, "agentId": "main", **fields, "time": 1787223612000}


def context(role: str, text: str, **origin) -> dict:
    return record("context.append_message", message={"role": role, "content": [{"type": "text", "text": text}],
                                                     "toolCalls": [], "origin": origin or {"kind": "user"}})


def loop(kind: str, step: str = "s1", **fields) -> dict:
    event = {"type": kind, "uuid": f"{kind}-{step}", "turnId": "0", "step": 1, **fields}
    if kind != "step.begin":
        event.setdefault("stepUuid", step)
    if kind == "step.begin":
        event["uuid"] = step
    return record("context.append_loop_event", event=event)


def legacy(*events: tuple[str, dict]) -> str:
    lines = [{"type": "metadata", "protocol_version": "1.10"}]
    lines += [{"timestamp": 1783050000.0 + at, "message": {"type": kind, "payload": payload}}
              for at, (kind, payload) in enumerate(events)]
    return "".join(json.dumps(line) + "\n" for line in lines)


@pytest.mark.parametrize("pattern, dialect", [("kimi-code-*", "kimi-code"), ("kimi-cli-*", "kimi-cli")])
def test_every_sample_is_detected_as_its_wire(pattern, dialect):
    paths = sorted(SAMPLES.glob(pattern))
    assert paths
    for path in paths:
        assert parse(path.read_bytes()).dialect == dialect, path.name


def test_the_two_wires_are_told_apart_from_each_other_and_from_other_logs():
    assert detect(wire(context("user", "hi"))) == "kimi-code"
    assert detect(wire(context("user", "hi")).split("\n", 1)[1]) == "kimi-code"  # an older wire, no metadata
    assert detect(legacy(("TurnBegin", {"user_input": "hi"}))) == "kimi-cli"
    assert detect(legacy(("TurnBegin", {"user_input": "hi"})).split("\n", 1)[1]) == "kimi-cli"
    for path in (*SAMPLES.glob("codex-*"), *SAMPLES.glob("events-*"), *SAMPLES.glob("claude-code-*")):
        assert detect(decode(path.read_bytes())[0]) not in ("kimi-code", "kimi-cli"), path.name


def test_a_wire_reads_as_the_chat_the_user_had():
    transcript = parse((SAMPLES / "kimi-code-0.38-main-wire.jsonl").read_bytes())
    assert shown(transcript) == [
        ("message", "budget-cli crashes on an empty CSV. Find out why and fix it."),
        ("preamble", "Let me read the summary code."), ("marker", "used Read, Agent, Edit"),
        ("message", "Understood, I'll return a plain 0 for an empty"),
        ("message", "just return 0 and add a test for the empty file"), ("marker", "used Edit, Bash"),
        ("message", "`average_spend` now returns 0 for an empty file. The remaining failure is an existing test "
                    "that expects `None` for an empty CSV in `load_totals`; that is a separate code path, so I left "
                    "it unchanged.")]
    assert transcript.messages[0].role == "system"
    assert only(transcript, "W-SESSION-INTERRUPTED").message_index == 11
    assert transcript.header["sub_agents"] == {"agent-0": "tool_Pq6Zr1Hs8Uv3Wx5Ya2Bc7De4"}


def test_an_injection_and_a_reminder_are_hidden_context_and_a_shell_command_is_typed():
    transcript = parse(wire(context("user", "hi"), context("user", "note", kind="injection", variant="plan_mode"),
                            context("user", "<system-reminder>\nx\n</system-reminder>"),
                            context("user", "ls", kind="shell_command", phase="input"),
                            context("user", "a.txt", kind="shell_command", phase="output")))
    assert [m.intent for m in transcript.messages] == [None, "context", "context", None, "context"]
    assert transcript.messages[1].name == "injection:plan_mode"


def test_a_step_s_usage_model_and_id_go_on_its_last_message():
    transcript = parse(wire(
        context("user", "hi"), record("llm.request", model="kimi-k2.6"), loop("step.begin"),
        loop("content.part", part={"type": "think", "think": "hmm"}), loop("content.part", part={"type": "text",
                                                                                                "text": "hello"}),
        loop("step.end", uuid="s1", finishReason="end_turn", messageId="chatcmpl-1",
             usage={"inputOther": 5, "output": 2, "inputCacheRead": 7, "inputCacheCreation": 1}),
        record("usage.record", model="kimi-k2.6", usage={}, usageScope="turn")))
    thinking, answer = transcript.messages[1:]
    assert thinking.meta.usage is None and answer.meta.usage.to_json() == {"input": 5, "output": 2,
                                                                           "cache_read": 7, "cache_write": 1}
    assert (answer.meta.model, answer.meta.response, answer.meta.stop_reason) == ("kimi-k2.6", "chatcmpl-1",
                                                                                  "end_turn")
    assert transcript.header["responses"] == 1


def test_a_failed_tool_and_a_failed_turn_are_reported():
    transcript = parse(wire(
        context("user", "hi"), loop("step.begin"),
        loop("tool.call", toolCallId="t1", name="Bash", args={"command": "x"}),
        loop("tool.result", toolCallId="t1", parentUuid="tool.call-s1", result={"output": "boom", "isError": True}),
        record("turn.ended", turnId=0, reason="failed", error={"code": "x", "message": "quota"})))
    assert "W-TOOL-ERROR" in codes(transcript) and "W-API-ERROR" in codes(transcript)
    assert [(p.call, p.reply) for p in transcript.pairs] == [(1, 2)]


def test_a_sub_agent_s_own_wire_reads_as_its_conversation():
    transcript = parse((SAMPLES / "kimi-code-0.38-subagent-wire.jsonl").read_bytes())
    assert transcript.header["agent_id"] == "agent-0" and transcript.header["profile"] == "explore"
    assert shown(transcript)[-1] == ("message", "budget/summary.py:3 is the only division by len(rows).")


def test_a_kimi_cli_wire_joins_streamed_arguments_and_nests_sub_agents_in_a_thread():
    transcript = parse((SAMPLES / "kimi-cli-1.49-wire-subagent.jsonl").read_bytes())
    call = next(m for m in transcript.messages if m.recipient == "functions.Shell")
    assert json.loads(call.content) == {"command": "grep -n split sync.py CANARY-ARGS-KIMICLI-2a7d"}
    (thread,) = transcript.threads
    assert (thread.id, transcript.messages[thread.call].recipient) == ("a1b2c3d4", "functions.Agent")
    assert [m.thread for m in transcript.messages if m.thread] == ["a1b2c3d4"]
    assert shown(transcript)[-1] == ("message", "Changing `split()` to")
    assert only(transcript, "W-SESSION-INTERRUPTED").message_index == len(transcript.messages) - 1


def test_a_kimi_cli_step_s_usage_is_its_last_status_update():
    transcript = parse(legacy(("TurnBegin", {"user_input": "hi"}), ("StepBegin", {"n": 1}),
                              ("ContentPart", {"type": "text", "text": "hello"}),
                              ("StatusUpdate", {"token_usage": {"input_other": 3, "output": 1, "input_cache_read": 9,
                                                                "input_cache_creation": 0}, "message_id": "m1"})))
    assert transcript.messages[1].meta.usage.to_json() == {"input": 3, "output": 1, "cache_read": 9,
                                                           "cache_write": 0}


@pytest.mark.parametrize("name", ["kimi-code-broken-wire-cut.jsonl", "kimi-cli-broken-wire-cut.jsonl"])
def test_a_wire_cut_mid_line_keeps_what_came_before(name):
    transcript = parse((SAMPLES / name).read_bytes())
    assert codes(transcript)[-1] == "E-STREAM-TRUNCATED" and shown(transcript)[0][0] == "message"


def test_unknown_records_and_events_are_hidden_with_a_diagnostic():
    transcript = parse(wire(context("user", "hi"), {"type": "telepathy", "text": "secret"},
                            loop("mind.read", text="secret")))
    assert codes(transcript).count("W-JSON-UNKNOWN-ITEM") == 2 and "secret" not in str(shown(transcript))
    legacy_transcript = parse(legacy(("TurnBegin", {"user_input": "hi"}), ("Telepathy", {"text": "secret"})))
    assert "W-JSON-UNKNOWN-ITEM" in codes(legacy_transcript) and "secret" not in str(shown(legacy_transcript))


def test_no_canary_of_a_sample_reaches_the_default_view():
    for path in SAMPLES.glob("kimi-*"):
        assert "CANARY" not in str(shown(parse(path.read_bytes()))), path.name


CODE_KINDS = ("typed", "injection", "reminder", "answer", "think", "call", "failed", "compaction", "config",
              "cancel", "unknown", "task")


def _code_records(kind: str, number: int) -> list[dict]:
    step = f"s{number}"
    if kind == "typed":
        return [record("turn.prompt", input=[{"type": "text", "text": f"SHOWN-{number}"}], origin={"kind": "user"}),
                context("user", f"SHOWN-{number}")]
    if kind == "injection":
        return [context("user", CANARY, kind="injection", variant="agents_md"),
                context("user", CANARY, kind="compaction_summary"), context("system", CANARY)]
    if kind == "reminder":
        return [context("user", f"<system-reminder>{CANARY}</system-reminder>", kind="user")]
    if kind in ("answer", "think", "call", "failed", "cancel"):
        events = [loop("step.begin", step)]
        if kind == "think":
            events.append(loop("content.part", step, part={"type": "think", "think": CANARY, "encrypted": CANARY}))
        events.append(loop("content.part", step, part={"type": "text", "text": f"SHOWN-{number}"}))
        if kind in ("call", "failed"):
            events += [loop("tool.call", step, toolCallId=f"t{number}", name="Bash", args={"command": f"make\n{CANARY}"}),
                       loop("tool.result", step, toolCallId=f"t{number}",
                            result={"output": CANARY, "note": CANARY, "isError": kind == "failed"})]
        if kind == "cancel":
            events.append(record("turn.cancel", turnId=0, target="active", reason="user_cancelled"))
        events.append(loop("step.end", step, uuid=step, finishReason="interrupted" if kind == "cancel" else "end_turn",
                           usage={"inputOther": 1, "output": 1}))
        events.append(record("usage.record", model="kimi-k2.6", usage={}))
        return events
    if kind == "compaction":
        return [record("context.apply_compaction", summary=CANARY, compactedCount=3)]
    if kind == "config":
        return [record("config.update", systemPrompt=CANARY, modelAlias="k"), record("llm.request", model="m",
                                                                                     systemPromptHash=CANARY)]
    if kind == "task":
        return [record("task.started", info={"kind": "agent", "agentId": "agent-0", "parentToolCallId": "t0",
                                             "description": CANARY})]
    return [{"type": "telepathy", "text": CANARY}, loop("mind.read", step, text=CANARY)]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(CODE_KINDS), min_size=1, max_size=10))
def test_no_hidden_part_of_a_kimi_code_wire_reaches_the_default_view(kinds):
    records = [made for number, kind in enumerate(["typed", *kinds]) for made in _code_records(kind, number)]
    shown_json = default_view_json(wire(*records), "kimi-code")
    assert CANARY not in shown_json
    assert "SHOWN-0" in shown_json


CLI_KINDS = ("typed", "answer", "think", "call", "streamed", "sub-agent", "status", "interrupted", "unknown")


def _cli_events(kind: str, number: int) -> list[tuple[str, dict]]:
    if kind == "typed":
        return [("TurnBegin", {"user_input": [{"type": "text", "text": f"SHOWN-{number}"}]})]
    step = [("StepBegin", {"n": number})]
    if kind == "answer":
        return step + [("ContentPart", {"type": "text", "text": f"SHOWN-{number}"})]
    if kind == "think":
        return step + [("ContentPart", {"type": "think", "think": CANARY, "encrypted": CANARY})]
    if kind in ("call", "streamed"):
        arguments = {"command": f"make\n{CANARY}"}
        events = step + [("ToolCall", {"type": "function", "id": f"t{number}", "function": {
            "name": "Shell", "arguments": "" if kind == "streamed" else json.dumps(arguments)}})]
        if kind == "streamed":
            events.append(("ToolCallPart", {"arguments_part": json.dumps(arguments)}))
        return events + [("ToolResult", {"tool_call_id": f"t{number}", "return_value": {
            "is_error": False, "output": CANARY, "message": CANARY, "display": []}})]
    if kind == "sub-agent":
        def sub(kind_, payload):
            return ("SubagentEvent", {"parent_tool_call_id": f"t{number}", "agent_id": "a1", "subagent_type": "x",
                                      "event": {"type": kind_, "payload": payload}})
        return step + [("ToolCall", {"type": "function", "id": f"t{number}", "function": {
            "name": "Agent", "arguments": json.dumps({"prompt": CANARY})}}),
            sub("TurnBegin", {"user_input": CANARY}), sub("StepBegin", {"n": 1}),
            sub("ContentPart", {"type": "text", "text": CANARY}),
            ("ToolResult", {"tool_call_id": f"t{number}", "return_value": {"output": CANARY}})]
    if kind == "status":
        return [("StatusUpdate", {"token_usage": {"input_other": 1, "output": 1}, "message_id": CANARY})]
    if kind == "interrupted":
        return step + [("ContentPart", {"type": "text", "text": f"SHOWN-{number}"}), ("StepInterrupted", {})]
    return [("Telepathy", {"text": CANARY}), ("ApprovalRequest", {"text": CANARY})]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(CLI_KINDS), min_size=1, max_size=10))
def test_no_hidden_part_of_a_kimi_cli_wire_reaches_the_default_view(kinds):
    events = [made for number, kind in enumerate(["typed", *kinds]) for made in _cli_events(kind, number)]
    shown_json = default_view_json(legacy(*events), "kimi-cli")
    assert CANARY not in shown_json
    assert "SHOWN-0" in shown_json


def test_a_kimi_cli_status_update_s_context_figures_are_its_step_s_details_and_bookkeeping_is_kept():
    transcript = parse(legacy(("TurnBegin", {"user_input": "hi"}), ("StepBegin", {"n": 1}),
                              ("ContentPart", {"type": "text", "text": "hello"}),
                              ("StatusUpdate", {"context_tokens": 10801, "max_context_tokens": 262144}),
                              ("ApprovalRequest", {"sender": "Shell", "description": "Run `rm -rf build`"}),
                              ("TurnEnd", {"x_later": "a member no table names"})))
    assert transcript.messages[1].meta.details == {"context_tokens": 10801, "max_context_tokens": 262144}
    assert transcript.header["bookkeeping"] == [
        {"line": 6, "type": "ApprovalRequest", "sender": "Shell", "description": "Run `rm -rf build`"},
        {"line": 7, "type": "TurnEnd", "x_later": "a member no table names"}]
    assert "unread" not in transcript.header


def test_a_kimi_cli_result_s_display_is_its_details_and_an_unknown_payload_member_is_unread():
    transcript = parse(legacy(("TurnBegin", {"user_input": "hi"}), ("StepBegin", {"n": 1}),
                              ("ToolCall", {"type": "function", "id": "c1", "function": {"name": "Shell",
                                                                                       "arguments": "{}"}}),
                              ("ToolResult", {"tool_call_id": "c1", "return_value": {
                                  "output": "ok", "display": [{"type": "brief", "text": "Ran ls"}]}}),
                              ("ContentPart", {"type": "text", "text": "done", "x_later": "unknown"})))
    assert transcript.messages[2].meta.details == {"display": [{"type": "brief", "text": "Ran ls"}]}
    assert transcript.header["unread"] == [{"line": 6, "members": {"message": {"payload": {"x_later": "unknown"}}}}]


def test_a_kimi_code_step_s_latencies_are_its_details_and_an_unknown_member_of_an_event_is_unread():
    transcript = parse(wire(context("user", "hi"), loop("step.begin"),
                            loop("content.part", part={"type": "text", "text": "hello"}, x_later="unknown"),
                            loop("step.end", uuid="s1", finishReason="completed", llmStreamDurationMs=812,
                                 usage={"inputOther": 3, "output": 1, "inputCacheRead": 0, "inputCacheCreation": 0})))
    assert transcript.messages[1].meta.details == {"llmStreamDurationMs": 812}
    assert transcript.header["unread"] == [{"line": 4, "members": {"event": {"x_later": "unknown"}}}]


def test_a_kimi_code_message_s_origin_beyond_its_kind_is_its_details():
    transcript = parse(wire(context("user", "<system-reminder>lint</system-reminder>", kind="injection",
                                    variant="reminder", hook="post-edit")))
    assert transcript.messages[0].meta.details == {"origin": {"hook": "post-edit"}}


USAGE = {"inputOther": 3, "output": 1, "inputCacheRead": 0, "inputCacheCreation": 0}


def test_a_kimi_code_usage_record_s_scope_and_a_turn_s_end_are_their_messages_details_not_the_header_s():
    transcript = parse(wire(
        context("user", "hi"), record("llm.request", model="kimi-k2.6", messageCount=1, toolsHash="sha256:ab"),
        loop("step.begin"), loop("content.part", part={"type": "text", "text": "hello"}),
        loop("step.end", uuid="s1", finishReason="end_turn", usage=USAGE),
        record("usage.record", model="kimi-k2.6", usage=USAGE, usageScope="turn"),
        record("turn.ended", turnId=0, reason="completed", durationMs=4200)))
    question, answer = transcript.messages
    assert question.meta.details == {"llm.request": {"messageCount": 1, "toolsHash": "sha256:ab"}}
    assert answer.meta.details == {"usage.record": {"usageScope": "turn"},
                                   "turn.ended": {"reason": "completed", "durationMs": 4200}}
    assert "unread" not in transcript.header and "W-JSON-UNREAD" not in codes(transcript)


def test_a_kimi_code_usage_record_whose_counts_are_not_its_step_s_keeps_them_in_the_details():
    other = {**USAGE, "output": 9}
    transcript = parse(wire(
        context("user", "hi"), loop("step.begin"), loop("content.part", part={"type": "text", "text": "hello"}),
        loop("step.end", uuid="s1", finishReason="end_turn", usage=USAGE),
        record("usage.record", model="kimi-k2.6", usage=other, usageScope="turn")))
    assert transcript.messages[1].meta.usage.output == 1
    assert transcript.messages[1].meta.details == {"usage.record": {"usage": other, "usageScope": "turn"}}


def test_a_kimi_code_bookkeeping_line_with_nothing_to_go_on_stays_in_the_header_s_unread():
    transcript = parse(wire(record("turn.ended", turnId=0, reason="completed"), context("user", "hi"),
                            record("llm.request", model="k", messageCount=1),
                            record("llm.request", model="k", messageCount=2)))
    assert transcript.messages[0].meta.details == {"llm.request": {"messageCount": 1}}
    assert transcript.header["unread"] == [{"line": 2, "members": {"reason": "completed"}},
                                           {"line": 5, "members": {"messageCount": 2}}]


def test_a_kimi_code_wire_of_more_steps_than_the_reader_keeps_counts_every_step_s_usage(monkeypatch):
    from viewer.parse.agents import kimi_code
    monkeypatch.setattr(kimi_code, "STEPS_KEPT", 3)
    steps = [line for number in range(10) for line in (
        loop("step.begin", step=f"s{number}"),
        loop("content.part", step=f"s{number}", part={"type": "text", "text": f"step {number}"}),
        loop("step.end", step=f"s{number}", uuid=f"s{number}", finishReason="end_turn", usage=USAGE),
        record("usage.record", model=f"kimi-{number % 2}", usage=USAGE, usageScope="turn"))]
    transcript = parse(wire(context("user", "hi"), *steps))
    assert transcript.header["responses"] == 10 and transcript.header["usage"]["input"] == 30
    assert transcript.header["models"] == ["kimi-0", "kimi-1"]
    assert [message.meta.model for message in transcript.messages[1:]] == ["kimi-0", "kimi-1"] * 5
    assert len({message.turn for message in transcript.messages[1:]}) == 10
