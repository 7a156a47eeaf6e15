"""OpenHands conversations: V1 event files joined and V0 events or trajectory exports read as one conversation, the
system prompt and the context the agent adds hidden, a finish call read as the answer, replies paired by call id
(V0: by the action that caused them), usage from the model responses and the conversation's state, and files cut
short."""
from __future__ import annotations

import json

from tests.conftest import SAMPLES
from tests.parse.agents.test_claude_code import shown
from tests.parse.helpers import codes
from viewer import parse
from viewer.parse import detect


def sample(name: str):
    return parse((SAMPLES / name).read_bytes())


def event(kind: str, number: int, source: str = "agent", **fields) -> dict:
    return {"kind": kind, "id": f"e{number}", "timestamp": f"2026-03-21T10:14:{number:02d}", "source": source, **fields}


def typed(number: int, text: str) -> dict:
    return event("MessageEvent", number, "user", llm_message={"role": "user", "content": [{"type": "text",
                                                                                            "text": text}]})


def action(number: int, call_id: str, tool: str, arguments: dict, response: str, **fields) -> dict:
    return event("ActionEvent", number, tool_name=tool, tool_call_id=call_id, llm_response_id=response,
                 action={"kind": "TerminalAction", **arguments},
                 tool_call={"id": call_id, "name": tool, "arguments": json.dumps(arguments)}, **fields)


def lines(*events: dict) -> str:
    return "".join(json.dumps(made) + "\n" for made in events)


def test_every_sample_is_detected_as_openhands():
    for path in SAMPLES.glob("openhands-*"):
        assert parse(path.read_bytes()).dialect == "openhands", path.name


def test_a_v1_conversation_reads_like_the_chat_the_user_had():
    assert shown(sample("openhands-1.0-conversation-events.jsonl")) == [
        ("message", "vat() in shop/rates.py returns 20.099999999999998 for 100.5 - fix the rounding"),
        ("preamble", "Let me look at the rates module."),
        ("marker", "used file_editor"),
        ("preamble", "I'll switch to Decimal, then run the tests."),
        ("marker", "used file_editor, terminal"),
        ("preamble", "Edit the return line too."),
        ("marker", "used file_editor"),  # its arguments did not validate: W-TOOL-ERROR
        ("message", "keep the public signature of vat() unchanged"),
        ("preamble", "Convert the argument inside vat() so callers keep passing floats."),
        ("marker", "used file_editor"),
        ("message", "vat() now rounds half-up to cents with Decimal; vat(100.5) == Decimal('20.10') and callers "
                    "can still pass floats."),
    ]


def test_the_system_prompt_its_environment_and_appended_skills_are_hidden_context():
    transcript = parse(lines(
        event("SystemPromptEvent", 0, system_prompt={"type": "text", "text": "You are OpenHands."},
              dynamic_context={"type": "text", "text": "<RUNTIME_INFORMATION>/w</RUNTIME_INFORMATION>"}),
        {**typed(1, "fix it"), "extended_content": [{"type": "text", "text": "<EXTRA_INFO>skill</EXTRA_INFO>"}]}))
    assert [(m.role, m.intent, m.name) for m in transcript.messages] == [
        ("system", None, "system_prompt"), ("system", "context", "dynamic_context"), ("user", None, None),
        ("user", "context", "extended_content")]
    assert shown(transcript) == [("message", "fix it")]


def test_parallel_calls_of_one_response_are_one_turn_and_their_replies_pair_by_call_id():
    transcript = parse(lines(
        typed(0, "go"),
        action(1, "k1", "terminal", {"command": "ls"}, "r1", thought=[{"type": "text", "text": "Both at once."}]),
        action(2, "k2", "file_editor", {"command": "view", "path": "/w"}, "r1"),
        event("ObservationEvent", 3, "environment", tool_name="file_editor", tool_call_id="k2",
              observation={"kind": "FileEditorObservation", "content": [{"type": "text", "text": "a"}]}),
        event("ObservationEvent", 4, "environment", tool_name="terminal", tool_call_id="k1",
              observation={"kind": "TerminalObservation", "content": [{"type": "text", "text": "b"}], "is_error": True})))
    calls = [m for m in transcript.messages if m.is_call]
    assert len({m.turn for m in calls}) == 1 and calls[0].content == '{"command": "ls"}'
    assert sorted((pair.call, pair.reply, pair.by) for pair in transcript.pairs) == [(2, 5, "call_id"), (3, 4, "call_id")]
    assert transcript.messages[1].channel == "commentary"  # the thought before the calls: a preamble
    assert "W-TOOL-ERROR" in codes(transcript)


