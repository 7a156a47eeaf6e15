"""A deterministic GitHub Copilot CLI session log of any size (`~/.copilot/session-state/<session>/events.jsonl`),
for the tests of a log read a piece at a time and for the memory benchmark: written as Copilot CLI 1.0 writes one,
each event `{"type", "data", "id", "timestamp", "parentId"}` (and `agentId` on a sub-agent's).

`session.start` (the working folder, repository, model), `session.info` and the system prompt, then tasks: the
user's prompt (`content`, and `transformedContent` with the date), then the model's turns, each between
`assistant.turn_start` and `assistant.turn_end`: reasoning now and then (an `assistant.reasoning` event, which the
message repeats as its `reasoningText`, or only the message's), an `assistant.message` with a preamble and tool
requests (`view`, `bash`, `edit`), each call's `tool.execution_start` and `tool.execution_complete` (file reads and
test runs, most of the bytes: the output the model got, and again as the CLI showed it, `detailedContent`, with the
tool's telemetry; neither is read, both are kept in the header's `unread`), a failure now and then; the answer. Every few tasks a sub-agent reviews the change (`task`: `subagent.started` names its `agentId`; an older
version's only by the `parentToolCallId` of its events), the user stops a call (`abort`, the call cancelled), the
model changes, a rate limit is hit (`session.error`), the context is compacted, the user runs a tool, or an event of
a later version is written (shown hidden, W-JSON-UNKNOWN-ITEM), so that a small log has each. A finite log ends
with `session.shutdown` (the totals per model).

    from tests.harness.copilot_session import copilot_lines
    for line in copilot_lines(megabytes=100): ...
"""
from __future__ import annotations

import json
import random
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

from tests.harness.codex_rollout import _module, _tests_run
from tests.harness.workday import NAMES, VERBS, WORDS

SESSION = "3f9b2c61-7d4e-4a8b-9c15-2e6f0a1d8b47"
CWD = "/home/ana/src/ledger"
MODELS = ("claude-sonnet-4.5", "gpt-5.2")
REVIEWER = "claude-haiku-4.5"


class _Writer:
    """The log's events, each stamped a little after the one before and naming the one before as its parent."""

    def __init__(self, pick: random.Random) -> None:
        self.pick = pick
        self.now = datetime(2026, 8, 3, 10, 15, tzinfo=timezone.utc)
        self.parent: str | None = None
        self.calls = 0
        self.model = MODELS[0]
        self.tokens: dict[str, list[int]] = {}
        """Per model: its requests and its output tokens (what `session.shutdown` totals)."""

    def event(self, kind: str, data: dict, agent: str | None = None) -> str:
        self.now += timedelta(milliseconds=self.pick.randint(2, 3000))
        stamp = self.now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.now.microsecond // 1000:03d}Z"
        uuid = self.uuid()
        value = {"type": kind, "data": data, "id": uuid, "timestamp": stamp, "parentId": self.parent}
        if agent is not None:
            value["agentId"] = agent
        self.parent = uuid
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False) + "\n"

    def uuid(self) -> str:
        bits = "%032x" % self.pick.getrandbits(128)
        return f"{bits[:8]}-{bits[8:12]}-{bits[12:16]}-{bits[16:20]}-{bits[20:]}"

    def call_id(self) -> str:
        self.calls += 1
        return f"toolu_vrtx_{self.calls:06d}{self.pick.getrandbits(40):010x}"

    def words(self, low: int, high: int) -> str:
        return " ".join(self.pick.choices(WORDS, k=self.pick.randint(low, high)))

    def counted(self, model: str) -> int:
        """The output tokens of one request of `model`, counted for the shutdown's totals."""
        tokens = self.pick.randint(20, 900)
        figures = self.tokens.setdefault(model, [0, 0])
        figures[0] += 1
        figures[1] += tokens
        return tokens


