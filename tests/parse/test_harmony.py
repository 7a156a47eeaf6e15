"""The Harmony / OpenChatML 2.x parser: one behaviour per test."""
from __future__ import annotations

import dataclasses
import gc

import pytest
from hypothesis import given, strategies as st

from tests.test_parse_invariants import assert_accounted_for
from viewer.model import Message
from viewer.parse import parse
from viewer.parse.harmony import _new_message, parse_harmony
from viewer.parse.options import ParseOptions
from viewer.parse.tool_namespace import read_tool_namespaces


def read(text: str, primed_role: str | None = None):
    return parse_harmony(text, ParseOptions(primed_role=primed_role))


def codes(transcript) -> list[str]:
    return [diagnostic.code for diagnostic in transcript.diagnostics]


def only(transcript) -> Message:
    assert len(transcript.messages) == 1, transcript.messages
    return transcript.messages[0]


# --- YAML document header -------------------------------------------------------------------------------------

def test_fenced_yaml_header_is_read_and_makes_the_dialect_openchatml():
    t = read("---\nversion: 2.2\nmodel: gpt-oss-120b\n---\n<|start|>user<|message|>Hi<|end|>")
    assert t.header == {"version": 2.2, "model": "gpt-oss-120b"}
    assert t.dialect == "openchatml"
    assert only(t).content == "Hi"


def test_yaml_header_without_fences_ends_at_the_first_line_that_starts_with_a_token():
    t = read("version: 2.0\nmodel: m\n<|start|>user<|message|>Hi<|end|>")
    assert t.header == {"version": 2.0, "model": "m"}
    assert only(t).span == (22, 55)


def test_yaml_header_may_quote_control_tokens():
    t = read('version: 2.2\ncapabilities:\n  tokens: ["<|start|>", "<|end|>"]\n<|start|>user<|message|>Hi<|end|>')
    assert t.header["capabilities"] == {"tokens": ["<|start|>", "<|end|>"]}
    assert codes(t) == []


def test_unknown_yaml_keys_are_kept_and_none_is_required():
    t = read("---\nversion: 2.2\nfavourite_colour: teal\n---\n")
    assert t.header == {"version": 2.2, "favourite_colour": "teal"}
    assert read("---\nmodel: m\n---\n<|start|>user<|message|>Hi<|end|>").header == {"model": "m"}


def test_yaml_header_without_a_2x_version_leaves_the_dialect_harmony():
    assert read("---\nversion: 1.0\n---\n<|start|>user<|message|>Hi<|end|>").dialect == "harmony"
    assert read("<|start|>user<|message|>Hi<|end|>").dialect == "harmony"


def test_yaml_header_region_is_a_frame_segment():
    t = read("---\nversion: 2.2\n---\n\n<|start|>user<|message|>Hi<|end|>")
    assert [(s.kind, s.text, s.span) for s in t.frame] == [("yaml_header", "version: 2.2\n", (0, 20))]


def test_yaml_header_that_fails_to_load_is_e_parse_header_at_its_position_and_the_rest_is_parsed():
    text = "---\nversion: 2.2\nsettings:\n  a: 1\n   b: 2\n---\n<|start|>user<|message|>Hi<|end|>"
    t = read(text)
    (diagnostic,) = t.diagnostics
    assert diagnostic.code == "E-PARSE-HEADER"
    assert text[diagnostic.span[0]:diagnostic.span[1]] == ": 2"
    assert "header line 4" in diagnostic.message
    assert t.dialect == "openchatml"  # the version line is still readable
    assert only(t).content == "Hi"


def test_yaml_header_that_is_not_a_mapping_is_e_parse_header():
    t = read("---\n- version\n- 2.2\n---\n<|start|>user<|message|>Hi<|end|>")
    assert codes(t) == ["E-PARSE-HEADER"]
    assert t.header == {}


def test_yaml_dates_become_strings_so_the_model_stays_json():
    assert read("---\nversion: 2.2\ndate: 2025-08-08\n---\n").header["date"] == "2025-08-08"


