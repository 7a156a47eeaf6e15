"""A deterministic Kimi Code CLI agent's `wire.jsonl` of any size (`~/.kimi-code/sessions/<work dir>/<session>/
agents/main/wire.jsonl`), for the tests of a wire read a piece at a time and for the memory benchmark: written as
the CLI writes one (wire protocol 1.x), flat records `{"type": "<dotted.name>", "agentId", …, "time": <ms>}`, a
`metadata` line first and a `config.update` with the system prompt.

Turns: `turn.prompt` and `prompt.accepted` (bookkeeping), the user's message as the context appends it
(`context.append_message`, origin `user`); an `llm.request` naming the model, then the agent's loop events, a step
at a time: `step.begin`, `content.part`s (`think` now and then, a preamble), `tool.call`s (`Read`, `Bash`,
`Edit`) and their `tool.result`s (file reads and test runs, most of the bytes; a failed edit `isError`, a result's
`note`), a `<system-reminder>` the context appends mid-step now and then, `step.end` (usage, the provider's message
id, finish reason, latencies) and the `usage.record` naming the step's model; the answer, `turn.ended`. Every few
turns an `Agent` call and the `task.started` that names its sub-agent (whose own wire is another file), a
compaction, a response the user cancelled (`turn.cancel`, `finishReason: interrupted`), a failed turn, an injected
message (origin `injection`), or a record of a later version (shown hidden, W-JSON-UNKNOWN-ITEM), so that a small
wire has each.

    from tests.harness.kimi_code_session import kimi_code_lines
    for line in kimi_code_lines(megabytes=100): ...
"""
from __future__ import annotations

import json
import random
from collections.abc import Iterator

from tests.harness.codex_rollout import _module, _tests_run
from tests.harness.workday import NAMES, VERBS, WORDS

CWD = "/home/wei/code/ledger"
AGENT = "main"
MODEL = "kimi-k2.6"


class _Writer:
    """The wire's records, each stamped a little after the one before."""

    def __init__(self, pick: random.Random) -> None:
        self.pick = pick
        self.now = 1787223600000
        self.calls = 0
        self.responses = 0

    def record(self, type_: str, **members) -> str:
        self.now += self.pick.randint(1, 3000)
        value = {"type": type_, "agentId": AGENT, **members, "time": self.now}
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False) + "\n"

    def loop(self, event: dict) -> str:
        return self.record("context.append_loop_event", event=event)

    def uuid(self) -> str:
        bits = "%032x" % self.pick.getrandbits(128)
        return f"{bits[:8]}-{bits[8:12]}-{bits[12:16]}-{bits[16:20]}-{bits[20:]}"

    def call_id(self) -> str:
        self.calls += 1
        return f"tool_{self.calls:06d}{self.pick.getrandbits(64):016x}"

    def message_id(self) -> str:
        self.responses += 1
        return f"chatcmpl-{self.responses:06d}{self.pick.getrandbits(40):010x}"

    def words(self, low: int, high: int) -> str:
        return " ".join(self.pick.choices(WORDS, k=self.pick.randint(low, high)))


def _usage(write: _Writer) -> dict:
    pick = write.pick
    return {"inputOther": pick.randint(50, 4000), "output": pick.randint(20, 900),
            "inputCacheRead": pick.randint(0, 60000), "inputCacheCreation": 0}


def _tool(write: _Writer, files: list[str]) -> tuple[str, dict, dict]:
    """A call's tool, its arguments, and its result."""
    pick = write.pick
    path = pick.choice(files)
    way = pick.random()
    if way < 0.5:
        return "Read", {"path": path}, {"output": _module(write, path.rsplit("/", 1)[-1][:-3])}
    if way < 0.8:
        passing = pick.random() < 0.6
        result: dict = {"output": _tests_run(write, passing)}
        if not passing:
            result["note"] = "The command exited with code 1."
        return "Bash", {"command": "python -m pytest -q", "timeout": 120}, result
    noun = pick.choice(NAMES)
    arguments = {"path": path, "old_string": f"    return {noun}",
                 "new_string": f"    return {noun}.quantize(Decimal(\"0.01\"))"}
    if pick.random() < 0.9:
        return "Edit", arguments, {"output": f"Replaced 1 occurrence in {path}"}
    return "Edit", arguments, {"output": "old_string was not found in the file.", "isError": True}


