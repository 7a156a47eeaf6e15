"""A property per agent session format (Copilot CLI, VS Code chat, Gemini CLI, Antigravity, Qwen Code, Factory
Droid, Cursor): whatever the order and mix of a session's records, a canary planted in each part the policy hides
(reasoning, opaque data, tool arguments and results, injected context, system prompts, errors, sub-agents)
appears in none of the default view's exports, while what the user typed does. The web app's answers are covered
by tests/system/test_leaks.py."""
from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from tests.parse.agents.test_agent_canaries import CANARY, _default_exports
from viewer import parse

FAST = settings(max_examples=40, deadline=None)


def _jsonl(lines: list[dict]) -> str:
    return "".join(json.dumps(line) + "\n" for line in lines)


# ---- Copilot CLI ------------------------------------------------------------------------------------------------

def _copilot(kind: str, number: int) -> list[dict]:
    def event(type_, data, **extra):
        return {"type": type_, "data": data, "id": f"e{number}-{type_}", "timestamp": "2026-08-03T10:15:09.799Z",
                "parentId": None, **extra}

    call = f"t{number}"
    if kind == "typed":
        return [event("user.message", {"content": f"SHOWN-{number}", "transformedContent": f"<r>{CANARY}</r>"})]
    if kind == "answer":
        return [event("assistant.message", {"content": f"SHOWN-{number}", "toolRequests": [],
                                            "reasoningText": CANARY, "reasoningOpaque": CANARY})]
    if kind == "call":
        return [event("assistant.message", {"content": "", "toolRequests": [
                    {"toolCallId": call, "name": "bash", "arguments": {"command": f"make\n{CANARY}"}}]}),
                event("tool.execution_start", {"toolCallId": call, "toolName": "bash", "arguments": CANARY}),
                event("tool.execution_complete", {"toolCallId": call, "success": True,
                                                  "result": {"content": CANARY, "detailedContent": CANARY}})]
    if kind == "injected":
        return [event("system.message", {"content": CANARY, "role": "system"}),
                event("skill.invoked", {"name": "s", "content": CANARY}),
                event("user.message", {"content": CANARY, "source": "agent-x"}),
                event("session.compaction_complete", {"summaryContent": CANARY})]
    if kind == "subagent":
        return [event("assistant.message", {"content": CANARY, "toolRequests": []}, agentId="a1"),
                event("assistant.reasoning", {"content": CANARY})]
    if kind == "error":
        return [event("session.error", {"errorType": "x", "message": CANARY}), event("abort", {"reason": CANARY})]
    return [event("session.holograms", {"text": CANARY})]


COPILOT_KINDS = ("typed", "answer", "call", "injected", "subagent", "error", "unknown")


@FAST
@given(st.lists(st.sampled_from(COPILOT_KINDS), min_size=1, max_size=10))
def test_no_hidden_part_of_a_copilot_cli_session_reaches_a_default_view_export(kinds):
    _check(_jsonl([line for number, kind in enumerate(["typed", *kinds]) for line in _copilot(kind, number)]),
           "copilot-cli")


# ---- Gemini CLI -------------------------------------------------------------------------------------------------

def _gemini(kind: str, number: int) -> list[dict]:
    def record(type_, **fields):
        return {"id": f"r{number}-{type_}", "timestamp": "2026-08-03T16:40:05.239Z", "type": type_, **fields}

    if kind == "typed":
        return [record("user", content=[{"text": f"SHOWN-{number}"}, {"text": f"\n--- Content from referenced "
                                                                             f"files ---\n{CANARY}"}])]
    if kind == "answer":
        thought = [{"subject": CANARY, "description": CANARY}]
        return [record("gemini", content="", thoughts=thought),
                record("gemini", content=f"SHOWN-{number}", thoughts=thought)]
    if kind == "call":
        call = {"id": f"c{number}", "name": "read_file", "args": {"p": CANARY}, "status": "error",
                "result": [{"functionResponse": {"id": f"c{number}", "name": "read_file",
                                                 "response": {"output": CANARY}}}], "resultDisplay": CANARY}
        return [record("gemini", content=f"SHOWN-{number}", toolCalls=[call]),  # a preamble: shown
                record("user", content=call["result"])]
    if kind == "injected":
        return [record("user", content=[{"text": f"<session_context>{CANARY}</session_context>"}]),
                {"$set": {"messages": [record("user", content=[{"text": CANARY}])], "summary": CANARY}}]
    if kind == "rewound":
        return [record("user", content=[{"text": CANARY}]), {"$rewindTo": f"r{number}-user"}]
    if kind == "error":
        return [record("error", content=CANARY), record("info", content=CANARY)]
    return [record("hologram", content=CANARY)]


