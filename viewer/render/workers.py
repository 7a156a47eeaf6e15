"""The server's side of highlighting: a small pool of long-lived worker processes (viewer/render/worker.py) that
render bodies and code blocks under deadlines, so that no transcript can hold the server's CPU.

Workers are started when first needed, with `subprocess` (fork and exec at once: safe in a threaded server),
and reused. A batch of jobs goes to one worker in one round trip; its replies come back one by one, each
awaited until the job's own deadline (budget.py) and a little grace. A worker cuts its own overlong jobs and goes
on; one that does not answer in time is killed with SIGKILL (its CPU is free at once) and replaced when next
needed. A job found slow is remembered by (kind or lexer, digest) in a bounded set, here and in every worker,
and shown plain at once in later answers.
"""
from __future__ import annotations

import atexit
import collections
import os
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from typing import Iterable

from markupsafe import Markup

from viewer.render import budget, highlight, inside
from viewer.render.highlight import Rendered
from viewer.render.jobs import Job, plain

POOL_SIZE = max(os.cpu_count() or 1, 2)
"""Workers per server process at most: more could not run at once anyway."""
WAIT_FOR_WORKER = budget.DEADLINE + 0.25
"""Seconds an answer waits for a free worker (all busy with other answers) before showing its jobs plain."""
GRACE = 0.25
"""Seconds past a job's own deadline, which the worker enforces itself, before the worker is killed."""
START_SECONDS = 20.0
"""Seconds a new worker may take to start (its imports); past that it is killed and the jobs shown plain."""
BATCH_JOBS = 64
BATCH_CHARS = 1_000_000
"""A batch sent in one round trip holds at most this many jobs and characters, so that other answers waiting
for the worker get their turn."""

BODY_SLOW = "This took too long to format and highlight, so it is shown as plain text."

Outcome = tuple[str | None, str | None, bool]
"""A job's HTML (None: not rendered, to be shown plain), the note shown beside it, and whether it was made
plainer only for want of time (never cached)."""


class WorkerFailed(Exception):
    """A worker could not be started or stopped answering."""


