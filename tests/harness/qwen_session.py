"""A deterministic Qwen Code session of any size (`~/.qwen/projects/<cwd>/chats/<session>.jsonl`), for the tests
of a session read a piece at a time and for the memory benchmark: written as Qwen Code 0.17 writes one (its
chatRecordingService), each line a `ChatRecord` whose `parentUuid` names the record before it.

Tasks: the user's request (with a `<system-reminder>` part the CLI appends now and then), then the model's
responses, each written as fragments sharing a uuid (its thought first, then its text and function calls with its
`usageMetadata`), and a `tool_result` record per call: file reads and test runs (most of the bytes), edits with
their diff as `resultDisplay`, now and then a failed or cancelled call. The session's title after the first
answer, telemetry now and then (records that give no message: the chain goes through them), a slash command, a
chat compression, a sub-agent (its `task` call, the `agent_session_ready` record naming it, its sidechain
records) and a rewind (the user's request again, under the record it followed: a fork) every few tasks, so that a
small session has each.

    from tests.harness.qwen_session import session_lines
    for line in session_lines(megabytes=100): ...
"""
from __future__ import annotations

import json
import random
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

from tests.harness.codex_rollout import _module, _tests_run
from tests.harness.workday import NAMES, VERBS, WORDS

SESSION = "5e8a2c71-4d9b-4f3e-a6c1-8b0d2f4e6a93"
CWD = "/home/ana/src/ledger"
MODEL = "qwen3-coder-plus"


class _Writer:
    """The session's records, each stamped a little after the one before and linked to the last record written
    (or to the one named)."""

    def __init__(self, pick: random.Random) -> None:
        self.pick = pick
        self.now = datetime(2026, 8, 3, 19, 20, tzinfo=timezone.utc)
        self.ids = 0
        self.last: str | None = None

    def uuid(self) -> str:
        self.ids += 1
        return f"{self.pick.getrandbits(32):08x}-{self.ids:04x}-4a3c-9e5f-{self.pick.getrandbits(48):012x}"

    def record(self, kind: str, uuid: str | None = None, parent: str | None = "last", **members) -> str:
        self.now += timedelta(milliseconds=self.pick.randint(5, 4000))
        uuid = uuid or self.uuid()
        value = {"uuid": uuid, "parentUuid": self.last if parent == "last" else parent, "sessionId": SESSION,
                 "timestamp": self.now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.now.microsecond // 1000:03d}Z",
                 "type": kind, "cwd": CWD, "version": "0.17.1", "gitBranch": "main", **members}
        if not members.get("isSidechain"):
            self.last = uuid
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False) + "\n"

    def words(self, low: int, high: int) -> str:
        return " ".join(self.pick.choices(WORDS, k=self.pick.randint(low, high)))


def _user(write: _Writer, text: str, parent: str | None = "last") -> str:
    parts = [{"text": text}]
    if write.pick.random() < 0.3:
        parts.append({"text": f"<system-reminder>\nYou are working in {CWD} on branch main.\n</system-reminder>"})
    return write.record("user", parent=parent, provenance="real_user", message={"role": "user", "parts": parts})


def _usage(write: _Writer) -> dict:
    prompt = write.pick.randint(8000, 60000)
    output = write.pick.randint(20, 900)
    return {"promptTokenCount": prompt, "candidatesTokenCount": output, "thoughtsTokenCount": write.pick.randint(0, 90),
            "totalTokenCount": prompt + output, "cachedContentTokenCount": prompt - write.pick.randint(0, 4000)}


def _call(write: _Writer, files: list[str]) -> tuple[dict, dict, object, str]:
    """A function call, the output the model got, what the UI showed and the call's status."""
    pick = write.pick
    call = f"call_{pick.getrandbits(80):020x}"
    path = pick.choice(files)
    chosen = pick.random()
    if chosen < 0.45:
        name, args = "read_file", {"absolute_path": path}
        output, shown = _module(write, path.rsplit("/", 1)[-1]), ""
    elif chosen < 0.8:
        name = "run_shell_command"
        args = {"command": "python -m pytest -q", "description": "Run the tests", "is_background": False}
        run = _tests_run(write, pick.random() < 0.7)
        output = f"Command: python -m pytest -q\nDirectory: (root)\nOutput: {run}\nError: (none)\nExit Code: 0"
        shown = run
    else:
        name = "edit"
        noun = pick.choice(NAMES)
        old, new = f"    return {noun}\n", f"    return {noun}.quantize(Decimal(\"0.01\"))\n"
        args = {"file_path": path, "old_string": old, "new_string": new}
        output = f"The file: {path} has been updated."
        shown = {"fileDiff": f"--- {path}\tCurrent\n+++ {path}\tProposed\n@@ -1 +1 @@\n-{old}+{new}",
                 "fileName": path.rsplit("/", 1)[-1], "originalContent": old, "newContent": new}
    status = "error" if pick.random() < 0.05 else "cancelled" if pick.random() < 0.02 else "success"
    if status == "cancelled":
        output = "[Operation Cancelled] Reason: User did not allow tool call"
    return {"id": call, "name": name, "args": args}, {"output": output}, shown, status