GEMINI_KINDS = ("typed", "answer", "call", "injected", "rewound", "error", "unknown")
GEMINI_META = {"sessionId": "s", "projectHash": "ab" * 32, "startTime": "2026-08-03T16:40:05.219Z",
               "lastUpdated": "2026-08-03T16:40:05.219Z"}


@FAST
@given(st.lists(st.sampled_from(GEMINI_KINDS), min_size=1, max_size=10))
def test_no_hidden_part_of_a_gemini_cli_log_reaches_a_default_view_export(kinds):
    lines = [GEMINI_META, *(line for number, kind in enumerate(["typed", *kinds]) for line in _gemini(kind, number))]
    _check(_jsonl(lines), "gemini-cli")


# ---- Qwen Code --------------------------------------------------------------------------------------------------

def _qwen(kind: str, number: int) -> list[dict]:
    def record(type_, suffix="", **fields):
        return {"uuid": f"q{number}{suffix}", "parentUuid": f"q{number - 1}" if number else None, "sessionId": "s",
                "timestamp": "2026-08-03T19:20:14.662Z", "type": type_, "cwd": "/w", "version": "0.17.1", **fields}

    if kind == "typed":
        return [record("user", message={"role": "user", "parts": [
            {"text": f"SHOWN-{number}"}, {"text": f"<system-reminder>{CANARY}</system-reminder>"}]})]
    if kind == "answer":
        return [record("assistant", message={"role": "model", "parts": [{"text": CANARY, "thought": True}]}),
                record("assistant", message={"role": "model", "parts": [{"text": f"SHOWN-{number}",
                                                                          "thoughtSignature": CANARY}]})]
    if kind == "call":
        call = {"functionCall": {"id": f"c{number}", "name": "edit", "args": {"new": CANARY}}}
        reply = {"functionResponse": {"id": f"c{number}", "name": "edit", "response": {"output": CANARY}}}
        return [record("assistant", message={"role": "model", "parts": [{"text": f"SHOWN-{number}"}, call]}),
                record("tool_result", "r", message={"role": "user", "parts": [reply, {"text": CANARY}]},
                       toolCallResult={"callId": f"c{number}", "status": "error", "resultDisplay": CANARY})]
    if kind == "injected":
        return [record("user", message={"role": "user", "parts": [{"text": CANARY}]}, provenance="system"),
                record("system", "y", subtype="chat_compression", systemPayload={"info": CANARY})]
    if kind == "subagent":
        return [record("user", "s", message={"role": "user", "parts": [{"text": CANARY}]}, isSidechain=True,
                       agentId="a1")]
    return [record("hologram", message={"role": "user", "parts": [{"text": CANARY}]})]


QWEN_KINDS = ("typed", "answer", "call", "injected", "subagent", "unknown")


@FAST
@given(st.lists(st.sampled_from(QWEN_KINDS), min_size=1, max_size=10))
def test_no_hidden_part_of_a_qwen_code_session_reaches_a_default_view_export(kinds):
    _check(_jsonl([line for number, kind in enumerate(["typed", *kinds]) for line in _qwen(kind, number)]),
           "qwen-code")


# ---- Antigravity ------------------------------------------------------------------------------------------------

