"""The Harmony / OpenChatML 2.x reader: how messages end, literal blocks, chain-of-thought markers,
completions, text between messages, spans, and any input."""
from __future__ import annotations

import gc

import pytest
from hypothesis import given, strategies as st

from tests.parse.harmony.helpers import only, read
from tests.parse.helpers import assert_accounted_for, codes
from viewer.model import Message, Meta


# --- ends -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("token, end", [("<|end|>", "end"), ("<|call|>", "call"), ("<|return|>", "return")])
def test_stop_token_sets_end(token, end):
    assert only(read(f"<|start|>assistant<|channel|>final<|message|>x{token}")).end == end


def test_input_ending_inside_a_body_keeps_the_partial_body_as_truncated():
    text = "<|start|>assistant<|channel|>final<|message|>Once upon a"
    t = read(text)
    m = only(t)
    assert (m.content, m.end, m.span) == ("Once upon a", "eof", (0, len(text)))
    (diagnostic,) = t.diagnostics
    assert (diagnostic.code, diagnostic.span, diagnostic.message_index) == ("E-STREAM-TRUNCATED", (45, 56), 0)


def test_input_ending_inside_a_header_keeps_what_there_is_with_e_parse_header():
    t = read("<|start|>user<|message|>Hi<|end|><|start|>assistant to=functions.f<|channel|>commentary")
    m = t.messages[1]
    assert (m.role, m.recipient, m.channel, m.content, m.end) == ("assistant", "functions.f", "commentary", "", "eof")
    assert codes(t) == ["E-PARSE-HEADER"]


def test_a_header_cut_by_a_stop_token_is_an_empty_message_with_e_parse_header():
    t = read("<|start|>assistant<|end|>")
    assert (only(t).end, only(t).content) == ("end", "")
    assert codes(t) == ["E-PARSE-HEADER"]


def test_a_trailing_open_start_assistant_is_a_generation_prompt_not_an_error():
    t = read("<|start|>user<|message|>Hi<|end|><|start|>assistant")
    assert len(t.messages) == 1
    assert codes(t) == []
    assert [(s.kind, s.text, s.span) for s in t.frame] == [("generation_prompt", "assistant", (33, 51))]


def test_a_start_inside_a_body_closes_the_message_and_starts_a_new_one():
    text = "<|start|>user<|message|>Hi\n<|start|>assistant<|message|>Hello<|end|>"
    t = read(text)
    first, second = t.messages
    assert (first.content, first.end, first.span) == ("Hi\n", "eof", (0, 27))
    assert (second.role, second.content, second.end) == ("assistant", "Hello", "end")
    (diagnostic,) = t.diagnostics
    assert (diagnostic.code, diagnostic.span, diagnostic.message_index) == ("W-START-IN-BODY", (27, 36), 0)
    assert "<<|start|>" in diagnostic.message


def test_an_escaped_start_inside_a_body_is_text():
    m = only(read("<|start|>user<|message|>Write <<|start|> first.<|end|>"))
    assert m.content == "Write <|start|> first."


# --- literal blocks and escapes -------------------------------------------------------------------------------

def test_literal_block_is_unwrapped_without_the_newlines_next_to_its_markers():
    m = only(read("<|start|>user<|message|>See:\n<|literal|>\n<|start|><|end|>\n<|endliteral|>\nDone<|end|>"))
    assert m.content == "See:\n<|start|><|end|>\nDone"


def test_literal_block_is_a_segment_spanning_its_markers():
    text = "<|start|>user<|message|>A<|literal|>x<<|y<|endliteral|>B<|end|>"
    m = only(read(text))
    assert [(s.kind, s.text, text[s.span[0]:s.span[1]]) for s in m.segments] == [
        ("text", "A", "A"), ("literal", "x<<|y", "<|literal|>x<<|y<|endliteral|>"), ("text", "B", "B")]


