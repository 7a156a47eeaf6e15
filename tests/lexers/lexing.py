"""Small helpers for the lexer tests: lex a text, and ask what kind a piece of it became."""
from __future__ import annotations

from pygments.lexer import Lexer
from pygments.token import _TokenType


def lex(lexer: type[Lexer], text: str) -> list[tuple[_TokenType, str]]:
    return list(lexer().get_tokens(text))


def kind(lexer: type[Lexer], text: str, value: str, nth: int = 0) -> _TokenType:
    """The token type of the `nth` token whose text is exactly `value`."""
    matches = [token for token, piece in lex(lexer, text) if piece == value]
    assert len(matches) > nth, f"no token {value!r} (#{nth}) in {lex(lexer, text)!r}"
    return matches[nth]


def text_of(lexer: type[Lexer], text: str, token: _TokenType) -> str:
    """All the text lexed as `token` or a subtype, concatenated."""
    return "".join(piece for kind_, piece in lex(lexer, text) if kind_ in token)