def _antigravity(kind: str, number: int) -> list[dict]:
    def step(source, type_, **fields):
        return {"step_index": number, "source": source, "type": type_, "status": "DONE",
                "created_at": "2026-08-03T18:02:40Z", **fields}

    if kind == "typed":
        return [step("USER_EXPLICIT", "USER_INPUT", content=f"<USER_REQUEST>\nSHOWN-{number}\n</USER_REQUEST>\n"
                                                           f"<ADDITIONAL_METADATA>{CANARY}</ADDITIONAL_METADATA>")]
    if kind == "answer":
        return [step("MODEL", "PLANNER_RESPONSE", content=f"SHOWN-{number}", thinking=CANARY)]
    if kind == "call":
        return [step("MODEL", "PLANNER_RESPONSE", content="", thinking=CANARY,
                     tool_calls=[{"name": "view_file", "args": {"AbsolutePath": json.dumps("/w/a.py"), "Offset": json.dumps(CANARY)}}]),
                step("MODEL", "VIEW_FILE", content=CANARY, status="ERROR")]
    if kind == "injected":
        return [step("SYSTEM", "EPHEMERAL_MESSAGE", content=CANARY), step("SYSTEM", "CHECKPOINT", content=CANARY),
                step("SYSTEM", "SYSTEM_MESSAGE", content=f"<SYSTEM_MESSAGE>\n{CANARY}\n</SYSTEM_MESSAGE>")]
    return [step("ELSEWHERE", "HOLOGRAM", content=CANARY)]


ANTIGRAVITY_KINDS = ("typed", "answer", "call", "injected", "unknown")


@FAST
@given(st.lists(st.sampled_from(ANTIGRAVITY_KINDS), min_size=1, max_size=10))
def test_no_hidden_part_of_an_antigravity_transcript_reaches_a_default_view_export(kinds):
    _check(_jsonl([line for number, kind in enumerate(["typed", *kinds]) for line in _antigravity(kind, number)]),
           "antigravity")


# ---- Factory Droid ----------------------------------------------------------------------------------------------

def _droid(kind: str, number: int) -> list[dict]:
    def message(role, *content):
        return {"type": "message", "id": f"d{number}{role}", "timestamp": "2026-03-21T09:14:02.118Z",
                "message": {"role": role, "content": list(content)}}

    if kind == "typed":
        return [message("user", {"type": "text", "text": f"<system-reminder>{CANARY}</system-reminder>"},
                        {"type": "text", "text": f"SHOWN-{number}"})]
    if kind == "answer":
        return [message("assistant", {"type": "thinking", "thinking": CANARY, "signature": CANARY},
                        {"type": "text", "text": f"SHOWN-{number}"})]
    if kind == "call":
        return [message("assistant", {"type": "text", "text": f"SHOWN-{number}"},
                        {"type": "tool_use", "id": f"t{number}", "name": "Execute", "input": {"command": f"make\n{CANARY}"}}),
                message("user", {"type": "tool_result", "tool_use_id": f"t{number}", "content": CANARY,
                                 "is_error": True})]
    if kind == "injected":
        return [{"type": "compaction_state", "timestamp": "t", "summary": {"title": CANARY, "body": CANARY}},
                {"type": "todo_state", "timestamp": "t", "todos": [{"description": CANARY}]}]
    if kind == "subagent":
        return [{"type": "session_start", "id": f"sub{number}", "callingSessionId": "s1",
                 "callingToolUseId": "t1"}, message("user", {"type": "text", "text": CANARY}),
                message("assistant", {"type": "text", "text": CANARY})]
    return [{"type": "hologram", "text": CANARY}]


DROID_KINDS = ("typed", "answer", "call", "injected", "subagent", "unknown")
DROID_START = {"type": "session_start", "id": "s1", "title": "t", "version": 2, "cwd": "/w"}


@FAST
@given(st.lists(st.sampled_from(DROID_KINDS), min_size=1, max_size=10))
def test_no_hidden_part_of_a_factory_droid_session_reaches_a_default_view_export(kinds):
    lines = [DROID_START, *(line for number, kind in enumerate(["typed", *kinds]) for line in _droid(kind, number))]
    _check(_jsonl(lines), "factory-droid")


# ---- Cursor -----------------------------------------------------------------------------------------------------

