"""Tokens inside a ChatML body: thought flags and blocks, fill-in-the-middle and multi-file documents."""
from __future__ import annotations

from tests.parse.chatml.helpers import chatml
from tests.parse.helpers import only


# -- thought flags and blocks -----------------------------------------------------------------------------


def test_thought_flags_become_flag_segments_and_leave_the_content():
    text = "<|im_start|>system\nBe helpful.<|reflect|><|introspect|><|reason|><|im_end|>"
    message = chatml(text).messages[0]
    assert message.content == "Be helpful."
    assert [(s.kind, s.text) for s in message.segments] == [
        ("text", "Be helpful."), ("flag", "reflect"), ("flag", "introspect"), ("flag", "reason")]
    assert message.segments[1].span == (30, 41)


def test_thought_blocks_become_analysis_messages_of_the_same_turn():
    text = ("<|im_start|>assistant name=Sage\n<|start_reflect|>Curious user.<|end_reflect|>\n"
            "<|start_reason|>Label says Band-Aid.<|end_reason|>\nBandages.<|im_end|>")
    messages = chatml(text).messages
    assert [(m.role, m.channel, m.channel_explicit, m.turn) for m in messages] == [
        ("assistant", "analysis", False, 0), ("assistant", "analysis", False, 0), ("assistant", "final", False, 0)]
    assert [m.content for m in messages] == ["Curious user.", "Label says Band-Aid.", "Bandages."]
    assert [[s.kind for s in m.segments] for m in messages] == [["reflect"], ["reason"], []]
    assert {m.name for m in messages} == {"Sage"}


def test_messages_of_a_turn_have_ordered_non_overlapping_spans():
    text = "<|im_start|>assistant\n<|start_reason|>think<|end_reason|>\nanswer\n<|im_end|>"
    thought, final = chatml(text).messages
    block = (22, 57)
    assert text[slice(*block)] == "<|start_reason|>think<|end_reason|>"
    assert thought.segments[0].span == block
    assert thought.span == (0, 57)  # the first message of a turn also covers the header
    assert final.span == (57, len(text))
    assert thought.header == (0, 21) and final.header is None


def test_unclosed_thought_block_runs_to_the_end_of_the_body_with_a_warning():
    text = "<|im_start|>assistant\n<|start_reason|>I was thinking\n<|im_end|>"
    transcript = chatml(text)
    assert [(m.channel, m.content) for m in transcript.messages] == [("analysis", "I was thinking")]
    diagnostic = only(transcript, "W-UNCLOSED-BLOCK")
    assert diagnostic.span == (22, 52)


def test_end_token_without_an_open_block_stays_text_with_a_warning():
    transcript = chatml("<|im_start|>assistant\nDone.<|end_reason|>\n<|im_end|>")
    assert transcript.messages[0].content == "Done.<|end_reason|>"
    only(transcript, "W-UNMATCHED-TOKEN")


def test_thought_block_outside_an_assistant_message_is_a_segment():
    message = chatml("<|im_start|>user\nSee <|start_reason|>my notes<|end_reason|>.<|im_end|>").messages[0]
    assert message.content == "See my notes."
    assert [(s.kind, s.text) for s in message.segments] == [("text", "See "), ("reason", "my notes"), ("text", ".")]


def test_text_on_both_sides_of_a_block_gives_a_final_message_for_each_stretch():
    text = "<|im_start|>assistant\nLet me think.\n<|start_reason|>hmm<|end_reason|>\nYes.<|im_end|>"
    messages = chatml(text).messages
    assert [(m.channel, m.content) for m in messages] == [("final", "Let me think."), ("analysis", "hmm"),
                                                          ("final", "Yes.")]
    assert [m.span for m in messages] == [(0, 36), (36, 69), (69, len(text))]


def test_token_between_backticks_is_text():
    message = chatml("<|im_start|>system\nTools follow the `<|function_list|>` tag.<|im_end|>").messages[0]
    assert message.content == "Tools follow the `<|function_list|>` tag."
    assert message.segments == ()


# -- fill-in-the-middle and multi-file --------------------------------------------------------------------


def test_fim_task_outside_messages_becomes_a_user_message_with_three_panels():
    text = "<|fim_prefix|>The capital of France is <|fim_middle|><|fim_suffix|>, known for the Eiffel Tower."
    (message,) = chatml(text).messages
    assert (message.role, message.channel) == ("user", "final")
    assert [(s.kind, s.text, s.span) for s in message.segments] == [
        ("fim_prefix", "The capital of France is ", (0, 39)), ("fim_middle", "", (39, 53)),
        ("fim_suffix", ", known for the Eiffel Tower.", (53, len(text)))]
    assert message.content == "The capital of France is , known for the Eiffel Tower."


def test_fim_completion_keeps_the_infill_in_the_middle_segment_exactly():
    text = "<|fim_prefix|>def f():\n    <|fim_middle|>return 1\n<|fim_suffix|>\nprint(f())"
    (message,) = chatml(text).messages
    assert [s.text for s in message.segments] == ["def f():\n    ", "return 1\n", "\nprint(f())"]
    assert message.content == "def f():\n    return 1\n\nprint(f())"


def test_multi_file_sequence_has_one_file_segment_per_file():
    text = "first file\n<|file_separator|>\nsecond file\nmore\n<|file_separator|>\nthird file"
    (message,) = chatml(text).messages
    assert [(s.kind, s.text) for s in message.segments] == [
        ("file", "first file"), ("file", "second file\nmore"), ("file", "third file")]
    assert message.segments[1].span == (11, 47)


def test_fim_after_file_separators_gives_file_then_fim_segments():
    text = "<|file_separator|>\nnotes\n<|file_separator|>\n<|fim_prefix|><|fim_middle|><|fim_suffix|> end"
    (message,) = chatml(text).messages
    assert [s.kind for s in message.segments] == ["file", "fim_prefix", "fim_middle", "fim_suffix"]


def test_fim_inside_a_message_gives_segments_of_that_message():
    text = "<|im_start|>user\n<|fim_prefix|>a = <|fim_middle|><|fim_suffix|>\nprint(a)\n<|im_end|>"
    (message,) = chatml(text).messages
    assert message.header == (0, 16)
    assert [s.kind for s in message.segments] == ["fim_prefix", "fim_middle", "fim_suffix"]
    assert message.content == "a = \nprint(a)"


def test_fim_document_between_envelopes_is_its_own_turn():
    text = "<|im_start|>user\nHi<|im_end|>\n<|fim_prefix|>x<|fim_middle|><|fim_suffix|>y"
    assert [(m.turn, m.role) for m in chatml(text).messages] == [(0, "user"), (1, "user")]
