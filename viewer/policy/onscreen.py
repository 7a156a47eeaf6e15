"""What an agent's own screen showed of a session, decided once, at upload: each tool call's line (its record's
screen module words it from the call and its reply) and each interruption the log records.

The store keeps each `Said` with its message's row (viewer/store/rows.py); the default view's page, JSON twin and
exports draw only that, never the call's arguments or its reply. It is made from the transcript the rows are made
from, so the text link holders read (secrets masked) gives lines with the secrets masked.
"""
from __future__ import annotations

import bisect
from types import ModuleType
from typing import Any

from viewer import formats
from viewer.model import Message, Transcript
from viewer.policy.said import Exchange, Said

TOOL_FAILED = "W-TOOL-ERROR"
INTERRUPTED = "W-SESSION-INTERRUPTED"
INTERRUPTION = Said("Interrupted by user", status="interrupted", kind="interruption")


def screen_of(dialect: str) -> Any:
    """The dialect's screen module (viewer/policy/screens), or None when its record names none."""
    record = formats.find(dialect)
    if record is None or record.screen is None:
        return None
    module: ModuleType = formats.load(record.screen)
    return module


def exchanges(transcript: Transcript) -> dict[int, Exchange]:
    """Each tool call with its reply and what the log says of them, by the call's index."""
    messages = transcript.messages
    replies = {pair.call: pair.reply for pair in transcript.pairs}
    failed = {diagnostic.message_index for diagnostic in transcript.diagnostics if diagnostic.code == TOOL_FAILED}
    interrupted = interrupted_calls(transcript, interruptions(transcript))
    started = {thread.call: thread for thread in transcript.threads if thread.call is not None}
    cwd = transcript.header.get("cwd") if isinstance(transcript.header.get("cwd"), str) else None
    found = {}
    for message in messages:
        if not message.is_call:
            continue
        at = replies.get(message.index)
        reply = messages[at] if at is not None and at < len(messages) else None
        recorded = transcript.source[reply.span[0]:reply.span[1]] if reply is not None else ""
        found[message.index] = Exchange(message, reply, at in failed, message.index in interrupted, recorded, cwd,
                                        started.get(message.index))
    return found


def said_lines(transcript: Transcript) -> dict[int, Said]:
    """Each message's line as the agent's screen showed it: its tool calls' and the interruptions'; {} for a
    transcript of a dialect with no screen."""
    screen = screen_of(transcript.dialect)
    if screen is None:
        return {}
    first_of_thread: dict[str, int] = {}
    for message in transcript.messages:
        if message.thread is not None:
            first_of_thread.setdefault(message.thread, message.index)
    lines: dict[int, Said] = {}
    for index, exchange in exchanges(transcript).items():
        made: Said = screen.said(exchange)
        if made.thread is not None:
            made = made.but(thread_at=first_of_thread.get(made.thread))
        lines[index] = made
    interruption = INTERRUPTION.but(tool=getattr(screen, "INTERRUPTED", INTERRUPTION.tool))
    for index in interruptions(transcript):
        if index not in lines:
            lines[index] = interruption
    return lines




def interruptions(transcript: Transcript) -> list[int]:
    """The messages an interruption the log records stands at: the one its diagnostic names; else (an event line
    gives no message) the note the agent wrote for it into the user's turn right after it (Codex's
    `<turn_aborted>`), else the last message of the main conversation before it that is not reasoning."""
    noted = [diagnostic for diagnostic in transcript.diagnostics if diagnostic.code == INTERRUPTED]
    if not noted:
        return []
    main = [message for message in transcript.messages if _in_main(message)]
    starts = [message.span[0] for message in main]
    points: dict[int, None] = {}
    for diagnostic in noted:
        if diagnostic.message_index is not None:
            points[diagnostic.message_index] = None
            continue
        at = bisect.bisect_right(starts, diagnostic.span[0]) - 1
        if at + 1 < len(main) and main[at + 1].intent == "context":  # the note the agent wrote for it, next
            points[main[at + 1].index] = None
            continue
        while at >= 0 and main[at].channel == "analysis":
            at -= 1
        if at >= 0:
            points[main[at].index] = None
    return sorted(points)


def _in_main(message: Message) -> bool:
    return message.thread is None and not message.aside


def interrupted_calls(transcript: Transcript, points: list[int]) -> set[int]:
    """Calls with no reply that an interruption followed before anything else the user or the agent said."""
    if not points:
        return set()
    answered = {pair.call for pair in transcript.pairs}
    messages = transcript.messages
    found = set()
    for point in points:
        at = point
        while at >= 0:
            message = messages[at]
            if message.is_call and message.index not in answered and _in_main(message):
                found.add(message.index)
            elif at != point and _in_main(message) and not message.is_call and message.channel != "analysis":
                break
            at -= 1
    return found
