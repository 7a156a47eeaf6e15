"""The unfinished tail of a transcript being written, parsed alone (viewer.ingest.append).

A live upload's messages up to the first one that may still change are settled: more text cannot change them,
their diagnostics or their pairs. The rest, the tail, is parsed again at each append, after the text before
the first message (a YAML header, which decides the dialect's reading), checked against the tools the whole
transcript declares and paired on its own. `first_unsettled` says where the next tail starts.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from viewer import formats
from viewer.analysis.pairing import is_assistant_call
from viewer.model import Transcript
from viewer.parse import _finish, read_as
from viewer.parse.options import ParseOptions
from viewer.parse.surrogates import replace_lone_surrogates



def reads_tails(dialect: str) -> bool:
    """Whether the dialect is read message after message, so that its tail can be read alone (its record's
    `tail`: a JSON container is one value, and a dataset is never live)."""
    record = formats.find(dialect)
    return record is not None and record.tail


def parse_tail(head: str, tail: str, dialect: str, tools: dict[str, Any]) -> Transcript | None:
    """`head + tail` read as `dialect`, with the checks against `tools` and the pairing. None when the tail
    cannot be read alone: it reads as another dialect, or declares tools the transcript had not declared
    (calls before it would be checked against them)."""
    transcript = replace_lone_surrogates(read_as(dialect, head + tail, ParseOptions()))
    if transcript.dialect != dialect:
        return None
    if any(tools.get(name) != schema for name, schema in transcript.tools.items()):
        return None
    return _finish(dataclasses.replace(transcript, tools=tools), [])


def first_unsettled(transcript: Transcript) -> int:
    """Index of the first message that text appended after the transcript might still change: the last one,
    or an earlier one still unfinished or that a later message depends on (an unanswered call, a call answered after it, a message
    of the same turn, a message whose events or diagnostics reach past its start). 0 without messages."""
    messages = transcript.messages
    if not messages:
        return 0
    answered = {pair.call for pair in transcript.pairs}
    first = len(messages) - 1
    for message in messages[:first]:
        unfinished = message.end == "eof"  # streamed events of it may still come (§9)
        if unfinished or message.role == "assistant" and is_assistant_call(message) and message.index not in answered:
            first = message.index
            break
    reach = _reach(transcript)
    while True:
        moved = first
        for pair in transcript.pairs:
            if pair.call < moved <= pair.reply:
                moved = pair.call
        while moved > 0 and (messages[moved - 1].turn == messages[moved].turn
                             or reach[moved - 1] > messages[moved].span[0]):
            moved -= 1
        if moved == first:
            return first
        first = moved


def _reach(transcript: Transcript) -> list[int]:
    """For each message, the furthest offset it or an earlier message (or their diagnostics) reaches."""
    furthest = [message.span[1] for message in transcript.messages]
    for diagnostic in transcript.diagnostics:
        if diagnostic.message_index is not None:
            index = diagnostic.message_index
            furthest[index] = max(furthest[index], diagnostic.span[1])
    for index in range(1, len(furthest)):
        furthest[index] = max(furthest[index], furthest[index - 1])
    return furthest
