"""OpenTelemetry GenAI traces: OTLP JSON, the console exporter's spans and OpenLLMetry's flat attributes, read as
one conversation in time order."""
from __future__ import annotations

import json

from tests.parse.helpers import assert_accounted_for, codes
from viewer.parse import parse
from viewer.policy import Projection

USER = {"role": "user", "parts": [{"type": "text", "content": "Weather in Paris?"}]}
CALL = {"role": "assistant", "parts": [{"type": "tool_call", "id": "c1", "name": "get_weather",
                                        "arguments": {"city": "Paris"}}]}
REPLY = {"role": "tool", "parts": [{"type": "tool_call_response", "id": "c1", "response": "rain"}]}
ANSWER = {"role": "assistant", "parts": [{"type": "reasoning", "content": "It rains."},
                                         {"type": "text", "content": "Take an umbrella."}]}


def otlp(*spans):
    """Spans as (start time, attributes), in the order given."""
    written = [{"traceId": "t1", "spanId": f"s{at}", "name": "chat", "startTimeUnixNano": str(start),
                "attributes": [{"key": key, "value": {"stringValue": value if isinstance(value, str)
                                                      else json.dumps(value)}} for key, value in attributes.items()]}
               for at, (start, attributes) in enumerate(spans)]
    return parse(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": written}]}]}, indent=1))


def chat(inputs, outputs):
    return {"gen_ai.operation.name": "chat", "gen_ai.input.messages": inputs, "gen_ai.output.messages": outputs}


def summary(transcript):
    return [(m.role, m.channel, m.recipient, m.content) for m in transcript.messages]


def test_spans_are_one_conversation_in_time_order_and_history_is_not_repeated():
    transcript = otlp((30, chat([USER, CALL, REPLY], [ANSWER])), (10, chat([USER], [CALL])))
    assert summary(transcript) == [
        ("user", "final", None, "Weather in Paris?"),
        ("assistant", "commentary", "functions.get_weather", '{"city": "Paris"}'),
        ("tool", "commentary", None, "rain"),
        ("assistant", "analysis", None, "It rains."),
        ("assistant", "final", None, "Take an umbrella.")]
    assert [(pair.call, pair.reply, pair.by) for pair in transcript.pairs] == [(1, 2, "call_id")]
    assert_accounted_for(transcript, transcript.source)


def test_a_message_said_twice_is_kept_twice():
    yes = {"role": "user", "parts": [{"type": "text", "content": "yes"}]}
    ok = {"role": "assistant", "parts": [{"type": "text", "content": "ok"}]}
    transcript = otlp((1, chat([yes], [ok])), (2, chat([yes, ok, yes], [ok])))
    assert [m.content for m in transcript.messages] == ["yes", "ok", "yes", "ok"]


def test_an_execute_tool_span_and_the_next_input_give_one_reply():
    tool = {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "get_weather", "gen_ai.tool.call.id": "c1",
            "gen_ai.tool.call.arguments": {"city": "Paris"}, "gen_ai.tool.call.result": "rain"}
    transcript = otlp((1, chat([USER], [CALL])), (2, tool), (3, chat([USER, CALL, REPLY], [ANSWER])))
    assert [m.role for m in transcript.messages] == ["user", "assistant", "tool", "assistant", "assistant"]
    assert transcript.messages[2].name == "functions.get_weather"


def test_system_instructions_are_a_hidden_system_message():
    transcript = otlp((1, {"gen_ai.system_instructions": [{"type": "text", "content": "Be brief."}],
                           "gen_ai.input.messages": [USER]}))
    assert summary(transcript)[0] == ("system", "final", None, "Be brief.")
    assert [d.show_as for d in Projection.of(transcript).decisions()] == ["hidden", "message"]


def test_unknown_parts_and_roles_are_hidden_and_reported():
    odd = {"role": "narrator", "parts": [{"type": "text", "content": "meanwhile"}]}
    part = {"role": "user", "parts": [{"type": "hologram", "content": "x"}]}
    transcript = otlp((1, chat([odd, part], [])))
    assert all(d.show_as == "hidden" for d in Projection.of(transcript).decisions())
    assert codes(transcript) == ["W-UNKNOWN-ROLE", "W-JSON-UNKNOWN-PART"]


def test_an_attribute_that_is_not_json_is_reported_not_read():
    transcript = otlp((1, {"gen_ai.input.messages": "[{not json"}))
    assert transcript.messages == ()
    assert codes(transcript) == ["W-JSON-SYNTAX"]
    assert_accounted_for(transcript, transcript.source)


def test_openllmetry_flat_attributes_are_messages_with_calls():
    transcript = otlp((1, {"gen_ai.prompt.0.role": "user", "gen_ai.prompt.0.content": "Order 7?",
                           "gen_ai.completion.0.role": "assistant",
                           "gen_ai.completion.0.tool_calls.0.id": "q1",
                           "gen_ai.completion.0.tool_calls.0.name": "lookup",
                           "gen_ai.completion.0.tool_calls.0.arguments": '{"id": 7}'}))
    assert summary(transcript) == [("user", "final", None, "Order 7?"),
                                   ("assistant", "commentary", "functions.lookup", '{"id": 7}')]


def test_console_exporter_spans_one_after_another_are_read():
    def span(name, start, attributes):
        return json.dumps({"name": name, "context": {"trace_id": "0x1", "span_id": "0x2"}, "start_time": start,
                           "attributes": attributes}, indent=4) + "\n"
    text = span("chat", "2026-01-01T00:00:02Z", {"gen_ai.input.messages": json.dumps([USER]),
                                                 "gen_ai.output.messages": json.dumps([ANSWER])})
    transcript = parse(text + span("chat", "2026-01-01T00:00:01Z", {"gen_ai.input.messages": json.dumps([USER])}))
    assert [m.content for m in transcript.messages] == ["Weather in Paris?", "It rains.", "Take an umbrella."]
    assert transcript.diagnostics == ()


def test_a_console_stream_cut_inside_a_span_keeps_the_spans_before_it():
    text = json.dumps({"name": "chat", "context": {"trace_id": "0x1"}, "attributes": {
        "gen_ai.input.messages": json.dumps([USER])}}, indent=4) + "\n"
    transcript = parse(text + text[:40])
    assert [m.content for m in transcript.messages] == ["Weather in Paris?"]
    assert codes(transcript) == ["W-JSON-SYNTAX"]
    assert_accounted_for(transcript, transcript.source)


def test_several_traces_are_a_dataset_of_one_conversation_each_with_its_own_history():
    spans = [{"traceId": trace, "spanId": trace, "startTimeUnixNano": "1", "attributes": [
        {"key": "gen_ai.input.messages", "value": {"stringValue": json.dumps([USER])}}]} for trace in ("t1", "t2")]
    transcript = parse(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}))
    assert not transcript.messages
    assert [[m.content for m in part.messages] for part in transcript.conversations] == [["Weather in Paris?"]] * 2
    assert [part.header["otel"]["traces"] for part in transcript.conversations] == [["t1"], ["t2"]]
    assert_accounted_for(transcript, transcript.source)


