"""A deterministic VS Code chat session log of any size (`chatSessions/<session>.jsonl`, GitHub Copilot Chat), for
the tests of a session read a piece at a time and for the memory benchmark: written as VS Code's ObjectMutationLog
writes one (sample_transcripts/vscode-chat-2026-subagent-cancelled.jsonl line by line): the session first (kind 0,
no request yet), then per request its append to `requests` (kind 2), the input box emptied (kind 1), its response
appended in parts as the chat drew them (kind 2 on `response`; a tool's part drawn while it runs, then cut and drawn
again complete, `i`), its `result` set (the rounds' calls with their arguments, the tools' results, the rendered
prompt, the usage), its `modelState` set, its follow-ups deleted (kind 3); the title set after the first request.

Requests: thinking, preambles and answers (markdown parts), tool calls (`read_file`, `run_in_terminal`,
`replace_string_in_file` with its edit group), the tools' results most of the bytes (file reads and test runs).
Every few requests a sub-agent (`runSubagent`, its calls drawn with `subAgentInvocationId`), a request the user
stopped (`Canceled`, modelState 2), one that failed (modelState 3), a warning part, a part of a later version (shown
hidden, W-JSON-UNKNOWN-PART), a request member no reader names (W-JSON-UNREAD) or a change of a kind VS Code does
not write (W-JSON-UNKNOWN-ITEM), so that a small session has each.

    from tests.harness.vscode_chat_session import vscode_chat_lines
    for line in vscode_chat_lines(megabytes=100): ...
"""
from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from tests.harness.codex_rollout import _module, _tests_run
from tests.harness.workday import NAMES, VERBS, WORDS

SESSION = "9b2e4c61-7a3d-4f8e-b1c5-2d6f8a0e4c73"
FOLDER = "/home/ana/src/ledger"
MODEL = "claude-sonnet-4.5"
AGENT = {"extensionId": {"value": "GitHub.copilot-chat", "_lower": "github.copilot-chat"},
         "extensionVersion": "0.31.2026073001", "publisherDisplayName": "GitHub", "extensionPublisherId": "GitHub",
         "extensionDisplayName": "GitHub Copilot Chat", "id": "github.copilot.editsAgent",
         "description": "Edit files in your workspace in agent mode", "when": "config.chat.agent.enabled",
         "metadata": {"themeIcon": {"id": "tools"}, "hasFollowups": False, "supportIssueReporting": False},
         "name": "agent", "fullName": "GitHub Copilot", "isDefault": True, "locations": ["panel"],
         "modes": ["agent"], "slashCommands": [], "disambiguation": []}
MODE = {"kind": "agent", "isBuiltin": True, "modeId": "agent", "modeName": "agent"}
SELECTED = {"identifier": f"copilot/{MODEL}", "metadata": {
    "extension": {"value": "GitHub.copilot-chat", "_lower": "github.copilot-chat"}, "id": MODEL, "vendor": "copilot",
    "name": "Claude Sonnet 4.5", "family": MODEL, "version": MODEL, "maxInputTokens": 127805, "maxOutputTokens": 16000,
    "isDefaultForLocation": {"panel": False}, "isUserSelectable": True,
    "capabilities": {"vision": True, "toolCalling": True, "agentMode": True}}}
SAID = {"supportThemeIcons": False, "supportHtml": False}
BUILT_IN = {"type": "internal", "label": "Built-In"}


class _Writer:
    """The log's lines, each a little later than the one before."""

    def __init__(self, pick: random.Random) -> None:
        self.pick = pick
        self.now = 1785765726208  # ms
        self.calls = 0

    def stamp(self) -> int:
        self.now += self.pick.randint(50, 9000)
        return self.now

    def line(self, kind: int, path: list | None = None, value: Any = None, cut: int | None = None) -> str:
        change: dict[str, Any] = {"kind": kind}
        if path is not None:
            change["k"] = path
        if kind != 3:
            change["v"] = value
        if cut is not None:
            change["i"] = cut
        return json.dumps(change, separators=(",", ":"), ensure_ascii=False) + "\n"

    def uuid(self) -> str:
        bits = "%032x" % self.pick.getrandbits(128)
        return f"{bits[:8]}-{bits[8:12]}-{bits[12:16]}-{bits[16:20]}-{bits[20:]}"

    def call_id(self) -> str:
        self.calls += 1
        return f"toolu_vrtx_01{self.pick.getrandbits(64):016x}{self.calls:06d}__vscode-{self.now // 1000}"

    def words(self, low: int, high: int) -> str:
        return " ".join(self.pick.choices(WORDS, k=self.pick.randint(low, high)))


