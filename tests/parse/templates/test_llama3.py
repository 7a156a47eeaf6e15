"""Llama 3.x: ipython replies, the call shapes of llama-models (built-in, code, JSON, 3.2 Python lists), and the
tool definitions the templates write into the system or first user turn."""
from __future__ import annotations

import json

from tests.parse.helpers import codes, only
from viewer.parse import parse

H = "<|start_header_id|>{}<|end_header_id|>\n\n"


def llama(*turns: tuple[str, str]) -> str:
    return "<|begin_of_text|>" + "".join(H.format(role) + body + "<|eot_id|>" for role, body in turns)


def calls(transcript):
    return [(m.recipient, json.loads(m.content) if m.content_type == "json" else m.content)
            for m in transcript.messages if m.is_call]


def test_a_json_call_and_its_ipython_reply_pair_in_order():
    call = '{"name": "get_weather", "parameters": {"city": "Oslo"}}'
    transcript = parse(llama(("user", "Oslo?"), ("assistant", call), ("ipython", '{"t": 4}'), ("assistant", "4 °C.")))
    assert calls(transcript) == [("functions.get_weather", {"city": "Oslo"})]
    reply = transcript.messages[2]
    assert (reply.role, reply.content_type) == ("tool", "json")
    assert [(pair.call, pair.reply, pair.by) for pair in transcript.pairs] == [(1, 2, "order")]


def test_python_tag_calls_a_built_in_tool_or_runs_code():
    text = (H.format("assistant") + '<|python_tag|>brave_search.call(query="Oslo")<|eom_id|>'
            + H.format("assistant") + "<|python_tag|>print(1 + 1)<|eom_id|>")
    transcript = parse(text)
    assert calls(transcript) == [("brave_search", {"query": "Oslo"}), ("python", "print(1 + 1)")]
    assert [m.end for m in transcript.messages] == ["call", "call"]


def test_a_llama_32_list_of_python_calls_is_one_call_each_with_its_own_span():
    transcript = parse(llama(("assistant", '[get_weather(city="Oslo"), get_time(zone="CET")]')))
    assert calls(transcript) == [("functions.get_weather", {"city": "Oslo"}), ("functions.get_time", {"zone": "CET"})]
    first, second = transcript.messages
    assert first.span[1] <= second.span[0]


def test_the_tool_definitions_of_the_first_user_turn_are_a_hidden_system_message():
    tool = {"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}
    prompt = ("Given the following functions, please respond with a JSON for a function call with its proper "
              "arguments that best answers the given prompt.\n\nRespond in the format {...}.Do not use variables.\n\n"
              + json.dumps(tool, indent=4) + "\n\nWhat now?")
    transcript = parse(llama(("user", prompt)))
    assert [(m.role, m.turn) for m in transcript.messages] == [("system", 0), ("user", 0)]
    assert transcript.messages[1].content == "What now?"
    assert "functions.f" in transcript.tools


def test_python_tag_after_text_is_text():
    transcript = parse(llama(("assistant", "Write <|python_tag|> before code to call the interpreter.")))
    assert [(m.role, m.channel, m.recipient) for m in transcript.messages] == [("assistant", "final", None)]


def test_a_call_cut_short_stays_hidden_as_a_call_of_an_unknown_tool():
    transcript = parse(H.format("assistant") + '{"name": "lookup", "parameters": {"q": "sec')
    message = transcript.messages[0]
    assert (message.is_call, message.recipient, message.end) == (True, None, "call")
    assert "E-CALL-SCHEMA" in codes(transcript)
    assert only(transcript, "E-STREAM-TRUNCATED").message_index == 0