def _cursor(kind: str, number: int) -> list[dict]:
    def said(role, *content):
        return {"role": role, "message": {"content": list(content)}}

    if kind == "typed":
        return [said("user", {"type": "text", "text": f"<timestamp>{CANARY}</timestamp>\n<user_query>\n"
                                                      f"SHOWN-{number}\n</user_query>\n<rules>{CANARY}</rules>"})]
    if kind == "answer":
        return [said("assistant", {"type": "thinking", "thinking": CANARY},
                     {"type": "text", "text": f"SHOWN-{number}"})]
    if kind == "call":
        return [said("assistant", {"type": "tool_use", "name": "Shell", "input": {"command": f"make\n{CANARY}"}}),
                said("user", {"type": "tool_result", "tool_use_id": "x", "content": CANARY})]
    if kind == "error":
        return [{"type": "turn_ended", "status": "error", "error": CANARY}, {"type": "turn_ended", "status": "aborted"}]
    return [{"type": "hologram", "text": CANARY}]


CURSOR_KINDS = ("typed", "answer", "call", "error", "unknown")


@FAST
@given(st.lists(st.sampled_from(CURSOR_KINDS), min_size=1, max_size=10))
def test_no_hidden_part_of_a_cursor_transcript_reaches_a_default_view_export(kinds):
    _check(_jsonl([line for number, kind in enumerate(["typed", *kinds]) for line in _cursor(kind, number)]),
           "cursor-agent")


# ---- VS Code chat -----------------------------------------------------------------------------------------------

def _vscode_parts(kind: str, number: int) -> tuple[list[dict], dict]:
    """The response parts a kind adds to a request, and what it adds to the request's result metadata."""
    call = f"c{number}"
    if kind == "answer":
        return [{"kind": "thinking", "value": CANARY}, {"value": f"SHOWN-{number}"}], {}
    if kind == "call":
        return ([{"kind": "toolInvocationSerialized", "toolCallId": call, "toolId": "read",
                  "invocationMessage": {"value": CANARY}, "resultDetails": {"output": [CANARY], "isError": True}}],
                {"rounds": [{"id": f"r{number}", "toolCalls": [{"id": call, "name": "read_file",
                                                                "arguments": json.dumps({"p": CANARY})}],
                             "thinking": {"text": CANARY}}],
                 "results": {call: {"content": [{"value": CANARY}]}}})
    if kind == "subagent":
        return [{"kind": "toolInvocationSerialized", "toolCallId": f"s{number}", "toolId": "read",
                 "subAgentInvocationId": "sub", "invocationMessage": CANARY,
                 "toolSpecificData": {"kind": "terminal", "terminalCommandOutput": {"text": CANARY}}}], {}
    if kind == "ui":
        return [{"kind": "textEditGroup", "edits": [[{"text": CANARY}]]}, {"kind": "warning",
                                                                          "content": {"value": CANARY}}], {}
    return [{"kind": "hologram", "value": CANARY}], {}


VSCODE_KINDS = ("answer", "call", "subagent", "ui", "unknown", "request", "error")


def _vscode(kinds: list[str]) -> str:
    requests = []
    for number, kind in enumerate(["request", *kinds]):
        if kind in ("request", "error"):
            requests.append({"requestId": f"q{number}", "message": {"text": f"SHOWN-{number}"}, "response": [],
                             "result": {"metadata": {"renderedUserMessage": [{"type": 1, "text": CANARY}],
                                                     "toolCallRounds": [], "toolCallResults": {}}}})
            if kind == "error":
                requests[-1]["result"]["errorDetails"] = {"message": CANARY}
            continue
        parts, metadata = _vscode_parts(kind, number)
        requests[-1]["response"].extend(parts)
        requests[-1]["result"]["metadata"]["toolCallRounds"].extend(metadata.get("rounds", []))
        requests[-1]["result"]["metadata"]["toolCallResults"].update(metadata.get("results", {}))
    return json.dumps({"version": 3, "responderUsername": "GitHub Copilot", "sessionId": "s", "requests": requests})


@FAST
@given(st.lists(st.sampled_from(VSCODE_KINDS), min_size=1, max_size=10))
def test_no_hidden_part_of_a_vscode_chat_session_reaches_a_default_view_export(kinds):
    _check(_vscode(kinds), "vscode-chat")


def _check(text: str, dialect: str) -> None:
    assert parse(text).dialect == dialect
    exported = _default_exports(text)
    assert CANARY not in exported
    assert "SHOWN-0" in exported
