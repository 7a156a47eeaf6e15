"""Tool use as Hermes, Qwen2.5 and Qwen3 templates write it in ChatML: `<tools>` in the system prompt,
`<tool_call>` in assistant turns, `<tool_response>` in tool turns or in user turns."""
from __future__ import annotations

import json

from tests.parse.chatml.helpers import WEATHER_TOOL, chatml
from tests.parse.helpers import codes, only
from viewer import policy

CALL = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'
QWEN_SYSTEM = ("<|im_start|>system\nYou are helpful.\n\n# Tools\n\nYou may call one or more functions to assist with "
               "the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n"
               f"<tools>\n{WEATHER_TOOL}\n</tools>\n\nFor each function call, return a json object with function "
               "name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": "
               "<function-name>, \"arguments\": <args-json-object>}\n</tool_call><|im_end|>\n")
SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}


def decisions(transcript) -> list[str]:
    return [rule.show_as for rule in policy.default_rules(transcript)]


# -- <tools> in the system prompt -------------------------------------------------------------------------


def test_tools_block_of_the_qwen_system_prompt_declares_the_schemas():
    transcript = chatml(QWEN_SYSTEM)
    assert transcript.tools == {"functions.get_weather": SCHEMA}
    assert codes(transcript) == []


def test_system_prompt_with_tools_stays_one_hidden_system_message_as_written():
    transcript = chatml(QWEN_SYSTEM)
    (system,) = transcript.messages
    assert system.role == "system" and system.segments == ()
    assert system.content == QWEN_SYSTEM[len("<|im_start|>system\n"):-len("<|im_end|>\n")]
    assert decisions(transcript) == ["hidden"]


def test_tools_block_accepts_one_object_per_line_a_run_of_objects_a_list_and_bare_functions():
    other = '{"name": "get_time", "parameters": {"type": "object"}}'
    for inner in (f"\n{WEATHER_TOOL}\n{other}\n", f"{WEATHER_TOOL}{other}", f" [{WEATHER_TOOL}, {other}] "):
        transcript = chatml(f"<|im_start|>system\n<tools>{inner}</tools><|im_end|>")
        assert set(transcript.tools) == {"functions.get_weather", "functions.get_time"}, inner
        assert codes(transcript) == []


def test_unreadable_tools_block_is_a_json_syntax_warning_and_keeps_what_it_read():
    transcript = chatml(f"<|im_start|>system\n<tools>\n{WEATHER_TOOL}\nget_time()\n</tools><|im_end|>")
    assert list(transcript.tools) == ["functions.get_weather"]
    only(transcript, "W-JSON-SYNTAX")


def test_tool_definition_without_a_name_in_tools_is_a_warning():
    transcript = chatml('<|im_start|>system\n<tools>{"type": "function", "function": {}}</tools><|im_end|>')
    assert "inside <tools>" in only(transcript, "W-TOOL-DEFINITION").message


def test_tools_outside_a_system_turn_declare_nothing():
    transcript = chatml(f"<|im_start|>user\n<tools>\n{WEATHER_TOOL}\n</tools><|im_end|>")
    assert transcript.tools == {}


# -- <tool_call> ------------------------------------------------------------------------------------------


def test_tool_call_becomes_a_call_message_of_the_turn():
    text = f"<|im_start|>assistant\n{CALL}<|im_end|>"
    (call,) = chatml(text).messages
    assert (call.role, call.channel, call.recipient, call.content_type, call.end) == (
        "assistant", "commentary", "functions.get_weather", "json", "call")
    assert json.loads(call.content) == {"city": "Paris"}
    (segment,) = call.segments
    assert (segment.kind, segment.text) == ("tool_call", '{"name": "get_weather", "arguments": {"city": "Paris"}}')
    assert text[slice(*segment.span)] == CALL


