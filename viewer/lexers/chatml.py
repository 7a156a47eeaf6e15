"""Pygments lexer for ChatML and OpenChatML 0.1, as our parser (viewer.parse.chatml) reads them.

`<|im_start|>ROLE name=…` line break `BODY` `<|im_end|>`; frame tokens `<s>` `</s>` `[BOS]` `[EOS]`
`<|begin_of_text|>` `<|end_of_text|>` outside messages; special tokens (`<|fim_prefix|>`, `<|function_call|>`,
`<|start_reason|>`, …) anywhere. Real chat templates add tags in bodies: `<think>…</think>` (Qwen3, DeepSeek-R1),
Hermes-style `<tool_call>{json}</tool_call>`, `<tool_response>…</tool_response>` and `<tools>…</tools>`.
"""
from __future__ import annotations

from pygments.lexer import bygroups, default
from pygments.token import Keyword, Name, Operator, String, Text, Whitespace

from viewer.lexers._common import ExactRegexLexer, lex_json, lex_json_values_then_text

ROLES = r"(?:system|user|assistant|tool)"
# The tokens our parser knows (viewer.parse.chatml.marks); any other `<|…|>` is text to it, and to us.
_BODY_TOKENS = (r"(?:reflect|introspect|reason|(?:start|end)_(?:reflect|introspect|reason)"
                r"|function_(?:list|call|output)|fim_(?:prefix|middle|suffix)|file_separator)")
_TOKENS = r"(?:im_start|im_end|begin_of_text|end_of_text|%s)" % _BODY_TOKENS
_SPECIAL = r"<\|%s\|>" % _TOKENS
_QUOTED = r"`<\|%s\|>`" % _BODY_TOKENS
_THOUGHT = r"<\|(?:reflect|introspect|reason|(?:start|end)_(?:reflect|introspect|reason))\|>"
_TAG_NAMES = r"(?:think|tool_call|tool_response|tools)"
_VALUE = r"(?:[^\s<]|<(?!\|))*"
# The body's end: `<|im_end|>` closes it; a new start or `[EOS]` / `<|end_of_text|>` cut it short.
_BODY_START_AGAIN = r"(?=<\|(?:im_start|begin_of_text)\|>|\[BOS\])"
_BODY_EOS = r"\[EOS\]|<\|end_of_text\|>"
# Text runs up to whatever a rule acts on: a known token, a tag, a frame bracket, a backquoted body token.
_BODY_TEXT = (r"(?:[^<\[`]|<(?!\|%s\|>|/?%s>)|\[(?![BE]OS\])|`(?!<\|%s\|>`))+"
              % (_TOKENS, _TAG_NAMES, _BODY_TOKENS))
_ROOT_TEXT = r"(?:[^<\[]|<(?!\|%s\|>|/?s>)|\[(?![BE]OS\]))+" % _TOKENS


# How a body ends; a tag block inside a body sits one state above it, so it pops both.
_BODY_ENDS = [(r"<\|im_end\|>", Keyword, "#pop"), (_BODY_EOS, Keyword, "#pop"), (_BODY_START_AGAIN, Text, "#pop")]
_TAG_ENDS = [(regex, token, ("#pop", "#pop")) for regex, token, _ in _BODY_ENDS]


def _json_tag_state(tag):
    """`<tag>` JSON `</tag>`: the JSON goes to Pygments' JSON lexer."""
    return _TAG_ENDS + [
        (r"</%s>" % tag, Name.Tag, "#pop"),
        (r"(?:[^<\[]|<(?!/%s>|\|)|\[(?![BE]OS\]))+" % tag, lex_json),
        (_SPECIAL, Keyword),
        (r"[\s\S]", Text),
    ]


class ChatMLLexer(ExactRegexLexer):
    """ChatML (`<|im_start|>` … `<|im_end|>`) with OpenChatML 0.1 tokens and real templates' tags."""

    name = "ChatML"
    aliases = ["chatml"]
    filenames = ["*.chatml"]
    mimetypes = ["text/x-chatml"]

    tokens = {
        "root": [
            (_ROOT_TEXT, Text),
            (r"<\|im_start\|>", Keyword, ("body", "role")),
            (r"</?s>|\[[BE]OS\]", Keyword),
            (_THOUGHT, Keyword.Pseudo),
            (_SPECIAL, Keyword),
            (r"[\s\S]", Text),
        ],
        "role": [
            (r"[^\S\r\n]+", Whitespace),
            (ROLES + r"(?=\s|<\||\Z)", Name.Builtin, ("#pop", "header")),
            # Any other word is still the speaker's role, one the viewer does not know (`narrator`).
            (r"(?:[^\s<=]|<(?!\|))++(?!=)", Name.Builtin.Pseudo, ("#pop", "header")),
            default(("#pop", "header")),
        ],
        "header": [  # the rest of the header line
            (r"\r?\n", Whitespace, "#pop"),
            (r"(?=<\|)", Text, "#pop"),
            (r"[^\S\r\n]+", Whitespace),
            (r"([\w.-]+)(=)(%s)" % _VALUE, bygroups(Name.Attribute, Operator, String)),
            (r"(?:[^\s<=]|<(?!\|))+", Text),  # not `name=<name>`: the parser reports it, we show it plain
            (r"[\s\S]", Text),
        ],
        "body": _BODY_ENDS + [
            (_BODY_TEXT, Text),
            (_QUOTED, Text),  # a body token quoted in prose is talked about, not used (the parser agrees)
            (r"<think>|</think>|</?tool_response>|</tool_call>|</tools>", Name.Tag),
            (r"<tool_call>", Name.Tag, "tool-call"),
            (r"<tools>", Name.Tag, "tools"),
            (r"<\|(?:function_call|function_list)\|>", Keyword, "json-values"),
            (_THOUGHT, Keyword.Pseudo),
            (_SPECIAL, Keyword),
            (r"[\s\S]", Text),
        ],
        "tool-call": _json_tag_state("tool_call"),
        "tools": _json_tag_state("tools"),
        # After `<|function_call|>` / `<|function_list|>`: JSON values up to the next token, then prose.
        "json-values": [
            (r"(?:[^<\[]|<(?!\|)|\[(?![BE]OS\]))+", lex_json_values_then_text, "#pop"),
            default("#pop"),
        ],
    }

    def analyse_text(text):
        """ChatML turns; FIM-only documents get a low score (plain code could hold the same tokens)."""
        if "<|im_start|>" in text:
            return 0.9 if "<|im_end|>" in text else 0.7
        return 0.2 if "<|fim_prefix|>" in text or "<|file_separator|>" in text else 0.0