def _result(write: _Writer, call: dict, response: dict, shown: object, status: str) -> str:
    parts = [{"functionResponse": {"id": call["id"], "name": call["name"], "response": response}}]
    return write.record("tool_result", provenance="tool_result", message={"role": "user", "parts": parts},
                        toolCallResult={"callId": call["id"], "responseParts": parts, "resultDisplay": shown,
                                        "status": status})


def _response(write: _Writer, files: list[str], calls: int) -> Iterator[str]:
    """A response's fragments (its thought, then its text and calls with its usage), then its calls' results."""
    uuid, parent = write.uuid(), write.last
    thought = {"role": "model", "parts": [{"text": write.words(8, 40), "thought": True}]}
    yield write.record("assistant", uuid, parent, provenance="assistant_output", model=MODEL, message=thought)
    made = [_call(write, files) for _ in range(calls)]
    parts = [{"text": f"I'll {write.words(4, 16)}."}] if calls == 0 or write.pick.random() < 0.6 else []
    parts += [{"functionCall": call} for call, *_ in made]
    yield write.record("assistant", uuid, parent, provenance="assistant_output", model=MODEL,
                       message={"role": "model", "parts": parts}, usageMetadata=_usage(write),
                       contextWindowSize=1000000)
    for call, response, shown, status in made:
        yield _result(write, call, response, shown, status)


def _sub_agent(write: _Writer) -> Iterator[str]:
    """A `task` call, the sub-agent's records (a sidechain of their own) and the call's result."""
    prompt = f"Review the {write.pick.choice(NAMES)} module for rounding bugs. {write.words(4, 12)}."
    call = {"id": f"call_{write.pick.getrandbits(80):020x}", "name": "task",
            "args": {"description": "Review rounding", "prompt": prompt, "subagent_type": "general-purpose"}}
    yield write.record("assistant", provenance="assistant_output", model=MODEL,
                       message={"role": "model", "parts": [{"functionCall": call}]}, usageMetadata=_usage(write))
    agent = f"general-purpose-{write.pick.getrandbits(16):04x}"
    yield write.record("system", provenance="system", subtype="agent_session_ready",
                       systemPayload={"callId": call["id"]}, agentId=agent)
    side = {"isSidechain": True, "agentId": agent, "agentName": "general-purpose"}
    opening = write.uuid()
    yield write.record("user", opening, None, provenance="system",
                       message={"role": "user", "parts": [{"text": prompt}]}, **side)
    report = f"No bugs: {write.words(6, 30)}."
    yield write.record("assistant", None, opening, provenance="assistant_output", model=MODEL,
                       message={"role": "model", "parts": [{"text": report}]}, usageMetadata=_usage(write), **side)
    yield _result(write, call, {"output": report}, {"type": "task_execution", "status": "completed",
                                                    "result": report}, "success")


def _task(write: _Writer, number: int, files: list[str]) -> Iterator[str]:
    pick = write.pick
    request = f"Task {number}: {pick.choice(VERBS)} the {pick.choice(NAMES)} in {pick.choice(files)}; " \
              f"{write.words(6, 30)}."
    asked_under = write.last
    yield _user(write, request)
    for _ in range(pick.randint(1, 6)):
        yield from _response(write, files, pick.randint(1, 2))
    if number % 5 == 2:
        yield from _sub_agent(write)
    yield from _response(write, files, 0)
    if number == 1:
        yield write.record("system", provenance="system", subtype="custom_title",
                           systemPayload={"customTitle": f"{request[:40]}", "titleSource": "auto"})
    if pick.random() < 0.3:
        yield write.record("system", provenance="system", subtype="ui_telemetry",
                           systemPayload={"uiEvent": {"event.name": "qwen-code.api_response",
                                                      "duration_ms": pick.randint(300, 9000)}})
    if number % 6 == 3:
        yield write.record("system", provenance="system", subtype="slash_command",
                           systemPayload={"phase": "invocation", "rawCommand": "/stats"})
    if number % 8 == 5:
        yield write.record("system", provenance="system", subtype="chat_compression",
                           systemPayload={"info": {"originalTokenCount": pick.randint(90000, 120000),
                                                   "newTokenCount": pick.randint(9000, 20000)}})
    if number % 7 == 4:  # the user rewinds to before the request and asks again: the task's turns are aside
        yield _user(write, f"Again, differently: {request}", parent=asked_under)
        yield from _response(write, files, 0)


def session_lines(megabytes: float, seed: int = 1) -> Iterator[str]:
    """A session's records, until they hold at least `megabytes` (MB; `float("inf")`: without end)."""
    pick = random.Random(seed)
    write = _Writer(pick)
    files = [f"{CWD}/ledger/{name}.py" for name in pick.sample(NAMES, 12)]
    size, number = 0, 0
    while size < megabytes * 1_000_000:
        number += 1
        for line in _task(write, number, files):
            size += len(line.encode())
            yield line


def session(megabytes: float, seed: int = 1) -> str:
    """The whole session as one text."""
    return "".join(session_lines(megabytes, seed))
