"""A deterministic Gemini CLI session log of any size (`~/.gemini/tmp/<project>/chats/session-*.jsonl`, 0.39 and
later), for the tests of a session read a piece at a time and for the memory benchmark: written as the CLI's
recording service writes one (the shape of sample_transcripts/gemini-cli-0.44-log-rewind-checkpoint-subagent.jsonl
and of viewer/parse/agents/gemini_cli.py's docstring): a metadata line (`sessionId`, `projectHash`, `startTime`,
`lastUpdated`), then message records (`id`, `timestamp`, `type`), each followed by a `{"$set": {"lastUpdated"}}`.

Tasks: the user's request (the first with an `@file` reference the CLI expanded into `content`, `displayContent`
what was typed); then the model's responses, each written when its stream ends (`thoughts`, a preamble, `tokens`,
`model`; now and then `tokens: null`, written again once they came) and again, whole, once its tool calls end
(`toolCalls` with `result`, `status`, `resultDisplay`, the CLI's names for the tool), then the user record of the
calls' `functionResponse` parts; file reads and test runs are most of the bytes; a failed edit is `status:
"error"`; the answer. Every few tasks: a request cancelled (its call `cancelled`, then an `info` note), an API
`error`, a rewind (`$rewindTo` the request before, then a new one), a `/compress` checkpoint (`$set` of
`messages`, then its `info` note), a `$set` of the `summary`, a sub-agent's call (`agentId`) whose own log is
joined after the session's (its second metadata line, `kind: "subagent"`), a record or a line of a later version
(shown hidden, W-JSON-UNKNOWN-ITEM), so that a small session has each.

    from tests.harness.gemini_cli_session import gemini_cli_lines
    for line in gemini_cli_lines(megabytes=100): ...
"""
from __future__ import annotations

import json
import random
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

from tests.harness.codex_rollout import _tests_run, module_lines
from tests.harness.workday import NAMES, VERBS, WORDS

SESSION = "4d7e1a9c-2b5f-4c8e-9a3d-6f0b2e8c1d57"
PROJECT = "3c5e1b7d9f2a4c6e8b0d1f3a5c7e9b2d4f6a8c0e1b3d5f7a9c2e4b6d8f0a1c3e"
CWD = "/home/ana/src/ledger"
MODEL = "gemini-3-pro-preview"
TOOLS = {"read_file": ("ReadFile", "Reads and returns the content of a specified file.", True),
         "run_shell_command": ("Shell", "Executes a given shell command.", False),
         "replace": ("Edit", "Replaces text within a file.", True)}
"""Each tool's display name, description and whether its output renders as Markdown."""


class _Writer:
    """The log's lines, each stamped a little after the one before."""

    def __init__(self, pick: random.Random) -> None:
        self.pick = pick
        self.now = datetime(2026, 8, 3, 16, 40, 5, tzinfo=timezone.utc)

    def stamp(self) -> str:
        self.now += timedelta(milliseconds=self.pick.randint(2, 3000))
        return self.now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.now.microsecond // 1000:03d}Z"

    def line(self, value: dict) -> str:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False) + "\n"

    def record(self, value: dict) -> Iterator[str]:
        """A message record, then the metadata's `lastUpdated` (the CLI writes both on every change)."""
        yield self.line(value)
        yield self.line({"$set": {"lastUpdated": self.stamp()}})

    def uuid(self) -> str:
        bits = "%032x" % self.pick.getrandbits(128)
        return f"{bits[:8]}-{bits[8:12]}-{bits[12:16]}-{bits[16:20]}-{bits[20:]}"

    def call_id(self, name: str) -> str:
        return f"{name}-{int(self.now.timestamp() * 1000)}-{self.pick.getrandbits(52):013x}"

    def words(self, low: int, high: int) -> str:
        return " ".join(self.pick.choices(WORDS, k=self.pick.randint(low, high)))


def _user(write: _Writer, text: str, record: str | None = None) -> dict:
    return {"id": record or write.uuid(), "timestamp": write.stamp(), "type": "user", "content": [{"text": text}]}


def _expanded(write: _Writer, text: str, path: str) -> dict:
    """A request naming a file with `@`: the CLI appended the file to what the model got."""
    typed = f"@{path} {text}"
    module = "\n".join(module_lines(write, path.rsplit("/", 1)[-1][:-3], (2, 6)))
    return {"id": write.uuid(), "timestamp": write.stamp(), "type": "user",
            "content": [{"text": typed}, {"text": "\n--- Content from referenced files ---"},
                        {"text": f"\nContent from @{path}:\n"}, {"text": module}, {"text": "\n--- End of content ---"}],
            "displayContent": [{"text": typed}]}


