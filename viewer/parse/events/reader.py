"""An event log read a line at a time by `EventsReader`: whole by `parse_events`, and a big upload a piece at a
time (viewer/parse/agents/online.py), in memory that follows the piece. A message is handed on once it and every
message begun before it are closed; a piece that ends inside a message has the next piece joined to it
(`LineReader.open_at_end`), so that every message's span lies inside one piece."""
from __future__ import annotations

import dataclasses
import re
from collections import deque

from viewer.model import Transcript
from viewer.parse.agents.lines import Line, read_lines
from viewer.parse.agents.online import Ended, LineReader
from viewer.parse.agents.session import Session
from viewer.parse.events.log import Log

DIALECT = "events"


class EventsReader(LineReader):
    """Reads each line's event into the log, and hands each message the log finishes on to the session (with the
    number of the line it began at, which says which piece it belongs to)."""

    dialect = DIALECT
    ends = re.compile(rb'[^\n]*?"(?:type|event)"\s*:\s*"(?:response\.(?:done|completed|cancel)|tool\.result)"')
    """A line that ends a response or is a tool's result: a piece ends only after one, where few messages are
    open (a piece that ends inside one has the next joined to it)."""

    def __init__(self) -> None:
        super().__init__(Session(""))
        self.log = Log()
        self.began_at: deque[int] = deque()
        """The line each message not handed on yet began at, in the order they began."""

    @staticmethod
    def whole(text: str) -> Transcript:
        """The transcript of a whole log, with its frame (what carries no message, for the lossless check): its
        lines read as a piece's are, into the same `Log`."""
        log = Log()
        lines, unreadable = read_lines(text)
        for line in lines:
            log.read_event(line.value, line.number, line.span)
        transcript = log.transcript(text)
        return dataclasses.replace(transcript, diagnostics=(*unreadable, *transcript.diagnostics))

    def line(self, line: Line) -> None:
        begun = self.log.begun
        self.log.read_event(line.value, line.number, line.span)
        self.log.frame.clear()  # the frame is the whole parse's alone
        self.began_at.extend([line.number] * (self.log.begun - begun))
        self._hand_on()

    def _hand_on(self) -> None:
        for message in self.log.take_finished():
            self.session.messages.append(message)
            self.session.lines.append(Line(self.began_at.popleft(), message.span, {}, ""))
        self.session.diagnostics += self.log.diagnostics
        self.log.diagnostics = []

    def open_at_end(self) -> bool:
        return bool(self.log.open)

    def all_read(self) -> None:
        self.log.close_open()
        self._hand_on()

    def header_now(self) -> dict:
        return {}

    def end(self) -> Ended:
        return Ended({})
