"""The shared turn reader: markers count only where the grammar allows them, a turn never closed ends at the
first opener inside it, an opener at the end is a generation prompt, and text a closer implies
opens a turn of its own."""
from __future__ import annotations

from tests.parse.helpers import codes, only
from viewer.parse import parse

H = "<|start_header_id|>{}<|end_header_id|>\n\n"


def llama(*turns: tuple[str, str], tail: str = "") -> str:
    return "".join(H.format(role) + body + "<|eot_id|>" for role, body in turns) + tail


def test_an_opener_inside_a_closed_turn_is_text():
    quoted = "Why does " + H.format("assistant") + " appear in my output?"
    transcript = parse(llama(("user", quoted), ("assistant", "Because of the template.")))
    assert [m.role for m in transcript.messages] == ["user", "assistant"]
    assert transcript.messages[0].content == quoted.strip()
    assert codes(transcript) == []


def test_a_turn_never_closed_ends_at_the_first_opener_inside_it():
    # Nothing closes the user turn: it was cut, and the opener inside it started the next turn.
    transcript = parse(H.format("user") + "cut here" + H.format("assistant") + "Hello")
    assert [(m.role, m.content, m.end) for m in transcript.messages] == [("user", "cut here", "eof"),
                                                                         ("assistant", "Hello", "eof")]
    assert only(transcript, "W-START-IN-BODY").message_index == 0
    assert only(transcript, "E-STREAM-TRUNCATED").message_index == 1


def test_a_closer_after_an_opener_inside_a_turn_closes_that_turn():
    # A closed turn holding an opener reads as a quoted template, even when it was a cut turn: nothing tells them
    # apart, and showing a quoted prompt as written is the safe reading.
    transcript = parse(H.format("user") + "cut here" + llama(("assistant", "Hello")))
    assert [(m.role, m.end) for m in transcript.messages] == [("user", "end")]


def test_an_opener_at_the_end_is_the_generation_prompt_not_a_cut_message():
    transcript = parse(llama(("user", "Hi"), tail=H.format("assistant")))
    assert [m.role for m in transcript.messages] == ["user"]
    assert [segment.kind for segment in transcript.frame] == ["generation_prompt"]
    assert codes(transcript) == []


def test_a_turn_cut_by_the_end_of_the_text_is_truncated():
    transcript = parse(llama(("user", "Hi"), tail=H.format("assistant") + "Hel"))
    assert transcript.messages[-1].end == "eof"
    assert only(transcript, "E-STREAM-TRUNCATED").message_index == 1


def test_text_after_a_closer_that_implies_a_turn_opens_one():
    # Mistral writes the answer right after [/TOOL_RESULTS], with no opener of its own.
    transcript = parse('[INST]Weather?[/INST][TOOL_CALLS][{"name": "w", "arguments": {}, "id": "a1b2c3d4e"}]</s>'
                       '[TOOL_RESULTS]a1b2c3d4e[TOOL_CONTENT]sunny[/TOOL_RESULTS]It is sunny.</s>')
    assert [(m.role, m.content) for m in transcript.messages][-1] == ("assistant", "It is sunny.")
    assert codes(transcript) == []


def test_text_between_turns_that_no_closer_implies_is_stray():
    transcript = parse(llama(("user", "Hi")) + " stray " + llama(("assistant", "Hello")))
    assert only(transcript, "W-STRAY-TEXT").span == (transcript.source.index("stray"),
                                                     transcript.source.index("stray") + len("stray"))


def test_a_closer_that_ends_nothing_open_is_stray():
    transcript = parse(llama(("user", "Hi")) + "<|eot_id|>")
    assert only(transcript, "W-STRAY-TEXT").message_index is None
