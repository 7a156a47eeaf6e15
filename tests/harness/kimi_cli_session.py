"""A deterministic Kimi CLI (the Python one) `wire.jsonl` of any size (`~/.kimi/sessions/<md5 of the work dir>/
<session>/wire.jsonl`), for the tests of a wire read a piece at a time and for the memory benchmark: written as the
CLI writes one, a `{"type": "metadata", "protocol_version"}` line, then one UI event a line,
`{"timestamp": <seconds>, "message": {"type": <PascalCase>, "payload": …}}`.

Turns: `TurnBegin` with what the user typed; steps (`StepBegin`, `n` counting the turn's steps) of the model's
`ContentPart`s (`think` now and then, a preamble), `ToolCall`s (`Shell`, `ReadFile`, `StrReplaceFile`) whose
arguments often stream on in `ToolCallPart`s, the step's `StatusUpdate` (usage, the provider's message id, how full
the context is), the `ToolResult`s (file reads and test runs, most of the bytes; a failed edit `is_error`, with the
UI's `display`); the answer, `TurnEnd`. Every few turns an `Agent` call whose sub-agent's events come wrapped in
`SubagentEvent`s (a thread of their own), an approval asked and answered, a compaction, a response the user
interrupted (partway, or before it said anything), a user steering the turn, or an event of a later version
(shown hidden, W-JSON-UNKNOWN-ITEM), so that a small wire has each.

    from tests.harness.kimi_cli_session import kimi_cli_lines
    for line in kimi_cli_lines(megabytes=100): ...
"""
from __future__ import annotations

import json
import random
from collections.abc import Iterator

from tests.harness.codex_rollout import _module, _tests_run
from tests.harness.workday import NAMES, VERBS, WORDS

CWD = "/home/ada/code/ledger"


class _Writer:
    """The wire's events, each stamped a little after the one before."""

    def __init__(self, pick: random.Random) -> None:
        self.pick = pick
        self.now = 1783050000.1032417
        self.calls = 0
        self.messages = 0

    def line(self, value: dict) -> str:
        return json.dumps(value, ensure_ascii=False) + "\n"

    def event(self, kind: str, payload: dict, agent: dict | None = None) -> str:
        """One event; a sub-agent's (`agent`: who it is, what started it) wrapped in a `SubagentEvent`."""
        self.now += self.pick.randint(2, 3000) / 1000
        message = {"type": kind, "payload": payload}
        if agent is not None:
            message = {"type": "SubagentEvent", "payload": {**agent, "event": message}}
        return self.line({"timestamp": self.now, "message": message})

    def call_id(self) -> str:
        self.calls += 1
        return f"tool_{self.calls:06d}{self.pick.getrandbits(64):016x}"

    def message_id(self) -> str:
        self.messages += 1
        return f"chatcmpl-{self.messages:06d}{self.pick.getrandbits(40):010x}"

    def words(self, low: int, high: int) -> str:
        return " ".join(self.pick.choices(WORDS, k=self.pick.randint(low, high)))


def _status(write: _Writer) -> dict:
    pick = write.pick
    tokens = pick.randint(8000, 200000)
    return {"context_usage": round(tokens / 262144, 4), "context_tokens": tokens, "max_context_tokens": 262144,
            "token_usage": {"input_other": pick.randint(50, 4000), "output": pick.randint(20, 900),
                            "input_cache_read": pick.randint(0, 60000), "input_cache_creation": 0},
            "message_id": write.message_id(), "plan_mode": False, "mcp_status": None}


def _tool(write: _Writer, files: list[str]) -> tuple[str, dict, dict]:
    """A call's tool, its arguments, and the `return_value` of its result."""
    pick = write.pick
    path = pick.choice(files)
    way = pick.random()
    if way < 0.5:
        value: dict = {"is_error": False, "output": _module(write, path.rsplit("/", 1)[-1][:-3]),
                       "message": f"Read {pick.randint(20, 300)} lines.", "display": [], "extras": None}
        return "ReadFile", {"path": path}, value
    if way < 0.8:
        passing = pick.random() < 0.6
        value = {"is_error": not passing, "output": _tests_run(write, passing),
                 "message": "Command executed successfully." if passing else "Command failed with exit code: 1.",
                 "display": [], "extras": None}
        return "Shell", {"command": "python -m pytest -q"}, value
    noun = pick.choice(NAMES)
    old, new = f"    return {noun}", f"    return {noun}.quantize(Decimal(\"0.01\"))"
    if pick.random() < 0.9:
        value = {"is_error": False, "output": "", "message": f"File successfully edited. Applied 1 edit to {path}.",
                 "display": [{"type": "diff", "path": path, "old_text": old, "new_text": new}], "extras": None}
    else:
        value = {"is_error": True, "output": "", "message": "No replacements were made: the old string was not "
                                                           "found in the file.", "display": [], "extras": None}
    return "StrReplaceFile", {"path": path, "edit": {"old": old, "new": new}}, value