def test_a_finish_call_is_the_answer_and_its_echo_is_frame():
    transcript = parse(lines(
        typed(0, "go"),
        event("ActionEvent", 1, tool_name="finish", tool_call_id="f1", llm_response_id="r1",
              action={"kind": "FinishAction", "message": "All done."},
              tool_call={"id": "f1", "name": "finish", "arguments": json.dumps({"message": "All done."})}),
        event("ObservationEvent", 2, "environment", tool_name="finish", tool_call_id="f1",
              observation={"kind": "FinishObservation", "content": [{"type": "text", "text": "All done."}]})))
    assert shown(transcript) == [("message", "go"), ("message", "All done.")]
    assert [segment.kind for segment in transcript.frame] == ["event"]


def test_errors_rejections_pauses_and_condensations_are_said():
    transcript = parse(lines(
        typed(0, "go"),
        event("AgentErrorEvent", 1, tool_name="x", tool_call_id="k1", error="bad arguments"),
        event("UserRejectObservation", 2, "user", tool_name="x", tool_call_id="k2", rejection_reason="no"),
        event("PauseEvent", 3, "user"),
        event("Condensation", 4, "environment", forgotten_event_ids=["e1"], summary="what happened")))
    assert {"W-TOOL-ERROR", "E-TOOL-CANCELLED", "W-SESSION-INTERRUPTED", "W-SESSION-COMPACTED"} <= set(codes(transcript))
    assert shown(transcript)[0] == ("message", "go") and all(how == "marker" for how, _ in shown(transcript)[1:])


def test_an_unknown_event_is_kept_hidden():
    transcript = parse(lines(typed(0, "go"), event("BrowserSnapshotEvent", 1, data="x")))
    assert transcript.messages[-1].role == "unknown" and "W-JSON-UNKNOWN-ITEM" in codes(transcript)


def test_the_conversation_state_gives_the_model_folder_and_totals():
    transcript = sample("openhands-1.0-conversation-events.jsonl")
    header = transcript.header
    assert header["cwd"] == "/workspace/shop" and header["models"] == ["anthropic/claude-sonnet-4-5-20250929"]
    assert header["usage"] == {"input": 8294, "output": 1544, "cache_read": 30112, "cache_write": 9804,
                               "cost": 0.0917}
    first_response = [m for m in transcript.messages if m.meta and m.meta.response == "msg_01Oh1aaa"]
    assert first_response[-1].meta.usage.cache_write == 9804  # the per-response figures, on its last message


def test_a_v0_export_pairs_replies_through_their_action_and_prices_each_response():
    transcript = sample("openhands-0.42-trajectory-export.json")
    assert shown(transcript) == [
        ("message", "vat() in shop/rates.py returns 20.099999999999998 for 100.5 - fix the rounding"),
        ("preamble", "Let me look at the rates module."),
        ("marker", "used execute_bash, str_replace_editor"),
        ("message", "vat() now uses Decimal; vat(100.5) == Decimal('20.10')."),
    ]
    recall = next(m for m in transcript.messages if m.name == "recall")
    assert recall.intent == "context" and "CANARY-ENV-OH0-8D4" in recall.content
    costs = [m.meta.usage.cost for m in transcript.messages if m.meta and m.meta.usage]
    assert costs == [0.0312, 0.0093, 0.0056]  # the growth of the accumulated cost, response by response
    assert transcript.header["version"] == "0.42.0"


