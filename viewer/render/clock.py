"""Deadlines that really stop the work, inside a highlighting worker process (viewer/render/worker.py).

A thread cannot be interrupted inside `re`, but the main thread of a process can: CPython's regex engine checks
for signals every few thousand steps, so a `SIGALRM` handler that raises stops even a catastrophic backtrack
within a millisecond or so of its deadline. Deadlines nest (a code block inside a markdown body inside a job):
one interval timer is armed for the nearest, and the handler raises only once that deadline has passed.

Only the worker's main thread may use this: signal handlers run there alone, and the server never calls it.
"""
from __future__ import annotations

import signal
import time
from contextlib import contextmanager
from typing import Callable, Iterator

_deadlines: list[float] = []
"""Monotonic times, outermost first; the nearest is the one armed."""
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


def _on_alarm(_signum: int, _frame: object) -> None:
    if _deadlines and time.monotonic() >= min(_deadlines):
        raise Overtime()
    _arm()  # early (timer rounding) or left over from a deadline already closed: wait for the nearest


def _arm() -> None:
    if _deadlines:
        signal.setitimer(signal.ITIMER_REAL, max(min(_deadlines) - time.monotonic(), 1e-4))
    else:
        signal.setitimer(signal.ITIMER_REAL, 0)


@contextmanager
def within(seconds: float) -> Iterator[None]:
    """Run the block for at most `seconds` (or less, when an enclosing deadline is nearer): past it, `Overtime`
    is raised inside the block wherever it is, even deep in a regex match."""
    depth = len(_deadlines)
    try:
        _deadlines.append(time.monotonic() + max(seconds, 0.0))
        _arm()
        yield
    finally:
        # The stack must change whole: an alarm raised inside this `finally` would skip the cut, and one between
        # the cut and the re-arm would find a stale timer. Blocked here, it is delivered right after, and the
        # handler then judges it by the deadlines still open. Cut to the depth found, not popped: an alarm may
        # have come before the append did.
        signal.pthread_sigmask(signal.SIG_BLOCK, _BLOCKED)
        try:
            del _deadlines[depth:]
            _arm()
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, _BLOCKED)


@contextmanager
def held() -> Iterator[None]:
    """Work that no deadline counts (setting up a lexer: its regexes compiled, which reads no transcript text
    and must not be left half done): the block is never interrupted, and every open deadline moves later by
    the time it took."""
    signal.pthread_sigmask(signal.SIG_BLOCK, _BLOCKED)
    started = time.monotonic()
    try:
        yield
    finally:
        global held_seconds
        took = time.monotonic() - started
        held_seconds += took
        _deadlines[:] = [deadline + took for deadline in _deadlines]
        if _deadlines:
            _arm()
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _BLOCKED)
    if after_held is not None:
        after_held(took)


def expired() -> bool:
    """Whether an open deadline has passed (after catching `Overtime`: whether to let it go on up)."""
    return bool(_deadlines) and time.monotonic() >= min(_deadlines)
