"""A deterministic pi coding agent session of any size (`~/.pi/agent/sessions/--<cwd>--/<time>_<uuid>.jsonl`), for
the tests of a session read a piece at a time and for the memory benchmark: written as pi writes one (its
docs/session.md, layout 3), a `session` header line, then entries that each name the one before (`id`,
`parentId`, `timestamp`).

Tasks: the user's request (now and then a `/skill` invocation's expanded `<skill>` block before it), then the
model's responses, one `message` line each (`assistant`: `thinking` now and then with its `thinkingSignature`, a
preamble, `toolCall`s `read`, `bash`, `edit`; `api`, `provider`, `model`, `usage` with the cost pi priced it at,
`stopReason`), a `toolResult` line per call (file reads and test runs, most of the bytes; an edit's `details`
with its diff; a failed edit `isError`); the answer. Every few tasks: a `model_change` and a
`thinking_level_change`, a command the user ran with `!` (`bashExecution`), an extension's `custom_message` and
`custom` state, a `compaction` (its summary, `firstKeptEntryId`), a `label`, a `session_info` (the session's name),
an interrupted or failed response (`stopReason` `aborted`, `error`), an extension's `custom` message, a line of a
later version (shown hidden, W-JSON-UNKNOWN-ITEM), and a `/tree` jump: a `branch_summary` whose parent is an
earlier entry and the task after it, so that the branch it left is aside, so that a small session has each.

    from tests.harness.pi_session import pi_lines
    for line in pi_lines(megabytes=100): ...
"""
from __future__ import annotations

import json
import random
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

from tests.harness.codex_rollout import _module, _tests_run
from tests.harness.workday import NAMES, VERBS, WORDS

SESSION = "9c3e51a7-2f04-4d6b-8e19-0a7b3c5d2e61"
CWD = "/home/ada/code/ledger"
MODELS = (("anthropic", "anthropic-messages", "claude-opus-4-6"), ("openai", "openai-responses", "gpt-5.2"))
SKILL = ("<skill name=\"ledger-conventions\" location=\"/home/ada/.pi/agent/skills/ledger-conventions/SKILL.md\">\n"
         "Money is Decimal, rounded half-even to the cent; every posting balances.\n</skill>")


class _Writer:
    """The session's entries, each stamped a little after the one before and naming the entry before it."""

    def __init__(self, pick: random.Random) -> None:
        self.pick = pick
        self.now = datetime(2026, 3, 10, 14, 2, tzinfo=timezone.utc)
        self.parent: str | None = None
        self.calls = 0
        self.model = MODELS[0]

    def stamp(self) -> str:
        self.now += timedelta(milliseconds=self.pick.randint(5, 4000))
        return self.now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.now.microsecond // 1000:03d}Z"

    def millis(self) -> int:
        return int(self.now.timestamp() * 1000)

    def line(self, value: dict) -> str:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False) + "\n"

    def entry(self, kind: str, **members) -> str:
        """An entry after the one before (`parentId`), with pi's short id."""
        uuid = "%08x" % self.pick.getrandbits(32)
        value = {"type": kind, "id": uuid, "parentId": self.parent, "timestamp": self.stamp(), **members}
        self.parent = uuid
        return self.line(value)

    def message(self, role: str, **members) -> str:
        stamp = self.stamp()
        uuid = "%08x" % self.pick.getrandbits(32)
        value = {"type": "message", "id": uuid, "parentId": self.parent, "timestamp": stamp,
                 "message": {"role": role, **members, "timestamp": self.millis()}}
        self.parent = uuid
        return self.line(value)

    def call_id(self) -> str:
        self.calls += 1
        return f"toolu_01Pi{self.calls:06d}{self.pick.getrandbits(48):012x}"

    def words(self, low: int, high: int) -> str:
        return " ".join(self.pick.choices(WORDS, k=self.pick.randint(low, high)))


def _usage(write: _Writer) -> dict:
    """A response's usage as pi records it, with the cost it priced it at."""
    pick = write.pick
    figures = {"input": pick.randint(2, 4000), "output": pick.randint(20, 900), "cacheRead": pick.randint(0, 40000),
               "cacheWrite": pick.randint(0, 2000)}
    cost = {key: round(count * rate / 1_000_000, 8) for (key, count), rate in zip(figures.items(), (5, 25, 0.5, 6.25))}
    return {**figures, "totalTokens": sum(figures.values()), "cost": {**cost, "total": round(sum(cost.values()), 8)}}


def _assistant(write: _Writer, content: list, stop: str, **members) -> str:
    provider, api, model = write.model
    return write.message("assistant", content=content, api=api, provider=provider, model=model,
                         usage=_usage(write), stopReason=stop, **members)


def _call(write: _Writer, files: list[str]) -> tuple[dict, dict]:
    """A `toolCall` block and the members of the `toolResult` that answers it."""
    pick = write.pick
    path = pick.choice(files)
    call = write.call_id()
    way = pick.random()
    if way < 0.5:
        use = {"name": "read", "arguments": {"path": path}}
        result: dict = {"content": [{"type": "text", "text": _module(write, path.rsplit("/", 1)[-1][:-3])}],
                        "isError": False}
    elif way < 0.8:
        use = {"name": "bash", "arguments": {"command": "python -m pytest -q"}}
        passing = pick.random() < 0.6
        result = {"content": [{"type": "text", "text": _tests_run(write, passing)}], "isError": False}
    else:
        noun = pick.choice(NAMES)
        old, new = f"    return {noun}", f"    return {noun}.quantize(Decimal(\"0.01\"))"
        use = {"name": "edit", "arguments": {"path": path, "oldText": old, "newText": new}}
        if pick.random() < 0.9:
            line = pick.randint(3, 200)
            result = {"content": [{"type": "text", "text": f"Successfully replaced text in {path}."}],
                      "details": {"diff": f"  {line - 1} def {noun}():\n- {line} {old}\n+ {line} {new}",
                                  "firstChangedLine": line}, "isError": False}
        else:
            result = {"content": [{"type": "text", "text": f"Could not find the exact text in {path}. The old text "
                                                           "must match exactly including all whitespace and "
                                                           "newlines."}], "details": {}, "isError": True}
    return {"type": "toolCall", "id": call, **use}, {"toolCallId": call, "toolName": use["name"], **result}