def _call(write: _Writer, files: list[str]) -> tuple[dict, str, bool]:
    """A tool request, what the tool returned and whether it succeeded."""
    pick = write.pick
    path = pick.choice(files)
    way = pick.random()
    if way < 0.5:
        name, arguments = "view", {"path": path}
        output = _module(write, path.rsplit("/", 1)[-1][:-3])  # Codex's writer's `pick` and `words`, as here
        return {"toolCallId": write.call_id(), "name": name, "arguments": arguments, "type": "function"}, output, True
    if way < 0.8:
        passing = pick.random() < 0.6
        arguments = {"command": f"cd {CWD} && python -m pytest -q", "description": "Run the tests",
                     "initial_wait": 60, "mode": "sync"}
        output = _tests_run(write, passing) + f"\n<exited with exit code {0 if passing else 1}>"
        return {"toolCallId": write.call_id(), "name": "bash", "arguments": arguments, "type": "function"}, output, True
    noun = pick.choice(NAMES)
    arguments = {"path": path, "old_str": f"    return {noun}",
                 "new_str": f"    return {noun}.quantize(Decimal(\"0.01\"), rounding=ROUND_HALF_UP)"}
    succeeded = pick.random() < 0.9
    output = f"File {path} updated with changes." if succeeded else "No match found for old_str."
    return ({"toolCallId": write.call_id(), "name": "edit", "arguments": arguments, "type": "function"}, output,
            succeeded)


def _detailed(request: dict, output: str) -> str:
    """What the CLI showed of a result (`detailedContent`): an edit's diff, else the whole output again."""
    if request["name"] != "edit":
        return output
    arguments = request["arguments"]
    return (f"diff --git a/{arguments['path']} b/{arguments['path']}\n@@ -5,4 +5,4 @@\n-{arguments['old_str']}\n"
            f"+{arguments['new_str']}\n")


def _executions(write: _Writer, requests: list[tuple[dict, str, bool]], turn: str,
                agent: str | None = None, parent_call: str | None = None) -> Iterator[str]:
    for request, output, succeeded in requests:
        common = {"model": write.model if agent is None else REVIEWER, "turnId": turn}
        if parent_call is not None:
            common["parentToolCallId"] = parent_call
        yield write.event("tool.execution_start", {"toolCallId": request["toolCallId"], "toolName": request["name"],
                                                   "arguments": request["arguments"], **common}, agent)
        if succeeded:
            done = {"success": True, "result": {"content": output, "detailedContent": _detailed(request, output)},
                    "toolTelemetry": {"properties": {"command": request["name"]},
                                      "metrics": {"resultLength": len(output)}}}
        else:
            done = {"success": False, "error": {"message": output, "code": "failure"}}
        yield write.event("tool.execution_complete", {"toolCallId": request["toolCallId"], **done, **common}, agent)


def _turn(write: _Writer, turn: str, files: list[str], answer: str | None = None) -> Iterator[str]:
    """One API call of the main agent: reasoning now and then, a preamble and calls, or the answer."""
    pick = write.pick
    yield write.event("assistant.turn_start", {"turnId": turn, "model": write.model})
    data: dict = {"messageId": write.uuid()}
    if pick.random() < 0.4:
        thought = f"{write.words(10, 50)}."
        if pick.random() < 0.6:  # the event, which the message repeats
            yield write.event("assistant.reasoning", {"reasoningId": write.uuid(), "content": thought,
                                                      "turnId": turn})
        data["reasoningText"] = thought
        data["reasoningOpaque"] = "%064x" % pick.getrandbits(256)
    requests = [] if answer is not None else [_call(write, files) for _ in range(pick.randint(1, 3))]
    data["content"] = answer if answer is not None else (
        f"I'll {pick.choice(VERBS)} the {pick.choice(NAMES)} {write.words(3, 10)}." if pick.random() < 0.5 else "")
    if requests:
        data["toolRequests"] = [request for request, _, _ in requests]
    data.update(model=write.model, outputTokens=write.counted(write.model), turnId=turn)
    yield write.event("assistant.message", data)
    yield from _executions(write, requests, turn)
    yield write.event("assistant.turn_end", {"turnId": turn, "model": write.model})


