"""A deterministic Cursor agent transcript of any size
(`~/.cursor/projects/<project>/agent-transcripts/<id>/<id>.jsonl`), for the tests of a transcript read a piece at a
time and for the memory benchmark: written in the shape of sample_transcripts/cursor-agent-*.jsonl, one
`{"role", "message": {"content": [blocks]}}` a line and a `{"type": "turn_ended", "status"}` line after each turn.

Tasks: the user's request wrapped in `<user_query>` after the `<timestamp>` Cursor adds (the first with its
`<user_info>`); then the model's lines: thinking now and then, a preamble, `tool_use` calls without ids (`Read`,
`Grep`, `Shell`, `StrReplace` with the old and new text, `Write` with a whole file: most of the bytes, as Cursor
records no tool results); the answer; the turn's end (`success`, now and then `aborted` or `error`). Every few tasks
a `metadata` line or a line of a later version (shown hidden, W-JSON-UNKNOWN-ITEM), so that a small transcript has
each.

    from tests.harness.cursor_transcript import cursor_lines
    for line in cursor_lines(megabytes=100): ...
"""
from __future__ import annotations

import json
import random
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

from tests.harness.codex_rollout import module_lines
from tests.harness.workday import NAMES, VERBS, WORDS

WORKSPACE = "/home/ana/src/ledger"
USER_INFO = (f"<user_info>\nOS Version: linux 6.8.0\nShell: /bin/bash\nWorkspace Path: {WORKSPACE}\n"
             "Is directory a git repo: Yes, at /home/ana/src/ledger\n</user_info>")


class _Writer:
    def __init__(self, pick: random.Random) -> None:
        self.pick = pick
        self.now = datetime(2026, 8, 3, 14, 20, tzinfo=timezone.utc)

    def line(self, value: dict) -> str:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False) + "\n"

    def said(self, role: str, blocks: list[dict]) -> str:
        return self.line({"role": role, "message": {"content": blocks}})

    def words(self, low: int, high: int) -> str:
        return " ".join(self.pick.choices(WORDS, k=self.pick.randint(low, high)))

    def timestamp(self) -> str:
        """As Cursor writes it into the user's text: local time, the zone's offset after it."""
        self.now += timedelta(minutes=self.pick.randint(1, 20))
        return self.now.strftime("%A, %b %-d, %Y, %-I:%M %p") + " (UTC+2)"


def _source(write: _Writer, name: str) -> str:
    """A Python module of the project, as a `Write` call's contents or a `StrReplace`'s text."""
    return "\n".join(module_lines(write, name, functions=(4, 30)))


def _call(write: _Writer, files: list[str]) -> dict:
    """A `tool_use` block as Cursor records it: a name and its input, no id."""
    pick = write.pick
    path = pick.choice(files)
    way = pick.random()
    if way < 0.3:
        return {"type": "tool_use", "name": "Read", "input": {"path": path}}
    if way < 0.4:
        return {"type": "tool_use", "name": "Grep",
                "input": {"pattern": f"def {pick.choice(VERBS)}_", "path": WORKSPACE}}
    if way < 0.55:
        return {"type": "tool_use", "name": "Shell", "input": {"command": "python -m pytest -q",
                                                               "description": "Run the tests"}}
    if way < 0.85:
        old = _source(write, pick.choice(NAMES))
        new = old.replace("Decimal(\"", "Decimal(\"0", pick.randint(1, 4))
        return {"type": "tool_use", "name": "StrReplace", "input": {"path": path, "old_string": old,
                                                                    "new_string": new}}
    name = path.rsplit("/", 1)[-1][:-3]
    return {"type": "tool_use", "name": "Write", "input": {"path": path, "contents": _source(write, name)}}


def _response(write: _Writer, files: list[str]) -> str:
    """One of the model's lines: thinking now and then, a preamble, one to three calls."""
    pick = write.pick
    blocks: list[dict] = []
    if pick.random() < 0.3:
        blocks.append({"type": "thinking", "thinking": f"{write.words(10, 50)}."})
    if pick.random() < 0.6:
        blocks.append({"type": "text", "text": f"I'll {pick.choice(VERBS)} the {pick.choice(NAMES)} "
                                               f"{write.words(3, 10)}."})
    blocks += [_call(write, files) for _ in range(pick.randint(1, 3))]
    return write.said("assistant", blocks)


def _task(write: _Writer, number: int, files: list[str]) -> Iterator[str]:
    pick = write.pick
    request = f"Task {number}: {pick.choice(VERBS)} the {pick.choice(NAMES)} in {pick.choice(files)}; " \
              f"{write.words(6, 30)}."
    typed = f"<timestamp>{write.timestamp()}</timestamp>\n<user_query>\n{request}\n</user_query>"
    yield write.said("user", [{"type": "text", "text": typed + ("\n" + USER_INFO if number == 1 else "")}])
    for _ in range(pick.randint(1, 6)):
        yield _response(write, files)
    if number % 7 == 3:
        yield write.line({"type": "turn_ended", "status": "aborted"})
        return
    if number % 13 == 6:
        yield write.line({"type": "turn_ended", "status": "error",
                          "error": "Connection failed. If the problem persists, check your internet connection."})
        return
    yield write.said("assistant", [{"type": "text", "text": f"Done: {write.words(10, 50)}."}])
    yield write.line({"type": "turn_ended", "status": "success"})
    if number % 5 == 2:
        yield write.line({"type": "metadata", "model": "claude-4.5-sonnet", "mode": "agent"})
    if number % 11 == 5:  # a line of a later version
        yield write.line({"type": "checkpoint", "files": [pick.choice(files)]})


def cursor_lines(megabytes: float, seed: int = 1) -> Iterator[str]:
    """A transcript's lines, until they hold at least `megabytes` MB (`float("inf")`: without end)."""
    pick = random.Random(seed)
    write = _Writer(pick)
    files = [f"{WORKSPACE}/ledger/{name}.py" for name in pick.sample(NAMES, 12)]
    size, number = 0, 0
    while size < megabytes * 1_000_000:
        number += 1
        for line in _task(write, number, files):
            size += len(line.encode())
            yield line


def cursor_transcript(megabytes: float, seed: int = 1) -> str:
    """A whole transcript of at least `megabytes` MB."""
    return "".join(cursor_lines(megabytes, seed))
