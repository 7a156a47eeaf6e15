"""A stretch of a message body as plain reading text, for the search results' excerpts: the words a reader sees
on the card, without the Markdown that draws it (fences, heading and list marks, emphasis, link targets, table
rules), a terminal's colour codes or other control characters. Linear regexes only: bodies are user data."""
from __future__ import annotations

import re

_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]{0,2000}(?:\x07|\x1b\\)|[@-Z\\-_])")
"""CSI sequences (colours, cursor moves), OSC sequences (titles, links) and the two-character escapes."""
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_FENCE = re.compile(r"^[ \t]*(?:`{3,}|~{3,})[^\n]*$", re.MULTILINE)
_RULE = re.compile(r"^[ \t]*(?:[-*_][ \t]*){3,}$", re.MULTILINE)
_TABLE_RULE = re.compile(r"^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*$", re.MULTILINE)
_LINE_MARK = re.compile(r"^[ \t]{0,3}(?:#{1,6}[ \t]+|>[ \t]?|[-*+][ \t]+(?:\[[ xX]\][ \t]+)?|\d{1,9}[.)][ \t]+)",
                        re.MULTILINE)
_IMAGE = re.compile(r"!\[([^\]\n]{0,500})\]\([^)\n]{0,2000}\)")
_LINK = re.compile(r"\[([^\]\n]{1,500})\]\([^)\n]{0,2000}\)")
_STRONG = re.compile(r"(\*\*|__)(?=\S)([^\n]{1,500}?)(?<=\S)\1")
_EMPHASIS = re.compile(r"(?<![\w*])\*(?=\S)([^*\n]{1,500}?)(?<=\S)\*(?![\w*])|(?<![\w_])_(?=\S)([^_\n]{1,500}?)(?<=\S)_(?![\w_])")
_TABLE_ROW = re.compile(r"^[ \t]*\|([^\n]*)\|[ \t]*$", re.MULTILINE)
_BLANKS = re.compile(r"\s+")


def plain_text(text: str) -> str:
    """`text` as a reader reads it on the card: Markdown's marks and a terminal's codes gone, runs of white space
    one space."""
    text = _CONTROL.sub(" ", _ANSI.sub("", text))
    for pattern in (_FENCE, _TABLE_RULE, _RULE):
        text = pattern.sub(" ", text)
    text = _LINE_MARK.sub("", text)
    text = _IMAGE.sub(r"\1", text)
    text = _LINK.sub(r"\1", text)
    text = _STRONG.sub(r"\2", text)
    text = _EMPHASIS.sub(lambda match: match[1] or match[2], text)
    text = text.replace("`", "")
    text = _TABLE_ROW.sub(lambda row: " · ".join(cell.strip() for cell in row[1].split("|")), text)
    return _BLANKS.sub(" ", text).strip()