def _review(write: _Writer, turn: str, files: list[str], number: int) -> Iterator[str]:
    """A `task` call whose sub-agent reviews the change: named by its `agentId` (an older version: only by the
    `parentToolCallId` its events give)."""
    call = write.call_id()
    arguments = {"agent_type": "code-review", "description": "Review the change",
                 "prompt": f"Review the change to {write.pick.choice(files)}. Report only real bugs."}
    yield write.event("assistant.turn_start", {"turnId": turn, "model": write.model})
    yield write.event("assistant.message", {
        "messageId": write.uuid(), "content": "I'll have a reviewer check the change.",
        "toolRequests": [{"toolCallId": call, "name": "task", "arguments": arguments, "type": "function"}],
        "model": write.model, "outputTokens": write.counted(write.model), "turnId": turn})
    yield write.event("tool.execution_start", {"toolCallId": call, "toolName": "task", "arguments": arguments,
                                               "model": write.model, "turnId": turn})
    older = number % 2 == 0
    agent = None if older else f"code-review-{write.pick.getrandbits(24):06x}"
    yield write.event("subagent.started", {"toolCallId": call, "agentName": "code-review", "model": REVIEWER}, agent)
    for sub_turn in ("0", "1"):
        yield write.event("assistant.turn_start", {"turnId": sub_turn, "model": REVIEWER}, agent)
        requests = [_call(write, files)] if sub_turn == "0" else []
        data = {"messageId": write.uuid(), "content": "" if requests else f"One bug: {write.words(6, 20)}.",
                "model": REVIEWER, "outputTokens": write.counted(REVIEWER), "parentToolCallId": call,
                "turnId": sub_turn}
        if requests:
            data["toolRequests"] = [request for request, _, _ in requests]
        yield write.event("assistant.message", data, agent)
        yield from _executions(write, requests, sub_turn, agent, call)
        yield write.event("assistant.turn_end", {"turnId": sub_turn, "model": REVIEWER}, agent)
    yield write.event("subagent.completed", {"toolCallId": call, "agentName": "code-review", "model": REVIEWER})
    yield write.event("tool.execution_complete", {"toolCallId": call, "success": True,
                                                  "result": {"content": f"One bug: {write.words(6, 20)}."},
                                                  "model": write.model, "turnId": turn})
    yield write.event("assistant.turn_end", {"turnId": turn, "model": write.model})


def _interrupted(write: _Writer, turn: str, files: list[str]) -> Iterator[str]:
    """The user stops a call: `abort`, and the call cancelled."""
    request, _, _ = _call(write, files)
    yield write.event("assistant.turn_start", {"turnId": turn, "model": write.model})
    yield write.event("assistant.message", {"messageId": write.uuid(), "content": "", "toolRequests": [request],
                                            "model": write.model, "outputTokens": write.counted(write.model),
                                            "turnId": turn})
    yield write.event("tool.execution_start", {"toolCallId": request["toolCallId"], "toolName": request["name"],
                                               "arguments": request["arguments"], "model": write.model,
                                               "turnId": turn})
    yield write.event("abort", {"reason": "user_initiated"})
    yield write.event("tool.execution_complete", {
        "toolCallId": request["toolCallId"], "success": False,
        "error": {"message": "The user cancelled this tool call.", "code": "cancelled"}, "model": write.model,
        "turnId": turn})


