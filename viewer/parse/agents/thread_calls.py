"""The sub-agents' threads of a session read online (viewer/parse/agents/online.py), for the readers that know a
message's thread when they read its line (Copilot CLI's `agentId`, a Factory Droid sub-agent's own session): each
thread in the order its first message stands, with the call that started it as known when its messages are
finished. A message's stored row holds its thread's call, so the end amends the messages finished while their
thread had another call than the one it has at last, and notes each thread with none (W-SESSION-THREAD), as
`records.threads_of` says of a whole parse.
"""
from __future__ import annotations

from abc import abstractmethod
from array import array
from collections.abc import Callable
from typing import Any

from viewer.model import Message, Meta, Note, Thread
from viewer.parse.agents.lines import Line
from viewer.parse.agents.online import Ended, LineReader
from viewer.parse.agents.records import finished_now
from viewer.parse.agents.session import Session

NO_CALL = -1
"""A thread's call not known (yet), as the arrays keep it."""


class ThreadCalls:
    """Which thread each finished message belongs to, and the call its thread had then."""

    def __init__(self, call_of: Callable[[str], int | None], unnamed: str) -> None:
        self.call_of = call_of
        """A thread's call as known now (None: not known)."""
        self.unnamed = unnamed
        """What W-SESSION-THREAD says of a thread whose call is never known."""
        self.first: dict[str, int] = {}
        """Each thread's first message, in the order threads start."""
        self.members: dict[str, tuple[array, array]] = {}
        """A thread's messages, and the call each was finished with (NO_CALL: none): 8 bytes a message."""

    def place(self, index: int, thread: str) -> None:
        """Message `index`, finished now, is of `thread` (messages are finished in order)."""
        if thread not in self.first:
            self.first[thread] = index
            self.members[thread] = (array("i"), array("i"))
        indices, calls = self.members[thread]
        call = self.call_of(thread)
        indices.append(index)
        calls.append(NO_CALL if call is None else call)

    def now(self) -> tuple[Thread, ...]:
        """The threads so far, each with the call known now."""
        return tuple(Thread(name, self.call_of(name)) for name in self.first)

    def ended(self, session: Session) -> tuple[tuple[Thread, ...], list[Note]]:
        """The threads with their calls at last, a note on each that has none; each message finished with another
        call is amended (stored again with its thread's call)."""
        threads = self.now()
        for thread in threads:
            indices, calls = self.members[thread.id]
            final = NO_CALL if thread.call is None else thread.call
            for index, call in zip(indices, calls):
                if call != final:
                    session.amend(index, _same)
        return threads, [Note("W-SESSION-THREAD", self.unnamed, self.first[thread.id]) for thread in threads
                         if thread.call is None]


def _same(message: Message) -> Message:
    """No change to the message itself: what is stored beside it (its thread's call) changed."""
    return message


__all__ = ["ThreadCalls"]


class ThreadedReader(LineReader):
    """A reader that knows each message's metadata and thread when it reads its line: both held until the message
    is finished, the threads' calls kept by `ThreadCalls` (Copilot CLI's logs, Factory Droid's sessions)."""

    def __init__(self, session: Session | None, unnamed: str) -> None:
        # The session keeps nothing of a line once read: what later lines need is kept here.
        super().__init__(session or Session("", kept=lambda value: {}))
        self.header: dict[str, Any] = {"producer": self.dialect}
        self.metas: dict[int, Meta] = {}
        """Message index -> its metadata, until the message is finished."""
        self.thread_of: dict[int, str] = {}
        """Message index -> the sub-agent it belongs to, until the message is finished."""
        self.threads = ThreadCalls(self._call_of, unnamed)

    @abstractmethod
    def _call_of(self, thread: str) -> int | None:
        """The call that started a sub-agent, as known now."""

    @abstractmethod
    def totals(self) -> dict[str, Any]:
        """The session's totals, for its header."""

    def finish(self, messages: list[Message], lines: list[Line]) -> list[Message]:
        """Each message with its metadata and thread."""
        return finished_now(messages, self.metas, self.thread_of, self.threads.place)

    def header_now(self) -> dict[str, Any]:
        return dict(self.header)

    def threads_now(self) -> tuple[Thread, ...]:
        return self.threads.now()

    def end(self) -> Ended:
        threads, notes = self.threads.ended(self.session)
        return Ended(self.session.with_unread(self.header | self.totals()), threads, notes)
