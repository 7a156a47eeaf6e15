"""A highlighting worker process: `python -m viewer.render.worker READ_FD WRITE_FD`, started by the server
(viewer/render/workers.py), never by hand.

It reads batches of jobs (viewer/render/jobs.py) and answers one reply per job, in order, a few at a time. Each job runs under a
deadline that stops it (viewer/render/clock.py): its expected time and as much of its answer's slack as it may
take; each code block inside under its own (viewer/render/inside.py). A job cut is answered as such, and the
worker goes on with the next: it is killed only when it fails to answer at all (the server's deadline, a little
later than its own). It keeps no state but the blocks found slow; it ends when the server closes its pipe.
"""
from __future__ import annotations

import sys
import time
import traceback
from multiprocessing.connection import Connection
from typing import Any

from viewer.render import budget, clock, highlight, inside
from viewer.render.jobs import KINDS, Job

Reply = tuple[str, Any, Any, bool, float, list[inside.SlowKey]]
"""(status, html, note, transient, seconds, blocks found slow): status `done`, `cut` (the job's own deadline
passed; html and note None; transient when it had no slack to spend) or `failed` (a renderer raised)."""


def run_job(job: Job, slack: float) -> Reply:
    """One job under its deadline: its expected time and up to `budget.DEADLINE` of the slack."""
    extra = min(budget.DEADLINE, max(slack, 0.0))
    clock.reset()
    inside.start_job(extra)
    started = time.monotonic() - clock.held_seconds  # time held (setting up lexers) is not the job's
    try:
        with clock.within(budget.expected(job.size) + extra):
            html, note = KINDS[job.kind](job.payload, job.language)
        clock.reset()  # no alarm may come once the job is done
        status = "done"
    except clock.Overtime:
        html = note = None
        status = "cut"
        inside.transient = extra < budget.MEANINGFUL  # cut at its bare expected time: the answer ran out
    except Exception:  # a renderer's bug must not end the worker; the server shows the text plain
        traceback.print_exc(file=sys.stderr)
        html = note = None
        status = "failed"
    return status, html, note, inside.transient, time.monotonic() - clock.held_seconds - started, list(inside.learned)


FLUSH_SECONDS = 0.005
"""Replies are sent together at the end of a batch, or sooner once this long has passed since the last were
sent: one round trip for a window of quick jobs, and the server still sees a slow batch advance."""


def serve(requests: Connection, replies: Connection) -> None:
    """Answer batches until the server closes the pipe."""
    while True:
        try:
            slack, slow_keys, batch = requests.recv()
        except EOFError:
            return
        for key in slow_keys:
            inside.slow.add(key)
        ready: list[Reply] = []
        flushed = time.monotonic()

        def still_at_work(_seconds: float) -> None:
            # A lexer's set-up is not counted by the deadlines: the server must not take the wait for a hang.
            replies.send("held")
        clock.after_held = still_at_work
        for kind, payload, language in batch:
            job = Job(kind, payload, language)
            reply = run_job(job, slack)
            slack -= max(reply[4] - budget.expected(job.size), 0.0)
            ready.append(reply)
            if time.monotonic() - flushed >= FLUSH_SECONDS:
                replies.send(ready)
                ready, flushed = [], time.monotonic()
        clock.after_held = None
        if ready:
            replies.send(ready)


def main(argv: list[str]) -> None:
    requests = Connection(int(argv[0]), writable=False)
    replies = Connection(int(argv[1]), readable=False)
    settings = requests.recv()
    sys.path[:0] = [entry for entry in settings["path"] if entry not in sys.path]
    highlight.use_lexers(settings["lexers"])
    inside.ACTIVE = True
    clock.install()
    replies.send("ready")
    serve(requests, replies)


if __name__ == "__main__":
    main(sys.argv[1:])