def _step(write: _Writer, turn: int, number: int, files: list[str], calls: int | None = None,
          agent_call: bool = False) -> Iterator[str]:
    """One model response: its parts, its calls and their results, its end and usage record."""
    pick = write.pick
    step = write.uuid()
    stamp = {"turnId": str(turn), "step": number}
    yield write.loop({"type": "step.begin", "uuid": step, **stamp})
    within = {**stamp, "stepUuid": step}
    if pick.random() < 0.5:
        yield write.loop({"type": "content.part", "uuid": write.uuid(), **within,
                          "part": {"type": "think", "think": f"{write.words(10, 50)}."}})
    if calls == 0 or pick.random() < 0.5:
        text = f"I'll {pick.choice(VERBS)} the {pick.choice(NAMES)} {write.words(3, 10)}." if calls != 0 \
            else f"Done: {write.words(10, 50)}."
        yield write.loop({"type": "content.part", "uuid": write.uuid(), **within,
                          "part": {"type": "text", "text": text}})
    made = []
    if agent_call:
        call, uuid = write.call_id(), write.uuid()
        yield write.loop({"type": "tool.call", "uuid": uuid, **within, "toolCallId": call, "name": "Agent",
                          "args": {"description": "Find callers", "subagent_type": "explore",
                                   "prompt": f"List every caller of {pick.choice(NAMES)}()."}})
        agent = f"agent-{write.calls}"
        yield write.record("task.started", info={
            "kind": "agent", "taskId": f"task_{pick.getrandbits(32):08x}", "description": "Find callers",
            "status": "running", "startedAt": write.now, "endedAt": None, "agentId": agent, "subagentType": "explore",
            "parentToolCallId": call, "model": MODEL})
        made.append((uuid, call, {"output": f"agent_id: {agent}\nTwo call sites: {write.words(8, 20)}."}))
    for _ in range(pick.randint(1, 3) if calls is None else calls):
        name, arguments, result = _tool(write, files)
        call, uuid = write.call_id(), write.uuid()
        yield write.loop({"type": "tool.call", "uuid": uuid, **within, "toolCallId": call, "name": name,
                          "args": arguments})
        made.append((uuid, call, result))
    for uuid, call, result in made:
        yield write.loop({"type": "tool.result", "parentUuid": uuid, "toolCallId": call, "result": result})
    if made and pick.random() < 0.15:  # the context is told something mid-step
        yield write.record("context.append_message", message={
            "role": "user", "content": [{"type": "text", "text": f"<system-reminder>\n{write.words(6, 20)}\n"
                                                                 "</system-reminder>"}],
            "toolCalls": [], "origin": {"kind": "system_reminder"}})
    usage = _usage(write)
    yield write.loop({"type": "step.end", "uuid": step, **stamp, "finishReason": "tool_use" if made else "end_turn",
                      "usage": usage, "messageId": write.message_id(), "providerFinishReason": "stop",
                      "llmFirstTokenLatencyMs": pick.randint(200, 3000),
                      "llmStreamDurationMs": pick.randint(500, 20000)})
    yield write.record("usage.record", model=MODEL, usage=usage, usageScope="turn")


