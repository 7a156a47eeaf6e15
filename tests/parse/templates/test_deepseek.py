"""DeepSeek: the system prompt after BOS, reasoning, the R1/V3 and V3.1 call shapes, and tool outputs."""
from __future__ import annotations

import json

from tests.parse.helpers import codes
from viewer.parse import parse
from viewer.parse.templates.deepseek import (ASSISTANT, BOS, CALL_BEGIN, CALL_END, CALLS_BEGIN, CALLS_END, EOS,
                                             OUTPUT_BEGIN, OUTPUT_END, OUTPUTS_BEGIN, OUTPUTS_END, SEPARATOR, USER)


def test_the_text_after_bos_is_the_system_prompt_and_think_is_reasoning():
    transcript = parse(f"{BOS}Be kind.{USER}Hi{ASSISTANT}<think>\nGreet.\n</think>\n\nHello!{EOS}")
    assert [(m.role, m.channel, m.content) for m in transcript.messages] == [
        ("system", "final", "Be kind."), ("user", "final", "Hi"), ("assistant", "analysis", "Greet."),
        ("assistant", "final", "Hello!")]


def test_r1_fenced_calls_and_grouped_outputs_pair_in_order():
    call = f'{CALL_BEGIN}function{SEPARATOR}w\n```json\n{{"c": "Hangzhou"}}\n```{CALL_END}'
    transcript = parse(f"{USER}Weather?{ASSISTANT}{CALLS_BEGIN}{call}{CALLS_END}{EOS}"
                       f"{OUTPUTS_BEGIN}{OUTPUT_BEGIN}24{OUTPUT_END}{OUTPUTS_END}24 °C.{EOS}")
    roles = [(m.role, m.channel, m.recipient) for m in transcript.messages]
    assert roles == [("user", "final", None), ("assistant", "commentary", "functions.w"),
                     ("tool", "commentary", "assistant"), ("assistant", "final", None)]
    assert json.loads(transcript.messages[1].content) == {"c": "Hangzhou"}
    assert [(pair.call, pair.reply) for pair in transcript.pairs] == [(1, 2)]


def test_v31_calls_and_lone_outputs():
    calls = "".join(f'{CALL_BEGIN}w{SEPARATOR}{{"c": "{city}"}}{CALL_END}' for city in ("Beijing", "Shanghai"))
    transcript = parse(f"{USER}Both?{ASSISTANT}</think>{CALLS_BEGIN}{calls}{CALLS_END}{EOS}"
                       f"{OUTPUT_BEGIN}12{OUTPUT_END}{OUTPUT_BEGIN}18{OUTPUT_END}Shanghai.{EOS}")
    assert [json.loads(m.content)["c"] for m in transcript.messages if m.is_call] == ["Beijing", "Shanghai"]
    assert [(pair.call, pair.reply) for pair in transcript.pairs] == [(1, 3), (2, 4)]
    assert codes(transcript) == []


def test_a_think_tag_named_in_an_answer_is_text():
    transcript = parse(f"{USER}What is </think>?{ASSISTANT}The </think> tag ends reasoning.{EOS}")
    assert [(m.role, m.channel) for m in transcript.messages] == [("user", "final"), ("assistant", "final")]


def test_a_completion_without_an_opener_has_its_reasoning_before_a_lone_closer():
    transcript = parse("Let me think.</think>Done.", primed_role="assistant", dialect="deepseek")
    assert [(m.channel, m.content) for m in transcript.messages] == [("analysis", "Let me think."),
                                                                     ("final", "Done.")]


def test_a_generation_prompt_with_think_is_frame():
    transcript = parse(f"{USER}Hi{ASSISTANT}<think>\n")
    assert [m.role for m in transcript.messages] == ["user"]
    assert [segment.kind for segment in transcript.frame] == ["generation_prompt"]


def test_a_fenced_call_with_a_long_run_of_spaces_is_read_in_linear_time():
    # The fence's pattern tried `\s*` again at every space of the run: cubic, minutes for this call.
    spaced = f'{CALL_BEGIN}function{SEPARATOR}w\n```json\n{{"c":' + " " * 20_000 + f'"Hangzhou"}}\n```{CALL_END}'
    unclosed = f'{CALL_BEGIN}function{SEPARATOR}w\n```json\n' + " " * 20_000 + f"{CALL_END}"
    for call, readable in ((spaced, True), (unclosed, False)):
        transcript = parse(f"{USER}Weather?{ASSISTANT}{CALLS_BEGIN}{call}{CALLS_END}{EOS}")
        assert transcript.messages[1].recipient == ("functions.w" if readable else None)
    assert json.loads(parse(f"{USER}Weather?{ASSISTANT}{CALLS_BEGIN}{spaced}{CALLS_END}{EOS}").messages[1].content) \
        == {"c": "Hangzhou"}
