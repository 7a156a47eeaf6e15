"""Gemma and FunctionGemma: model turns, the folded system prompt, media tokens, and FunctionGemma's blocks."""
from __future__ import annotations

import json

from tests.parse.helpers import codes, only
from viewer.parse import parse


def turn(role: str, body: str) -> str:
    return f"<start_of_turn>{role}\n{body}<end_of_turn>\n"


def test_model_turns_are_the_assistant_s():
    transcript = parse("<bos>" + turn("user", "Hi") + turn("model", "Hello!"))
    assert [(m.role, m.content) for m in transcript.messages] == [("user", "Hi"), ("assistant", "Hello!")]


def test_a_first_user_turn_with_a_blank_line_may_hold_a_folded_system_prompt():
    transcript = parse(turn("user", "Be terse.\n\nHi"))
    note = only(transcript, "W-FOLDED-TEXT")
    assert transcript.source[note.span[0]:note.span[1]] == "Be terse."
    assert transcript.messages[0].role == "user"  # nothing marks it: it stays the user's text


def test_image_tokens_are_segments_left_out_of_the_content():
    transcript = parse(turn("user", "<start_of_image>" + "<image_soft_token>" * 3 + "<end_of_image>What is it?"))
    message = transcript.messages[0]
    assert message.content == "What is it?"
    assert [segment.kind for segment in message.segments] == ["image", "text"]


def test_function_calls_and_responses_pair_by_name_and_declarations_declare():
    declaration = ("<start_function_declaration>declaration:get_weather{description:<escape>Weather<escape>,"
                   "parameters:{properties:{city:{type:<escape>STRING<escape>}},type:<escape>OBJECT<escape>}}"
                   "<end_function_declaration>")
    model = ("<start_function_call>call:get_weather{city:<escape>Oslo, NO<escape>}<end_function_call>"
             "<start_function_response>response:get_weather{temperature:4}<end_function_response>It is 4 °C.")
    transcript = parse(turn("developer", "Use tools." + declaration) + turn("user", "Oslo?") + turn("model", model))
    call, reply, answer = transcript.messages[2:]
    assert (call.recipient, json.loads(call.content)) == ("functions.get_weather", {"city": "Oslo, NO"})
    assert (reply.role, reply.name, json.loads(reply.content)) == ("tool", "functions.get_weather", {"temperature": 4})
    assert (answer.channel, answer.content) == ("final", "It is 4 °C.")
    assert [(pair.call, pair.reply, pair.by) for pair in transcript.pairs] == [(2, 3, "name")]
    assert transcript.tools["functions.get_weather"]["properties"]["city"]["type"] == "string"
    assert codes(transcript) == []


def test_a_call_token_after_other_text_of_the_answer_is_text():
    transcript = parse(turn("model", "Write <start_function_call>call:f{}<end_function_call> to call f."))
    assert [(m.channel, m.recipient) for m in transcript.messages] == [("final", None)]