def test_a_v0_error_answers_the_action_that_caused_it():
    transcript = sample("openhands-broken-v0-agent-error.jsonl")
    error = next(m for m in transcript.messages if m.is_reply)
    assert error.call_id == "toolu_01Oh0Run0001" and error.name == "functions.execute_bash"
    assert {"W-TOOL-ERROR", "E-STREAM-TRUNCATED"} <= set(codes(transcript))
    assert "W-ORPHAN-REPLY" not in codes(transcript)


def test_a_conversation_cut_short_keeps_what_was_written():
    transcript = sample("openhands-broken-v1-cut-short.jsonl")
    assert codes(transcript)[-1] == "E-STREAM-TRUNCATED"
    assert [m.role for m in transcript.messages if not m.intent] == ["system", "user", "assistant", "assistant",
                                                                      "assistant", "tool"]


def test_events_are_told_apart_from_chat_messages_both_ways():
    v1 = lines(typed(0, "go"))
    v0 = json.dumps([{"id": 0, "timestamp": "2025-06-12T08:30:01", "source": "user", "message": "go",
                      "action": "message", "args": {"content": "go"}}], indent=2)
    assert detect(v1) == "openhands" and detect(v0) == "openhands"
    chat = json.dumps([{"role": "user", "content": "go", "source": "user", "kind": "note"},
                       {"id": 0, "role": "assistant", "content": "4", "action": "message"}])
    assert detect(chat) == "json"
    assert detect(lines({"kind": "MessageEvent", "role": "user", "content": "go"})) == "json"


def test_conversation_folders_read_as_one_upload_and_a_sub_agent_s_as_its_call_s_thread():
    from viewer.bundles import pack
    parent = [typed(0, "tidy the repo"),
              action(1, "k1", "task", {"prompt": "list the dead modules"}, "r1"),
              event("ObservationEvent", 2, "environment", tool_name="task", tool_call_id="k1",
                    observation={"kind": "TaskObservation", "content": [{"type": "text", "text": "two"}]}),
              event("MessageEvent", 3, llm_message={"role": "assistant", "content": [{"type": "text", "text": "Done."}]})]
    child = [typed(0, "list the dead modules"),
             event("MessageEvent", 1, llm_message={"role": "assistant", "content": [{"type": "text", "text": "two"}]})]
    files = [(f"c1/events/event-{n:05d}-e.json", json.dumps(made).encode()) for n, made in enumerate(parent)]
    files += [(f"c1/subagents/c2/events/event-{n:05d}-e.json", json.dumps(made).encode()) for n, made in
              enumerate(child)]
    transcript = parse(pack.packed(files))
    assert transcript.dialect == "openhands"
    (thread,) = transcript.threads
    assert thread.id == "c2" and transcript.messages[thread.call].recipient == "functions.task"
    assert shown(transcript) == [("message", "tidy the repo"), ("marker", "used task"), ("message", "Done.")]


def test_what_an_event_records_beside_what_is_read_is_its_details_a_long_value_by_its_span():
    old = "x = 1\n" * 400
    transcript = parse(lines(
        typed(1, "Fix it"),
        action(2, "c1", "file_editor", {"command": "str_replace"}, "r1", summary="editing the module"),
        event("ObservationEvent", 3, "environment", tool_name="file_editor", tool_call_id="c1",
              observation={"kind": "FileEditorObservation", "content": "done", "old_content": old})))
    call = next(m for m in transcript.messages if m.is_call)
    assert call.meta.details["summary"] == "editing the module"
    kept = transcript.messages[-1].meta.details["observation"]["old_content"]
    start, end = kept["$source"]
    assert json.loads(transcript.source[start:end]) == old


def test_an_event_with_no_message_is_kept_in_the_header_and_an_unknown_member_unread():
    transcript = parse(lines(typed(1, "Fix it"), event("ConversationStateUpdateEvent", 2, "environment",
                                                       key="execution_status", value="running"),
                             event("MessageEvent", 3, "user", llm_message={"role": "user", "content": "Hi"},
                                   x_later="a later member")))
    assert transcript.header["bookkeeping"] == [{"event": 2, "kind": "ConversationStateUpdateEvent",
                                                 "key": "execution_status", "value": "running"}]
    assert transcript.header["unread"] == [{"event": 3, "members": {"x_later": "a later member"}}]