def _response(write: _Writer, files: list[str]) -> Iterator[str]:
    """One response with its calls, then a `toolResult` line for each."""
    pick = write.pick
    blocks: list[dict] = []
    if pick.random() < 0.4:
        blocks.append({"type": "thinking", "thinking": f"{write.words(10, 50)}.",
                       "thinkingSignature": "Ep" + "%064x" % pick.getrandbits(256)})
    if pick.random() < 0.5:
        blocks.append({"type": "text", "text": f"I'll {pick.choice(VERBS)} the {pick.choice(NAMES)} "
                                               f"{write.words(3, 10)}."})
    calls = [_call(write, files) for _ in range(pick.randint(1, 3))]
    blocks += [use for use, _ in calls]
    yield _assistant(write, blocks, "toolUse")
    for _, result in calls:
        yield write.message("toolResult", **result)


def _aside(write: _Writer, number: int) -> Iterator[str]:
    """The lines after a task that are not the conversation's turns, each kind in turn."""
    pick = write.pick
    way = number % 8
    if way == 0:
        write.model = MODELS[(number // 8) % 2]
        provider, _, model = write.model
        yield write.entry("model_change", provider=provider, modelId=model)
        yield write.entry("thinking_level_change", thinkingLevel=pick.choice(("low", "medium", "high")))
    elif way == 1:
        yield write.message("bashExecution", command="git status --short",
                            output="".join(f" M ledger/{name}.py\n" for name in pick.sample(NAMES, 3)),
                            exitCode=0, cancelled=False, truncated=False)
    elif way == 2:
        yield write.entry("custom_message", customType="git-guard", display=False,
                          content=f"<git-guard>Uncommitted changes: {write.words(3, 8)}.</git-guard>")
        yield write.entry("custom", customType="git-guard", data={"dirty": True, "checked": write.millis()})
    elif way == 3:
        yield write.entry("label", targetId=write.parent, label=f"checkpoint-{number}")
        yield write.entry("session_info", name=f"Ledger rounding, task {number}")
    elif way == 4:
        yield write.message("custom", customType="reminder", display=True,
                            content=f"Remember: {write.words(5, 12)}.")
    elif way == 5:  # a line of a later version
        yield write.entry("bookmark", note=write.words(3, 8))
    elif way == 6:
        yield write.entry("compaction", summary=f"## Goal\n{write.words(10, 30)}.\n\n## Progress\n- "
                                                f"{write.words(10, 30)}.", firstKeptEntryId=write.parent,
                          tokensBefore=pick.randint(40000, 160000),
                          details={"readFiles": [f"ledger/{name}.py" for name in pick.sample(NAMES, 2)],
                                   "modifiedFiles": []})


def _task(write: _Writer, number: int, files: list[str]) -> Iterator[str]:
    pick = write.pick
    request = f"Task {number}: {pick.choice(VERBS)} the {pick.choice(NAMES)} in {pick.choice(files)}; " \
              f"{write.words(6, 30)}."
    text = f"{SKILL}\n\n{request}" if number % 7 == 3 else request
    yield write.message("user", content=[{"type": "text", "text": text}])
    asked = write.parent
    for _ in range(pick.randint(1, 6)):
        yield from _response(write, files)
    if number % 5 == 3:
        stop = pick.choice(("aborted", "error"))
        yield _assistant(write, [{"type": "text", "text": write.words(3, 9)}], stop,
                         **({"errorMessage": "529 overloaded_error: Overloaded"} if stop == "error" else {}))
    yield _assistant(write, [{"type": "text", "text": f"Done: {write.words(10, 50)}."}], "stop")
    if number % 5 == 2:  # /tree back to the request: the branch left is summarized, the task answered again
        left, write.parent = write.parent, asked
        yield write.entry("branch_summary", fromId=left, summary=f"Tried: {write.words(10, 30)}.",
                          details={"readFiles": [pick.choice(files)], "modifiedFiles": []})
        yield from _response(write, files)
        yield _assistant(write, [{"type": "text", "text": f"Done another way: {write.words(10, 40)}."}], "stop")
    yield from _aside(write, number)


def pi_lines(megabytes: float, seed: int = 1) -> Iterator[str]:
    """A session's lines, until they hold at least `megabytes` (MB; `float("inf")`: without end)."""
    pick = random.Random(seed)
    write = _Writer(pick)
    files = [f"{CWD}/ledger/{name}.py" for name in pick.sample(NAMES, 12)]
    first = write.line({"type": "session", "version": 3, "id": SESSION, "timestamp": write.stamp(), "cwd": CWD})
    size = len(first.encode())
    yield first
    for line in _aside(write, 0):
        size += len(line.encode())
        yield line
    number = 0
    while size < megabytes * 1_000_000:
        number += 1
        for line in _task(write, number, files):
            size += len(line.encode())
            yield line


def pi_session(megabytes: float, seed: int = 1) -> str:
    """A whole session of at least `megabytes` MB."""
    return "".join(pi_lines(megabytes, seed))
