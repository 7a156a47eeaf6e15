"""What an agent's own screen showed of a session, decided once, at upload: each tool call's line (its record's
screen module words it from the call and its reply) and each interruption the log records.

The store keeps each `Said` with its message's row (viewer/store/rows.py); the default view's page, JSON twin and
exports draw only that, never the call's arguments or its reply. It is made from the transcript the rows are made
from, so the text link holders read (secrets masked) gives lines with the secrets masked.
"""
from __future__ import annotations

import bisect
import copy
from dataclasses import replace
from types import ModuleType
from typing import Any

from viewer import formats
from viewer.model import Message, Thread, Transcript
from viewer.policy.said import Exchange, Restated, Said

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




def interruptions(transcript: Transcript, before: int | None = None) -> list[int]:
    """The messages an interruption the log records stands at: the one its diagnostic names; else (an event line
    gives no message) the note the agent wrote for it into the user's turn right after it (Codex's
    `<turn_aborted>`), else the last message of the main conversation before it that is not reasoning (`before`
    when none of the transcript's is: a batch's first line may interrupt the last message of the batch before)."""
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
        elif before is not None:
            points[before] = None
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


_CALL, _MAIN, _ANALYSIS, _ANSWERED, _NAMES, _RESTATED = 1, 2, 4, 8, 16, 32
"""What `OnlineLines` keeps of each message (a byte): a call, of the main conversation (no sub-agent's), reasoning,
a call answered, a call whose line names the sub-agent it started (or would, once known), a call of a format that
records no replies whose line an interruption would change in its outcome and status alone (`interrupted_words`)."""
_UNNAMED = "\x00unnamed"
"""The id a call's sub-agent is given while it is not known: a screen that names it says so by naming this."""


