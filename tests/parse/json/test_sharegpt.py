"""ShareGPT records (and LLaMA-Factory's variant with `system` and `tools`)."""
from __future__ import annotations

import json

from tests.parse.helpers import codes, only
from viewer.parse import parse
from viewer.policy import Projection


def record(*turns, **fields):
    return parse(json.dumps({"conversations": [{"from": who, "value": value} for who, value in turns], **fields}))


def shown(transcript):
    return [m.content for m, d in zip(transcript.messages, Projection.of(transcript).decisions()) if d.show_as == "message"]


def test_speakers_map_onto_roles():
    transcript = record(("system", "S"), ("human", "a"), ("gpt", "b"), ("user", "c"), ("assistant", "d"))
    assert [(m.role, m.content) for m in transcript.messages] == [
        ("system", "S"), ("user", "a"), ("assistant", "b"), ("user", "c"), ("assistant", "d")]
    assert shown(transcript) == ["a", "b", "c", "d"] and transcript.diagnostics == ()


def test_function_call_and_observation_are_a_call_and_its_reply_paired_by_name():
    transcript = record(("human", "q"), ("function_call", '{"name": "search", "arguments": {"q": "x"}}'),
                        ("observation", '{"hits": 1}'), ("gpt", "found"))
    call, reply = transcript.messages[1:3]
    assert (call.role, call.recipient, call.end, json.loads(call.content)) == ("assistant", "functions.search",
                                                                                "call", {"q": "x"})
    assert (reply.role, reply.name) == ("tool", "functions.search")
    assert [(p.call, p.reply, p.by) for p in transcript.pairs] == [(1, 2, "name")]


def test_a_list_of_calls_gives_parallel_calls_and_observations_answer_them_in_order():
    calls = [{"name": "weather", "arguments": {"city": "Paris"}}, {"name": "time", "arguments": {}}]
    transcript = record(("function_call", json.dumps(calls)), ("observation", "17"), ("observation", "9:00"))
    assert [(m.turn, m.recipient or m.name) for m in transcript.messages] == [
        (0, "functions.weather"), (0, "functions.time"), (1, "functions.weather"), (2, "functions.time")]
    assert [(p.call, p.reply) for p in transcript.pairs] == [(0, 2), (1, 3)]


def test_think_in_an_answer_or_before_calls_is_analysis():
    transcript = record(("gpt", "<think>\nhmm\n</think>\n\nyes"),
                        ("function_call", '<think>\nneed data\n</think>\n\n{"name": "f", "arguments": {}}'))
    assert [(m.channel, m.content) for m in transcript.messages][:3] == [
        ("analysis", "hmm"), ("final", "yes"), ("analysis", "need data")]
    assert shown(transcript) == ["yes"]


def test_unknown_speaker_is_kept_hidden_with_a_warning():
    transcript = record(("narrator", "aside"))
    assert (transcript.messages[0].role, shown(transcript)) == ("narrator", [])
    assert "'narrator'" in only(transcript, "W-UNKNOWN-ROLE").message


def test_function_call_that_is_not_json_is_an_unnamed_call_with_a_warning():
    transcript = record(("function_call", "book(2)"))
    assert (transcript.messages[0].end, transcript.messages[0].recipient) == ("call", None)
    assert "W-JSON-SHAPE" in codes(transcript)


def test_system_column_is_a_system_message_and_tools_text_declares_tools():
    schema = {"type": "object"}
    transcript = record(("human", "hi"), system="Be kind.", tools=json.dumps([{"name": "f", "parameters": schema}]))
    assert [(m.role, m.content) for m in transcript.messages] == [("user", "hi"), ("system", "Be kind.")]
    assert transcript.tools == {"functions.f": schema}
    assert transcript.header == {"tools": [{"name": "f", "parameters": schema}]}


def test_tools_text_that_is_not_json_is_reported():
    transcript = record(("human", "hi"), tools="not json")
    assert only(transcript, "W-TOOL-DEFINITION").message_index is None
    assert transcript.header == {"tools": "not json"}  # kept as written


def test_turn_without_a_value_is_reported():
    transcript = parse(json.dumps({"conversations": [{"from": "gpt"}]}))
    assert codes(transcript) == ["W-JSON-MISSING-CONTENT"]
    assert transcript.messages[0].content == ""
