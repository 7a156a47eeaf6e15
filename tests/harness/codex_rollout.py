"""A deterministic Codex CLI rollout of any size (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`), for the tests of
a rollout read a piece at a time and for the memory benchmark: written as Codex 0.5x writes one, each line
`{"timestamp", "type", "payload"}`.

The session's `session_meta` (its instructions), then tasks: the injected context and the user's request as
`response_item` messages, echoed by a `user_message` event; a `turn_context` (the model changes now and then);
then the model's responses: reasoning (its summary in the item, or only in `agent_reasoning` events before an
item whose summary is empty, or its raw text in `agent_reasoning_raw_content` and the item's `content`), a
preamble before a call (as text, or an assistant message of the `commentary` phase), `function_call` to `shell`
and `update_plan`, `custom_tool_call` to `apply_patch`, their outputs (file reads and test runs, most of the
bytes), a `token_count` event after each response (now and then with no `info`), and the answer echoed by an
`agent_message` event. Now and then a web search is made; every few tasks one is aborted by the user, the
context compacted, or an event of a later version written (its members unread), so that a small rollout has
each.

    from tests.harness.codex_rollout import rollout_lines
    for line in rollout_lines(megabytes=100): ...
"""
from __future__ import annotations

import json
import random
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

from tests.harness.workday import NAMES, VERBS, WORDS

SESSION = "019a9c4e-7b21-7d30-a8f4-3c5e91d2b6a7"
CWD = "/home/ada/code/ledger"
MODELS = ("gpt-5.1-codex", "gpt-5.1-codex-max")
INSTRUCTIONS = "Use Decimal for money. Run pytest before you say a change is done."
ENVIRONMENT = (f"<environment_context>\n  <cwd>{CWD}</cwd>\n  <approval_policy>on-request</approval_policy>\n"
               "  <sandbox_mode>workspace-write</sandbox_mode>\n  <network_access>restricted</network_access>\n"
               "  <shell>bash</shell>\n</environment_context>")


class _Writer:
    """The rollout's lines, each stamped a little after the one before."""

    def __init__(self, pick: random.Random) -> None:
        self.pick = pick
        self.now = datetime(2025, 11, 18, 9, 40, tzinfo=timezone.utc)
        self.calls = 0

    def line(self, kind: str, payload: dict) -> str:
        self.now += timedelta(milliseconds=self.pick.randint(5, 4000))
        stamp = self.now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.now.microsecond // 1000:03d}Z"
        return json.dumps({"timestamp": stamp, "type": kind, "payload": payload}, separators=(",", ":"),
                          ensure_ascii=False) + "\n"

    def item(self, payload: dict) -> str:
        return self.line("response_item", payload)

    def event(self, kind: str, **members) -> str:
        return self.line("event_msg", {"type": kind, **members})

    def call_id(self) -> str:
        self.calls += 1
        return f"call_{self.calls:06d}{self.pick.getrandbits(32):08x}"

    def words(self, low: int, high: int) -> str:
        return " ".join(self.pick.choices(WORDS, k=self.pick.randint(low, high)))


def _message(role: str, text: str, **members) -> dict:
    kind = "output_text" if role == "assistant" else "input_text"
    return {"type": "message", "role": role, "content": [{"type": kind, "text": text}], **members}


def module_lines(write: _Writer, name: str, functions: tuple[int, int] = (8, 40)) -> list[str]:
    """The lines of a Python module of the project (`write`: any writer with `pick` and `words`)."""
    pick = write.pick
    lines = [f'"""The {name} of a ledger: {write.words(6, 10)}."""', "from decimal import Decimal", ""]
    for _ in range(pick.randint(*functions)):
        noun = pick.choice(NAMES)
        lines += [f"def {pick.choice(VERBS)}_{noun}({noun}: Decimal) -> Decimal:",
                  f'    """{write.words(5, 14).capitalize()}."""',
                  *(f"    {pick.choice(NAMES)} = {noun} * Decimal(\"{pick.randint(1, 999)}.{pick.randint(0, 99):02d}\")"
                    for _ in range(pick.randint(2, 8))),
                  f"    return {noun}", ""]
    return lines


def _module(write: _Writer, name: str) -> str:
    """A Python module of the project, as `cat -n` shows it."""
    return "\n".join(f"{number:6d}\t{text}" for number, text in enumerate(module_lines(write, name), start=1))