def test_yaml_alias_bomb_is_refused_not_expanded():
    bomb = "---\nversion: 2.2\na: &a [x, x, x, x, x, x, x, x, x, x]\n"
    for level in "bcdefg":
        previous = chr(ord(level) - 1)
        bomb += f"{level}: &{level} [*{previous}, *{previous}, *{previous}, *{previous}, *{previous}, *{previous}]\n"
    t = read(bomb + "---\n")
    assert codes(t) == ["E-PARSE-HEADER"]
    assert t.header == {}


# --- headers --------------------------------------------------------------------------------------------------

def test_attributes_in_the_start_header_are_read_in_any_order():
    m = only(read("<|start|>assistant intent=status content_type=markdown name=bot call_id=c1 to=functions.f"
                  "<|channel|>commentary<|message|>x<|end|>"))
    assert (m.role, m.recipient, m.call_id, m.name, m.intent, m.content_type, m.constrained) == (
        "assistant", "functions.f", "c1", "bot", "status", "markdown", False)


def test_attributes_after_the_channel_are_read():
    m = only(read("<|start|>assistant<|channel|>commentary to=functions.f intent=preamble call_id=c2<|message|>x<|end|>"))
    assert (m.recipient, m.intent, m.call_id, m.channel) == ("functions.f", "preamble", "c2", "commentary")


def test_a_lone_intent_attribute_is_not_a_recipient():
    m = only(read("<|start|>assistant intent=preamble<|channel|>commentary<|message|>Plan<|end|>"))
    assert (m.intent, m.recipient) == ("preamble", None)


@pytest.mark.parametrize("header, constrained", [
    ("assistant to=functions.f<|channel|>commentary json", False),
    ("assistant to=functions.f<|channel|>commentary <|constrain|>json", True),
    ("assistant<|channel|>commentary to=functions.f <|constrain|>json", True),
    ("assistant<|channel|>commentary to=functions.f<|constrain|>json", True),
    ("assistant to=functions.f<|channel|>commentary<|constrain|> json", True),
])
def test_every_header_shape_of_harmony_gives_the_same_call(header, constrained):
    t = read(f"<|start|>{header}<|message|>{{}}<|call|>")
    m = only(t)
    assert (m.role, m.recipient, m.channel, m.content_type, m.constrained, m.end) == (
        "assistant", "functions.f", "commentary", "json", constrained, "call")
    assert codes(t) == []


def test_content_type_attribute_is_an_unconstrained_hint():
    m = only(read("<|start|>assistant content_type=json<|channel|>final<|message|>x<|end|>"))
    assert (m.content_type, m.constrained) == ("json", False)


@pytest.mark.parametrize("author", ["functions.get_weather", "browser.search", "python"])
def test_a_tool_author_followed_by_more_words_is_role_tool_with_its_name(author):
    m = only(read(f"<|start|>{author} to=assistant<|channel|>commentary<|message|>{{}}<|end|>"))
    assert (m.role, m.name, m.recipient) == ("tool", author, "assistant")


@pytest.mark.parametrize("author", ["functions.get_weather", "browser.open"])
def test_a_functions_or_browser_author_alone_is_role_tool(author):
    m = only(read(f"<|start|>{author}<|message|>{{}}<|end|>"))
    assert (m.role, m.name) == ("tool", author)


def test_tool_role_takes_its_name_from_the_name_attribute():
    m = only(read("<|start|>tool name=functions.x call_id=a<|channel|>commentary<|message|>{}<|end|>"))
    assert (m.role, m.name, m.call_id) == ("tool", "functions.x", "a")


def test_role_with_colon_names_the_author():
    m = only(read("<|start|>user:alice<|message|>Hello<|end|>"))
    assert (m.role, m.name) == ("user", "alice")