class _Worker:
    """One worker process and the two pipes to it."""

    def __init__(self, lexers: dict[str, str], generation: int = 0) -> None:
        self.generation = generation
        """Which of the pool's lexer tables it was started with (`Pool.use_lexers`)."""
        to_read, to_write = os.pipe()
        back_read, back_write = os.pipe()
        path = [entry for entry in sys.path if entry]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "viewer.render.worker", str(to_read), str(back_write)],
                pass_fds=(to_read, back_write), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, env=env)
        finally:
            os.close(to_read)
            os.close(back_write)
        self.requests = Connection(to_write, readable=False)
        self.replies = Connection(back_read, writable=False)
        self.told = 0
        """The sequence number of the last slow key this worker was told."""
        try:
            self.requests.send({"path": path, "lexers": lexers})
            if not self.replies.poll(START_SECONDS) or self.replies.recv() != "ready":
                raise WorkerFailed("a highlighting worker did not start")
        except (OSError, EOFError) as error:
            self.kill()
            raise WorkerFailed("a highlighting worker did not start") from error
        except WorkerFailed:
            self.kill()
            raise

    def kill(self) -> None:
        """SIGKILL: whatever it was doing stops now."""
        self.process.kill()
        self.process.wait()
        self.close_pipes()

    def close_pipes(self) -> None:
        for connection in (self.requests, self.replies):
            if not connection.closed:
                connection.close()

    def stop(self) -> None:
        """Let it end by itself (its pipe closes), killed if it has not within a second."""
        self.close_pipes()
        try:
            self.process.wait(1.0)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Pool:
    """Up to `size` workers, started when needed, shared by the server's threads."""

    def __init__(self, size: int = POOL_SIZE) -> None:
        self.size = size
        self._changed = threading.Condition()
        self._idle: list[_Worker] = []
        self._started = 0
        """Workers running or starting, at most `size`."""
        self._starting = 0
        """Workers being started now (one at a time: an answer waits for it rather than start another)."""
        self._pid = os.getpid()
        self._lexers: dict[str, str] = {}
        self._generation = 0
        self._slow = inside.SlowBlocks()
        self._slow_log: collections.deque[tuple[int, inside.SlowKey]] = collections.deque(maxlen=inside.SLOW_KEYS)
        self._slow_seq = 0
        self.kills = 0
        """Workers killed for not answering in time (for tests and the harness)."""

    # -- the workers -----------------------------------------------------------------------------------------

    def use_lexers(self, extra: dict[str, str]) -> None:
        """Lexers by alias ("module:Class") beside Pygments' own, here and in every worker (idle ones are
        stopped, so the next ones start knowing them)."""
        with self._changed:
            self._lexers = dict(extra)
            self._generation += 1  # workers busy or starting now are stopped when they are released
            idle, self._idle = self._idle, []
            self._started -= len(idle)
        highlight.use_lexers(extra)
        for worker in idle:
            worker.stop()

    def warm(self) -> None:
        """Start one worker in the background, if none is running yet: a server's first page need not wait for
        its start (a third of a second of imports)."""
        with self._changed:
            if self._started:
                return

        def start() -> None:
            worker = self._acquire()
            if worker is not None:
                self._release(worker)
        threading.Thread(target=start, name="highlighting-worker-start", daemon=True).start()

    def close(self) -> None:
        """Stop the idle workers (at exit; busy ones end when their pipe closes with the process)."""
        with self._changed:
            idle, self._idle = self._idle, []
            self._started -= len(idle)
        for worker in idle:
            worker.stop()

    @property
    def running(self) -> list[int]:
        """Process ids of the idle workers."""
        with self._changed:
            return [worker.process.pid for worker in self._idle]

    def _acquire(self) -> _Worker | None:
        """An idle worker, or a new one when none is idle, fewer than `size` run and none is starting; else wait
        for one: while one starts (up to `START_SECONDS`), or up to `WAIT_FOR_WORKER` while all are busy."""
        waited_from = time.monotonic()
        with self._changed:
            if self._pid != os.getpid():  # a forked server process: the workers are its parent's
                self._idle, self._started, self._starting, self._pid = [], 0, 0, os.getpid()
            while not self._idle:
                if self._started < self.size and not self._starting:
                    self._started += 1
                    self._starting += 1
                    lexers, generation = dict(self._lexers), self._generation
                    break
                patience = START_SECONDS if self._starting else WAIT_FOR_WORKER
                left = waited_from + patience - time.monotonic()
                if left <= 0:
                    return None
                self._changed.wait(left)
            else:
                return self._idle.pop()
        try:
            return _Worker(lexers, generation)
        except WorkerFailed:
            self._lost()
            return None
        finally:
            with self._changed:
                self._starting -= 1
                self._changed.notify_all()

    def _release(self, worker: _Worker) -> None:
        with self._changed:
            current = worker.generation == self._generation
            if current:
                self._idle.append(worker)
            else:
                self._started -= 1
            self._changed.notify_all()
        if not current:
            worker.stop()  # it knows an older table of lexers

    def _lost(self) -> None:
        with self._changed:
            self._started -= 1
            self._changed.notify_all()

    # -- slow jobs -------------------------------------------------------------------------------------------

    def _remember_slow(self, keys: Iterable[inside.SlowKey]) -> None:
        with self._changed:
            for key in keys:
                if key not in self._slow:
                    self._slow.add(key)
                    self._slow_seq += 1
                    self._slow_log.append((self._slow_seq, key))

    def _news_for(self, worker: _Worker) -> list[inside.SlowKey]:
        with self._changed:
            news = [key for seq, key in self._slow_log if seq > worker.told]
            worker.told = self._slow_seq
        return news

    def is_slow(self, job: Job) -> bool:
        with self._changed:
            return job.key in self._slow

    # -- running jobs ----------------------------------------------------------------------------------------

    def run(self, jobs: list[Job], answer: budget.Budget) -> list[Outcome]:
        """Each job's outcome, in order, within the answer's budget."""
        outcomes: list[Outcome | None] = [None] * len(jobs)
        pending: collections.deque[int] = collections.deque()
        for position, job in enumerate(jobs):
            if self.is_slow(job):
                outcomes[position] = (None, _slow_note(job), False)
            else:
                pending.append(position)
        while pending:
            if answer.spent:
                outcomes[pending.popleft()] = (None, highlight.ANSWER_SLOW, True)
                continue
            worker = self._acquire()
            if worker is None:
                while pending:
                    outcomes[pending.popleft()] = (None, highlight.ANSWER_SLOW, True)
                break
            batch = _take_batch(pending, jobs)
            answered = self._run_batch(worker, [jobs[position] for position in batch], answer)
            for position, outcome in zip(batch, answered):
                outcomes[position] = outcome
            pending.extendleft(reversed(batch[len(answered):]))  # after a kill: the rest go to another worker
        return [outcome if outcome is not None else (None, None, True) for outcome in outcomes]

    def _run_batch(self, worker: _Worker, batch: list[Job], answer: budget.Budget) -> list[Outcome]:
        """The outcomes of a batch's jobs up to the first the worker failed to answer (that one included, shown
        plain), the worker released, or killed if it failed."""
        outcomes: list[Outcome] = []
        try:
            # Plain tuples on the wire: pickling a dataclass costs ten times as much.
            wire = [(job.kind, job.payload, job.language) for job in batch]
            worker.requests.send((answer.slack, self._news_for(worker), wire))
            while len(outcomes) < len(batch):
                waiting = time.monotonic()
                if not worker.replies.poll(_patience(batch[len(outcomes):], answer)):
                    self._kill(worker)
                    outcomes.append(self._hung(batch[len(outcomes)], batch[len(outcomes) + 1:], answer,
                                               time.monotonic() - waiting))
                    return outcomes
                replies = worker.replies.recv()
                if replies == "held":  # setting up a lexer, which no deadline counts: still at work
                    continue
                for status, html, note, transient, seconds, learned in replies:
                    job = batch[len(outcomes)]
                    answer.charge(job.size, seconds)
                    self._remember_slow(learned)
                    if status == "cut" and not transient:
                        self._remember_slow([job.key])
                    outcomes.append(_outcome(job, status, html, note, transient))
        except (OSError, EOFError):  # it died (or was killed from outside): replaced when next needed
            self._kill(worker)
            if len(outcomes) < len(batch):
                outcomes.append((None, None, True))
            return outcomes
        self._release(worker)
        return outcomes

    def _hung(self, job: Job, after: list[Job], answer: budget.Budget, seconds: float) -> Outcome:
        """The outcome of the job a killed worker was stuck in (the first not answered). It is remembered as
        slow only when it was the only one left: otherwise the others are tried again, elsewhere."""
        had = answer.extra()
        answer.charge(job.size, seconds)
        if after or had < budget.MEANINGFUL:
            return None, highlight.ANSWER_SLOW, True
        self._remember_slow([job.key])
        return None, _slow_note(job), False

    def _kill(self, worker: _Worker) -> None:
        worker.kill()
        self.kills += 1
        self._lost()