def _tests_run(write: _Writer, passing: bool) -> str:
    pick = write.pick
    count = pick.randint(4, 60)
    failed = 0 if passing else pick.randint(1, 3)
    lines = ["============================= test session starts ==============================",
             f"collected {count} items", ""]
    lines += [f"tests/test_{pick.choice(NAMES)}.py {'.' * pick.randint(1, 12)}" for _ in range(pick.randint(3, 10))]
    for _ in range(failed):
        noun = pick.choice(NAMES)
        lines += ["", f"___ test_{noun}_{pick.choice(NAMES)} ___", f"    assert {noun}(Decimal(\"0.125\")) == "
                  f"Decimal(\"0.13\")", f"E   AssertionError: {write.words(4, 9)}"]
    lines.append(f"{count - failed} passed" + (f", {failed} failed" if failed else "") + " in 0.4s")
    return "\n".join(lines)


def _shell(write: _Writer, command: str, output: str, code: int = 0) -> Iterator[str]:
    call = write.call_id()
    yield write.item({"type": "function_call", "name": "shell", "arguments": json.dumps(
        {"command": ["bash", "-lc", command], "workdir": CWD, "timeout_ms": 120000}), "call_id": call})
    yield write.item({"type": "function_call_output", "call_id": call, "output": json.dumps(
        {"output": output, "metadata": {"exit_code": code, "duration_seconds": round(write.pick.random() * 3, 1)}})})


def _patch(write: _Writer, path: str) -> Iterator[str]:
    pick = write.pick
    call = write.call_id()
    noun = pick.choice(NAMES)
    body = "\n".join(f"+    {pick.choice(NAMES)} = {noun}.quantize(Decimal(\"0.01\"))"
                     for _ in range(pick.randint(1, 12)))
    yield write.item({"type": "custom_tool_call", "status": "completed", "call_id": call, "name": "apply_patch",
                      "input": f"*** Begin Patch\n*** Update File: {path}\n@@\n def {pick.choice(VERBS)}_{noun}"
                               f"({noun}):\n-    return {noun}\n{body}\n*** End Patch\n"})
    yield write.item({"type": "custom_tool_call_output", "call_id": call, "output": json.dumps(
        {"output": f"Success. Updated the following files:\nM {path}\n",
         "metadata": {"exit_code": 0, "duration_seconds": 0.0}})})


def _plan(write: _Writer) -> Iterator[str]:
    call = write.call_id()
    steps = [{"step": write.words(3, 7).capitalize(), "status": status}
             for status in ("completed", "in_progress", "pending")]
    yield write.item({"type": "function_call", "name": "update_plan", "call_id": call,
                      "arguments": json.dumps({"explanation": write.words(6, 12), "plan": steps})})
    yield write.item({"type": "function_call_output", "call_id": call, "output": "Plan updated"})


def _reasoning(write: _Writer) -> Iterator[str]:
    """Reasoning as the versions write it: the summary in the item and repeated by an event before it; only in
    events, before an item whose summary is empty; or raw text in an event and in the item's content."""
    pick = write.pick
    said = f"**{write.words(2, 5).capitalize()}**\n\n{write.words(12, 60)}."
    way = pick.random()
    if way < 0.4:
        yield write.event("agent_reasoning", text=said)
        yield write.item({"type": "reasoning", "summary": [{"type": "summary_text", "text": said}], "content": None,
                          "encrypted_content": "gAAAAAB" + "%032x" % pick.getrandbits(128)})
    elif way < 0.75:
        for _ in range(pick.randint(1, 3)):
            yield write.event("agent_reasoning", text=f"**{write.words(2, 4).capitalize()}**\n\n{write.words(8, 40)}.")
        yield write.item({"type": "reasoning", "summary": [], "content": None,
                          "encrypted_content": "gAAAAAB" + "%032x" % pick.getrandbits(128)})
    else:
        yield write.event("agent_reasoning_raw_content", text=said)
        yield write.item({"type": "reasoning", "summary": [], "content": [{"type": "reasoning_text", "text": said}],
                          "encrypted_content": None})