def _step(write: _Writer, number: int, files: list[str], agent: dict | None = None) -> Iterator[str]:
    """One model response that calls tools, then their results."""
    pick = write.pick
    yield write.event("StepBegin", {"n": number}, agent)
    if pick.random() < 0.5:
        yield write.event("ContentPart", {"type": "think", "think": f"{write.words(10, 50)}.", "encrypted": None},
                          agent)
    if pick.random() < 0.5:
        yield write.event("ContentPart", {"type": "text", "text": f"I'll {pick.choice(VERBS)} the "
                                                                  f"{pick.choice(NAMES)} {write.words(3, 10)}."},
                          agent)
    calls = []
    for _ in range(pick.randint(1, 3)):
        name, arguments, value = _tool(write, files)
        call = write.call_id()
        written = json.dumps(arguments)
        cut = pick.randint(1, len(written) - 1) if pick.random() < 0.6 else len(written)
        yield write.event("ToolCall", {"type": "function", "id": call,
                                       "function": {"name": name, "arguments": written[:cut]}, "extras": None}, agent)
        while cut < len(written):  # the rest of the arguments, streamed
            step = pick.randint(4, 40)
            yield write.event("ToolCallPart", {"arguments_part": written[cut:cut + step]}, agent)
            cut += step
        calls.append((call, name, value))
    yield write.event("StatusUpdate", _status(write), agent)
    for call, name, value in calls:
        if name == "Shell" and agent is None and pick.random() < 0.2:  # asked first
            request = f"{pick.getrandbits(64):016x}"
            yield write.event("ApprovalRequest", {"id": request, "tool_call_id": call, "sender": "Shell",
                                                  "action": "run shell command",
                                                  "description": "Run command `python -m pytest -q`", "display": []})
            yield write.event("ApprovalResponse", {"request_id": request, "response": "approve"})
        yield write.event("ToolResult", {"tool_call_id": call, "return_value": value}, agent)


def _agent_call(write: _Writer, number: int, files: list[str]) -> Iterator[str]:
    """An `Agent` call: the sub-agent's events, wrapped, then the call's result."""
    pick = write.pick
    call = write.call_id()
    prompt = f"List every caller of {pick.choice(NAMES)}() and say what each passes."
    yield write.event("StepBegin", {"n": number})
    yield write.event("ContentPart", {"type": "text", "text": "I'll have a sub-agent find the callers."})
    arguments = json.dumps({"description": "Find callers", "prompt": prompt, "subagent_type": "explore"})
    yield write.event("ToolCall", {"type": "function", "id": call,
                                   "function": {"name": "Agent", "arguments": arguments}, "extras": None})
    yield write.event("StatusUpdate", _status(write))
    agent = {"parent_tool_call_id": call, "agent_id": f"{pick.getrandbits(32):08x}", "subagent_type": "explore"}
    yield write.event("TurnBegin", {"user_input": prompt}, agent)
    for step in range(1, pick.randint(2, 3)):
        yield from _step(write, step, files, agent)
    found = f"Two call sites: {write.words(8, 20)}."
    yield write.event("StepBegin", {"n": 3}, agent)
    yield write.event("ContentPart", {"type": "text", "text": found}, agent)
    yield write.event("StatusUpdate", _status(write), agent)
    yield write.event("TurnEnd", {}, agent)
    yield write.event("ToolResult", {"tool_call_id": call, "return_value": {
        "is_error": False, "output": found, "message": "", "display": [], "extras": None}})


def _turn(write: _Writer, number: int, files: list[str]) -> Iterator[str]:
    pick = write.pick
    request = f"Task {number}: {pick.choice(VERBS)} the {pick.choice(NAMES)} in {pick.choice(files)}; " \
              f"{write.words(6, 30)}."
    yield write.event("TurnBegin", {"user_input": [{"type": "text", "text": request}]})
    steps = pick.randint(1, 6)
    for step in range(1, steps + 1):
        yield from _step(write, step, files)
        if number % 7 == 3 and step == 1:
            yield write.event("SteerInput", {"user_input": [{"type": "text", "text": f"Also {write.words(3, 9)}."}]})
    if number % 4 == 2:
        steps += 1
        yield from _agent_call(write, steps, files)
    yield write.event("StepBegin", {"n": steps + 1})
    answer = f"Done: {write.words(10, 50)}."
    if number % 10 == 6:  # the user stops the answer partway
        yield write.event("ContentPart", {"type": "text", "text": answer[:len(answer) // 2]})
        yield write.event("StepInterrupted", {})
    elif number % 10 == 9:  # before the model wrote anything
        yield write.event("StepInterrupted", {})
    else:
        yield write.event("ContentPart", {"type": "text", "text": answer})
        yield write.event("StatusUpdate", _status(write))
    yield write.event("TurnEnd", {})
    if number % 9 == 4:
        yield write.event("CompactionBegin", {})
        yield write.event("CompactionEnd", {})
    if number % 11 == 5:  # an event of a later version
        yield write.event("ContextNote", {"note": write.words(3, 8)})
    if number % 5 == 3:
        yield write.event("Notification", {"title": "Tests", "body": write.words(3, 8)})


def kimi_cli_lines(megabytes: float, seed: int = 1) -> Iterator[str]:
    """A wire's lines, until they hold at least `megabytes` (MB; `float("inf")`: without end)."""
    pick = random.Random(seed)
    write = _Writer(pick)
    files = [f"{CWD}/ledger/{name}.py" for name in pick.sample(NAMES, 12)]
    first = write.line({"type": "metadata", "protocol_version": "1.10"})
    size = len(first.encode())
    yield first
    number = 0
    while size < megabytes * 1_000_000:
        number += 1
        for line in _turn(write, number, files):
            size += len(line.encode())
            yield line


def kimi_cli_session(megabytes: float, seed: int = 1) -> str:
    """A whole wire of at least `megabytes` MB."""
    return "".join(kimi_cli_lines(megabytes, seed))