def test_unknown_role_is_kept_as_written_with_a_warning_on_the_word():
    text = "<|start|>moderator<|message|>Be nice.<|end|>"
    t = read(text)
    assert only(t).role == "moderator"
    (diagnostic,) = t.diagnostics
    assert (diagnostic.code, diagnostic.severity, diagnostic.span) == ("W-UNKNOWN-ROLE", "warning", (9, 18))


def test_unknown_channel_is_kept_as_written_with_a_warning():
    t = read("<|start|>assistant<|channel|>summary<|message|>x<|end|>")
    assert only(t).channel == "summary"
    assert codes(t) == ["W-UNKNOWN-CHANNEL"]
    assert t.diagnostics[0].span == (29, 36)


def test_a_message_without_channel_reads_as_final_not_explicit():
    m = only(read("<|start|>assistant<|message|>Hello<|end|>"))
    assert (m.channel, m.channel_explicit) == ("final", False)


@pytest.mark.parametrize("header", [
    "assistant<|channel|><|message|>",                       # channel token without a name
    "assistant<|channel|>final<|channel|>analysis<|message|>",  # two channels
    "assistant json<|channel|>final<|message|>",             # bare word after the role
    "assistant to=a<|channel|>final to=b<|message|>",        # two different recipients
    "assistant to=<|channel|>final<|message|>",              # empty value
    "<|channel|>final<|message|>",                           # no role
    "assistant<|channel|>final<|constrain|><|message|>",     # constrain without a type
])
def test_malformed_headers_are_e_parse_header_and_the_message_is_kept(header):
    t = read(f"<|start|>{header}x<|end|>")
    assert "E-PARSE-HEADER" in codes(t)
    assert only(t).content == "x"


def test_unknown_attributes_are_ignored():
    t = read("<|start|>assistant priority=high<|channel|>final<|message|>x<|end|>")
    assert codes(t) == []


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


# --- tool declarations ----------------------------------------------------------------------------------------

DECLARATION = """namespace functions {
// Weather.
type get_weather = (_: {
  location: string, // city
  unit?: "celsius" | "fahrenheit",
  days?: number[],
  options?: { detailed: boolean },
}) => any;
type ping = () => any;
} // namespace functions"""


def test_typescript_declarations_give_json_schemas():
    assert read_tool_namespaces(DECLARATION) == {
        "functions.get_weather": {"type": "object", "properties": {
            "location": {"type": "string"},
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            "days": {"type": "array", "items": {"type": "number"}},
            "options": {"type": "object", "properties": {"detailed": {"type": "boolean"}}, "required": ["detailed"]},
        }, "required": ["location"]},
        "functions.ping": {"type": "object", "properties": {}},
    }


def test_an_unreadable_declaration_is_skipped_and_the_rest_read():
    tools = read_tool_namespaces("namespace functions {\ntype bad = (_: { a: Map<string> }) => any;\n"
                                 "type good = (_: { b: string }) => any;\n}")
    assert list(tools) == ["functions.good"]


def test_a_call_against_a_declared_schema_is_checked():
    text = (f"<|start|>developer<|message|>{DECLARATION}<|end|>"
            "<|start|>assistant to=functions.get_weather<|channel|>commentary<|constrain|>json<|message|>"
            '{"unit": "kelvin"}<|call|>')
    t = parse(text)
    assert "functions.get_weather" in t.tools
    assert "E-CALL-SCHEMA" in codes(t)


# --- implementation guards ------------------------------------------------------------------------------------

def test_the_fast_message_constructor_makes_the_same_message_as_the_dataclass():
    values = dict(index=3, turn=3, role="tool", content="{}", span=(1, 9), name="functions.f", recipient="assistant",
                  channel="commentary", channel_explicit=True, content_type="json", constrained=True, intent="status",
                  call_id="c", end="call", segments=(), header=(1, 4))
    assert [field.name for field in dataclasses.fields(Message)] == list(values)
    fast = _new_message(*values.values())
    assert type(fast) is Message
    assert fast == Message(**values)
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.role = "user"


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
