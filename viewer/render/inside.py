"""What a highlighting worker process (viewer/render/worker.py) knows while it runs a job: that it is one, the
code blocks found slow, and what the job's blocks may still overrun. `highlight.py` asks it whether to lex here,
under a deadline, or to send the block to a worker.

Each code block inside a job gets its expected time (budget.expected) and, while the job has slack left, up to
`budget.DEADLINE` more; a block cut after a meaningful share of slack is remembered as slow by (lexer, digest of
the text), here and, through the job's answer, in the server and every other worker.
"""
from __future__ import annotations

import enum
import hashlib
import time
from collections import OrderedDict
from typing import Callable

from viewer.render import budget, clock

ACTIVE = False
"""True in a worker process: blocks are lexed here, under `clock` deadlines."""
SLOW_KEYS = 4096
"""(lexer, digest) pairs remembered as slow, per process; the oldest are forgotten first."""

SlowKey = tuple[str, bytes]


class Skip(enum.Enum):
    """Why a block was not highlighted."""

    SLOW = "slow"
    """It took too long with time to spare, or was found slow before: shown plain every time."""
    SHORT = "short"
    """Its answer had no time left: shown plain this time only (never cached)."""


class SlowBlocks:
    """A bounded set of (lexer, digest) pairs known to take too long, the oldest forgotten first."""

    def __init__(self, limit: int = SLOW_KEYS) -> None:
        self._keys: OrderedDict[SlowKey, None] = OrderedDict()
        self._limit = limit

    def __contains__(self, key: SlowKey) -> bool:
        return key in self._keys

    def add(self, key: SlowKey) -> None:
        self._keys[key] = None
        self._keys.move_to_end(key)
        while len(self._keys) > self._limit:
            self._keys.popitem(last=False)

    def __len__(self) -> int:
        return len(self._keys)


def slow_key(name: str, text: str) -> SlowKey:
    """What a slow block is remembered by: its lexer (or job kind) and a digest of its text."""
    return name, hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


slow = SlowBlocks()
learned: list[SlowKey] = []
"""Blocks found slow during the current job, for the server to pass on to the other workers."""
transient = False
"""Whether a block of the current job was cut only because the answer had no slack left."""
job_slack = 0.0
"""Seconds the current job's blocks may still overrun."""


def start_job(slack: float) -> None:
    global transient, job_slack
    learned.clear()
    transient = False
    job_slack = slack


def lex(name: str, text: str, run: Callable[[], str]) -> str | Skip:
    """`run()` (Pygments on `text` with lexer `name`) under the block's deadline, or why it was not."""
    global transient, job_slack
    key = slow_key(name, text)
    if key in slow:
        return Skip.SLOW
    extra = min(budget.DEADLINE, max(job_slack, 0.0))
    allowed = budget.expected(len(text), budget.BLOCK_COST)
    started = time.monotonic() - clock.held_seconds
    body: str | None = None
    try:
        with clock.within(allowed + extra):
            body = run()
    except clock.Overtime:
        pass
    overrun = max(time.monotonic() - clock.held_seconds - started - allowed, 0.0)
    job_slack -= overrun
    clock.extend(overrun)  # what the block overran, its own deadline bounded: the job keeps its time for the rest
    if body is not None:
        return body
    if clock.expired():
        raise clock.Overtime()  # the job's own deadline passed too: it is cut whole
    if extra < budget.MEANINGFUL:
        transient = True
        return Skip.SHORT
    slow.add(key)
    learned.append(key)
    return Skip.SLOW