def _said(text: str) -> dict:
    return {"value": text, **SAID}


def _uri(path: str) -> dict:
    return {"$mid": 1, "fsPath": path, "external": f"file://{path}", "path": path, "scheme": "file"}


def _call(write: _Writer, files: list[str], thread: str | None = None) -> tuple[dict, list[dict], str]:
    """A call the model made: its round's call, the parts the chat drew for it, and its result's text."""
    pick = write.pick
    path = pick.choice(files)
    call = write.call_id()
    way = pick.random()
    parts: list[dict] = []
    if way < 0.5:
        name, tool, arguments = "read_file", "copilot_readFile", {"filePath": path, "startLine": 1, "endLine": 200}
        result = "```python\n" + _module(write, path.rsplit("/", 1)[-1][:-3]) + "\n```"  # type: ignore[arg-type]
        drawn = {"invocationMessage": _said(f"Reading [](file://{path})"),
                 "pastTenseMessage": _said(f"Read [](file://{path})")}
    elif way < 0.8:
        name, tool = "run_in_terminal", "run_in_terminal"
        arguments = {"command": "python -m pytest -q", "explanation": "Run the tests", "isBackground": False}
        result = _tests_run(write, pick.random() < 0.6)  # type: ignore[arg-type]
        drawn = {"invocationMessage": _said("Running `python -m pytest -q`"),
                 "pastTenseMessage": _said("Ran `python -m pytest -q`"),
                 "toolSpecificData": {"kind": "terminal", "commandLine": {"original": "python -m pytest -q"},
                                      "language": "sh", "terminalToolSessionId": write.uuid(),
                                      "terminalCommandId": f"tool-{write.now}",
                                      "terminalCommandState": {"exitCode": 0, "timestamp": write.now,
                                                               "duration": pick.randint(200, 4000)},
                                      "terminalCommandOutput": {"text": result, "lineCount": result.count("\n") + 1},
                                      "cwd": _uri(FOLDER)}}
    else:
        noun = pick.choice(NAMES)
        name, tool = "replace_string_in_file", "copilot_replaceString"
        arguments = {"filePath": path, "oldString": f"    return {noun}\n",
                     "newString": f"    return {noun}.quantize(Decimal(\"0.01\"))\n"}
        result = f"The following files were successfully edited:\n{path}"
        drawn = {"invocationMessage": _said("Using \"Replace String in File\""),
                 "pastTenseMessage": _said("Using \"Replace String in File\"")}
        parts.append({"kind": "textEditGroup", "uri": _uri(path), "edits": [[{
            "text": arguments["newString"], "range": {"startLineNumber": 12, "startColumn": 1, "endLineNumber": 12,
                                                      "endColumn": 30}}], []], "done": True})
    part = {**drawn, "isConfirmed": {"type": 1}, "isComplete": True, "source": BUILT_IN, "toolCallId": call,
            "toolId": tool, **({"subAgentInvocationId": thread} if thread else {}),
            "kind": "toolInvocationSerialized"}
    round_call = {"name": name, "arguments": json.dumps(arguments, separators=(",", ":")), "id": call}
    return round_call, [part, *parts], result


def _subagent(write: _Writer, files: list[str]) -> tuple[dict, list[dict], str, dict[str, str]]:
    """A `runSubagent` call: its sub-agent's calls drawn after it, each naming it; the sub-agent's results are
    its own (the request's results hold the call's alone)."""
    call = write.call_id()
    description = f"Find the callers of {write.pick.choice(NAMES)}"
    report = f"Two call sites: {write.words(8, 20)}."
    part = {"invocationMessage": _said(description), "pastTenseMessage": _said(description),
            "isConfirmed": {"type": 1}, "isComplete": True, "source": BUILT_IN,
            "toolSpecificData": {"kind": "subagent", "description": description, "agentName": "Explore",
                                 "prompt": f"{description}; say what each passes.", "result": report},
            "toolCallId": call, "toolId": "runSubagent", "kind": "toolInvocationSerialized"}
    inner = []
    for _ in range(write.pick.randint(1, 3)):
        _, drawn, _ = _call(write, files, thread=call)
        inner += drawn
    arguments = json.dumps({"description": description, "prompt": f"{description}; say what each passes."},
                           separators=(",", ":"))
    return {"name": "runSubagent", "arguments": arguments, "id": call}, [part, *inner], report, {}


