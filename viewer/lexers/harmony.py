"""Pygments lexer for Harmony (gpt-oss) transcripts; OpenChatML 2.x reuses its rules (see openchatml.py).

`<|start|>ROLE attrs<|channel|>CHANNEL attrs <|constrain|>TYPE<|message|>BODY<|end|>` as our parser reads it
(the viewer.parse.harmony package): `key=value` words are attributes wherever they stand, the first
bare word is the role, the word after `<|channel|>` the channel, a bare word after the channel or the word after
`<|constrain|>` a content type. A body ends at `<|end|>`, `<|call|>` or `<|return|>`, and a `<|start|>` inside
it starts a new message. `<<|` escapes a token; `<|literal|>…<|endliteral|>` is opaque text. A YAML header
(`---` fences or a top-level `version:`) before the first message goes to Pygments' YAML lexer.

State stack while in a message: root, body (or json-body), then header (or header-tail) on top, so `<|message|>`
just pops to the body, and a header that declares JSON swaps the body under it.
"""
from __future__ import annotations

import re

from pygments.lexer import bygroups, default
from pygments.lexers.data import YamlLexer
from pygments.token import Keyword, Name, Operator, Punctuation, String, Text, Whitespace

from viewer.lexers._common import ExactRegexLexer, lex_json

# The channel is what a reader looks for first (it decides who sees the message), so it gets a kind that
# nearly every Pygments style and the terminal formatter colour: Keyword.Type (Name.Label is plain in most).
CHANNEL = Keyword.Type
CONTENT_TYPE = Name.Constant
ROLES = r"(?:system|developer|user|assistant|tool)"
_TOKEN_NAMES = r"(?:start|channel|message|constrain|end|call|return|literal|endliteral)"
_COT = r"(?:start|end)_(?:reflect|introspect|reason)"
_STOP = r"<\|(?:end|call|return)\|>"
# A header word runs to whitespace, `=` or a `<|`; possessive, so "not followed by `=`" cannot backtrack into
# a shorter word (`to=x` is an attribute, never a channel or role called `t`).
_WORD = r"(?:[^\s<=]|<(?!\|))++(?!=)"
_VALUE = r"(?:[^\s<]|<(?!\|))*"
_WORD_END = r"(?=\s|<\||\Z)"
# Text runs: anything but a `<` that opens a token (or an escape) the state acts on, in one token.
_ROOT_TEXT = r"(?:[^<]|<(?!<\||\|%s\|>))+" % _TOKEN_NAMES
_BODY_TEXT = r"(?:[^<]|<(?!<\||\|(?:start|end|call|return|literal|%s)\|>))+" % _COT
_JSON_TEXT = r"(?:[^<]|<<\||<(?!\|(?:start|end|call|return|literal)\|>))+"
_ESCAPE = r"<<\|(?:[a-z_]{1,32}\|>)?"
_ATTRIBUTE = bygroups(Name.Attribute, Operator, String)

_YAML_MAX = 64 * 1024
"""A real header is a few lines; a bigger one (hostile input) is shown as text rather than lexed for seconds."""
_LINE_START_TOKEN = re.compile(r"^[^\S\n]*<\|%s\|>" % _TOKEN_NAMES, re.MULTILINE)
_ANY_TOKEN = re.compile(r"<\|%s\|>" % _TOKEN_NAMES)
_OPEN_FENCE = re.compile(r"[ \t\r\n]*---[ \t]*\r?(?:\n|\Z)")
_CLOSE_FENCE = re.compile(r"^(?:---|\.\.\.)[ \t]*\r?$", re.MULTILINE)
_VERSION_LINE = re.compile(r"^version[ \t]*:", re.MULTILINE)


def yaml_header_end(text: str) -> int:
    """Where the YAML header ends (0: none), by the rules of viewer.parse.harmony.yaml_header: the header is what
    precedes the first control token that starts a line (else the first token), up to a closing fence."""
    token = _LINE_START_TOKEN.search(text) or _ANY_TOKEN.search(text)
    before = text[:token.start()] if token else text
    opening = _OPEN_FENCE.match(before)
    if opening:
        closing = _CLOSE_FENCE.search(before, opening.end())
        return closing.end() if closing else len(before.rstrip())
    return len(before.rstrip()) if _VERSION_LINE.search(before) else 0


def _to_json(state):
    """Replace the body under the header with a JSON body, staying in header state `state`."""
    return ("#pop", "#pop", "json-body", state)


