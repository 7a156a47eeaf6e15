"""What the three transcript lexers share: exact text, and JSON delegated to Pygments' own lexer.

The rules are linear on any input: lookaheads are bounded, a text run never has anything after it that could
fail, and a rule that scans a word and fails (`key=` that is not followed by `=`) leaves that word to a rule that
consumes it whole, so each character is scanned a bounded number of times. tests/lexers times 1 MB hostile texts.
"""
from __future__ import annotations

import json
import re

from pygments.filter import apply_filters
from pygments.lexer import RegexLexer
from pygments.lexers.data import JsonLexer
from pygments.token import Text

_JSON = JsonLexer()
_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"\s*")


class ExactRegexLexer(RegexLexer):
    """A RegexLexer whose tokens concatenate to exactly the text it was given.

    Pygments by default strips leading and trailing newlines, adds a final one, and folds CRLF into LF before
    lexing. A transcript viewer shows the source as written (offsets, CRLF files), so these lexers keep it:
    `stripnl` and `ensurenl` default to off, and a `str` is lexed as given unless the caller asks for one of
    Pygments' rewrites (then the standard preprocessing runs).
    """

    def __init__(self, **options):
        options.setdefault("stripnl", False)
        options.setdefault("ensurenl", False)
        super().__init__(**options)

    def get_tokens(self, text, unfiltered=False):
        if not isinstance(text, str) or self.stripnl or self.stripall or self.ensurenl or self.tabsize > 0:
            return super().get_tokens(text, unfiltered)
        stream = ((token, value) for _, token, value in self.get_tokens_unprocessed(text))
        return stream if unfiltered else apply_filters(stream, self.filters, self)

    def get_tokens_unprocessed(self, text, stack=("root",)):
        # Zero-width rules (a lookahead that only pops a state) yield empty tokens; formatters need not see them.
        for index, token, value in super().get_tokens_unprocessed(text, stack):
            if value:
                yield index, token, value


def json_tokens(text: str, offset: int = 0):
    """`text` as Pygments' JSON tokens, positioned at `offset`."""
    for index, token, value in _JSON.get_tokens_unprocessed(text):
        yield offset + index, token, value


JSON_STARTS = frozenset('{["-0123456789tfn')
"""The characters a JSON value can start with."""


def lex_json(lexer, match):
    """Callback: the whole match is JSON (a body that a header or a tag declares to be JSON), unless it does
    not even start like JSON: then it is prose that was mislabelled, and JSON-lexing would paint every character
    as an error."""
    text = match.group()
    if text.lstrip()[:1] not in JSON_STARTS:
        yield match.start(), Text, text
        return
    yield from json_tokens(text, match.start())


def lex_json_values_then_text(lexer, match):
    """Callback: JSON values (one or more, as after `<|function_list|>`), then prose as text.

    Text after a token may be JSON followed by instructions; JSON-lexing the prose would paint it as errors.
    If not even the first value decodes, the whole match is lexed as JSON so its defects show."""
    text, start = match.group(), match.start()
    end = _decoded_values_end(text)
    if end == 0:
        yield from json_tokens(text, start)
        return
    yield from json_tokens(text[:end], start)
    if end < len(text):
        yield start + end, Text, text[end:]


def _decoded_values_end(text: str) -> int:
    """Where the leading run of whitespace-separated JSON values ends (0 when none decodes)."""
    at, end = 0, 0
    while True:
        at = end + len(text[end:]) - len(text[end:].lstrip())
        if at == len(text):
            return end
        try:
            _, end = _DECODER.raw_decode(text, at)
        except (ValueError, RecursionError):  # RecursionError: nesting deeper than the C decoder allows
            return end
