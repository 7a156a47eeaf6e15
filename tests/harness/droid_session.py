"""A deterministic Factory Droid session of any size (`~/.factory/sessions/<project>/<session>.jsonl`), for the tests
of a session read a piece at a time and for the memory benchmark: written as Droid writes one, a `session_start`
line, then `message` lines (`id`, `timestamp`, `parentId`, `message: {role, content}` with Anthropic blocks, one
whole API message a line).

Tasks: the user's request, with the `<system-reminder>` Droid writes before the first; then the model's messages:
thinking now and then (signed), a preamble, `tool_use` calls (`Read`, `Execute`, `Edit`) and the user line of
their `tool_result` blocks (file reads and test runs, most of the bytes; a failed edit `is_error`), `model` and
`usage` on a message now and then; the answer. Every few tasks a `todo_state` line, a `compaction_state` summary, a
`Task` call whose sub-agent's session is joined after the main one (its `session_start` names the call), or a line
of a later version (shown hidden, W-JSON-UNKNOWN-ITEM), so that a small session has each.

    from tests.harness.droid_session import droid_lines
    for line in droid_lines(megabytes=100): ...
"""
from __future__ import annotations

import json
import random
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

from tests.harness.codex_rollout import _module, _tests_run
from tests.harness.workday import NAMES, VERBS, WORDS

SESSION = "3f6c2a10-8d4e-4b7a-9c21-5e0f7a1b2c3d"
CWD = "/home/ada/code/ledger"
MODEL = "claude-sonnet-4-5-20250929"
REMINDER = (f"<system-reminder>\nCurrent working directory: {CWD}\nGit branch: main\nPlatform: linux\n"
            "The user's AGENTS.md says: use Decimal for money.\n</system-reminder>")


class _Writer:
    """The session's lines, each stamped a little after the one before and naming the message before it."""

    def __init__(self, pick: random.Random) -> None:
        self.pick = pick
        self.now = datetime(2026, 3, 21, 9, 14, tzinfo=timezone.utc)
        self.parent: str | None = None
        self.calls = 0

    def stamp(self) -> str:
        self.now += timedelta(milliseconds=self.pick.randint(5, 4000))
        return self.now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.now.microsecond // 1000:03d}Z"

    def line(self, value: dict) -> str:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False) + "\n"

    def message(self, role: str, content: list, **members) -> str:
        uuid = self.uuid()
        value = {"type": "message", "id": uuid, "timestamp": self.stamp(),
                 "message": {"role": role, "content": content, **members}}
        if self.parent is not None:
            value["parentId"] = self.parent
        self.parent = uuid
        return self.line(value)

    def uuid(self) -> str:
        bits = "%032x" % self.pick.getrandbits(128)
        return f"{bits[:8]}-{bits[8:12]}-{bits[12:16]}-{bits[16:20]}-{bits[20:]}"

    def call_id(self) -> str:
        self.calls += 1
        return f"toolu_01Droid{self.calls:06d}{self.pick.getrandbits(24):06x}"

    def words(self, low: int, high: int) -> str:
        return " ".join(self.pick.choices(WORDS, k=self.pick.randint(low, high)))


def _call(write: _Writer, files: list[str]) -> tuple[dict, dict]:
    """A `tool_use` block and the `tool_result` block that answers it."""
    pick = write.pick
    path = pick.choice(files)
    call = write.call_id()
    way = pick.random()
    if way < 0.5:
        use = {"name": "Read", "input": {"file_path": path}}
        result: dict = {"content": _module(write, path.rsplit("/", 1)[-1][:-3])}  # Codex's writer's pick and words
    elif way < 0.8:
        passing = pick.random() < 0.6
        use = {"name": "Execute", "input": {"command": "python -m pytest -q", "riskLevel": "low",
                                            "riskLevelReason": "Runs the project's unit tests."}}
        result = {"content": _tests_run(write, passing)}
    else:
        noun = pick.choice(NAMES)
        use = {"name": "Edit", "input": {"file_path": path, "old_str": f"    return {noun}",
                                         "new_str": f"    return {noun}.quantize(Decimal(\"0.01\"))"}}
        result = {"content": f"Edited {path}."} if pick.random() < 0.9 else \
            {"content": "old_str was not found in the file.", "is_error": True}
    return ({"type": "tool_use", "id": call, **use},
            {"type": "tool_result", "tool_use_id": call, **result})


def _usage(write: _Writer) -> dict:
    """A build that writes the model and usage on the model's messages."""
    pick = write.pick
    return {"model": MODEL, "usage": {"input_tokens": pick.randint(2000, 60000), "output_tokens": pick.randint(20, 900),
                                      "cache_read_input_tokens": pick.randint(0, 40000),
                                      "cache_creation_input_tokens": 0}}