def _header_rules(state, bare_word):
    """Rules after the role (`header`) or after `<|channel|>` / `<|constrain|>` (`header-tail`). They differ
    only in bare words: stray text after the role, a content type after the channel (`commentary json`)."""
    rules = [
        (r"\s+", Whitespace),
        (r"<\|channel\|>", Keyword, ("#pop", "header-tail", "channel")),
        (r"<\|constrain\|>", Keyword, ("#pop", "header-tail", "constrain")),
        (r"<\|message\|>", Keyword, "#pop"),
        (_STOP, Keyword, ("#pop", "#pop")),
        (r"(?=<\|start\|>)", Text, ("#pop", "#pop")),
        # Arguments to a function or built-in tool are JSON (HIP-1); `to=assistant` replies may be anything.
        (r"(to)(=)((?:functions|browser|container)\.%s)" % _VALUE, _ATTRIBUTE, _to_json(state)),
        (r"(content_type)(=)(json)" + _WORD_END, _ATTRIBUTE, _to_json(state)),
        (r"([\w.-]+)(=)(%s)" % _VALUE, _ATTRIBUTE),
    ]
    if bare_word is CONTENT_TYPE:
        rules.append((r"json" + _WORD_END, CONTENT_TYPE, _to_json(state)))
    # A word that is neither (`a+b=c`) is text, consumed whole so no rule rescans it from each character.
    rules += [(_WORD, bare_word), (r"(?:[^\s<]|<(?!\|))+", Text), (r"[\s\S]", Text)]
    return rules


class HarmonyLexer(ExactRegexLexer):
    """Harmony transcripts as gpt-oss and openai-harmony write them."""

    name = "Harmony"
    aliases = ["harmony"]
    filenames = ["*.harmony"]
    mimetypes = ["text/x-harmony"]
    url = "https://cookbook.openai.com/articles/openai-harmony"

    tokens = {
        "root": [
            # A completion after a prefilled `<|start|>assistant` begins inside the header.
            (r"\A(\s*)(?=<\|(?:channel|constrain|message)\|>|(?:to|call_id|name|intent|content_type)=)",
             bygroups(Whitespace), ("body", "header")),
            (r"<\|start\|>", Keyword, ("body", "role")),
            (_ROOT_TEXT, Text),
            (_ESCAPE, String.Escape),
            (r"<\|literal\|>", String.Delimiter, "literal"),
            (r"<\|%s\|>" % _TOKEN_NAMES, Keyword),  # stray: outside any message
            (r"<", Text),
        ],
        "role": [
            (r"\s+", Whitespace),
            (r"(%s)(:)((?:[^\s<]|<(?!\|))+)" % ROLES, bygroups(Name.Builtin, Punctuation, Name.Variable),
             ("#pop", "header")),  # `user:alice`, a named author as openai-harmony renders it
            (ROLES + _WORD_END, Name.Builtin, ("#pop", "header")),
            # Any other first word still names the author: a tool replying (`functions.f to=assistant`) or a
            # role the viewer does not know.
            (_WORD, Name.Builtin.Pseudo, ("#pop", "header")),
            default(("#pop", "header")),
        ],
        "header": _header_rules("header", Text),
        "header-tail": _header_rules("header-tail", CONTENT_TYPE),
        "channel": [
            (r"\s+", Whitespace),
            (_WORD, CHANNEL, "#pop"),
            default("#pop"),
        ],
        "constrain": [
            (r"\s+", Whitespace),
            (r"json" + _WORD_END, CONTENT_TYPE, ("#pop",) + _to_json("header-tail")),
            (_WORD, CONTENT_TYPE, "#pop"),
            default("#pop"),
        ],
        "body": [
            (_BODY_TEXT, Text),
            (_ESCAPE, String.Escape),
            (_STOP, Keyword, "#pop"),
            (r"(?=<\|start\|>)", Text, "#pop"),
            (r"<\|literal\|>", String.Delimiter, "literal"),
            (r"<\|%s\|>" % _COT, Keyword.Pseudo),
            (r"<", Text),
        ],
        "json-body": [
            (_JSON_TEXT, lex_json),
            (_STOP, Keyword, "#pop"),
            (r"(?=<\|start\|>)", Text, "#pop"),
            (r"<\|literal\|>", String.Delimiter, "literal"),
            (r"<", Text),
        ],
        "literal": [
            (r"<\|endliteral\|>", String.Delimiter, "#pop"),
            (r"(?:[^<]|<(?!\|endliteral\|>))+", String),
        ],
    }

    def get_tokens_unprocessed(self, text, stack=("root",)):
        end = yaml_header_end(text) if tuple(stack) == ("root",) else 0
        if end:
            yield from _yaml_tokens(text[:end])
            text = text[end:]
        for index, token, value in super().get_tokens_unprocessed(text, stack):
            yield index + end, token, value

    def analyse_text(text):
        """Harmony messages; a little less sure when a YAML `version:` header says OpenChatML 2.x."""
        if "<|start|>" not in text or "<|message|>" not in text:
            return 0.0
        return 0.6 if _VERSION_LINE.search(text, 0, 4096) else 0.9


def _yaml_tokens(header: str):
    if len(header) > _YAML_MAX:
        yield 0, Text, header
        return
    yield from YamlLexer().get_tokens_unprocessed(header)