def _tokens(write: _Writer) -> dict:
    pick = write.pick
    figures = {"input": pick.randint(2000, 60000), "output": pick.randint(20, 900), "cached": pick.randint(0, 2000),
               "thoughts": pick.randint(0, 400), "tool": 0}
    return {**figures, "total": figures["input"] + figures["output"] + figures["thoughts"]}


def _call(write: _Writer, files: list[str], cancelled: bool = False) -> dict:
    """A tool call as the CLI records it once it ended: its result is what the model got back."""
    pick = write.pick
    path = pick.choice(files)
    way = pick.random()
    status = "success"
    if way < 0.5:
        name, args = "read_file", {"file_path": path}
        output = {"output": "\n".join(module_lines(write, path.rsplit("/", 1)[-1][:-3]))}
        shown = ""
    elif way < 0.8:
        name, args = "run_shell_command", {"command": "python -m pytest -q", "description": "Run the unit tests."}
        output = {"output": _tests_run(write, pick.random() < 0.6)}
        shown = output["output"]
    else:
        noun = pick.choice(NAMES)
        name, args = "replace", {"file_path": path, "instruction": f"Round the {noun} to cents.",
                                 "old_string": f"    return {noun}",
                                 "new_string": f"    return {noun}.quantize(Decimal(\"0.01\"))"}
        if pick.random() < 0.9:
            output = {"output": f"Successfully modified file: {path} (1 replacements)."}
        else:
            status, output = "error", {"error": "Failed to edit, could not find the string to replace."}
        shown = output.get("output", output.get("error", ""))
    if cancelled:
        status, shown = "cancelled", ""
        output = {"error": "[Operation Cancelled] Reason: User cancelled the operation."}
    call_id = write.call_id(name)
    display, description, markdown = TOOLS[name]
    return {"id": call_id, "name": name, "args": args,
            "result": [{"functionResponse": {"id": call_id, "name": name, "response": output}}],
            "status": status, "timestamp": write.stamp(), "resultDisplay": shown, "displayName": display,
            "description": description, "renderOutputAsMarkdown": markdown}


def _thoughts(write: _Writer) -> list[dict]:
    if write.pick.random() < 0.4:
        return []
    return [{"subject": f"{write.pick.choice(VERBS).title()} the {write.pick.choice(NAMES)}",
             "description": f"{write.words(10, 50)}.", "timestamp": write.stamp()}]


def _response(write: _Writer, calls: list[dict], text: str = "", cancelled: bool = False) -> Iterator[str]:
    """A response written when its stream ends (now and then before its usage came: written again with it), again
    with its calls once they end (the CLI rewrites the last message only), then the calls' results as the model
    got them, or the note of the request cancelled."""
    response = {"id": write.uuid(), "timestamp": write.stamp(), "type": "gemini", "content": text,
                "thoughts": _thoughts(write), "tokens": _tokens(write), "model": MODEL}
    if write.pick.random() < 0.3:
        yield from write.record({**response, "tokens": None})
    yield from write.record(response)
    if calls:
        yield from write.record({**response, "toolCalls": calls})
    if cancelled:
        yield from write.record({"id": write.uuid(), "timestamp": write.stamp(), "type": "info",
                                 "content": "Request cancelled."})
    elif calls:
        parts = [part for call in calls for part in call["result"]]
        yield from write.record({"id": write.uuid(), "timestamp": write.stamp(), "type": "user", "content": parts})


def _checkpoint(write: _Writer, request: dict) -> Iterator[str]:
    """`/compress`: the list the model goes on from (the environment, the summary, the model's reply, the last
    request), then its note."""
    stamp = write.stamp()
    context = (f"<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\n"
               f"My operating system is: linux\nThe project's temporary directory is: /home/ana/.gemini/tmp/ledger\n"
               "</session_context>")
    summary = f"<state_snapshot>\n<overall_goal>{write.words(6, 20)}</overall_goal>\n</state_snapshot>"
    messages = [{**_user(write, context), "timestamp": stamp}, {**_user(write, summary), "timestamp": stamp},
                {"id": write.uuid(), "timestamp": stamp, "type": "gemini",
                 "content": [{"text": "Got it. Thanks for the additional context!"}]}, request]
    yield write.line({"$set": {"messages": messages, "lastUpdated": write.stamp()}})
    tokens = write.pick.randint(20000, 90000)
    yield from write.record({"id": write.uuid(), "timestamp": write.stamp(), "type": "info",
                             "content": f"Chat history compressed from {tokens} to {tokens // 6} tokens."})