def _patience(left: list[Job], answer: budget.Budget) -> float:
    """How long to wait for the worker's next replies before it is taken for hung: the time its own deadlines
    allow every job not yet answered (the slack twice: a job's code blocks may spend it, and the job as much
    again for the rest of its work), and the grace."""
    return sum(budget.expected(job.size) for job in left) + 2 * max(answer.slack, 0.0) + GRACE


def _take_batch(pending: collections.deque[int], jobs: list[Job]) -> list[int]:
    batch: list[int] = []
    chars = 0
    while pending and len(batch) < BATCH_JOBS and (not batch or chars + jobs[pending[0]].size <= BATCH_CHARS):
        chars += jobs[pending[0]].size
        batch.append(pending.popleft())
    return batch


def _outcome(job: Job, status: str, html: str | None, note: str | None, transient: bool) -> Outcome:
    if status == "done":
        return html, note, transient
    if status == "cut":
        return None, highlight.ANSWER_SLOW if transient else _slow_note(job), transient
    return None, None, True  # the renderer failed (its traceback is in the server's log): shown plain


def _slow_note(job: Job) -> str:
    return highlight.HIGHLIGHT_SLOW if job.kind == "lex" else BODY_SLOW


POOL = Pool()
atexit.register(POOL.close)


def render(jobs: list[Job]) -> list[Rendered]:
    """Each job rendered by a worker within the current answer's budget, or shown plain with a note."""
    outcomes = POOL.run(jobs, budget.current())
    return [Rendered(Markup(html), note, transient) if html is not None else plain(job, note, transient)
            for job, (html, note, transient) in zip(jobs, outcomes)]


def lexed(text: str, name: str) -> str | inside.Skip:
    """Pygments' HTML for one block, made by a worker, or why it was not (highlight.lexed in the server)."""
    html, note, transient = POOL.run([Job("lex", text, name)], budget.current())[0]
    if html is not None:
        return html
    return inside.Skip.SHORT if transient else inside.Skip.SLOW


highlight.lex_by_worker(lexed)
