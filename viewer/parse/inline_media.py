"""Inline images (base64 payloads in content parts) as references: a media placeholder names its image by the
start of its SHA-256 (`media.placeholder`), and after the importer has run, each message whose text names one is
given a `Media` reference to the payload it came from, found in the message's own source span and checked by
its hash. The decoded bytes are not kept: the store decodes them again from that span (`payload_bytes`).

Only a payload inside the message's own span can be attached to it, so a message's text that merely names an
image cannot claim one carried by another message (a hidden tool reply's screenshot, say).

A big session is read from a thin text whose payloads were decoded and checked as they were cut out
(viewer/parse/thinning.py): while it is read (`reading_cuts`), a stand-in is the payload it names."""
from __future__ import annotations

import binascii
import dataclasses
import hashlib
import json
import re
from collections import Counter
from collections.abc import Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

from msgspec.structs import replace as replace_fields

from viewer import images
from viewer.model import Diagnostic, Media, Message, Transcript, make_diagnostic
from viewer.model.cuts import MARK, STANDIN, Cut, Cuts

NAME_CHARS = 12
"""Hex digits of the SHA-256 a placeholder names its image by."""
_NAMED = re.compile(r"sha256 ([0-9a-f]{%d})\b" % NAME_CHARS)
_PAYLOAD = re.compile(r'"(data:(?:[^"\\,]|\\/){0,300}?;base64,[^"]*|[A-Za-z0-9+/=\\]{20,}|@@cut-\d+@@)"')
"""A JSON string that may be inline data: a base64 data URL, or base64 alone (escapes such as `\\/` allowed), or
a thin text's stand-in for either."""
_READING: ContextVar[tuple[Cuts, Sequence[Decoded]] | None] = ContextVar("cut_payloads", default=None)
"""The payloads cut out of the thin text being read, and each one decoded."""
_DATA_URL = re.compile(r"data:[^,]{0,300}?;base64,", re.IGNORECASE)


class Decoded:
    """Inline data decoded: its bytes' SHA-256 and the verdict on showing them."""

    __slots__ = ("sha256", "size", "verdict")

    def __init__(self, data: bytes) -> None:
        self.sha256 = hashlib.sha256(data).hexdigest()
        self.size = len(data)
        self.verdict = images.inspect(data, self.sha256)


@contextmanager
def reading_cuts(cuts: Cuts, decoded: Sequence[Decoded]) -> Iterator[None]:
    """While a thin text is read: its stand-ins are the payloads `cuts` names, decoded as `decoded` says."""
    token = _READING.set((cuts, decoded))
    try:
        yield
    finally:
        _READING.reset(token)


def cut_payload(value: str) -> tuple[Cut, Decoded] | None:
    """The payload that `value` (a stand-in, or a data URL's prefix and one) stands for, while a thin text is
    read; None otherwise. Outside `reading_cuts` a stand-in's shape is text like any other."""
    reading = _READING.get()
    if reading is None or MARK not in value:
        return None
    match = STANDIN.search(value)
    if match is None or match.end() != len(value) or (match.start() and _DATA_URL.fullmatch(value, 0, match.start())
                                                      is None):
        return None
    number = int(match.group(1))
    return reading[0].cuts[number], reading[1][number]


def decode_inline(value: str) -> Decoded | None:
    """A part's inline data (a base64 data URL, or base64 alone) decoded and checked; None if it is not base64."""
    cut = cut_payload(value)
    if cut is not None:
        return cut[1]
    data = base64_bytes(value)
    return Decoded(data) if data else None


def name_facts(decoded: Decoded) -> list[str]:
    """What a placeholder says of an inline image beyond the part's own facts: its name and, if refused, why."""
    facts = [f"sha256 {decoded.sha256[:NAME_CHARS]}"]
    if decoded.verdict.refused:
        facts.append(f"not shown: {decoded.verdict.refused}")
    return facts


def base64_bytes(value: str) -> bytes | None:
    """The bytes of a data URL or of bare base64 (line breaks allowed); None when it is neither."""
    prefix = _DATA_URL.match(value)
    if value.startswith(("data:", "DATA:")) and prefix is None:
        return None  # a data URL that is not base64: text, not an image
    try:
        return binascii.a2b_base64(value[prefix.end():] if prefix else value, strict_mode=False)
    except (binascii.Error, ValueError):
        return None


def payload_bytes(written: str) -> bytes | None:
    """The bytes of a payload as written in the source (a JSON string's characters, escapes included)."""
    if "\\" in written:
        try:
            written = json.loads(f'"{written}"')
        except ValueError:
            return None
    return base64_bytes(written)


def attach_media(transcript: Transcript) -> Transcript:
    """The transcript with a `Media` reference on each message for each image its placeholders name, and a
    `W-MEDIA-REFUSED` warning for each image that is not shown."""
    naming = _naming(transcript)
    if not naming:
        return transcript
    messages = list(transcript.messages)
    found: list[Diagnostic] = []
    for at in naming:
        message = messages[at]
        media = tuple(_references(transcript.source, message))
        if media:
            messages[at] = replace_fields(message, media=media)
            found.extend(_refusals(media, message.index))
    return dataclasses.replace(transcript, messages=tuple(messages), diagnostics=(*transcript.diagnostics, *found))


def _naming(transcript: Transcript) -> list[int]:
    """Where the messages whose body may name an image are: it holds `sha256 `."""
    return [at for at, message in enumerate(transcript.messages) if message.holds("sha256 ")]


def _references(source: str, message: Message) -> Iterator[Media]:
    wanted = Counter(_NAMED.findall(message.content))  # a payload written twice is named twice
    if not wanted:
        return
    for match in _PAYLOAD.finditer(source, *message.span):
        decoded = _decoded(match.group(1))
        if decoded is None:
            continue
        name = decoded.sha256[:NAME_CHARS]
        if wanted[name] > 0:
            wanted[name] -= 1
            verdict = decoded.verdict
            yield Media(decoded.sha256, decoded.size, verdict.type, match.span(1), verdict.width, verdict.height,
                        verdict.refused)


def _decoded(written: str) -> Decoded | None:
    cut = cut_payload(written)
    if cut is not None:
        return cut[1]
    data = payload_bytes(written)
    return Decoded(data) if data else None


def _refusals(media: tuple[Media, ...], index: int) -> Iterator[Diagnostic]:
    for item in media:
        if item.refused:
            yield make_diagnostic("W-MEDIA-REFUSED", item.span, f"This image is not shown: {item.refused}.", index)