def _response(write: _Writer, files: list[str]) -> Iterator[str]:
    """One of the model's messages with its calls, then the user line of their results."""
    pick = write.pick
    blocks: list[dict] = []
    if pick.random() < 0.4:
        blocks.append({"type": "thinking", "thinking": f"{write.words(10, 50)}.",
                       "signature": "Eq" + "%048x" % pick.getrandbits(192)})
    if pick.random() < 0.5:
        blocks.append({"type": "text", "text": f"I'll {pick.choice(VERBS)} the {pick.choice(NAMES)} "
                                               f"{write.words(3, 10)}."})
    calls = [_call(write, files) for _ in range(pick.randint(1, 3))]
    blocks += [use for use, _ in calls]
    yield write.message("assistant", blocks, **(_usage(write) if pick.random() < 0.3 else {}))
    yield write.message("user", [result for _, result in calls])


def _task_call(write: _Writer, subagents: list[tuple[str, str, str]]) -> Iterator[str]:
    """A `Task` call; its sub-agent's session is written after the main one's (`subagents`: id, call, prompt)."""
    call = write.call_id()
    prompt = f"List every caller of {write.pick.choice(NAMES)}() and say what each passes."
    yield write.message("assistant", [
        {"type": "text", "text": "I'll have a sub-agent find the callers."},
        {"type": "tool_use", "id": call, "name": "Task",
         "input": {"subagent_type": "code-scout", "description": "Find callers", "prompt": prompt}}])
    yield write.message("user", [{"type": "tool_result", "tool_use_id": call,
                                  "content": f"Two call sites: {write.words(8, 20)}."}])
    subagents.append((write.uuid(), call, prompt))


def _task(write: _Writer, number: int, files: list[str], subagents: list[tuple[str, str, str]]) -> Iterator[str]:
    pick = write.pick
    request = f"Task {number}: {pick.choice(VERBS)} the {pick.choice(NAMES)} in {pick.choice(files)}; " \
              f"{write.words(6, 30)}."
    typed = [{"type": "text", "text": REMINDER}] if number == 1 else []
    yield write.message("user", [*typed, {"type": "text", "text": request}])
    for _ in range(pick.randint(1, 6)):
        yield from _response(write, files)
    if number % 4 == 2:
        yield from _task_call(write, subagents)
    yield write.message("assistant", [{"type": "text", "text": f"Done: {write.words(10, 50)}."}])
    if number % 3 == 1:
        yield write.line({"type": "todo_state", "timestamp": write.stamp(),
                          "todos": [{"description": write.words(3, 7), "status": "completed"}]})
    if number % 9 == 4:
        yield write.line({"type": "compaction_state", "timestamp": write.stamp(),
                          "summary": {"title": "Progress", "body": f"The user asked for {write.words(20, 60)}."}})
    if number % 11 == 5:  # a line of a later version
        yield write.line({"type": "session_note", "timestamp": write.stamp(), "note": write.words(3, 8)})


def _subagent(write: _Writer, session: str, call: str, prompt: str) -> Iterator[str]:
    """A sub-agent's session, joined after the main one's: its start names the call that started it."""
    yield write.line({"type": "session_start", "id": session, "title": "Find callers", "version": 2, "cwd": CWD,
                      "callingSessionId": SESSION, "callingToolUseId": call})
    write.parent = None
    yield write.message("user", [{"type": "text", "text": prompt}])
    yield from _response(write, [f"{CWD}/ledger/{name}.py" for name in NAMES[:3]])
    yield write.message("assistant", [{"type": "text", "text": f"Two call sites: {write.words(8, 20)}."}])


def droid_lines(megabytes: float, seed: int = 1) -> Iterator[str]:
    """A session's lines, until they hold at least `megabytes` (MB; `float("inf")`: without end, and so without
    the sub-agents' sessions, which follow the main one), then its sub-agents' sessions."""
    pick = random.Random(seed)
    write = _Writer(pick)
    files = [f"{CWD}/ledger/{name}.py" for name in pick.sample(NAMES, 12)]
    first = write.line({"type": "session_start", "id": SESSION, "title": "Fix the rounding in the ledger",
                        "sessionTitle": "Ledger rounding", "owner": "ada", "version": 2, "cwd": CWD})
    size = len(first.encode())
    yield first
    subagents: list[tuple[str, str, str]] = []
    number = 0
    while size < megabytes * 1_000_000:
        number += 1
        for line in _task(write, number, files, subagents):
            size += len(line.encode())
            yield line
    for session, call, prompt in subagents:
        yield from _subagent(write, session, call, prompt)


def droid_session(megabytes: float, seed: int = 1) -> str:
    """A whole session of at least `megabytes` MB, its sub-agents' sessions after it."""
    return "".join(droid_lines(megabytes, seed))
