"""The tokens of ChatML: the structural ones that open and close envelopes, and the ones read inside a body."""
from __future__ import annotations

import re
from typing import Any

BOS = ("<s>", "[BOS]", "<|begin_of_text|>")
# Structural tokens, one pattern per leading literal: `re` skips ahead fast to a literal, not to alternatives.
_PIPE_MARK = re.compile(r"<\|(?:im_start|im_end|begin_of_text|end_of_text)\|>")
_ANGLE_MARK = re.compile(r"</?s>")
_BRACKET_MARK = re.compile(r"\[[BE]OS\]")
TOP_MARKS = (_PIPE_MARK, _ANGLE_MARK, _BRACKET_MARK)
"""What may stand between envelopes."""
BODY_ENDS = (_PIPE_MARK, _BRACKET_MARK)
"""What ends a body: inside one, <s> and </s> are Markdown strikethrough."""
BODY_TOKEN = re.compile(r"<\|(?:reflect|introspect|reason|(?:start|end)_(?:reflect|introspect|reason)"
                        r"|function_(?:list|call|output)|fim_(?:prefix|middle|suffix)|file_separator)\|>")
HEADER_STOP = re.compile(r"\r?\n|<\|")
"""What ends the header line after `<|im_start|>`."""
_UNSEEN = object()


class MarkFinder:
    """Finds the next structural token among several patterns, remembering each pattern's next match so that
    no stretch of text is scanned twice. Callers only ever ask from the same or a later position."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.ahead: dict[re.Pattern[str], Any] = {}  # a pattern's next match, None for no more

    def next(self, patterns: tuple[re.Pattern[str], ...], start: int) -> re.Match[str] | None:
        best = None
        for pattern in patterns:
            match = self.ahead.get(pattern, _UNSEEN)
            if match is _UNSEEN or (match is not None and match.start() < start):
                match = self.ahead[pattern] = pattern.search(self.text, start)
            if match is not None and (best is None or match.start() < best.start()):
                best = match
        return best


def next_body_token(text: str, start: int, end: int) -> re.Match[str] | None:
    """The next body token in [start, end) that is not wrapped in backticks (such a token is being talked about,
    as in a prompt that explains the `<|function_list|>` tag)."""
    while (match := BODY_TOKEN.search(text, start, end)) is not None:
        quoted = (match.start() > 0 and text[match.start() - 1] == "`"
                  and match.end() < end and text[match.end()] == "`")
        if not quoted:
            return match
        start = match.end()
    return None