def test_several_tool_calls_give_several_calls_in_order():
    second = CALL.replace("Paris", "Rome")
    transcript = chatml(f"<|im_start|>assistant\n{CALL}\n{second}<|im_end|>")
    assert [json.loads(m.content)["city"] for m in transcript.messages] == ["Paris", "Rome"]
    assert {m.turn for m in transcript.messages} == {0}


def test_several_calls_in_one_block_give_several_calls():
    # ollama's Hermes 3 template writes every call of a turn into one block, one JSON object a line.
    text = ('<|im_start|>assistant\n<tool_call>\n{"name": "a", "arguments": {}}\n{"name": "b", "arguments": {}}\n'
            "</tool_call><|im_end|>")
    messages = chatml(text).messages
    assert [m.recipient for m in messages] == ["functions.a", "functions.b"]
    assert messages[0].span[1] <= messages[1].span[0]


def test_text_before_a_tool_call_stays_the_final_answer():
    transcript = chatml(f"<|im_start|>assistant\nLet me check.\n{CALL}<|im_end|>")
    assert [(m.channel, m.end) for m in transcript.messages] == [("final", "end"), ("commentary", "call")]
    assert transcript.messages[0].content == "Let me check."


def test_tool_call_with_unreadable_json_is_a_hidden_call_of_an_unknown_tool():
    text = '<|im_start|>assistant\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}\n</tool_call>'
    transcript = chatml(text + "<|im_end|>")
    (call,) = transcript.messages
    assert (call.is_call, call.recipient, call.content_type) == (True, None, None)
    assert call.content == '{"name": "get_weather", "arguments": {"city": "Paris"}'
    assert "not readable JSON" in only(transcript, "E-CALL-SCHEMA").message
    assert decisions(transcript) == ["marker"]


def test_tool_call_without_arguments_object_is_a_call_of_an_unknown_tool():
    transcript = chatml('<|im_start|>assistant\n<tool_call>\n{"name": "f", "arguments": "{}"}\n</tool_call><|im_end|>')
    assert transcript.messages[0].recipient is None
    assert '"arguments"' in only(transcript, "E-CALL-SCHEMA").message


def test_tool_call_breaking_its_declared_schema_is_a_call_schema_error():
    transcript = chatml(QWEN_SYSTEM + '<|im_start|>assistant\n<tool_call>\n{"name": "get_weather", "arguments": '
                                      '{"town": "Paris"}}\n</tool_call><|im_end|>')
    diagnostic = only(transcript, "E-CALL-SCHEMA")
    assert diagnostic.message_index == 1 and "declared schema" in diagnostic.message


def test_unclosed_tool_call_at_a_cut_runs_to_the_end():
    transcript = chatml('<|im_start|>assistant\n<tool_call>\n{"name": "get_weather", "argum')
    (call,) = transcript.messages
    assert (call.is_call, call.recipient, call.end) == (True, None, "call")
    assert sorted(codes(transcript)) == ["E-CALL-SCHEMA", "E-STREAM-TRUNCATED", "W-UNANSWERED-CALL", "W-UNCLOSED-BLOCK"]


def test_closing_tool_call_tag_without_an_opening_stays_text_with_a_warning():
    transcript = chatml("<|im_start|>assistant\nDone.</tool_call><|im_end|>")
    assert transcript.messages[0].content == "Done.</tool_call>"
    only(transcript, "W-UNMATCHED-TOKEN")


def test_tool_call_in_a_system_prompt_is_its_text():
    transcript = chatml(QWEN_SYSTEM)
    assert not any(m.is_call for m in transcript.messages)


# -- <tool_response> --------------------------------------------------------------------------------------


def test_tool_response_in_a_tool_turn_becomes_a_named_reply_paired_with_the_call():
    reply = '{"name": "get_weather", "content": {"temp": 21}}'
    transcript = chatml(f"<|im_start|>assistant\n{CALL}<|im_end|>\n"
                        f"<|im_start|>tool\n<tool_response>\n{reply}\n</tool_response>\n<|im_end|>")
    answer = transcript.messages[1]
    assert (answer.role, answer.name, answer.recipient, answer.channel, answer.content_type, answer.content) == (
        "tool", "functions.get_weather", "assistant", "commentary", "json", reply)
    assert [(s.kind, s.text) for s in answer.segments] == [("tool_response", reply)]
    assert [(p.call, p.reply) for p in transcript.pairs] == [(0, 1)]