def _turn(write: _Writer, number: int, files: list[str]) -> Iterator[str]:
    pick = write.pick
    turn = number - 1
    request = f"Task {number}: {pick.choice(VERBS)} the {pick.choice(NAMES)} in {pick.choice(files)}; " \
              f"{write.words(6, 30)}."
    typed = [{"type": "text", "text": request}]
    yield write.record("turn.prompt", input=typed, origin={"kind": "user"})
    yield write.record("prompt.accepted", promptId=f"prm_{pick.getrandbits(32):08x}")
    yield write.record("context.append_message", message={"role": "user", "content": typed, "toolCalls": [],
                                                          "origin": {"kind": "user"}})
    if number % 6 == 4:  # context injected beside what the user typed
        yield write.record("context.append_message", message={
            "role": "user", "content": [{"type": "text", "text": f"Plan mode is on: {write.words(6, 12)}."}],
            "toolCalls": [], "origin": {"kind": "injection", "variant": "plan_mode"}})
    yield write.record("llm.request", kind="loop", provider="kimi", model=MODEL, modelAlias="kimi-for-coding",
                       thinkingEffort="on", toolSelect=False, messageCount=pick.randint(1, 400))
    steps = pick.randint(1, 6)
    for step in range(1, steps + 1):
        yield from _step(write, turn, step, files, agent_call=number % 4 == 2 and step == 1)
    if number % 5 == 3:  # the user cancels the answer partway
        cancelled = write.uuid()
        yield write.loop({"type": "step.begin", "uuid": cancelled, "turnId": str(turn), "step": steps + 1})
        yield write.loop({"type": "content.part", "uuid": write.uuid(), "turnId": str(turn), "step": steps + 1,
                          "stepUuid": cancelled, "part": {"type": "text", "text": f"Understood, {write.words(4, 12)}"}})
        yield write.record("turn.cancel", turnId=turn, target="active", reason="user_cancelled")
        yield write.loop({"type": "step.end", "uuid": cancelled, "turnId": str(turn), "step": steps + 1,
                          "finishReason": "interrupted"})
        yield write.record("turn.ended", turnId=turn, reason="cancelled", durationMs=pick.randint(1000, 90000),
                           interruptReason="user_cancelled")
    elif number % 7 == 5:  # the provider fails
        yield write.record("turn.ended", turnId=turn, reason="failed", durationMs=pick.randint(1000, 90000),
                           error={"code": "provider_error", "message": "The provider is overloaded."})
    else:
        yield from _step(write, turn, steps + 1, files, calls=0)
        yield write.record("turn.ended", turnId=turn, reason="completed", durationMs=pick.randint(1000, 90000))
    if number % 9 == 4:
        summary = {"content": [{"type": "text", "text": f"The user asked for {write.words(20, 60)}."}]}
        yield write.record("context.apply_compaction", summary=summary, compactedCount=pick.randint(4, 40))
    if number % 6 == 1:  # a record of a later version, not dotted
        yield write.record("telemetry", payload={"note": write.words(3, 8)})


def kimi_code_lines(megabytes: float, seed: int = 1) -> Iterator[str]:
    """A wire's lines, until they hold at least `megabytes` (MB; `float("inf")`: without end)."""
    pick = random.Random(seed)
    write = _Writer(pick)
    files = [f"{CWD}/ledger/{name}.py" for name in pick.sample(NAMES, 12)]
    first = json.dumps({"type": "metadata", "protocol_version": "1.5", "created_at": write.now},
                       separators=(",", ":")) + "\n"
    size = len(first.encode())
    yield first
    for line in (write.record("config.update", modelAlias="kimi-for-coding", profileName="agent", thinkingEffort="on",
                              systemPrompt="You are Kimi Code CLI, an interactive coding agent running in the user's "
                                           f"terminal. {write.words(40, 80)}",
                              environmentDisclosure={"cwd": CWD}, agentsMdPaths=[f"{CWD}/AGENTS.md"]),
                 write.record("tools.set_active_tools", names=["Agent", "Bash", "Edit", "Glob", "Grep", "Read"]),
                 write.record("permission.set_mode", mode="manual")):
        size += len(line.encode())
        yield line
    number = 0
    while size < megabytes * 1_000_000:
        number += 1
        for line in _turn(write, number, files):
            size += len(line.encode())
            yield line


def kimi_code_session(megabytes: float, seed: int = 1) -> str:
    """A whole wire of at least `megabytes` MB."""
    return "".join(kimi_code_lines(megabytes, seed))