class OnlineLines:
    """`said_lines` of a session read and stored a batch at a time (viewer/ingest/sessions.py), to the same lines:
    each batch's lines as its messages are stored, and the lines of calls stored before that later lines change
    (`Changed`): a call answered in a later batch, a call never answered that an interruption followed, a call
    whose sub-agent only the end names. Kept meanwhile: the calls not answered yet, the sub-agent each line names,
    and a byte per message (what an interruption's walk back and the end read)."""

    def __init__(self, dialect: str) -> None:
        self.screen = screen_of(dialect)
        self.flags = bytearray()
        """Each message's `_CALL`, `_MAIN`, `_ANALYSIS`, `_ANSWERED`, by index."""
        self.points: list[int] = []
        """The interruptions' messages so far."""
        self.first_of_thread: dict[str, int] = {}
        self.replies = formats.dialect(dialect).replies
        self.waiting: dict[int, Message] = {}
        """The calls not answered yet, by index."""
        self.if_interrupted: dict[int, tuple[Said, bool]] = {}
        """For a format that records no replies, the line of a call as an interruption would change it, and whether
        it names a sub-agent, where that is more than its outcome and status (`_RESTATED`: nearly every call)."""
        self.interrupted_words: tuple[str, str] | None = None
        """The outcome and status an interruption gives a call's line on this screen."""
        self.named: dict[int, tuple[str, int | None]] = {}
        """The calls whose line as stored names a known sub-agent, by index: the sub-agent and its first message
        (named again at the end when the call's sub-agent turns out otherwise). A line that would name one not
        known yet has the flag `_NAMES` alone: the end names it by a `Restated`."""
        self.cwd: str | None = None

    def copy(self) -> OnlineLines:
        """A copy that goes on apart from this one: the lines as written part from the lines link holders read at
        the first batch with something masked (until then both read the same messages)."""
        twin = copy.copy(self)
        twin.flags, twin.points = bytearray(self.flags), list(self.points)
        twin.first_of_thread, twin.waiting = dict(self.first_of_thread), dict(self.waiting)
        twin.if_interrupted, twin.named = dict(self.if_interrupted), dict(self.named)
        return twin

    def batch(self, transcript: Transcript) -> tuple[dict[int, Said], dict[int, Said]]:
        """The lines of a batch's messages (a transcript of its messages alone, which keep their indices in the
        session; its threads as known now), and the changed lines of calls of earlier batches."""
        if self.screen is None:
            return {}, {}
        messages = transcript.messages
        first = messages[0].index if messages else len(self.flags)
        for message in messages:
            self.flags.append((_CALL if message.is_call else 0) | (_MAIN if message.thread is None else 0)
                              | (_ANALYSIS if message.channel == "analysis" else 0))
            if message.thread is not None:
                self.first_of_thread.setdefault(message.thread, message.index)
        cwd = transcript.header.get("cwd")
        if self.cwd is None and isinstance(cwd, str):
            self.cwd = cwd
        replies = {pair.call: pair.reply for pair in transcript.pairs}
        failed = {diagnostic.message_index for diagnostic in transcript.diagnostics if diagnostic.code == TOOL_FAILED}
        started = {thread.call: thread for thread in transcript.threads if thread.call is not None}

        def exchange(call: Message, at: int | None) -> Exchange:
            reply = messages[at - first] if at is not None else None
            recorded = transcript.source[reply.span[0]:reply.span[1]] if reply is not None else ""
            return Exchange(call, reply, at in failed, False, recorded, self.cwd, started.get(call.index))

        lines: dict[int, Said] = {}
        changed: dict[int, Said] = {}
        for message in messages:
            if message.is_call:
                at = replies.get(message.index)
                if at is None and self.replies:
                    self.waiting[message.index] = message
                lines[message.index] = self._line(exchange(message, at))
                if at is None and not self.replies:
                    self._keep_if_interrupted(message, lines[message.index])
        for pair in transcript.pairs:
            self.flags[pair.call] |= _ANSWERED
            call = self.waiting.pop(pair.call, None) if pair.call < first else None
            if call is not None:
                changed[pair.call] = self._line(exchange(call, pair.reply))
            elif pair.call >= first:
                self.waiting.pop(pair.call, None)
        # Only an interruption with no message of its own may stand before the batch: the walk back is made for it.
        unplaced = any(diagnostic.code == INTERRUPTED and diagnostic.message_index is None
                       for diagnostic in transcript.diagnostics)
        points = interruptions(transcript, self._last_said(first) if unplaced else None)
        self.points += points
        interruption = INTERRUPTION.but(tool=getattr(self.screen, "INTERRUPTED", INTERRUPTION.tool))
        for index in points:
            if index not in lines and first <= index:
                lines[index] = interruption
            elif index < first and not self.flags[index] & _CALL:  # a message of an earlier batch
                changed[index] = interruption
        return lines, changed

    def _keep_if_interrupted(self, call: Message, stored: Said) -> None:
        """What the end needs of a call no line will answer (a format that records no replies): its line as an
        interruption would change it; a flag alone when that is the stored line with the interruption's words."""
        made, names = self._said(Exchange(call, None, False, True, "", self.cwd, None))
        words = (made.outcome, made.status)
        if self.interrupted_words is None:
            self.interrupted_words = words
        if words == self.interrupted_words and made == stored.but(outcome=made.outcome, status=made.status,
                                                                  thread=None, thread_at=None):
            self.flags[call.index] |= _RESTATED
        else:
            self.if_interrupted[call.index] = (made, names)

    def end(self, threads: tuple[Thread, ...], aside: frozenset[int]) -> dict[int, Said | Restated]:
        """The lines the end changes: of calls never answered that an interruption followed (the branches left
        aside, `aside`, known now), and of calls whose sub-agent (`threads`, with their calls at last) is named
        otherwise than when they were stored."""
        if self.screen is None:
            return {}
        changed: dict[int, Said | Restated] = {}
        for index in sorted(self._interrupted(aside)):
            call = self.waiting.get(index)
            if call is not None:
                changed[index] = self._line(Exchange(call, None, False, True, "", self.cwd, None))
            elif index in self.if_interrupted:
                changed[index] = self._named(index, *self.if_interrupted[index])
            elif self.flags[index] & _RESTATED and self.interrupted_words is not None:
                outcome, status = self.interrupted_words
                self.named.pop(index, None)  # the interrupted line names no sub-agent (`_named` of it)
                changed[index] = Restated((("outcome", outcome), ("status", status), ("thread", None),
                                           ("thread_at", None)))
        final = {thread.call: thread for thread in threads if thread.call is not None}
        for index in sorted({*final, *self.named}):
            if not self.flags[index] & _NAMES:
                continue  # a call whose line names no sub-agent
            thread = final.get(index)
            wanted = (thread.id, self.first_of_thread.get(thread.id)) if thread else (None, None)
            if wanted != self.named.get(index, (None, None)):
                line = changed.get(index) or Restated(())
                changed[index] = line.but(thread=wanted[0], thread_at=wanted[1])
        return changed

    def _line(self, exchange: Exchange) -> Said:
        """The call's line; one that names the sub-agent the call started is kept, to be named again at the end."""
        return self._named(exchange.call.index, *self._said(exchange))

    def _said(self, exchange: Exchange) -> tuple[Said, bool]:
        """The call's line, and whether it names the sub-agent the call started."""
        known = exchange.thread
        made: Said = self.screen.said(replace(exchange, thread=known or Thread(_UNNAMED, exchange.call.index)))
        if made.thread is None:
            return made, False
        if known is not None:
            return made.but(thread=known.id, thread_at=self.first_of_thread.get(known.id)), True
        return made.but(thread=None, thread_at=None), True

    def _named(self, index: int, made: Said, names_thread: bool) -> Said:
        """The line given to call `index`; one that names a sub-agent is noted, to be named again at the end."""
        if names_thread:
            self.flags[index] |= _NAMES
            if made.thread is not None:
                self.named[index] = (made.thread, made.thread_at)
            else:
                self.named.pop(index, None)
        return made

    def _last_said(self, first: int) -> int | None:
        """The last message before number `first` of the main conversation that is not reasoning (where an
        interruption at the start of a batch stands)."""
        at = first - 1
        while at >= 0 and (not self.flags[at] & _MAIN or self.flags[at] & _ANALYSIS):
            at -= 1
        return at if at >= 0 else None

    def _interrupted(self, aside: frozenset[int]) -> set[int]:
        """`interrupted_calls` over every message, read from their bytes."""
        flags, found = self.flags, set()
        for point in self.points:
            at = point
            while at >= 0:
                flag = flags[at]
                main = flag & _MAIN and at not in aside
                if flag & _CALL and not flag & _ANSWERED and main:
                    found.add(at)
                elif at != point and main and not flag & _CALL and not flag & _ANALYSIS:
                    break
                at -= 1
        return found
