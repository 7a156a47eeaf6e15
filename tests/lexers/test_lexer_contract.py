"""What every transcript lexer owes Pygments and the viewer: exact text, registration, speed, no exceptions."""
from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, strategies as st
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.formatters.terminal import TERMINAL_COLORS
from pygments.lexers import (find_lexer_class_for_filename, get_lexer_by_name, get_lexer_for_mimetype,
                             guess_lexer)
from pygments.plugin import find_plugin_lexers
from pygments.styles import get_style_by_name
from pygments.token import Keyword, Name, String, Token

from tests.conftest import SAMPLES
from viewer.lexers import ChatMLLexer, HarmonyLexer, OpenChatMLLexer

LEXERS = {"harmony": HarmonyLexer, "openchatml": OpenChatMLLexer, "chatml": ChatMLLexer}
SAMPLE_FILES = sorted(path for path in SAMPLES.glob("*.txt") if path.name.split("-")[0] in LEXERS)
PYGMENTIZE = Path(sys.executable).with_name("pygmentize")
PIECES = ["<|start|>", "<|channel|>", "<|message|>", "<|constrain|>", "<|end|>", "<|call|>", "<|return|>",
          "<|literal|>", "<|endliteral|>", "<<|", "<|", "|>", "<", "<|start_reason|>", "<|im_start|>", "<|im_end|>",
          "<think>", "</think>", "<tool_call>", "</tool_call>", "<tools>", "</tools>", "<|function_call|>",
          "<|function_list|>", "[EOS]", "[BOS]", "<s>", "`", "---\n", "version: 2.2\n", "json", " to=functions.f",
          " call_id=", "=", "user", "assistant", ":", " ", "\n", "\r\n", "{", "}", "[", "\"", "a"]


@pytest.mark.parametrize("sample", SAMPLE_FILES, ids=[path.name for path in SAMPLE_FILES])
def test_tokens_concatenate_to_the_sample_exactly(sample):
    text = sample.read_bytes().decode("utf-8")
    lexer = LEXERS[sample.name.split("-")[0]]()
    assert "".join(value for _, value in lexer.get_tokens(text)) == text


@pytest.mark.parametrize("lexer", LEXERS.values())
@given(st.lists(st.sampled_from(PIECES) | st.text(max_size=4), max_size=60).map("".join))
def test_any_mix_of_token_fragments_lexes_exactly_without_raising(lexer, text):
    assert "".join(value for _, value in lexer().get_tokens(text)) == text


@pytest.mark.parametrize("lexer", LEXERS.values())
def test_pygments_rewrites_still_apply_when_asked_for(lexer):
    tokens = lexer(stripnl=True, ensurenl=True).get_tokens("\n<|start|>user\r\n")
    assert "".join(value for _, value in tokens) == "<|start|>user\n"


@pytest.mark.parametrize("alias, lexer", [("harmony", HarmonyLexer), ("openchatml", OpenChatMLLexer),
                                          ("ocml", OpenChatMLLexer), ("chatml", ChatMLLexer)])
def test_get_lexer_by_name_finds_each_alias_through_the_entry_point(alias, lexer):
    assert lexer in set(find_plugin_lexers())
    assert type(get_lexer_by_name(alias)) is lexer


@pytest.mark.parametrize("filename, mimetype, lexer", [("a.harmony", "text/x-harmony", HarmonyLexer),
                                                       ("a.ocml", "text/x-openchatml", OpenChatMLLexer),
                                                       ("a.chatml", "text/x-chatml", ChatMLLexer)])
def test_file_names_and_mimetypes_find_each_lexer(filename, mimetype, lexer):
    assert find_lexer_class_for_filename(filename) is lexer
    assert type(get_lexer_for_mimetype(mimetype)) is lexer


@pytest.mark.parametrize("sample, lexer", [("harmony-gpt-oss-weather.txt", HarmonyLexer),
                                           ("openchatml-22-fixture-3-concurrent-calls.txt", OpenChatMLLexer),
                                           ("chatml-ext-named-roles.txt", ChatMLLexer)])
def test_guess_lexer_recognises_each_format(sample, lexer):
    assert type(guess_lexer((SAMPLES / sample).read_text(encoding="utf-8"))) is lexer


def test_pygmentize_highlights_a_harmony_sample_in_the_terminal():
    result = subprocess.run([str(PYGMENTIZE), "-l", "harmony", "-f", "terminal",
                             str(SAMPLES / "harmony-gpt-oss-weather.txt")],
                            capture_output=True, text=True, timeout=60, check=True)
    assert "\x1b[" in result.stdout and "get_weather" in result.stdout


def test_pygmentize_writes_html():
    result = subprocess.run([str(PYGMENTIZE), "-l", "harmony", "-f", "html",
                             str(SAMPLES / "harmony-header-shapes.txt")],
                            capture_output=True, text=True, timeout=60, check=True)
    assert '<span class="k">&lt;|start|&gt;</span>' in result.stdout
    assert '<span class="kt">commentary</span>' in result.stdout


def test_html_formatter_escapes_the_transcript():
    html = highlight("<|start|>user<|message|><script>alert(1)</script><|end|>", HarmonyLexer(), HtmlFormatter())
    assert "<script>" not in html


OWN_KINDS = [Keyword, Keyword.Pseudo, Keyword.Type, Name.Builtin, Name.Builtin.Pseudo, Name.Variable, Name.Attribute,
             Name.Constant, Name.Tag, String, String.Escape, String.Delimiter]


@pytest.mark.parametrize("token", OWN_KINDS, ids=str)
def test_every_kind_the_lexers_give_is_coloured_by_the_default_style_and_the_terminal(token):
    assert get_style_by_name("default").style_for_token(token)["color"]
    while token not in TERMINAL_COLORS:
        token = token.parent
    assert token is not Token


def _random_tokens(pieces: list[str], size: int) -> str:
    rng, out, length = random.Random(20250812), [], 0
    while length < size:
        piece = rng.choice(pieces)
        out.append(piece)
        length += len(piece)
    return "".join(out)


MEGABYTE = 1 << 20
HOSTILE = {
    "pipe-angles": "<|" * (MEGABYTE // 2),
    "escapes": "<<|" * (MEGABYTE // 3),
    "control-tokens": _random_tokens(PIECES[:9] + ["<|im_start|>", "<|im_end|>"], MEGABYTE),
    "token-fragments": _random_tokens(PIECES, MEGABYTE),
    "header-words": "<|start|>" + "a " * (MEGABYTE // 2),
    "yaml-header": "version: 2.2\n" + "a: [" * (MEGABYTE // 4),
    "json-nesting": "<|start|>a to=functions.f<|message|>" + "[" * MEGABYTE,
    "function-call-values": "<|im_start|>assistant\n<|function_call|>" + "1 " * (MEGABYTE // 2),
}


CATASTROPHIC_SECONDS = 60


@pytest.mark.parametrize("lexer", LEXERS.values())
@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_megabyte_lexes_in_linear_time(lexer, name):
    """The bound only catches catastrophic backtracking (minutes on a megabyte), not slowness: these inputs
    take 0.1–1.4 s on an idle 2-core machine, and a loaded CI machine must not make the test flaky."""
    text = HOSTILE[name]
    started = time.perf_counter()
    joined = "".join(value for _, value in lexer().get_tokens(text))
    assert time.perf_counter() - started < CATASTROPHIC_SECONDS
    assert joined == text
