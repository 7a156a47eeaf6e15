"""The YAML document header of OpenChatML 2.x before the first message."""
from __future__ import annotations

from tests.parse.harmony.helpers import only, read
from tests.parse.helpers import codes


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
