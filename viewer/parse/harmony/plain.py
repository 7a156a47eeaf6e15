"""Plain Harmony messages, most of any real transcript, read in one tight loop.

A plain message has a header of words and `<|channel|>` / `<|constrain|>` tokens, a body without `<|` (so
without tokens, escapes or literal blocks) and an unescaped stop token. One regex match reads each whole message
in C, and its header is read once per distinct header text (header.py's cache); the loop around them is most of
a parse, so it does as little as it can (bench/parse.py, bench/vs_harmony.py). Whatever is not plain ends a run,
and the reader (reader.py) reads it the general way, exactly as it did before this loop existed.
"""
from __future__ import annotations

import re

from viewer.model import End, Message
from viewer.parse.harmony.header import HEADER_CACHE, cached_header
from viewer.parse.harmony.tokens import START

# From the blank text before the message to its stop token. Each repetition starts with `<`, which the character
# class before it excludes, so the match is linear.
_PLAIN_MESSAGE = re.compile(r"\s*(?<!<)<\|start\|>([^<]*(?:<\|(?:channel|constrain)\|>[^<]*)*)<\|message\|>"
                            r"([^<]*(?:<(?!\|)[^<]*)*)(?<!<)<\|(end|call|return)\|>")
_STOP_WORDS: dict[str, End] = {"end": "end", "call": "call", "return": "return"}
"""Each stop word once: a match's group is a new string, which every message would keep (55 bytes each)."""
_HEADER_FRAME = len(START) + len("<|message|>")
_STOP_FRAME = len("<||>")


def read_plain(text: str, position: int, messages: list[Message]) -> int:
    """Read consecutive plain messages from `position` into `messages`; return where the first message that is
    not plain (or the end of the text) begins."""
    match, headers, append = _PLAIN_MESSAGE.match, HEADER_CACHE, messages.append
    index = len(messages)
    while (plain := match(text, position)) is not None:
        header_text, end = plain.group(1, 3)
        (role, name, recipient, channel, channel_explicit, content_type, constrained, intent, call_id,
         problems) = headers.get(header_text) or cached_header(header_text)
        if problems:
            break
        body_from, body_to = plain.span(2)
        after = plain.end()
        end = _STOP_WORDS[end]
        start = body_from - len(header_text) - _HEADER_FRAME
        if start == position:  # messages written back to back: one int object for this start and the last end
            start = position  # (32 bytes of each of a big transcript's hundreds of thousands of messages)
        # The body is left in the text (viewer/model/pieces.py says why); its start is the header's end,
        # one int object for both.
        append(Message(index, index, role, None, start, after, name, recipient, channel, channel_explicit,
                       content_type, constrained, intent, call_id, end, (), start, body_from, None, None, None, False,
                       (), text, body_from, body_to - body_from))
        index += 1
        position = after
    return position