def test_escapes_are_resolved_in_content_and_kept_raw_in_the_source_span():
    text = "<|start|>user<|message|>Type <<|end|> to stop.<|end|>"
    t = read(text)
    assert only(t).content == "Type <|end|> to stop."
    assert t.text(only(t).span) == text


def test_an_unterminated_literal_block_runs_to_the_end_of_input_with_a_diagnostic():
    text = "<|start|>user<|message|>x<|literal|>\n<|end|> and more"
    t = read(text)
    m = only(t)
    assert (m.content, m.end) == ("x<|end|> and more", "eof")
    assert codes(t) == ["W-UNTERMINATED-LITERAL", "E-STREAM-TRUNCATED"]
    assert t.diagnostics[0].span == (25, len(text))


# --- chain-of-thought markers ---------------------------------------------------------------------------------

def test_cot_markers_in_analysis_become_segments_and_leave_the_content():
    text = ("<|start|>assistant<|channel|>analysis<|message|>Go.<|start_reason|>2+2=4<|end_reason|>"
            "<|start_reflect|>Sure?<|end|>")
    m = only(read(text))
    assert m.content == "Go.2+2=4Sure?"
    assert [(s.kind, s.text) for s in m.segments] == [("text", "Go."), ("reason", "2+2=4"), ("reflect", "Sure?")]
    assert text[m.segments[1].span[0]:m.segments[1].span[1]] == "<|start_reason|>2+2=4<|end_reason|>"


def test_an_unclosed_cot_marker_runs_to_the_next_marker():
    m = only(read("<|start|>assistant<|channel|>analysis<|message|><|start_introspect|>a<|start_reason|>b<|end|>"))
    assert [(s.kind, s.text) for s in m.segments] == [("introspect", "a"), ("reason", "b")]


def test_cot_markers_outside_analysis_are_text():
    m = only(read("<|start|>assistant<|channel|>final<|message|>x<|start_reason|>y<|end|>"))
    assert (m.content, m.segments) == ("x<|start_reason|>y", ())


# --- completions ----------------------------------------------------------------------------------------------

def test_a_completion_beginning_at_channel_reads_as_an_assistant_message():
    t = read("<|channel|>final<|message|>Hi<|return|>")
    assert (only(t).role, only(t).channel, only(t).end, only(t).span) == ("assistant", "final", "return", (0, 39))
    assert codes(t) == []


def test_a_completion_beginning_with_to_reads_as_an_assistant_call():
    t = read(' to=functions.f<|channel|>commentary json<|message|>{"a": 1}<|call|>')
    assert (only(t).role, only(t).recipient, only(t).content_type) == ("assistant", "functions.f", "json")
    assert codes(t) == []


def test_primed_role_continues_the_primed_header():
    m = only(read("<|channel|>analysis<|message|>Thinking<|end|>", primed_role="user"))
    assert (m.role, m.channel, m.content) == ("user", "analysis", "Thinking")


def test_primed_role_with_plain_text_reads_the_text_as_the_body():
    m = only(read("Hello there<|return|>", primed_role="assistant"))
    assert (m.role, m.content, m.end, m.header) == ("assistant", "Hello there", "return", None)


# --- between messages -----------------------------------------------------------------------------------------

def test_no_whitespace_or_newlines_between_messages_are_both_fine():
    glued = read("<|start|>user<|message|>a<|end|><|start|>user<|message|>b<|end|>")
    spaced = read("<|start|>user<|message|>a<|end|>\n\n<|start|>user<|message|>b<|end|>\n")
    assert [m.content for m in glued.messages] == [m.content for m in spaced.messages] == ["a", "b"]
    assert codes(glued) == codes(spaced) == []


def test_stray_text_between_messages_is_a_warning_covering_exactly_that_text():
    text = "<|start|>user<|message|>a<|end|>\n  note to self \n<|start|>user<|message|>b<|end|>"
    t = read(text)
    (diagnostic,) = t.diagnostics
    assert (diagnostic.code, text[diagnostic.span[0]:diagnostic.span[1]]) == ("W-STRAY-TEXT", "note to self")


