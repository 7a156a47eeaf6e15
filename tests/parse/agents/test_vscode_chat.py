"""VS Code chat sessions, whole or as a log of changes: the same conversation either way, each message pointing
at the line that wrote it; what the model got hidden, calls with their arguments and results, sub-agents,
cancellation, and detection."""
from __future__ import annotations

import json

from tests.conftest import SAMPLES
from tests.parse.agents.test_claude_code import shown
from tests.parse.helpers import codes, only
from viewer import parse

WHOLE = "vscode-chat-2026-subagent-cancelled.json"
LOG = "vscode-chat-2026-subagent-cancelled.jsonl"


def sample(name: str):
    return parse((SAMPLES / name).read_bytes())


def session(*requests: dict) -> dict:
    return {"version": 3, "responderUsername": "GitHub Copilot", "sessionId": "s1", "creationDate": 1785765726208,
            "requests": list(requests)}


def request(text: str, *parts: dict, **extra) -> dict:
    return {"requestId": "r", "timestamp": 1785765731408, "message": {"text": text}, "response": list(parts),
            **extra}


def markdown(value: str) -> dict:
    return {"value": value, "supportThemeIcons": False}


def changes(*entries: dict) -> str:
    return "".join(json.dumps(entry) + "\n" for entry in entries)


def test_every_sample_is_detected_as_a_vscode_chat_session():
    for path in SAMPLES.glob("vscode-chat-*"):
        assert parse(path.read_bytes()).dialect == "vscode-chat", path.name


def test_the_whole_session_and_its_log_of_changes_read_as_the_same_conversation():
    whole, replayed = sample(WHOLE), sample(LOG)
    def read(transcript):
        return [(m.role, m.channel, m.recipient, m.intent, m.thread, m.content) for m in transcript.messages]
    assert read(whole) == read(replayed)
    assert shown(whole) == shown(replayed)


def test_the_default_view_reads_like_the_chat_the_user_had():
    assert shown(sample(WHOLE)) == [
        ("message", "Fix the rounding in shop/rates.py so convert() rounds half up to cents, then run the tests."),
        ("preamble", "I'll open the rates module.\n"),
        ("marker", "used read_file"),
        ("preamble", "`round()` rounds half to even. I'll switch to `Decimal.quantize` with `ROUND_HALF_UP`.\n"),
        ("marker", "used replace_string_in_file, run_in_terminal, runSubagent"),
        ("message", "Fixed: `convert()` now rounds half up to cents (2.675 EUR becomes 2.68) and all 4 tests pass."),
        ("message", "Also add a test for negative amounts"),
        ("preamble", "I'll open the existing tests first.\n"),
        ("marker", "used copilot_readFile"),
    ]


def test_a_call_takes_its_name_and_arguments_from_the_tool_call_rounds_and_its_result_by_id():
    transcript = sample(WHOLE)
    read = next(m for m in transcript.messages if m.recipient == "functions.read_file")
    assert json.loads(read.content)["filePath"] == "/home/ana/src/shop/shop/rates.py"
    reply = next(m for m in transcript.messages if m.is_reply and m.call_id == read.call_id)
    assert reply.content.startswith("```python")
    assert len(transcript.pairs) == 4


def test_what_the_model_got_with_the_prompt_is_hidden_context():
    transcript = sample(WHOLE)
    assert [m.name for m in transcript.messages if m.intent == "context"] == ["renderedUserMessage",
                                                                            "renderedGlobalContext"]


def test_a_sub_agent_s_calls_are_a_thread_under_the_run_subagent_call():
    transcript = sample(WHOLE)
    (thread,) = transcript.threads
    assert transcript.messages[thread.call].recipient == "functions.runSubagent"
    assert [m.recipient for m in transcript.messages if m.thread == thread.id] == ["functions.copilot_readFile"]


def test_a_cancelled_request_is_an_interruption_and_a_failed_one_a_hidden_error():
    assert only(sample(WHOLE), "W-SESSION-INTERRUPTED")
    failed = parse(json.dumps(session(request("go", markdown("Working"),
                                              result={"errorDetails": {"message": "Rate limited"}},
                                              modelState={"value": 3}))))
    assert failed.messages[-1].role == "system" and "W-API-ERROR" in codes(failed)


def test_streamed_markdown_parts_are_one_answer_whatever_ui_parts_stand_between_them():
    transcript = parse(json.dumps(session(request("go", markdown("Hel"), markdown("lo"),
                                                  {"kind": "undoStop", "id": "u"}, markdown(" again")))))
    assert [m.content for m in transcript.messages] == ["go", "Hello again"]


