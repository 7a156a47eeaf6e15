"""Line-oriented sessions read online: a reader takes the lines in order (`LineReader.line`), and what it makes of
them is finished a batch of messages at a time (`finish`: metadata, threads, parents), with what only the end
of the file decides said at the end (`end`: the header's totals, the threads' calls, the branches left aside).

One reader, two ways to run it:
- `read_whole`: the whole text, every message finished at the end: `parse` of a file in memory.
- `read_pieces`: a big file a piece of whole lines at a time (viewer/parse/pieces.py). The messages of a piece
  are finished and handed on once the next piece is read (a response's lines, a call and its reply, seldom
  reach further), and are no longer held: the reader keeps only what later lines need (the tree of ids in a
  compact form, open calls, each response's usage counted so far). A change to a message handed on already is
  an amendment (`Session.amend`), and a diagnostic the end finds about one is a `Note` placed at it, both
  applied by whoever stored it (viewer/store/sessions.py).

A line whose messages only a later line decides (Codex's reasoning events: shown, or frame when the item after
them repeats their text) is held by its reader, which says so (`waits_from`): its piece waits until it is
decided, and its messages, made then, are counted with its piece by their line (`Session.through_line`), never
with the piece being read. Such a line gives no diagnostic when it is decided (the piece's were taken).

A dialect is read so when its record says so (`Dialect.lines`, viewer/formats/kinds.py); its reader is a
`LineReader`.
"""
from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from viewer.model import Diagnostic, Message, Note, Span, Thread, Transcript
from viewer.model.collector import collector_paused
from viewer.parse.agents.lines import Line, read_lines
from viewer.parse.agents.session import Change, Session
from viewer.parse.pieces import Piece


class Reread(Exception):
    """A session that read online cannot be told as its whole parse tells it (found partway): read it whole."""


@dataclass(slots=True)
class Ended:
    """What only the end of a session decides."""

    header: dict[str, Any]
    threads: tuple[Thread, ...] = ()
    notes: list[Note] = field(default_factory=list)
    aside: frozenset[int] = frozenset()
    """The messages of the branches left aside (each amended so too)."""


class LineReader(ABC):
    """A line-oriented dialect's reader: each line read in order by `line` into `session`; the messages
    finished in order, a batch at a time, by `finish`; `end` once every line is read and every message
    finished."""

    dialect: str
    """The dialect it reads (its record's name)."""
    starts: re.Pattern[bytes] | None = None
    """Where a piece may start, for a log whose records span lines (VS Code's chat log: a request and the changes
    that answer it): a piece then ends only before a line that matches (viewer/parse/pieces.py), so that it holds
    whole records; None: at any line."""
    ends: re.Pattern[bytes] | None = None
    """After which line a piece may end (an event log: after a line that ends a response), as `starts`."""

    @classmethod
    def reads(cls, head: str) -> bool:
        """Whether a file of the dialect that starts with `head` is one this reads (a VS Code chat session written
        whole, not as its log, is read whole from the start)."""
        return True

    def __init__(self, session: Session) -> None:
        self.session = session
        self.quiet: list[Span] = []
        """Lines that carry no conversation (frame, kind `event`), since the last batch."""

    @abstractmethod
    def line(self, line: Line) -> None:
        """Read one line into the session."""

    def finish(self, messages: list[Message], lines: list[Line]) -> list[Message]:
        """The messages of a batch (every message before them finished already) with what the log says about
        each; a change to a message of an earlier batch goes through `session.amend`."""
        return messages

    def open_at_end(self) -> bool:
        """Whether a message read is still open, its span to reach into the next piece (an event log's streamed
        message): the next piece is then joined to this one, so that each message lies inside one piece."""
        return False

    def waits_from(self) -> int | None:
        """The number of the first line read whose messages wait for a later line to be decided (None: no line
        waits)."""
        return None

    def all_read(self) -> None:
        """Every line is read: what waited for a later line is decided now."""

    def late(self, piece: Piece) -> list[Diagnostic]:
        """The diagnostics found about lines of `piece` once a later piece was being read (lines its reader held
        until a later line decided them), taken; those `all_read` finds belong to the last piece."""
        return []

    def header_now(self) -> dict[str, Any]:
        """The header's facts known so far (what a batch's analysis may read: the session's working folder)."""
        return {"producer": self.dialect}

    def threads_now(self) -> tuple[Thread, ...]:
        """The sub-agents' threads as known so far, each with its call (what a batch's rows say of them; `end`
        says them at last)."""
        return ()

    @abstractmethod
    def end(self) -> Ended:
        """The header and threads, and what the end decides about messages finished before (amendments,
        notes); called once, after the last `finish`."""