def test_the_spans_of_traces_written_one_export_per_line_are_gathered_by_trace():
    def line(trace, at, attributes):
        return json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [{
            "traceId": trace, "spanId": f"{trace}{at}", "startTimeUnixNano": str(at), "attributes": [
                {"key": key, "value": {"stringValue": json.dumps(value)}} for key, value in attributes.items()]}]}]}]})
    text = "\n".join([line("a", 1, chat([USER], [CALL])), line("b", 2, chat([USER], [ANSWER])),
                      line("a", 3, chat([USER, CALL, REPLY], [ANSWER]))]) + "\n"
    transcript = parse(text)
    assert [[m.turn for m in part.messages] for part in transcript.conversations] == [[0, 0, 1, 1, 1], [0, 0, 0]]
    assert [len(part.pairs) for part in transcript.conversations] == [1, 0]
    assert_accounted_for(transcript, text)


def test_a_chat_span_s_response_is_its_output_s_meta_and_everything_else_it_says_is_in_the_header():
    tools = [{"type": "function", "function": {"name": "get_weather", "description": "Weather now.",
                                               "parameters": {"type": "object"}}}]
    attributes = {**chat([USER], [ANSWER]), "gen_ai.response.model": "gpt-4o-2024-08-06",
                  "gen_ai.response.id": "chatcmpl-1", "gen_ai.tool.definitions": json.dumps(tools)}
    written = [{"key": key, "value": {"stringValue": value if isinstance(value, str) else json.dumps(value)}}
               for key, value in attributes.items()]
    written += [{"key": "gen_ai.usage.input_tokens", "value": {"intValue": "47"}},
                {"key": "gen_ai.usage.output_tokens", "value": {"intValue": "17"}},
                {"key": "gen_ai.response.finish_reasons", "value": {"arrayValue": {"values": [
                    {"stringValue": "stop"}]}}}]
    transcript = parse(json.dumps({"resourceSpans": [{
        "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "travel-desk"}}]},
        "scopeSpans": [{"scope": {"name": "opentelemetry.instrumentation.openai_v2"}, "spans": [
            {"traceId": "t1", "spanId": "s1", "name": "chat gpt-4o", "startTimeUnixNano": "1",
             "attributes": written}]}]}]}))
    reasoning, answer = (message.meta for message in transcript.messages[1:])
    assert (reasoning.model, reasoning.stop_reason, reasoning.response, reasoning.usage) == (
        "gpt-4o-2024-08-06", "stop", "chatcmpl-1", None)
    assert (answer.usage.input, answer.usage.output) == (47, 17)
    said = transcript.header["otel"]
    assert said["span_details"] == [{"name": "chat gpt-4o", "scope": "opentelemetry.instrumentation.openai_v2",
                                     "attributes": {"gen_ai.operation.name": "chat",
                                                    "gen_ai.response.model": "gpt-4o-2024-08-06",
                                                    "gen_ai.response.id": "chatcmpl-1",
                                                    "gen_ai.usage.input_tokens": 47,
                                                    "gen_ai.usage.output_tokens": 17,
                                                    "gen_ai.response.finish_reasons": ["stop"]}}]
    assert said["resources"] == [{"service.name": "travel-desk"}]
    assert transcript.header["tools"] == tools and "functions.get_weather" in transcript.tools
