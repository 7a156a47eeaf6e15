"""How long rendering may take: each block's expected time, the deadline past it, and one answer's slack.

Highlighting and markdown run regexes written by others, chosen by the transcript (a fence's language), on text
the transcript chose; some backtrack exponentially on a few dozen characters. What is bounded is the time
beyond linear work, whatever the pattern:

- a job (a body, a code block) is expected to take `expected(size)`: a fixed cost and the honest rate of the
  slowest lexers. That much it always gets, so exporting a big transcript is never cut short.
- past that it may take `DEADLINE` more, from its answer's slack: one answer (a page, a fragment, an export)
  has `SLACK` seconds beyond the expected times of all its jobs. A job that overruns its expected time spends
  from the slack; once the slack is gone, jobs get only their expected time, and once the answer is a further
  `DEBT` over, it stops trying and shows the rest plain. So an answer holding a hundred hostile blocks costs its
  linear work and at most `SLACK + DEBT` seconds more.

The slack belongs to the answer being written: `answering()` opens one (the command line's `viewer render`),
`BoundedAnswers` opens one per WSGI response, kept while a streamed body is written. Outside of both, each call
is an answer of its own.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

DEADLINE = 0.5
"""Seconds a job may take beyond its expected time, when its answer has that much slack left."""
SLACK = 0.5
"""Seconds beyond the expected times of its jobs that one answer may spend on overruns, all jobs together."""
DEBT = 0.5
"""Seconds of overrun past the slack (jobs then get only their expected time) after which an answer stops
trying to highlight or format and shows the rest plain."""
HONEST_RATE = 100_000
"""Characters a second: Pygments' Python lexer, among the slowest on honest code, highlights about 0.1 MB/s on
the 2-core machine."""
JOB_COST = 0.010
"""Seconds every job is expected to take whatever its size: a round trip to the worker, a lexer's first use."""
BLOCK_COST = 0.002
"""Seconds every code block inside a job is expected to take whatever its size."""
MEANINGFUL = 0.1
"""Seconds of slack a job must have had for a cut to say the text is slow (and so to be remembered as slow);
a job cut at its bare expected time says only that the answer ran out."""


def expected(size: int, fixed: float = JOB_COST) -> float:
    """Seconds a job of `size` characters is given before it starts spending its answer's slack."""
    return fixed + size / HONEST_RATE


@dataclass
class Budget:
    """One answer's slack: seconds of overrun it may still spend (below zero: the debt run up since)."""

    slack: float = SLACK

    def extra(self) -> float:
        """What the next job may take beyond its expected time."""
        return min(DEADLINE, max(self.slack, 0.0))

    @property
    def spent(self) -> bool:
        """Whether the answer has stopped trying: the rest is shown plain."""
        return self.slack <= -DEBT

    def charge(self, size: int, seconds: float, fixed: float = JOB_COST) -> None:
        """Take a job's overrun (what it took beyond its expected time) from the slack."""
        self.slack -= max(seconds - expected(size, fixed), 0.0)


_ANSWER: ContextVar[Budget | None] = ContextVar("viewer_render_answer", default=None)


def current() -> Budget:
    """The budget of the answer being written, or a fresh one when no answer is open."""
    return _ANSWER.get() or Budget()


@contextmanager
def answering() -> Iterator[Budget]:
    """One answer: every rendering inside shares its slack."""
    budget = Budget()
    token = _ANSWER.set(budget)
    try:
        yield budget
    finally:
        _ANSWER.reset(token)


WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class BoundedAnswers:
    """WSGI middleware: one budget per response, open while the app runs and while each chunk of a streamed
    body (an export) is made, so a whole download shares one slack."""

    def __init__(self, app: WsgiApp) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        budget = Budget()
        token = _ANSWER.set(budget)
        try:
            body = self.app(environ, start_response)
        finally:
            _ANSWER.reset(token)
        file_wrapper = environ.get("wsgi.file_wrapper")
        if isinstance(file_wrapper, type) and isinstance(body, file_wrapper):
            return body  # a file sent as it is (media): nothing rendered, and the server may send it faster
        return _BudgetedBody(body, budget)


class _BudgetedBody:
    """A response body whose chunks are made inside its answer's budget."""

    def __init__(self, body: Iterable[bytes], budget: Budget) -> None:
        self._body = body
        self._chunks = iter(body)
        self._budget = budget

    def __iter__(self) -> _BudgetedBody:
        return self

    def __next__(self) -> bytes:
        token = _ANSWER.set(self._budget)
        try:
            return next(self._chunks)
        finally:
            _ANSWER.reset(token)

    def close(self) -> None:
        close = getattr(self._body, "close", None)
        if close is not None:
            close()
