"""One message header of Harmony / OpenChatML 2.x: the text between `<|start|>` and `<|message|>`.

`key=value` words are attributes wherever they stand (in the start header or after the channel, HIP-1);
positions matter only for bare words: the first word is the author, the word after `<|channel|>` is the
channel, a further bare word there is a content type (Harmony's `commentary json`), and the word after
`<|constrain|>` is a content type marked as binding.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from viewer.model import CHANNELS, ROLES
from viewer.parse.common import Pending

ATTRIBUTES = ("to", "call_id", "name", "intent", "content_type")
TOOL_AUTHOR_PREFIXES = ("functions.", "browser.")
_KNOWN_ROLES = frozenset(ROLES)
_KNOWN_CHANNELS = frozenset(CHANNELS)
_SECTION_TOKEN = re.compile(r"<\|(channel|constrain)\|>")
_WORD = re.compile(r"\S+")

class Header(NamedTuple):
    """What a header says, and what was wrong with it. (A named tuple: it is made for every distinct header,
    and tuples are the cheapest immutable records to make and copy with a new call id.)"""

    role: str
    name: str | None
    recipient: str | None
    channel: str
    channel_explicit: bool
    content_type: str | None
    constrained: bool
    intent: str | None
    call_id: str | None
    problems: tuple[Pending, ...]
    """What is wrong with the header, with spans relative to the header text."""


HEADER_CACHE: dict[str, Header] = {}
_CACHE_SIZE = 4096
_CALL_ID = re.compile(r"(?<!\S)call_id=((?:[^\s<]|<(?!\|(?:channel|constrain)\|>))+)")
_CALL_ID_PLACEHOLDER = "\x00"


def read_header(text: str, implied_role: str | None = None) -> Header:
    """Read a header's text (tokens `<|channel|>` and `<|constrain|>` included, `<|start|>` and `<|message|>`
    excluded). With `implied_role` the text continues a header whose role was already written (a completion),
    so every word is an attribute or comes after the channel."""
    if implied_role is not None:
        return _HeaderReader(text, implied_role).read()
    return HEADER_CACHE.get(text) or cached_header(text)


def cached_header(text: str) -> Header:
    """Read a header with a role word and remember it: transcripts repeat a few headers many times.

    Call ids make headers distinct, so a header with one is read as its shape (the id replaced by a
    placeholder), which is cached, and the id put back. The cache is bounded."""
    if len(HEADER_CACHE) >= _CACHE_SIZE:
        HEADER_CACHE.clear()
    call_id = _CALL_ID.search(text) if "call_id=" in text else None
    if call_id is not None and _CALL_ID_PLACEHOLDER not in text:
        shape = f"{text[:call_id.start(1)]}{_CALL_ID_PLACEHOLDER}{text[call_id.end(1):]}"
        header = HEADER_CACHE.get(shape)
        if header is None:
            header = HEADER_CACHE[shape] = _HeaderReader(shape, None).read()
        if not header.problems and header.call_id == _CALL_ID_PLACEHOLDER:
            return header._replace(call_id=call_id.group(1))
    header = HEADER_CACHE[text] = _HeaderReader(text, None).read()
    return header


def loose_text_start(text: str, implied_role: str | None = None) -> int | None:
    """Where a header's loose text begins: the first word after the role (or after the channel's name) that is
    not an attribute, or None. openai-harmony's non-strict parser reads a header that never reached
    `<|message|>` this way: `<|channel|>final I cannot…<|end|>` is a final message saying "I cannot…". With
    `implied_role` the role was written before the text (a primed completion), so no word of it is the role."""
    sections = _HeaderReader(text, implied_role)._sections()
    kind, _, words = sections[-1]
    skip = 1 if kind == "channel" or kind == "start" and implied_role is None else 0  # the role, the channel
    if kind == "constrain" or len(sections) > 1 and kind == "start":
        return None
    for start, _, word in words[skip:]:
        if "=" not in word or "<|" in word:
            return start
    return None


class _HeaderReader:
    def __init__(self, text: str, implied_role: str | None) -> None:
        self.text = text
        self.role = implied_role
        self.author_name: str | None = None
        self.attributes: dict[str, str] = {}
        self.channel: str | None = None
        self.bare_type: str | None = None
        self.constrained_type: str | None = None
        self.problems: list[Pending] = []

    def read(self) -> Header:
        for kind, token, words in self._sections():
            if kind == "start":
                self._start_section(words)
            elif kind == "channel":
                self._channel_section(token, words)
            else:
                self._constrain_section(token, words)
        if self.role is None:
            self.role = ""
            self._problem("E-PARSE-HEADER", 0, len(self.text), "The header names no role.")
        attributes = self.attributes
        content_type, constrained = self.constrained_type, True
        if content_type is None:
            content_type, constrained = attributes.get("content_type") or self.bare_type, False
        return Header(role=self.role, name=attributes.get("name", self.author_name),
                      recipient=attributes.get("to"), channel=self.channel or "final",
                      channel_explicit=self.channel is not None, content_type=content_type,
                      constrained=constrained, intent=attributes.get("intent"),
                      call_id=attributes.get("call_id"), problems=tuple(self.problems))

    def _sections(self) -> list[tuple[str, tuple[int, int], list[tuple[int, int, str]]]]:
        """The header cut at its tokens: ("start" | "channel" | "constrain", the token's span, the words that
        follow it with their offsets)."""
        sections = []
        kind, token, at = "start", (0, 0), 0
        for match in _SECTION_TOKEN.finditer(self.text):
            sections.append((kind, token, self._words(at, match.start())))
            kind, token, at = match.group(1), match.span(), match.end()
        sections.append((kind, token, self._words(at, len(self.text))))
        return sections

    def _words(self, start: int, end: int) -> list[tuple[int, int, str]]:
        return [(word.start(), word.end(), word.group()) for word in _WORD.finditer(self.text, start, end)]

    def _start_section(self, words: list[tuple[int, int, str]]) -> None:
        if self.role is None and words and "=" not in words[0][2]:
            self._author(words[0], more_words=len(words) > 1)
            words = words[1:]
        # openai-harmony writes a message's content type after its recipient when it has no channel
        # (`<|start|>functions.f to=assistant code<|message|>`): a last bare word right after `to=` is one
        after_recipient = len(words) > 1 and words[-2][2].startswith("to=")
        self._rest(words, "after the role", bare_type_allowed=after_recipient, bare_type_last=True)

    def _author(self, word: tuple[int, int, str], more_words: bool) -> None:
        start, end, author = word
        base, colon, alias = author.partition(":")
        if author in _KNOWN_ROLES:
            self.role = author
        elif colon and base in _KNOWN_ROLES and alias:
            self.role, self.author_name = base, alias  # `user:alice`, as openai-harmony renders a named author
        elif "<|" in author:
            self._problem("E-PARSE-HEADER", start, end, f"{author!r} is not a role.")
        elif more_words or author.startswith(TOOL_AUTHOR_PREFIXES):
            self.role, self.author_name = "tool", author  # a tool replying as itself: `functions.x to=assistant`
        else:
            self.role = author
            self._problem("W-UNKNOWN-ROLE", start, end, f"Unknown role {author!r}; it is kept as written.")

    def _channel_section(self, token: tuple[int, int], words: list[tuple[int, int, str]]) -> None:
        if self.channel is not None:
            self._problem("E-PARSE-HEADER", *token,
                          f"A second <|channel|> in one header; the first channel ({self.channel}) is kept.")
            words = words[1:] if words and "=" not in words[0][2] else words
        elif words and "=" not in words[0][2] and "<|" not in words[0][2]:
            self._set_channel(words[0])
            words = words[1:]
        else:
            self._problem("E-PARSE-HEADER", *token, "<|channel|> is not followed by a channel name.")
        self._rest(words, "after the channel", bare_type_allowed=True)

    def _set_channel(self, word: tuple[int, int, str]) -> None:
        start, end, channel = word
        self.channel = channel
        if channel not in _KNOWN_CHANNELS:
            self._problem("W-UNKNOWN-CHANNEL", start, end, f"Unknown channel {channel!r}; it is kept as written.")

    def _constrain_section(self, token: tuple[int, int], words: list[tuple[int, int, str]]) -> None:
        if words and "=" not in words[0][2] and "<|" not in words[0][2]:
            if self.constrained_type is None:
                self.constrained_type = words[0][2]
            else:
                self._problem("E-PARSE-HEADER", words[0][0], words[0][1],
                              f"A second <|constrain|> in one header; the first ({self.constrained_type}) is kept.")
            words = words[1:]
        else:
            self._problem("E-PARSE-HEADER", *token, "<|constrain|> is not followed by a content type.")
        self._rest(words, "after the content type")

    def _rest(self, words: list[tuple[int, int, str]], where: str, bare_type_allowed: bool = False,
              bare_type_last: bool = False) -> None:
        for number, (start, end, word) in enumerate(words, start=1):
            key, equals, value = word.partition("=")
            if equals and "<|" not in word:
                self._attribute(start, end, key, value)
            elif (bare_type_allowed and self.bare_type is None and "<|" not in word
                  and (not bare_type_last or number == len(words))):
                self.bare_type = word  # Harmony's `commentary json`: a content type without <|constrain|>
            else:
                self._problem("E-PARSE-HEADER", start, end, f"Unexpected {word!r} {where} in the header.")

    def _attribute(self, start: int, end: int, key: str, value: str) -> None:
        if key not in ATTRIBUTES:
            return  # later revisions may add attributes; like unknown YAML keys, they are ignored
        if not value:
            self._problem("E-PARSE-HEADER", start, end, f"{key}= has no value.")
        elif key not in self.attributes:
            self.attributes[key] = value
        elif self.attributes[key] != value:
            self._problem("E-PARSE-HEADER", start, end,
                          f"{key}= is given twice with different values; the first ({self.attributes[key]}) is kept.")

    def _problem(self, code: str, start: int, end: int, sentence: str) -> None:
        self.problems.append(Pending(code, sentence, (start, end)))