def test_user_turn_made_only_of_tool_responses_gives_only_replies():
    second = CALL.replace("Paris", "Rome")
    transcript = chatml(f"<|im_start|>assistant\n{CALL}\n{second}<|im_end|>\n<|im_start|>user\n<tool_response>\n"
                        "18 C\n</tool_response>\n<tool_response>\n21 C\n</tool_response><|im_end|>")
    replies = transcript.messages[2:]
    assert [(m.role, m.content, m.content_type, m.turn) for m in replies] == [
        ("tool", "18 C", None, 1), ("tool", "21 C", None, 1)]
    assert [(p.call, p.reply, p.by) for p in transcript.pairs] == [(0, 2, "order"), (1, 3, "order")]
    assert decisions(transcript) == ["marker"] * 4


def test_user_turn_with_text_and_a_tool_response_keeps_the_text_a_user_message():
    transcript = chatml("<|im_start|>user\nHere it is:\n<tool_response>\n42\n</tool_response>\nThanks<|im_end|>")
    assert [(m.role, m.content) for m in transcript.messages] == [("user", "Here it is:"), ("tool", "42"),
                                                                  ("user", "Thanks")]


def test_tool_response_without_json_name_has_no_name():
    transcript = chatml('<|im_start|>tool\n<tool_response>\n{"content": 3}\n</tool_response><|im_end|>')
    assert transcript.messages[0].name is None and transcript.messages[0].content_type == "json"


def test_unclosed_tool_response_runs_to_the_end_of_the_body():
    transcript = chatml("<|im_start|>tool\n<tool_response>\nsunny<|im_end|>")
    assert [(m.role, m.content) for m in transcript.messages] == [("tool", "sunny")]
    only(transcript, "W-UNCLOSED-BLOCK")


# -- misplaced blocks fail closed -------------------------------------------------------------------------


def test_tool_response_in_an_assistant_turn_is_hidden_with_a_warning():
    transcript = chatml("<|im_start|>assistant\nSure.\n<tool_response>\n{\"temp\": 99}\n</tool_response>\n"
                        "Done.<|im_end|>")
    assert [(m.role, m.channel) for m in transcript.messages] == [
        ("assistant", "final"), ("tool_response", "unclassified"), ("assistant", "final")]
    assert decisions(transcript) == ["message", "hidden", "message"]
    assert only(transcript, "W-MISPLACED-BLOCK").message_index == 1
    assert transcript.pairs == ()


def test_tool_call_in_a_user_turn_is_hidden_with_a_warning():
    transcript = chatml(f"<|im_start|>user\nRun this: {CALL}<|im_end|>")
    assert [(m.role, m.channel) for m in transcript.messages] == [("user", "final"), ("tool_call", "unclassified")]
    assert decisions(transcript) == ["message", "hidden"]
    only(transcript, "W-MISPLACED-BLOCK")


def test_tool_call_in_a_tool_turn_is_hidden_and_not_a_reply():
    transcript = chatml(f"<|im_start|>tool\n{CALL}<|im_end|>")
    (message,) = transcript.messages
    assert (message.role, message.is_reply, message.is_call) == ("tool_call", False, False)
    assert decisions(transcript) == ["hidden"]


def test_unknown_tag_like_text_stays_the_answer():
    transcript = chatml("<|im_start|>assistant\n<answer>4</answer> and <tool>x</tool><|im_end|>")
    assert [(m.channel, m.content) for m in transcript.messages] == [
        ("final", "<answer>4</answer> and <tool>x</tool>")]
    assert codes(transcript) == []
