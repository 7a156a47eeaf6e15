"""The control tokens of Harmony and OpenChatML 2.x, and the one regex that finds them."""
from __future__ import annotations

import re

START = "<|start|>"
CHANNEL = "<|channel|>"
MESSAGE = "<|message|>"
CONSTRAIN = "<|constrain|>"
END = "<|end|>"
CALL = "<|call|>"
RETURN = "<|return|>"
LITERAL = "<|literal|>"
ENDLITERAL = "<|endliteral|>"

CONTROL_TOKENS = (START, CHANNEL, MESSAGE, CONSTRAIN, END, CALL, RETURN, LITERAL, ENDLITERAL)

# One group per token, so `match.lastindex` names the token without building a string.
TOKEN_RE = re.compile(r"<\|(?:(start)|(channel)|(message)|(constrain)|(end)|(call)|(return)|(literal)|(endliteral))\|>")
(T_START, T_CHANNEL, T_MESSAGE, T_CONSTRAIN, T_END, T_CALL, T_RETURN, T_LITERAL, T_ENDLITERAL) = range(1, 10)

STOPS = {T_END: "end", T_CALL: "call", T_RETURN: "return"}
"""Tokens that end a body, and the `Message.end` value each gives."""

ESCAPE = "<<|"
"""OpenChatML 2.2 §3: doubling the `<` of a control token makes it text."""

COT_RE = re.compile(r"<\|(start|end)_(reflect|introspect|reason)\|>")
"""Chain-of-thought markers (2.x §7), read inside `analysis` bodies only."""


def is_escaped(text: str, at: int) -> bool:
    """Whether the token at `at` is written with the 2.2 escape (`<<|…`), which makes it text."""
    return at > 0 and text[at - 1] == "<"


def unescape(text: str) -> str:
    """Resolve `<<|` escapes to `<|`."""
    return text.replace(ESCAPE, "<|") if ESCAPE in text else text


def escape(text: str) -> str:
    """Escape every `<|` so that no control token (nor a look-alike) is read from the text."""
    return text.replace("<|", ESCAPE)
