"""Canary transcripts for tests/system/test_leaks.py of the agent session formats read by
viewer/parse/agents/{copilot_cli,vscode_chat,gemini_cli,antigravity,qwen_code,factory_droid,cursor_agent}.py: each
has what the user typed and the agent answered (SHOWN-QUESTION, SHOWN-ANSWER, SHOWN-FOLLOWUP) and a canary in every
part its default view hides: reasoning, tool arguments and results, injected context, system prompts, errors,
sub-agents and compaction summaries."""
from __future__ import annotations

import json

SHOWN = ("SHOWN-QUESTION", "SHOWN-ANSWER", "SHOWN-FOLLOWUP")


def canary(dialect: str, place: str) -> str:
    return f"CANARY-{dialect}-{place}-Q7"


def _lines(made: list[dict]) -> str:
    return "".join(json.dumps(line) + "\n" for line in made)


def _copilot_cli(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731
    made = []

    def event(kind: str, data: dict, **extra) -> None:
        made.append({"type": kind, "data": data, "id": f"e{len(made)}", "timestamp": "2026-08-03T10:15:09.799Z",
                     "parentId": f"e{len(made) - 1}" if made else None, **extra})

    event("session.start", {"sessionId": "s1", "producer": "copilot-agent", "copilotVersion": "1.0.77",
                            "context": {"cwd": "/w"}, "selectedModel": "claude-sonnet-4.5"})
    event("system.message", {"content": c("system"), "role": "system"})
    event("user.message", {"content": SHOWN[0], "transformedContent": f"<reminder>{c('context')}</reminder>"})
    event("assistant.turn_start", {"turnId": "0"})
    event("assistant.reasoning", {"reasoningId": "r1", "content": c("analysis")})
    event("assistant.message", {"content": "", "reasoningText": c("analysis"), "reasoningOpaque": "T1BBUVVF",
                                "toolRequests": [{"toolCallId": "k1", "name": "view",
                                                  "arguments": {"path": "src/a.py", "view_range": c("arguments")}},
                                                 {"toolCallId": "k2", "name": "task",
                                                  "arguments": {"prompt": c("prompt")}}], "turnId": "0"})
    event("tool.execution_start", {"toolCallId": "k1", "toolName": "view"})
    event("tool.execution_complete", {"toolCallId": "k1", "success": True, "result": {"content": c("reply")}})
    event("subagent.started", {"toolCallId": "k2", "agentName": "explore"}, agentId="a1")
    event("assistant.message", {"content": c("subagent"), "toolRequests": [], "turnId": "0"}, agentId="a1")
    event("tool.execution_complete", {"toolCallId": "k2", "success": True, "result": {"content": c("summary")}})
    event("assistant.message", {"content": SHOWN[1], "toolRequests": [], "turnId": "1"})
    event("skill.invoked", {"name": "pdf", "content": c("skill")})
    event("user.message", {"content": SHOWN[2]})
    event("session.error", {"errorType": "rate_limit", "message": c("error")})
    return _lines(made)


def _vscode_chat(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731
    result = {"metadata": {
        "renderedUserMessage": [{"type": 1, "text": f"<context>{c('context')}</context>"}],
        "toolCallRounds": [{"id": "r1", "response": "", "toolCalls": [
            {"id": "k1", "name": "runSubagent", "arguments": json.dumps({"prompt": c("arguments")})}]}],
        "toolCallResults": {"k1": {"content": [{"value": c("reply")}]}}}}
    # The result before the response, as VS Code may write a request's keys: the first canary of the text is then
    # in the first messages (the user's turn), which the first window of the debug view shows.
    first = {"requestId": "q1", "timestamp": 1785765731408, "message": {"text": SHOWN[0]}, "result": result,
             "response": [{"kind": "thinking", "value": c("analysis")},
                          {"kind": "toolInvocationSerialized", "toolCallId": "k1", "toolId": "copilot_readFile",
                           "pastTenseMessage": {"value": "Read a.py"}},
                          {"kind": "toolInvocationSerialized", "toolCallId": "k2", "toolId": "copilot_readFile",
                           "subAgentInvocationId": "k1", "pastTenseMessage": {"value": c("subagent")}},
                          {"value": SHOWN[1]}],
             "modelState": {"value": 1}}
    second = {"requestId": "q2", "timestamp": 1785765915408, "message": {"text": SHOWN[2]}, "response": [],
              "result": {"errorDetails": {"message": c("error")}}, "modelState": {"value": 3}}
    return json.dumps({"version": 3, "responderUsername": "GitHub Copilot", "sessionId": "s1",
                       "requests": [first, second]}, indent=1)


def _gemini_cli(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731

    def record(id: str, kind: str, **fields) -> dict:
        return {"id": id, "timestamp": "2026-08-03T16:40:05.239Z", "type": kind, **fields}

    thought = [{"subject": "Reading", "description": c("analysis")}]
    call = {"id": "k1", "name": "read_file", "args": {"file_path": "src/a.py", "offset": c("arguments")}, "status": "success",
            "result": [{"functionResponse": {"id": "k1", "name": "read_file", "response": {"output": c("reply")}}}]}
    return _lines([
        {"sessionId": "s1", "projectHash": "ab" * 32, "startTime": "2026-08-03T16:40:05.219Z",
         "lastUpdated": "2026-08-03T16:40:05.219Z"},
        record("u0", "user", content=[{"text": f"<session_context>{c('context')}</session_context>"}]),
        record("u1", "user", content=[{"text": SHOWN[0]}]),
        record("g1", "gemini", content="", thoughts=thought),
        record("g1", "gemini", content="", thoughts=thought, toolCalls=[call]),
        record("u2", "user", content=call["result"]),
        record("g2", "gemini", content=SHOWN[1], thoughts=[]),
        record("e1", "error", content=c("error")),
        record("u3", "user", content=[{"text": SHOWN[2]}]),
        {"$set": {"messages": [record("u9", "user", content=[{"text": c("checkpoint")}])]}},
    ])


def _antigravity(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731

    def step(source: str, kind: str, **fields) -> dict:
        return {"source": source, "type": kind, "status": "DONE", "created_at": "2026-08-03T18:02:40Z", **fields}

    made = [step("USER_EXPLICIT", "USER_INPUT", content=f"<USER_REQUEST>\n{SHOWN[0]}\n</USER_REQUEST>\n"
                                                        f"<ADDITIONAL_METADATA>{c('context')}</ADDITIONAL_METADATA>"),
            step("SYSTEM", "EPHEMERAL_MESSAGE", content=c("system")),
            step("MODEL", "PLANNER_RESPONSE", content="", thinking=c("analysis"),
                 tool_calls=[{"name": "view_file", "args": {"AbsolutePath": json.dumps("/w/a.py"), "Offset": json.dumps(c("arguments"))}}]),
            step("MODEL", "VIEW_FILE", content=f"Created At: 2026-08-03T18:02:41Z\nCompleted At: "
                                               f"2026-08-03T18:02:42Z\n{c('reply')}"),
            step("MODEL", "PLANNER_RESPONSE", content=SHOWN[1]),
            step("SYSTEM", "CHECKPOINT", content=f"{{{{ CHECKPOINT 0 }}}}\n{c('checkpoint')}"),
            step("USER_EXPLICIT", "USER_INPUT", content=f"<USER_REQUEST>\n{SHOWN[2]}\n</USER_REQUEST>")]
    return _lines([{"step_index": number, **made_step} for number, made_step in enumerate(made)])


def _qwen_code(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731
    made: list[dict] = []

    def record(kind: str, uuid: str | None = None, **fields) -> None:
        made.append({"uuid": uuid or f"q{len(made)}", "parentUuid": made[-1]["uuid"] if made else None,
                     "sessionId": "s1", "timestamp": "2026-08-03T19:20:14.662Z", "type": kind, "cwd": "/w",
                     "version": "0.17.1", **fields})

    record("user", message={"role": "user", "parts": [{"text": SHOWN[0]},
                                                      {"text": f"<system-reminder>{c('context')}</system-reminder>"}]})
    record("assistant", "a1", message={"role": "model", "parts": [{"text": c("analysis"), "thought": True}]})
    record("assistant", "a1", message={"role": "model", "parts": [
        {"functionCall": {"id": "k1", "name": "task", "args": {"prompt": c("arguments")}}}]})
    made.append({**made[0], "uuid": "s1", "parentUuid": None, "isSidechain": True, "agentId": "sub",
                 "message": {"role": "user", "parts": [{"text": c("arguments")}]}})
    made.append({**made[0], "uuid": "s2", "parentUuid": "s1", "type": "assistant", "isSidechain": True,
                 "agentId": "sub", "message": {"role": "model", "parts": [{"text": c("subagent")}]}})
    made.append({**made[0], "uuid": "r1", "parentUuid": "a1", "type": "tool_result",
                 "message": {"role": "user", "parts": [{"functionResponse": {"id": "k1", "name": "task",
                                                                             "response": {"output": c("reply")}}}]},
                 "toolCallResult": {"callId": "k1", "status": "success"}})
    record("assistant", message={"role": "model", "parts": [{"text": SHOWN[1]}]})
    record("system", subtype="chat_compression", systemPayload={"info": c("compressed"), "compressedHistory": []})
    record("user", message={"role": "user", "parts": [{"text": SHOWN[2]}]})
    return _lines(made)


def _factory_droid(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731

    def message(id: str, role: str, *content: dict) -> dict:
        return {"type": "message", "id": id, "timestamp": "2026-03-21T09:14:02.118Z",
                "message": {"role": role, "content": list(content)}}

    return _lines([
        {"type": "session_start", "id": "s1", "title": "t", "version": 2, "cwd": "/w"},
        message("m1", "user", {"type": "text", "text": f"<system-reminder>{c('context')}</system-reminder>"},
                {"type": "text", "text": SHOWN[0]}),
        message("m2", "assistant", {"type": "thinking", "thinking": c("analysis"), "signature": "c2ln"},
                {"type": "tool_use", "id": "k1", "name": "Task", "input": {"prompt": c("arguments")}}),
        message("m3", "user", {"type": "tool_result", "tool_use_id": "k1", "content": c("reply")}),
        {"type": "compaction_state", "timestamp": "t", "summary": {"title": "Progress", "body": c("compacted")}},
        message("m4", "assistant", {"type": "text", "text": SHOWN[1]}),
        message("m5", "user", {"type": "text", "text": SHOWN[2]}),
        {"type": "session_start", "id": "sub1", "callingSessionId": "s1", "callingToolUseId": "k1"},
        message("n1", "user", {"type": "text", "text": c("subtask")}),
        message("n2", "assistant", {"type": "text", "text": c("subagent")}),
    ])


def _cursor_agent(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731

    def said(role: str, *content: dict) -> dict:
        return {"role": role, "message": {"content": list(content)}}

    return _lines([
        said("user", {"type": "text", "text": f"<timestamp>{c('context')}</timestamp>\n<user_query>\n{SHOWN[0]}\n"
                                              "</user_query>"}),
        said("assistant", {"type": "thinking", "thinking": c("analysis")},
             {"type": "tool_use", "name": "Read", "input": {"path": "src/a.py", "offset": c("arguments")}}),
        said("assistant", {"type": "text", "text": SHOWN[1]}),
        {"type": "turn_ended", "status": "error", "error": c("error")},
        said("user", {"type": "text", "text": f"<user_query>\n{SHOWN[2]}\n</user_query>\n<user_info>{c('info')}"
                                              "</user_info>"}),
    ])


SESSION_BUILDERS = {"copilot-cli": _copilot_cli, "vscode-chat": _vscode_chat, "gemini-cli": _gemini_cli,
                    "antigravity": _antigravity, "qwen-code": _qwen_code, "factory-droid": _factory_droid,
                    "cursor-agent": _cursor_agent}