def test_a_log_is_replayed_set_by_set_and_each_message_points_at_the_line_that_wrote_it():
    text = changes({"kind": 0, "v": session()},
                   {"kind": 2, "k": ["requests"], "v": [request("first", markdown("draft"))]},
                   {"kind": 2, "k": ["requests", 0, "response"], "v": [markdown("final answer")], "i": 0},
                   {"kind": 1, "k": ["customTitle"], "v": "A title"},
                   {"kind": 3, "k": ["requests", 0, "followups"]})
    transcript = parse(text)
    assert [m.content for m in transcript.messages] == ["first", "final answer"]
    third = text.splitlines()[2]
    start = text.index(third)
    assert start <= transcript.messages[1].span[0] < transcript.messages[1].span[1] <= start + len(third)
    assert transcript.header["session_title"] == "A title"
    assert codes(transcript) == []


def test_a_change_that_cannot_be_applied_is_reported_and_the_rest_is_read():
    transcript = parse(changes({"kind": 0, "v": session(request("hi", markdown("hello")))},
                               {"kind": 1, "k": ["requests", 5, "result"], "v": {}}))
    assert [m.content for m in transcript.messages] == ["hi", "hello"]
    assert only(transcript, "W-JSON-SHAPE").message.startswith("Line 2 cannot be applied")


def test_a_session_cut_short_keeps_the_request_it_was_cut_in():
    transcript = sample("vscode-chat-broken-cut-short.json")
    assert transcript.messages[0].content.startswith("Fix the rounding") and transcript.messages[-1].role == "assistant"
    assert only(transcript, "E-STREAM-TRUNCATED")


def test_a_chat_export_or_plain_json_is_not_taken_for_a_session():
    assert parse(json.dumps({"requests": [{"message": "hi"}]})).dialect == "json"
    assert parse(json.dumps(session(request("hi")))).dialect == "vscode-chat"
    assert parse(changes({"kind": 0, "v": session()})).dialect == "vscode-chat"


def test_a_file_named_inside_the_answer_stays_in_its_text():
    reference = {"kind": "inlineReference", "inlineReference": {"$mid": 1, "path": "/w/shop/rates.py",
                                                                "scheme": "file"}}
    transcript = parse(json.dumps(session(request("go", markdown("I changed "), reference,
                                                  {"kind": "codeblockUri", "uri": {"path": "/w/x"}},
                                                  markdown(" to round half up.")))))
    assert [m.content for m in transcript.messages] == ["go", "I changed `rates.py` to round half up."]


def test_what_the_chat_drew_for_a_call_is_its_details_and_the_request_s_result_the_answer_s():
    transcript = sample(WHOLE)
    call = next(message for message in transcript.messages if message.recipient == "functions.run_in_terminal")
    assert call.meta.details["pastTenseMessage"]["value"] == "Ran `python -m pytest -q tests/test_rates.py`"
    assert call.meta.details["toolSpecificData"]["terminalCommandState"]["exitCode"] == 0
    carrier = next(message for message in transcript.messages if message.meta and message.meta.usage)
    assert carrier.meta.details["details"] == "Claude Sonnet 4.5 • 1x"
    assert carrier.meta.details["usage"]["promptTokenDetails"][1]["label"] == "Tool Results"
    assert "promptTokens" not in carrier.meta.details["usage"]  # read: it is the usage


def test_the_session_s_agents_and_input_state_are_in_the_header():
    header = sample(LOG).header
    assert header["input_state"]["selectedModel"]["metadata"]["name"] == "Claude Sonnet 4.5"
    assert [agent["extensionDisplayName"] for agent in header["agents"]] == ["GitHub Copilot Chat"]
    assert "unread" not in header


def test_a_member_of_a_request_or_a_part_that_no_table_names_is_kept_unread():
    part = {**markdown("Done."), "x_note": "a later build's member"}
    transcript = parse(json.dumps(session(request("Hi", part, x_flag="something new"))))
    assert transcript.header["unread"] == [{"request": 1, "members": {
        "x_flag": "something new", "response": {"[0]": {"x_note": "a later build's member"}}}}]
    assert "W-JSON-UNREAD" in codes(transcript)


def test_a_log_line_with_a_member_no_change_has_is_kept_unread():
    text = changes({"kind": 0, "v": session(request("Hi", markdown("Done.")))},
                   {"kind": 1, "k": ["customTitle"], "v": "Greeting", "x_written_by": "a later build"})
    assert parse(text).header["unread"] == [{"line": 2, "members": {"x_written_by": "a later build"}}]
