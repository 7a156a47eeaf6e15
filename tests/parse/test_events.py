"""The streaming event-log importer: reassembly, stops, cancellation, streams, spans and diagnostics."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, strategies as st

from tests.parse.helpers import assert_accounted_for, codes, only
from viewer.parse import detect, parse


def log(*events) -> str:
    return "".join(json.dumps(event) + "\n" for event in events)


def delta(text, kind="response.delta", **fields):
    return {"type": kind, "delta": text, **fields}


def line_span(text: str, number: int) -> tuple[int, int]:
    start = sum(len(line) + 1 for line in text.split("\n")[:number - 1])
    return start, start + len(text.split("\n")[number - 1])


# -- reassembly -------------------------------------------------------------------------------------------


def test_response_deltas_make_one_final_message_that_done_ends_with_return():
    transcript = parse(log(delta("Hel"), delta("lo."), {"type": "response.done"}), "events")
    [message] = transcript.messages
    assert (message.role, message.channel, message.channel_explicit, message.content, message.end) == (
        "assistant", "final", True, "Hello.", "return")
    assert transcript.diagnostics == ()


def test_output_text_deltas_are_final_text_too():
    transcript = parse(log(delta("a", "response.output_text.delta"), {"type": "response.output_text.done"}),
                       "events")
    assert [(m.channel, m.content, m.end) for m in transcript.messages] == [("final", "a", "return")]


def test_reasoning_deltas_make_an_analysis_message_ending_end():
    transcript = parse(log(delta("think", "response.reasoning_text.delta"), {"type": "response.reasoning_text.done"}),
                       "events")
    assert [(m.channel, m.intent, m.content, m.end) for m in transcript.messages] == [
        ("analysis", None, "think", "end")]


def test_summary_deltas_make_a_separate_analysis_message_marked_summary():
    transcript = parse(log(delta("raw", "response.reasoning_text.delta"),
                           delta("short", "response.reasoning_summary_text.delta"),
                           {"type": "response.done"}), "events")
    assert [(m.channel, m.intent, m.content) for m in transcript.messages] == [
        ("analysis", None, "raw"), ("analysis", "summary", "short")]


def test_type_may_be_written_under_event():
    transcript = parse(log({"event": "response.delta", "delta": "x"}, {"event": "response.done"}), "events")
    assert [(m.content, m.end) for m in transcript.messages] == [("x", "return")]


def test_flush_splits_segments_without_changing_the_text():
    text = log(delta("One.\n\n"), {"type": "response.delta.flush"}, delta("Two."), {"type": "response.done"})
    [message] = parse(text, "events").messages
    assert message.content == "One.\n\nTwo."
    assert [(segment.text, segment.span) for segment in message.segments] == [
        ("One.\n\n", line_span(text, 1)), ("Two.", line_span(text, 3))]


def test_message_without_flush_has_no_segments():
    assert parse(log(delta("x"), {"type": "response.done"}), "events").messages[0].segments == ()


def test_done_text_makes_the_message_when_nothing_streamed():
    transcript = parse(log({"type": "response.output_text.done", "text": "whole"}), "events")
    assert [(m.content, m.end) for m in transcript.messages] == [("whole", "return")]


def test_done_text_that_differs_from_the_deltas_is_noted_and_the_deltas_kept():
    transcript = parse(log(delta("abc"), {"type": "response.output_text.done", "text": "abd"}), "events")
    assert transcript.messages[0].content == "abc"
    assert only(transcript, "W-EVENT-TEXT-MISMATCH").severity == "info"


def test_function_call_argument_deltas_make_a_constrained_call():
    transcript = parse(log(delta('{"a":', "response.function_call_arguments.delta", call_id="c1", name="f"),
                           delta("1}", "response.function_call_arguments.delta", call_id="c1"),
                           {"type": "response.function_call_arguments.done", "call_id": "c1"}), "events")
    [call] = transcript.messages
    assert (call.recipient, call.call_id, call.content, call.content_type, call.constrained, call.end) == (
        "functions.f", "c1", '{"a":1}', "json", True, "call")


def test_tool_result_is_a_reply_named_after_its_call_and_paired_by_id():
    transcript = parse(log(delta("{}", "response.function_call_arguments.delta", call_id="c1", name="browser.open"),
                           {"type": "response.function_call_arguments.done", "call_id": "c1"},
                           {"type": "tool.result", "call_id": "c1", "output": {"ok": True}}), "events")
    reply = transcript.messages[1]
    assert (reply.role, reply.name, reply.call_id, json.loads(reply.content)) == (
        "tool", "browser.open", "c1", {"ok": True})
    assert [(p.call, p.reply, p.by) for p in transcript.pairs] == [(0, 1, "call_id")]


def test_response_done_ends_the_turn_and_a_tool_result_has_its_own():
    transcript = parse(log(delta("r", "response.reasoning_text.delta"), delta("a"), {"type": "response.done"},
                           {"type": "tool.result", "call_id": "x", "content": "out"},
                           delta("b"), {"type": "response.done"}), "events")
    assert [m.turn for m in transcript.messages] == [0, 0, 1, 2]


# -- stops, truncation, cancellation ----------------------------------------------------------------------


def test_message_open_at_the_end_of_the_log_is_truncated():
    transcript = parse(log(delta("The answer is"), delta(" 4")), "events")
    assert transcript.messages[0].end == "eof"
    truncated = only(transcript, "E-STREAM-TRUNCATED")
    assert (truncated.severity, truncated.message_index) == ("error", 0)


def test_response_cancel_closes_open_messages_with_a_warning():
    text = log(delta("partial"), {"type": "response.cancel", "reason": "user stop"})
    transcript = parse(text, "events")
    assert transcript.messages[0].end == "eof"
    cancelled = only(transcript, "W-STREAM-CANCELLED")
    assert (cancelled.span, cancelled.message_index) == (line_span(text, 2), 0)
    assert "user stop" in cancelled.message
    assert "E-STREAM-TRUNCATED" not in codes(transcript)


def test_tool_cancel_is_e_tool_cancelled_on_the_call_with_that_id():
    text = log(delta("{}", "response.function_call_arguments.delta", call_id="c9", name="f"),
               {"type": "response.function_call_arguments.done", "call_id": "c9"},
               {"type": "tool.cancel", "call_id": "c9", "reason": "timeout"})
    cancelled = only(parse(text, "events"), "E-TOOL-CANCELLED")
    assert (cancelled.severity, cancelled.message_index, cancelled.span) == ("error", 0, line_span(text, 3))
    assert "timeout" in cancelled.message


def test_tool_cancel_for_an_unknown_call_is_still_reported():
    cancelled = only(parse(log({"type": "tool.cancel", "call_id": "zz"}), "events"), "E-TOOL-CANCELLED")
    assert cancelled.message_index is None and "'zz'" in cancelled.message


def test_tool_cancel_is_on_the_last_call_before_it_with_that_id():
    call = [delta("{}", "response.function_call_arguments.delta", call_id="c9", name="f"),
            {"type": "response.function_call_arguments.done", "call_id": "c9"}, {"type": "response.done"}]
    cancel = {"type": "tool.cancel", "call_id": "c9"}
    before, after = parse(log(cancel, *call), "events"), parse(log(*call, *call, cancel), "events")
    assert only(before, "E-TOOL-CANCELLED").message_index is None
    assert only(after, "E-TOOL-CANCELLED").message_index == 1


# -- streams and spans ------------------------------------------------------------------------------------


def test_message_ids_keep_interleaved_streams_apart_and_their_spans_overlap():
    text = log(delta("A1", message_id="a"), delta("B1", message_id="b"), delta("A2", message_id="a"),
               {"type": "response.done", "message_id": "b"}, {"type": "response.done", "message_id": "a"})
    first, second = parse(text, "events").messages
    assert (first.content, first.turn, first.end) == ("A1A2", 0, "return")
    assert (second.content, second.turn, second.end) == ("B1", 1, "return")
    assert first.span == (line_span(text, 1)[0], line_span(text, 5)[1])
    assert second.span == (line_span(text, 2)[0], line_span(text, 4)[1])


def test_done_for_one_stream_leaves_the_other_open():
    transcript = parse(log(delta("A", message_id="a"), delta("B", message_id="b"),
                           {"type": "response.done", "message_id": "a"}), "events")
    assert [m.end for m in transcript.messages] == ["return", "eof"]
    assert only(transcript, "E-STREAM-TRUNCATED").message_index == 1


def test_message_span_runs_from_its_first_event_line_to_its_last():
    text = '{"type": "response.created"}\n' + log(delta("a"), delta("b"), {"type": "response.done"})
    transcript = parse(text, "events")
    assert transcript.messages[0].span == (line_span(text, 2)[0], line_span(text, 4)[1])
    assert [(segment.kind, segment.span) for segment in transcript.frame] == [("event", line_span(text, 1))]


# -- diagnostics ------------------------------------------------------------------------------------------


def test_unknown_event_type_is_kept_as_info():
    text = log({"type": "response.heartbeat"})
    unknown = only(parse(text, "events"), "W-UNKNOWN-EVENT")
    assert (unknown.severity, unknown.span) == ("info", line_span(text, 1))


def test_line_that_is_not_json_is_w_json_syntax_and_the_rest_is_read():
    text = log(delta("a")) + "{broken\n" + log({"type": "response.done"})
    transcript = parse(text, "events")
    assert transcript.messages[0].end == "return"
    assert only(transcript, "W-JSON-SYNTAX").span == line_span(text, 2)


@pytest.mark.parametrize("line", ['{"delta": "no type"}', '{"type": 5}', '{"type": "response.delta", "delta": 3}'])
def test_line_without_a_usable_event_is_w_event_shape(line):
    transcript = parse(line + "\n", "events")
    assert transcript.messages == ()
    assert codes(transcript) == ["W-EVENT-SHAPE"]


def test_line_that_is_no_object_is_w_json_shape_as_in_an_agent_s_log():
    transcript = parse('[1, 2]\n{"type": "response.delta", "delta": "a"}\n{"type": "response.done"}\n', "events")
    assert [message.content for message in transcript.messages] == ["a"]
    assert codes(transcript) == ["W-JSON-SHAPE"]


def test_a_last_line_cut_mid_json_says_the_log_was_cut_short():
    transcript = parse('{"type": "response.delta", "delta": "a"}\n{"type": "response.de', "events")
    assert transcript.messages[0].end == "eof"
    assert sorted(codes(transcript)) == ["E-STREAM-TRUNCATED", "E-STREAM-TRUNCATED"]


def test_deeply_nested_line_is_a_diagnostic_not_an_exception():
    transcript = parse('{"type": "response.delta", "delta": ' + "[" * 100_000 + "\n", "events")
    assert codes(transcript) == ["W-JSON-SYNTAX"]


# -- detection --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    log(delta("x")),
    log({"event": "tool.cancel", "call_id": "c"}),
    "{not json\n" + log(delta("x")),
])
def test_event_logs_are_detected(text):
    assert detect(text) == "events"


# -- any event-shaped input -------------------------------------------------------------------------------

TYPES = ["response.delta", "response.output_text.delta", "response.reasoning_text.delta",
         "response.reasoning_summary_text.delta", "response.function_call_arguments.delta", "response.delta.flush",
         "response.output_text.done", "response.reasoning_text.done", "response.reasoning_summary_text.done",
         "response.function_call_arguments.done", "response.done", "response.cancel", "tool.result", "tool.cancel",
         "response.created", "response.other"]
events = st.fixed_dictionaries(
    {"type": st.sampled_from(TYPES)},
    optional={"delta": st.text(max_size=4) | st.integers(), "message_id": st.sampled_from(["a", "b", 1]),
              "call_id": st.sampled_from(["c1", "c2"]) | st.integers(), "name": st.sampled_from(["f", "browser.x"]),
              "text": st.text(max_size=4), "arguments": st.text(max_size=4), "output": st.text(max_size=4) | st.none(),
              "reason": st.text(max_size=4)})


@given(st.lists(events, max_size=12), st.integers(min_value=0, max_value=600))
def test_any_event_log_parses_with_every_character_accounted_for(log_events, cut):
    text = log(*log_events)
    for candidate in (text, text[:cut]):
        transcript = parse(candidate, "events")
        assert_accounted_for(transcript, candidate)
        assert all(message.end in ("end", "call", "return", "eof") for message in transcript.messages)
        transcript.to_json()