def _task(write: _Writer, number: int, files: list[str], subagents: list[tuple[str, str]]) -> Iterator[str]:
    pick = write.pick
    text = f"Task {number}: {pick.choice(VERBS)} the {pick.choice(NAMES)}; {write.words(6, 30)}."
    request = _expanded(write, text, pick.choice(files)) if number == 1 else _user(write, text)
    yield from write.record(request)
    for _ in range(pick.randint(1, 6)):
        preamble = f"I'll {pick.choice(VERBS)} the {pick.choice(NAMES)} {write.words(3, 10)}." \
            if pick.random() < 0.5 else ""
        yield from _response(write, [_call(write, files) for _ in range(pick.randint(1, 3))], preamble)
    if number % 5 == 3:  # the user cancels a call
        yield from _response(write, [_call(write, files, cancelled=True)], cancelled=True)
    if number % 4 == 2:
        yield from _subagent_call(write, subagents)
    yield from _response(write, [], f"Done: {write.words(10, 50)}.")
    if number == 1:
        yield write.line({"$set": {"summary": f"{pick.choice(VERBS).title()} the ledger's rounding"}})
    if number % 6 == 4:  # an API error, the request retried, and rewound to
        retry = _user(write, "try again")
        yield from write.record(retry)
        yield from write.record({"id": write.uuid(), "timestamp": write.stamp(), "type": "error",
                                 "content": "[API Error: You have exhausted your capacity on this model.]"})
        yield write.line({"$rewindTo": retry["id"]})
        request = _user(write, f"Once more: {write.words(4, 12)}.")
        yield from write.record(request)
        yield from _response(write, [], f"Done again: {write.words(5, 20)}.")
    if number % 9 == 5:
        yield from _checkpoint(write, request)
    if number % 11 == 6:  # what a later version writes
        yield from write.record({"id": write.uuid(), "timestamp": write.stamp(), "type": "plan",
                                 "content": write.words(3, 8)})
        yield write.line({"$mark": {"at": write.stamp(), "label": write.words(1, 3)}})


def _subagent_call(write: _Writer, subagents: list[tuple[str, str]]) -> Iterator[str]:
    """The codebase investigator's call; its own log is joined after the session's (`subagents`: id, objective)."""
    agent = write.uuid()
    objective = f"Find every caller of {write.pick.choice(NAMES)}() and say what each passes."
    call_id = write.call_id("codebase_investigator")
    output = {"output": f"Two call sites: {write.words(8, 20)}."}
    call = {"id": call_id, "name": "codebase_investigator", "args": {"objective": objective},
            "result": [{"functionResponse": {"id": call_id, "name": "codebase_investigator", "response": output}}],
            "status": "success", "timestamp": write.stamp(), "agentId": agent, "resultDisplay": output["output"],
            "displayName": "Codebase Investigator Agent",
            "description": "Investigates the codebase and reports findings.", "renderOutputAsMarkdown": True}
    yield from _response(write, [call], "I'll have the investigator find the callers.")
    subagents.append((agent, objective))


def _subagent(write: _Writer, agent: str, objective: str, files: list[str]) -> Iterator[str]:
    """A sub-agent's own log, joined after the session's: its metadata names it by the call's `agentId`."""
    yield write.line({"sessionId": agent, "projectHash": PROJECT, "startTime": write.stamp(),
                      "lastUpdated": write.stamp(), "kind": "subagent", "directories": [CWD]})
    yield from write.record(_user(write, objective))
    yield from _response(write, [_call(write, files)], "Reading the module first.")
    yield from _response(write, [], f"Two call sites: {write.words(8, 20)}.")


def gemini_cli_lines(megabytes: float, seed: int = 1) -> Iterator[str]:
    """A log's lines, until they hold at least `megabytes` (MB; `float("inf")`: without end, and so without the
    sub-agents' logs, which follow the session's), then its sub-agents' logs."""
    pick = random.Random(seed)
    write = _Writer(pick)
    files = [f"{CWD}/ledger/{name}.py" for name in pick.sample(NAMES, 12)]
    stamp = write.stamp()
    first = write.line({"sessionId": SESSION, "projectHash": PROJECT, "startTime": stamp, "lastUpdated": stamp})
    size = len(first.encode())
    yield first
    subagents: list[tuple[str, str]] = []
    number = 0
    while size < megabytes * 1_000_000:
        number += 1
        for line in _task(write, number, files, subagents):
            size += len(line.encode())
            yield line
    for agent, objective in subagents:
        yield from _subagent(write, agent, objective, files)


def gemini_cli_session(megabytes: float, seed: int = 1) -> str:
    """A whole log of at least `megabytes` MB, its sub-agents' logs after it."""
    return "".join(gemini_cli_lines(megabytes, seed))