def read_whole(reader: LineReader, text: str,
               read: tuple[Iterable[Line], list[Diagnostic]] | None = None) -> Transcript:
    """The transcript of a whole text read by `reader`: every message finished at the end. `read`: its lines and
    the diagnostics of what could not be read, when they are not the text's lines (`read_lines`)."""
    with collector_paused:  # see viewer/model/collector.py
        reader.session.text = text  # what the frame is cut from
        lines, unreadable = read_lines(text) if read is None else read
        for line in lines:
            reader.line(line)
        reader.all_read()
        session = reader.session
        messages = reader.finish(*session.hand_on(len(session.messages)))
        ended = reader.end()
        finished = amended(messages, session.amended)
        diagnostics = [*unreadable, *session.diagnostics, *(note.at(_placed(note, finished[note.index])) for note in ended.notes)]
        return Transcript(dialect=reader.dialect, source=text, messages=tuple(finished),
                          diagnostics=tuple(diagnostics), header=ended.header, threads=ended.threads,
                          frame=session.frame(reader.quiet, diagnostics, finished))


def _placed(note: Note, message: Message) -> Span:
    return message.header if note.at_header and message.header else message.span


def amended(messages: Sequence[Message], changes: dict[int, list[Change]]) -> list[Message]:
    """`messages` (all of them, by index) with their amendments applied."""
    done = list(messages)
    for index, made in changes.items():
        for change in made:
            done[index] = change(done[index])
    return done


@dataclass(frozen=True, slots=True)
class Batch:
    """The messages of a piece of the file, finished, and the diagnostics found while it was read: a transcript of
    the piece alone (its spans into the piece's text), whose messages keep their numbers in the whole session."""

    transcript: Transcript
    piece: Piece


@dataclass(frozen=True, slots=True)
class Ending:
    """What the end decides about messages handed on before: the header, the threads, amendments by message
    index, and notes."""

    ended: Ended
    amendments: dict[int, list[Change]]


def read_pieces(reader: LineReader, pieces: Iterable[Piece]) -> Iterator[Batch | Ending]:
    """Batches of finished messages, a piece's at a time once the piece after it is read and none of its lines
    waits for a later one, then the `Ending`."""
    session = reader.session
    waiting: deque[tuple[Piece, list[Diagnostic]]] = deque()
    """The pieces read whose messages are not handed on yet, with the diagnostics found reading each."""
    for piece in pieces:
        before, start = piece.lines, 0
        found: list[Diagnostic] = []
        if waiting and reader.open_at_end():
            held, found = waiting.pop()
            piece, start = joined(held, piece), len(held.text)
        with collector_paused, piece.reading():
            session.text = piece.text
            lines, unreadable = read_lines(piece.text, before, start)
            for line in lines:
                reader.line(line)
        waiting.append((piece, [*found, *unreadable, *session.taken_diagnostics()]))
        reader.quiet = []  # the frame: only the whole parse's reads it
        while len(waiting) > 1 and _decided(reader, _last_line(waiting)):
            upto = session.through_line(_last_line(waiting))
            yield _batch(reader, *waiting.popleft(), upto)
    with collector_paused:
        reader.all_read()
    if waiting:
        waiting[-1][1].extend(session.taken_diagnostics())  # what deciding the last lines found: the last piece's
    while waiting:
        upto = session.through_line(_last_line(waiting)) if len(waiting) > 1 else len(session.messages)
        yield _batch(reader, *waiting.popleft(), upto)
    with collector_paused:
        ended = reader.end()
    yield Ending(ended, session.amended)


def joined(first: Piece, then: Piece) -> Piece:
    """Two pieces that follow each other in the file, as one (neither has payloads cut out)."""
    if first.cuts is not None or then.cuts is not None:
        raise Reread("a message spans pieces whose payloads are cut out")
    return Piece(first.text + then.text, first.chars, first.lines, size=first.size + then.size,
                 at_byte=first.at_byte, end_byte=then.end_byte, escapes=first.escapes or then.escapes)


def _last_line(waiting: deque[tuple[Piece, list[Diagnostic]]]) -> int:
    """The number of the last line of the oldest piece waiting (the lines before the next piece)."""
    return waiting[1][0].lines


def _decided(reader: LineReader, through: int) -> bool:
    """Whether every line up to number `through` is decided (no line up to it waits for a later one)."""
    first = reader.waits_from()
    return first is None or first > through


def _batch(reader: LineReader, piece: Piece, found: list[Diagnostic], upto: int) -> Batch:
    """The messages before index `upto` (the piece's, those before handed on already) finished."""
    session = reader.session
    with collector_paused, piece.reading():
        messages = reader.finish(*session.hand_on(upto))
        found += session.taken_diagnostics()  # what finishing found about this batch's messages
        found += reader.late(piece)
        # No frame: nothing stored reads it (the whole parse's, for the lossless check, has one).
        transcript = Transcript(dialect=reader.dialect, source=piece.text, messages=tuple(messages),
                                diagnostics=tuple(found), header=reader.header_now(), cuts=piece.cuts)
    return Batch(transcript, piece)


__all__ = ["Batch", "Ended", "Ending", "LineReader", "Reread", "amended", "read_pieces", "read_whole"]
