"""`<think>` reasoning as Qwen3, QwQ and DeepSeek-R1 templates write it into ChatML assistant turns."""
from __future__ import annotations

from tests.parse.chatml.helpers import chatml
from tests.parse.helpers import codes, only
from viewer import policy


def shape(transcript) -> list[tuple[str, str, str]]:
    return [(m.role, m.channel, m.content) for m in transcript.messages]


def shown(transcript) -> list[str]:
    """The contents the default view shows in full."""
    rules = policy.default_rules(transcript)
    return [m.content for m, rule in zip(transcript.messages, rules) if rule.show_as == "message"]


def test_closed_think_block_becomes_an_analysis_message_before_the_answer():
    text = "<|im_start|>assistant\n<think>\nThe user greets me.\n</think>\n\nHello! How can I help?<|im_end|>"
    transcript = chatml(text)
    assert shape(transcript) == [("assistant", "analysis", "The user greets me."),
                                 ("assistant", "final", "Hello! How can I help?")]
    assert {m.turn for m in transcript.messages} == {0}
    assert codes(transcript) == []


def test_think_segment_spans_the_block_with_its_tags():
    text = "<|im_start|>assistant\n<think>\nx\n</think>\n\nAnswer<|im_end|>"
    thought, answer = chatml(text).messages
    (segment,) = thought.segments
    assert (segment.kind, segment.text) == ("think", "x")
    assert text[slice(*segment.span)] == "<think>\nx\n</think>"


def test_line_breaks_after_the_closing_tag_are_layout_not_answer():
    text = "<|im_start|>assistant\n<think>\nx\n</think>\n\n    indented code<|im_end|>"
    answer = chatml(text).messages[1]
    assert answer.content == "    indented code"
    assert text[answer.span[0]:].startswith("    indented")


def test_reasoning_is_hidden_and_the_answer_shown_by_default():
    transcript = chatml("<|im_start|>user\nHi<|im_end|>\n"
                        "<|im_start|>assistant\n<think>\nsecret plan\n</think>\n\nHello.<|im_end|>")
    assert shown(transcript) == ["Hi", "Hello."]


def test_empty_think_block_of_thinking_off_is_an_empty_hidden_analysis_message():
    transcript = chatml("<|im_start|>assistant\n<think>\n\n</think>\n\nFour.<|im_end|>")
    assert shape(transcript) == [("assistant", "analysis", ""), ("assistant", "final", "Four.")]
    assert shown(transcript) == ["Four."]
    assert codes(transcript) == []


def test_closing_tag_only_makes_the_turn_up_to_it_reasoning():
    # QwQ and DeepSeek-R1 templates put `<think>\n` into the generation prompt: the model's text starts inside.
    text = "<|im_start|>assistant\nOkay, 2+2 is 4.\n</think>\n\nThe answer is 4.<|im_end|>"
    transcript = chatml(text)
    assert shape(transcript) == [("assistant", "analysis", "Okay, 2+2 is 4."),
                                 ("assistant", "final", "The answer is 4.")]
    assert text[slice(*transcript.messages[0].segments[0].span)] == "Okay, 2+2 is 4.\n</think>"
    assert codes(transcript) == []


def test_closing_tag_only_takes_tool_tags_before_it_as_reasoning():
    text = ('<|im_start|>assistant\nMaybe <tool_call>{"name": "f", "arguments": {}}</tool_call>? No.\n</think>\n\n'
            "Done.<|im_end|>")
    transcript = chatml(text)
    assert [(m.channel, m.is_call) for m in transcript.messages] == [("analysis", False), ("final", False)]


def test_unclosed_think_at_a_cut_is_reasoning_with_truncation_diagnostics():
    transcript = chatml("<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n<think>\nLet me consider")
    reasoning = transcript.messages[-1]
    assert (reasoning.channel, reasoning.content, reasoning.end) == ("analysis", "Let me consider", "eof")
    assert codes(transcript) == ["E-STREAM-TRUNCATED", "W-UNCLOSED-BLOCK"]
    assert shown(transcript) == ["Hi"]


def test_unclosed_think_in_a_closed_turn_runs_to_the_end_of_the_body():
    transcript = chatml("<|im_start|>assistant\nSure. <think>still thinking<|im_end|>")
    assert shape(transcript) == [("assistant", "final", "Sure. "), ("assistant", "analysis", "still thinking")]
    only(transcript, "W-UNCLOSED-BLOCK")


def test_closing_tag_after_other_parts_makes_the_text_since_reasoning_with_a_warning():
    text = "<|im_start|>assistant\n<think>a</think>\n\nb</think>c<|im_end|>"
    transcript = chatml(text)
    assert shape(transcript) == [("assistant", "analysis", "a"), ("assistant", "analysis", "b"),
                                 ("assistant", "final", "c")]
    assert only(transcript, "W-THINK-UNOPENED").message_index == 1


def test_several_think_blocks_keep_their_order_between_answers():
    transcript = chatml("<|im_start|>assistant\n<think>a</think>x<think>b</think>y<|im_end|>")
    assert [m.channel for m in transcript.messages] == ["analysis", "final", "analysis", "final"]


def test_tags_inside_a_think_block_are_its_text():
    transcript = chatml('<|im_start|>assistant\n<think>I could <tool_call>{"name": "f"}</tool_call></think>\n'
                        "Answer<|im_end|>")
    assert shape(transcript)[0] == ("assistant", "analysis", 'I could <tool_call>{"name": "f"}</tool_call>')
    assert codes(transcript) == []


def test_think_between_backticks_is_text():
    transcript = chatml("<|im_start|>assistant\nModels write `<think>` first, then `</think>`.<|im_end|>")
    assert shape(transcript) == [("assistant", "final", "Models write `<think>` first, then `</think>`.")]


def test_think_in_a_user_turn_stays_the_users_text():
    transcript = chatml("<|im_start|>user\nWhy does it print <think>hmm</think>?<|im_end|>")
    assert shape(transcript) == [("user", "final", "Why does it print <think>hmm</think>?")]


def test_think_in_a_primed_assistant_completion():
    transcript = chatml("plan it\n</think>\n\nDone.<|im_end|>", primed_role="assistant")
    assert shape(transcript) == [("assistant", "analysis", "plan it"), ("assistant", "final", "Done.")]


def test_think_blocks_of_a_turn_keep_the_envelope_name():
    transcript = chatml("<|im_start|>assistant name=qwen\n<think>x</think>y<|im_end|>")
    assert {m.name for m in transcript.messages} == {"qwen"}