def _usage(write: _Writer, total: list[int]) -> str:
    pick = write.pick
    if pick.random() < 0.05:
        return write.event("token_count", info=None, rate_limits={"primary": {"used_percent": 4.0}})
    last = {"input_tokens": pick.randint(4000, 90000), "cached_input_tokens": pick.randint(0, 3000),
            "output_tokens": pick.randint(20, 900), "reasoning_output_tokens": pick.randint(0, 400)}
    last["total_tokens"] = last["input_tokens"] + last["output_tokens"]
    total[:] = [before + now for before, now in zip(total, last.values())]
    return write.event("token_count", info={"total_token_usage": dict(zip(last, total)), "last_token_usage": last,
                                            "model_context_window": 272000})


def _response(write: _Writer, files: list[str], total: list[int]) -> Iterator[str]:
    """One of the model's responses: reasoning, a preamble now and then, a call and its output; then its usage."""
    pick = write.pick
    if pick.random() < 0.7:
        yield from _reasoning(write)
    if pick.random() < 0.4:
        preamble = f"I'll {pick.choice(VERBS)} the {pick.choice(NAMES)} {write.words(3, 10)}."
        yield write.item(_message("assistant", preamble, **({"phase": "commentary"} if pick.random() < 0.5 else {})))
    path = pick.choice(files)
    way = pick.random()
    if way < 0.45:
        yield from _shell(write, f"sed -n 1,400p {path}", _module(write, path.rsplit("/", 1)[-1][:-3]))
    elif way < 0.7:
        passing = pick.random() < 0.6
        yield from _shell(write, "python -m pytest -q", _tests_run(write, passing), 0 if passing else 1)
    elif way < 0.9:
        yield from _patch(write, path)
    elif way < 0.95:
        yield from _plan(write)
    else:
        yield write.item({"type": "web_search_call", "status": "completed",
                          "action": {"type": "search", "query": write.words(3, 6)}})
    yield _usage(write, total)


def _task(write: _Writer, number: int, files: list[str], total: list[int]) -> Iterator[str]:
    pick = write.pick
    request = (f"Task {number}: {pick.choice(VERBS)} the {pick.choice(NAMES)} in {pick.choice(files)}; "
               f"{write.words(6, 30)}.")
    if number == 1 or pick.random() < 0.1:
        yield write.item(_message("user", ENVIRONMENT))
    yield write.item(_message("user", request))
    yield write.event("user_message", message=request, images=[])
    yield write.line("turn_context", {"cwd": CWD, "approval_policy": "on-request",
                                      "sandbox_policy": {"type": "workspace-write", "network_access": False},
                                      "model": MODELS[pick.random() < 0.1], "effort": "medium", "summary": "auto"})
    for _ in range(pick.randint(1, 8)):
        yield from _response(write, files, total)
    if number % 7 == 3:  # the user stops the agent mid-task
        yield write.event("turn_aborted", reason="interrupted")
        yield write.item(_message("user", "<turn_aborted>\nThe user interrupted the previous turn.\n</turn_aborted>"))
        return
    answer = f"Done: {write.words(10, 50)}."
    yield write.event("agent_message", message=answer)
    yield write.item(_message("assistant", answer))
    yield _usage(write, total)
    if number % 9 == 4:
        yield write.line("compacted", {"message": f"The user asked for {write.words(20, 60)}."})
        yield write.event("context_compacted")
    if number % 11 == 2:  # an event of a later version, whose members no reader reads
        yield write.event("undo_completed", success=True, message=write.words(3, 8))


def rollout_lines(megabytes: float, seed: int = 1) -> Iterator[str]:
    """A rollout's lines, until they hold at least `megabytes` (MB; `float("inf")`: without end)."""
    pick = random.Random(seed)
    write = _Writer(pick)
    files = [f"{CWD}/ledger/{name}.py" for name in pick.sample(NAMES, 12)]
    total = [0, 0, 0, 0, 0]
    first = write.line("session_meta", {"id": SESSION, "timestamp": "2025-11-18T09:40:00.000Z", "cwd": CWD,
                                        "originator": "codex_cli_rs", "cli_version": "0.58.0",
                                        "instructions": INSTRUCTIONS, "source": "cli", "model_provider": "openai",
                                        "git": {"commit_hash": "9c1d2e3f" * 5, "branch": "main"}})
    size = len(first.encode())
    yield first
    number = 0
    while size < megabytes * 1_000_000:
        number += 1
        for line in _task(write, number, files, total):
            size += len(line.encode())
            yield line


def rollout(megabytes: float, seed: int = 1) -> str:
    """The whole rollout as one text."""
    return "".join(rollout_lines(megabytes, seed))
