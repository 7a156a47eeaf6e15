"""LangChain messages in their three spellings, and a LangGraph thread state."""
from __future__ import annotations

import json

from tests.parse.helpers import assert_accounted_for, codes
from viewer.parse import parse

CALL = {"name": "search", "args": {"q": "trains"}, "id": "c1", "type": "tool_call"}


def summary(transcript):
    return [(m.role, m.channel, m.recipient, m.call_id, m.content) for m in transcript.messages]


EXPECTED = [("user", "final", None, None, "Find trains."),
            ("assistant", "analysis", None, None, "Search first."),
            ("assistant", "commentary", "functions.search", "c1", '{"q": "trains"}'),
            ("tool", "commentary", None, "c1", "none today"),
            ("assistant", "final", None, None, "No trains today.")]


def fields():
    return [("human", {"content": "Find trains."}),
            ("ai", {"content": "", "additional_kwargs": {"reasoning_content": "Search first."}, "tool_calls": [CALL]}),
            ("tool", {"content": "none today", "tool_call_id": "c1", "name": "search"}),
            ("ai", {"content": "No trains today."})]


def test_messages_to_dict_output_reads_as_chat_messages():
    text = json.dumps([{"type": kind, "data": {**data, "type": kind}} for kind, data in fields()], indent=1)
    transcript = parse(text)
    assert summary(transcript) == EXPECTED
    assert transcript.messages[3].name == "functions.search"
    assert_accounted_for(transcript, text)


def test_dumpd_output_reads_as_chat_messages():
    classes = {"human": "HumanMessage", "ai": "AIMessage", "tool": "ToolMessage"}
    text = json.dumps([{"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", classes[kind]],
                        "kwargs": {**data, "type": kind}} for kind, data in fields()])
    assert summary(parse(text)) == EXPECTED


def test_a_langgraph_state_is_the_conversation_of_its_messages():
    state = {"values": {"messages": [{"type": kind, **data} for kind, data in fields()]}, "next": [],
             "metadata": {"step": 4}}
    transcript = parse(json.dumps(state, indent=2))
    assert summary(transcript) == EXPECTED
    assert transcript.header == {"next": [], "metadata": {"step": 4}}


def test_anthropic_tool_use_blocks_are_not_called_twice():
    message = {"type": "ai", "content": [{"type": "thinking", "thinking": "Hm.", "signature": "S"},
                                         {"type": "tool_use", "id": "c1", "name": "search", "input": {"q": "x"}}],
               "tool_calls": [CALL]}
    transcript = parse(json.dumps([message]))
    assert [(m.channel, m.call_id) for m in transcript.messages] == [("analysis", None), ("commentary", "c1")]


def test_responses_reasoning_summary_and_standard_reasoning_blocks_are_analysis():
    message = {"type": "ai", "content": [{"type": "reasoning", "reasoning": "Step one."},
                                         {"type": "text", "text": "Done."}],
               "additional_kwargs": {"reasoning": {"type": "reasoning", "summary": [
                   {"type": "summary_text", "text": "Summary."}]}}}
    assert [(m.channel, m.content) for m in parse(json.dumps([message])).messages] == [
        ("analysis", "Summary."), ("analysis", "Step one."), ("final", "Done.")]


def test_invalid_tool_calls_and_failed_tools_are_reported():
    messages = [{"type": "ai", "content": "", "invalid_tool_calls": [
                    {"name": "search", "args": '{"q": ', "id": "c9", "error": "bad"}]},
                {"type": "tool", "content": "boom", "tool_call_id": "c9", "status": "error"}]
    transcript = parse(json.dumps(messages))
    assert [m.call_id for m in transcript.messages] == ["c9", "c9"]
    assert {"W-JSON-SHAPE", "W-TOOL-ERROR"} <= set(codes(transcript))


def test_an_ai_message_s_response_metadata_and_usage_are_its_meta_and_other_fields_are_kept():
    transcript = parse(json.dumps([
        {"type": "human", "data": {"content": "Hi", "type": "human"}},
        {"type": "ai", "data": {"content": "Hello", "type": "ai", "id": "run-1",
                                "response_metadata": {"model_name": "gpt-4o-2024-08-06", "finish_reason": "stop",
                                                      "system_fingerprint": "fp_1", "service_tier": "default"},
                                "usage_metadata": {"input_tokens": 12, "output_tokens": 3, "total_tokens": 15,
                                                   "input_token_details": {"cache_read": 2}},
                                "artifact": {"rows": 3}}}]))
    meta = transcript.messages[1].meta
    assert (meta.model, meta.stop_reason, meta.usage.input, meta.usage.cache_read) == (
        "gpt-4o-2024-08-06", "stop", 10, 2)
    assert transcript.header["unread"] == [{"turn": 1, "members": {
        "artifact": {"rows": 3}, "response_metadata": {"system_fingerprint": "fp_1", "service_tier": "default"}}}]
    assert codes(transcript).count("W-JSON-UNREAD") == 2