def _request(write: _Writer, number: int, index: int, files: list[str]) -> Iterator[str]:
    pick = write.pick
    text = f"Request {number}: {pick.choice(VERBS)} the {pick.choice(NAMES)} in {pick.choice(files)}; " \
           f"{write.words(6, 30)}."
    started = write.stamp()
    request: dict[str, Any] = {
        "requestId": f"request_{write.uuid()}", "timestamp": started, "agent": AGENT, "modelId": f"copilot/{MODEL}",
        "modeInfo": MODE, "responseId": f"response_{write.uuid()}", "responseMarkdownInfo": [], "followups": [],
        "modelState": {"value": 0}, "contentReferences": [], "codeCitations": [], "timeSpentWaiting": started,
        "editedFileEvents": [], "response": [],
        "message": {"text": text, "parts": [{"range": {"start": 0, "endExclusive": len(text)},
                                             "editorRange": {"startLineNumber": 1, "startColumn": 1,
                                                             "endLineNumber": 1, "endColumn": len(text) + 1},
                                             "text": text, "kind": "text"}]},
        "variableData": {"variables": [{"kind": "file", "id": f"file://{files[0]}", "name": files[0].rsplit("/")[-1],
                                        "value": _uri(files[0]), "modelDescription": "User's active file",
                                        "isRoot": False, "automaticallyAdded": True}]}}
    if number % 7 == 3:
        request["isHidden"] = False
        request["checkpoint"] = {"id": write.uuid(), "files": pick.randint(1, 9)}  # a member no reader names
    yield write.line(2, ["requests"], [request])
    yield write.line(1, ["inputState", "inputText"], "")
    path = ["requests", index, "response"]
    drawn = 0
    rounds: list[dict] = []
    results: dict[str, Any] = {}
    ending = "stopped" if number % 8 == 6 else "failed" if number % 13 == 9 else None
    for turn in range(pick.randint(1, 5)):
        parts: list[dict] = []
        thinking = None
        if pick.random() < 0.4:
            thinking = f"{write.words(10, 50)}."
            parts.append({"kind": "thinking", "value": thinking, "id": f"thinking_{turn}",
                          "metadata": {"vscodeReasoningDone": True}})
        preamble = f"I'll {pick.choice(VERBS)} the {pick.choice(NAMES)} {write.words(3, 10)}.\n" \
            if pick.random() < 0.6 else ""
        if preamble:
            parts.append({"value": preamble, **SAID})
        if number % 5 == 2 and turn == 0:
            call, drawn_parts, returned, _ = _subagent(write, files)
        else:
            call, drawn_parts, returned = _call(write, files)
        running = {**drawn_parts[0], "isComplete": False}
        running.pop("pastTenseMessage", None)
        running.pop("toolSpecificData", None)
        yield write.line(2, path, [*parts, running])  # drawn while it runs
        drawn += len(parts)
        write.stamp()
        yield write.line(2, path, drawn_parts, cut=drawn)  # drawn again, complete
        drawn += len(drawn_parts)
        results[call["id"]] = {"$mid": 20, "content": [{"$mid": 21, "value": returned}]}
        rounds.append({"response": preamble, "toolCalls": [call], "toolInputRetry": 0, "id": write.uuid(),
                       **({"thinking": {"id": f"thinking_{turn}", "text": thinking}} if thinking else {}),
                       "timestamp": write.stamp()})
        if ending == "stopped":
            break
    if ending is None:
        answer = f"Done: {write.words(10, 50)}.\n"
        extra: list[dict] = [{"value": answer, **SAID}]
        if number % 6 == 4:
            extra.append({"kind": "warning", "content": _said("The terminal reported a deprecation warning.")})
        if number % 9 == 5:
            extra.append({"kind": "chatSummary", "value": write.words(3, 8)})  # a part of a later version
        yield write.line(2, path, extra)
        rounds.append({"response": answer, "toolCalls": [], "toolInputRetry": 0, "id": write.uuid(),
                       "timestamp": write.stamp()})
    prompt, output = pick.randint(4000, 90000), pick.randint(40, 1500)
    metadata: dict[str, Any] = {"codeBlocks": [], "renderedUserMessage": [
        {"type": 1, "text": f"<context>\nThe current date is August 3, 2026.\n</context>\n<editorContext>\nThe user's "
                            f"current file is {files[0]}.\n</editorContext>\n<userRequest>\n{text}\n</userRequest>"},
        {"type": 3, "cacheType": "ephemeral"}],
        "renderedGlobalContext": [{"type": 1, "text": "<environment_info>\nThe user's current OS is: Linux\n"
                                                      f"</environment_info>\n<workspace_info>\n- {FOLDER}\n"
                                                      "</workspace_info>"}, {"type": 3, "cacheType": "ephemeral"}],
        "cacheKey": f"file://{FOLDER}", "toolCallRounds": rounds, "toolCallResults": results,
        "modelMessageId": write.uuid(), "responseId": write.uuid(), "sessionId": SESSION, "agentId": "github.copilot",
        "resolvedModel": MODEL, "promptTokens": prompt, "outputTokens": output}
    timings = {"firstProgress": pick.randint(500, 3000), "totalElapsed": pick.randint(4000, 60000)}
    if ending == "stopped":
        result: dict[str, Any] = {"errorDetails": {"message": "Canceled", "responseIsIncomplete": True},
                                  "timings": timings, "metadata": metadata}
        state = 2
    elif ending == "failed":
        result = {"errorDetails": {"message": "Sorry, your request failed. Please try again.", "code": "failed"},
                  "timings": timings, "metadata": metadata}
        state = 3
    else:
        result = {"timings": timings, "details": "Claude Sonnet 4.5 • 1x",
                  "usage": {"promptTokens": prompt, "completionTokens": output, "totalTokens": prompt + output,
                            "promptTokenDetails": [{"category": "System", "label": "System Instructions",
                                                    "percentageOfPrompt": pick.randint(10, 40)}]},
                  "metadata": metadata}
        state = 1
    yield write.line(1, ["requests", index, "result"], result)
    yield write.line(1, ["requests", index, "modelState"], {"value": state, "completedAt": write.stamp()})
    if pick.random() < 0.5:
        yield write.line(3, ["requests", index, "followups"])
    if number == 1:
        yield write.line(1, ["customTitle"], f"{pick.choice(VERBS).capitalize()} the {pick.choice(NAMES)}")
    if number % 11 == 7:  # a change of a kind VS Code does not write, with a member no reader names
        yield write.line(4, ["requests", index, "vote"], 1)[:-2] + f',"at":{write.stamp()}}}\n'


def vscode_chat_lines(megabytes: float, seed: int = 1) -> Iterator[str]:
    """A session log's lines, until they hold at least `megabytes` (MB; `float("inf")`: without end)."""
    pick = random.Random(seed)
    write = _Writer(pick)
    files = [f"{FOLDER}/ledger/{name}.py" for name in pick.sample(NAMES, 12)]
    first = write.line(0, None, {
        "version": 3, "creationDate": write.now, "initialLocation": "panel", "responderUsername": "GitHub Copilot",
        "sessionId": SESSION, "hasPendingEdits": False, "requests": [], "pendingRequests": [],
        "inputState": {"attachments": [], "mode": {"id": "agent", "kind": "agent"}, "selectedModel": SELECTED,
                       "inputText": "", "selections": [], "contrib": {}}})
    size = len(first.encode())
    yield first
    number = 0
    while size < megabytes * 1_000_000:
        number += 1
        for line in _request(write, number, number - 1, files):
            size += len(line.encode())
            yield line


def vscode_chat_session(megabytes: float, seed: int = 1) -> str:
    """A whole session log of at least `megabytes` MB."""
    return "".join(vscode_chat_lines(megabytes, seed))