def _now_and_then(write: _Writer, number: int, files: list[str]) -> Iterator[str]:
    """What happens every few tasks."""
    if number % 5 == 2:
        model = MODELS[(MODELS.index(write.model) + 1) % len(MODELS)]
        yield write.event("session.model_change", {"previousModel": write.model, "newModel": model})
        write.model = model
    if number % 7 == 3:
        yield write.event("session.error", {"errorType": "rate_limit", "statusCode": 429,
                                            "message": "Sorry, you've hit a rate limit. Please wait a moment."})
    if number % 9 == 4:
        yield write.event("session.compaction_start", {})
        yield write.event("session.compaction_complete", {"success": True,
                                                          "summaryContent": f"The user asked for {write.words(20, 60)}."})
    if number % 11 == 5:  # the user runs a tool: no assistant message asked for it
        call = write.call_id()
        arguments = {"command": "git status --short"}
        yield write.event("tool.user_requested", {"toolCallId": call, "toolName": "bash", "arguments": arguments})
        yield write.event("tool.execution_start", {"toolCallId": call, "toolName": "bash", "arguments": arguments})
        yield write.event("tool.execution_complete", {"toolCallId": call, "success": True,
                                                      "result": {"content": f" M {write.pick.choice(files)}"}})
    if number % 13 == 6:  # an event of a later version
        yield write.event("session.future_insight", {"insight": write.words(3, 8)})


def _task(write: _Writer, number: int, files: list[str]) -> Iterator[str]:
    pick = write.pick
    request = f"Task {number}: {pick.choice(VERBS)} the {pick.choice(NAMES)} in {pick.choice(files)}; " \
              f"{write.words(6, 30)}."
    yield write.event("user.message", {"content": request, "transformedContent":
                                       f"<current_datetime>{write.now.isoformat()}</current_datetime>\n\n{request}",
                                       "attachments": [], "agentMode": "interactive", "interactionId": write.uuid()})
    turns = pick.randint(1, 6)
    for turn in range(turns):
        yield from _turn(write, str(turn), files)
    if number % 3 == 1:
        yield from _review(write, str(turns), files, number)
    if number % 8 == 5:
        yield from _interrupted(write, str(turns + 1), files)
    else:
        yield from _turn(write, str(turns + 1), files, answer=f"Done: {write.words(10, 50)}.")
    yield from _now_and_then(write, number, files)


def _start(write: _Writer) -> Iterator[str]:
    yield write.event("session.start", {
        "sessionId": SESSION, "version": 1, "producer": "copilot-agent", "copilotVersion": "1.0.77",
        "startTime": "2026-08-03T10:15:00.000Z", "selectedModel": MODELS[0],
        "context": {"cwd": CWD, "gitRoot": CWD, "branch": "main", "repository": "ana-dev/ledger"}})
    yield write.event("session.info", {"infoType": "folder_trust", "message": f"Folder {CWD} is trusted."})
    yield write.event("system.message", {"role": "system", "content": "You are the GitHub Copilot CLI. Keep answers "
                                                                      "short; prefer tools over guesses."})


def _shutdown(write: _Writer) -> str:
    metrics = {model: {"requests": {"count": requests, "cost": requests},
                       "usage": {"inputTokens": requests * 9000, "outputTokens": output,
                                 "cacheReadTokens": requests * 7000, "cacheWriteTokens": 0}}
               for model, (requests, output) in write.tokens.items()}
    return write.event("session.shutdown", {"shutdownType": "routine", "totalPremiumRequests": len(metrics),
                                            "totalApiDurationMs": 18760, "modelMetrics": metrics,
                                            "codeChanges": {"linesAdded": 3, "linesRemoved": 1}})


def copilot_lines(megabytes: float, seed: int = 1) -> Iterator[str]:
    """A log's events, until they hold at least `megabytes` (MB; `float("inf")`: without end, and so without
    `session.shutdown`)."""
    pick = random.Random(seed)
    write = _Writer(pick)
    files = [f"{CWD}/ledger/{name}.py" for name in pick.sample(NAMES, 12)]
    size = 0
    for line in _start(write):
        size += len(line.encode())
        yield line
    number = 0
    while size < megabytes * 1_000_000:
        number += 1
        for line in _task(write, number, files):
            size += len(line.encode())
            yield line
    yield _shutdown(write)


def copilot_session(megabytes: float, seed: int = 1) -> str:
    """A whole log of at least `megabytes` MB, ended by `session.shutdown`."""
    return "".join(copilot_lines(megabytes, seed))