def test_a_stray_stop_token_between_messages_is_stray_text():
    t = read("<|start|>user<|message|>a<|end|><|end|>")
    assert codes(t) == ["W-STRAY-TEXT"]
    assert t.diagnostics[0].span == (32, 39)


# --- spans and turns ------------------------------------------------------------------------------------------

def test_message_span_runs_from_start_to_the_stop_token_and_header_span_to_message_token():
    text = "\n<|start|>assistant<|channel|>final<|message|>Hi<|end|>\n"
    m = only(read(text))
    assert text[m.span[0]:m.span[1]] == "<|start|>assistant<|channel|>final<|message|>Hi<|end|>"
    assert text[m.header[0]:m.header[1]] == "<|start|>assistant<|channel|>final<|message|>"


def test_turn_is_the_message_index():
    t = read("<|start|>user<|message|>a<|end|><|start|>assistant<|message|>b<|end|>")
    assert [(m.index, m.turn) for m in t.messages] == [(0, 0), (1, 1)]


# --- implementation guards ------------------------------------------------------------------------------------

def test_a_message_is_frozen_and_equal_to_one_made_with_the_same_fields():
    values = dict(index=3, turn=3, role="tool", body="{}", span_start=1, span_end=9, name="functions.f",
                  recipient="assistant", channel="commentary", channel_explicit=True, content_type="json",
                  constrained=True, intent="status", call_id="c", end="call", segments=(), header_start=1,
                  header_end=4, thread="a1", parent=2, meta=Meta(timestamp="2025-09-14T09:00:01Z"), aside=True,
                  media=(), source=None, body_at=0, body_length=0)
    assert Message.__struct_fields__ == tuple(values)
    made = Message(**values)
    assert made == Message(**values) and hash(made) == hash(Message(**values))
    assert made.span == (1, 9) and made.header == (1, 4) and made.content == "{}"
    with pytest.raises(AttributeError):
        made.role = "user"


def test_a_body_left_in_the_source_reads_and_compares_as_its_text():
    source = "<|start|>user<|message|>Hi there<|end|>" * 1000
    kept = Message(index=0, turn=0, role="user", body=None, span_start=0, span_end=39, header_start=0, header_end=24,
                   source=source, body_at=24, body_length=8)
    own = Message.drafted("Hi there", (0, 39), (0, 24), index=0, turn=0, role="user")
    assert kept.content == "Hi there" and kept == own and hash(kept) == hash(own)
    assert kept != own.changed(content="Hi  there") and kept.changed(content="Bye").content == "Bye"
    assert repr(kept) == repr(own) and "<|end|><|start|>" not in repr(kept)
    assert read(source[:39]).messages[0].body is None  # a plain message leaves its body in the source


def test_parsing_leaves_the_garbage_collector_as_it_found_it():
    assert gc.isenabled()
    read("<|start|>user<|message|>a<|end|>")
    assert gc.isenabled()
    gc.disable()
    try:
        read("<|start|>user<|message|>a<|end|>")
        assert not gc.isenabled()
    finally:
        gc.enable()


# --- any input ------------------------------------------------------------------------------------------------

HARMONY_PIECES = ["<|start|>", "<|end|>", "<|message|>", "<|channel|>", "<|constrain|>", "<|call|>", "<|return|>",
                  "<|literal|>", "<|endliteral|>", "<<|end|>", "<|start_reason|>", "<|end_reason|>", "assistant",
                  "functions.f", "user:bob", " to=", "call_id=", " json", "analysis", "\n", " ", "<", "---\n",
                  "version: 2.2\n", "x: [\n"]


@given(st.lists(st.one_of(st.sampled_from(HARMONY_PIECES), st.text(max_size=4)), max_size=30).map("".join),
       st.sampled_from((None, "assistant", "user", "functions.f")))
def test_any_text_with_any_primed_role_is_read_with_every_character_accounted_for(text, primed_role):
    transcript = read(text, primed_role)
    assert_accounted_for(transcript, text)
    transcript.to_json()
