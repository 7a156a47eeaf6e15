"""The OpenChatML 2.x lexer: Harmony's envelope plus the YAML header, 2.2 attributes, literal blocks, escapes."""
from __future__ import annotations

from pygments.lexers.data import YamlLexer
from pygments.token import Keyword, Name, String, Text

from tests.lexers.lexing import kind, lex, text_of
from viewer.lexers import HarmonyLexer, OpenChatMLLexer as O

HEADER = "---\nversion: 2.2\nmodel: gpt-oss-120b\n---\n"
CALL = ("<|start|>assistant to=functions.get_rate call_id=fx-usd<|channel|>commentary<|constrain|>json"
        "<|message|>{\"base\":\"EUR\"}<|call|>")
REPLY = ("<|start|>tool name=functions.get_rate call_id=fx-usd to=assistant<|channel|>commentary"
         "<|message|>{\"ok\":true}<|end|>")


def test_openchatml_yaml_header_goes_to_the_yaml_lexer():
    tokens = lex(O, HEADER + "<|start|>user<|message|>Hi<|end|>")
    yaml = list(YamlLexer(stripnl=False, ensurenl=False).get_tokens(HEADER.rstrip("\n")))
    assert tokens[:len(yaml)] == yaml
    assert kind(O, HEADER, "version") is Name.Tag


def test_openchatml_unfenced_version_header_is_yaml():
    assert kind(O, "version: 2.2\n<|start|>user<|message|>Hi<|end|>", "version") is Name.Tag


def test_openchatml_header_that_quotes_tokens_stays_yaml():
    text = '---\nversion: 2.2\ncapabilities:\n  tokens: ["<|start|>","<|end|>"]\n---\n<|start|>user<|message|>Hi<|end|>'
    assert kind(O, text, "<|start|>") is String  # quoted in the header
    assert kind(O, text, "<|start|>", nth=1) is Keyword  # the message's own
    assert kind(O, text, "tokens") is Name.Tag


def test_openchatml_call_id_name_and_intent_are_attributes():
    text = CALL + REPLY + "<|start|>assistant intent=preamble<|channel|>commentary<|message|>Plan<|end|>"
    for attribute in ("call_id", "name", "intent", "to"):
        assert kind(O, text, attribute) is Name.Attribute, attribute
    for value in ("fx-usd", "functions.get_rate", "preamble"):
        assert kind(O, text, value) is String, value
    assert kind(O, text, "assistant", nth=1) is String  # `to=assistant` in the reply


def test_openchatml_content_type_attribute_is_an_attribute_and_json_makes_the_body_json():
    text = "<|start|>tool name=x content_type=json<|channel|>commentary<|message|>{\"ok\": true}<|end|>"
    assert kind(O, text, "content_type") is Name.Attribute
    assert kind(O, text, '"ok"') is Name.Tag


def test_openchatml_constrained_call_body_is_json():
    assert kind(O, CALL, '"base"') is Name.Tag


def test_openchatml_literal_block_markers_and_body():
    text = "<|start|>user<|message|>Print:\n<|literal|>\n<|start|><|end|>\n<|endliteral|><|end|>"
    assert kind(O, text, "<|literal|>") is String.Delimiter
    assert kind(O, text, "<|endliteral|>") is String.Delimiter
    assert kind(O, text, "\n<|start|><|end|>\n") is String
    assert kind(O, text, "<|end|>") is Keyword  # the one after the block closes the message


def test_openchatml_unterminated_literal_block_runs_to_the_end():
    tokens = lex(O, "<|start|>user<|message|><|literal|>\n<|end|>")
    assert tokens[-1] == (String, "\n<|end|>")


def test_openchatml_escape_is_a_string_escape_and_does_not_end_the_body():
    text = "<|start|>user<|message|>It ends with <<|end|>, see?<|end|>"
    assert kind(O, text, "<<|end|>") is String.Escape
    assert kind(O, text, ", see?") is Text


def test_openchatml_bare_escape_is_a_string_escape():
    assert kind(O, "<|start|>user<|message|>a <<| b<|end|>", "<<|") is String.Escape


def test_openchatml_escape_in_a_json_body_does_not_end_it():
    text = '<|start|>assistant to=functions.f<|channel|>commentary<|constrain|>json<|message|>{"a": "<<|end|>"}<|call|>'
    assert kind(O, text, "<|call|>") is Keyword
    assert "<|end|>" not in [piece for token, piece in lex(O, text) if token is Keyword]


def test_openchatml_legacy_message_without_channel_is_read():
    text = "<|start|>assistant<|message|>Check the limit screw.<|end|>"
    assert kind(O, text, "Check the limit screw.") is Text


def test_openchatml_body_after_a_header_is_text():
    assert text_of(O, HEADER + "<|start|>user<|channel|>final<|message|>Hello!<|end|>", Text).endswith("Hello!")


def test_openchatml_is_guessed_over_harmony_when_the_version_header_is_there():
    text = HEADER + "<|start|>user<|message|>Hi<|end|>"
    assert O.analyse_text(text) > HarmonyLexer.analyse_text(text)
    plain = "<|start|>user<|message|>Hi<|end|>"
    assert HarmonyLexer.analyse_text(plain) > O.analyse_text(plain)
