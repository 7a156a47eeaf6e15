"""Deadlines that really stop the work, inside a highlighting worker process (viewer/render/worker.py).

A thread cannot be interrupted inside `re`, but the main thread of a process can: CPython's regex engine checks
for signals every few thousand steps, so a `SIGALRM` handler that raises stops even a catastrophic backtrack
within a millisecond or so of its deadline. Deadlines nest (a code block inside a markdown body inside a job):
the one interval timer is armed for the nearest, and the handler raises only once an open deadline has passed.

Cheap, since every job and every code block opens one: entering arms the timer only when the new deadline is
nearer than the one armed, and leaving never touches it (an alarm for a deadline already closed finds nothing
passed and re-arms for the nearest open one, or for none). Leaving is one bytecode, so no alarm can come halfway
through it; one that comes just before it may cut the enclosing job rather than only the block, which the
worker's `reset()` before each job makes harmless.

Only the worker's main thread may use this: signal handlers run there alone, and the server never calls it.
"""
from __future__ import annotations

import math
import signal
import time
from contextlib import contextmanager
from types import TracebackType
from typing import Callable, Iterator

_deadlines: list[float] = []
"""Monotonic times of the open deadlines, outermost first."""
_armed_for = math.inf
"""The monotonic time the interval timer is set to go off at (inf: not set)."""
_BLOCKED = {signal.SIGALRM}
held_seconds = 0.0
"""Seconds spent in `held()` blocks so far: what the deadlines did not count, and no charge should."""
after_held: Callable[[float], None] | None = None
"""Called with the seconds of each held block once it ends (the worker tells the server it is still at work)."""


class Overtime(BaseException):
    """The innermost deadline passed; `expired()` tells whether an outer one passed too. A BaseException, as
    KeyboardInterrupt is, so that a library's `except Exception` cannot swallow it."""


def install() -> None:
    """Take `SIGALRM` for the deadlines (once, in the worker's main thread)."""
    signal.signal(signal.SIGALRM, _on_alarm)


def reset() -> None:
    """No deadline open (before each job: whatever an alarm at the wrong moment left behind is gone)."""
    global _armed_for
    _deadlines.clear()
    _armed_for = math.inf
    signal.setitimer(signal.ITIMER_REAL, 0)


def _on_alarm(_signum: int, _frame: object) -> None:
    global _armed_for
    _armed_for = math.inf
    now = time.monotonic()
    waiting = [deadline for deadline in _deadlines if deadline > now]
    if waiting:  # early (timer rounding), for a deadline closed since, or one passed with others still open
        _arm(min(waiting))
    if len(waiting) < len(_deadlines):
        raise Overtime()


def _arm(at: float) -> None:
    global _armed_for
    _armed_for = at
    signal.setitimer(signal.ITIMER_REAL, max(at - time.monotonic(), 1e-4))


class within:
    """Run the block for at most `seconds` (or less, when an enclosing deadline is nearer): past it, `Overtime`
    is raised inside the block wherever it is, even deep in a regex match."""

    __slots__ = ("_at", "_depth")

    def __init__(self, seconds: float) -> None:
        self._at = time.monotonic() + max(seconds, 0.0)
        self._depth = 0

    def __enter__(self) -> None:
        self._depth = len(_deadlines)
        _deadlines.append(self._at)
        if self._at < _armed_for:
            _arm(self._at)

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        del _deadlines[self._depth:]  # to the depth found: one bytecode, whatever was left above it


@contextmanager
def held() -> Iterator[None]:
    """Work that no deadline counts (setting up a lexer: its regexes compiled, which reads no transcript text
    and must not be left half done): the block is never interrupted, and every open deadline moves later by
    the time it took."""
    global held_seconds
    signal.pthread_sigmask(signal.SIG_BLOCK, _BLOCKED)
    started = time.monotonic()
    try:
        yield
    finally:
        took = time.monotonic() - started
        held_seconds += took
        _deadlines[:] = [deadline + took for deadline in _deadlines]
        if _deadlines:
            _arm(min(_deadlines))
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _BLOCKED)
    if after_held is not None:
        after_held(took)


def extend(seconds: float) -> None:
    """Move every open deadline later by `seconds` (a code block's overrun, which its own deadline bounded, is
    not the enclosing job's to pay from the time it has for the rest of its work)."""
    if seconds > 0 and _deadlines:
        _deadlines[:] = [deadline + seconds for deadline in _deadlines]
        _arm(min(_deadlines))  # the one armed may have passed (and been spent) already


def expired() -> bool:
    """Whether an open deadline has passed (after catching `Overtime`: whether to let it go on up)."""
    return bool(_deadlines) and time.monotonic() >= min(_deadlines)
