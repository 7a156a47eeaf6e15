"""Canary transcripts of Cline, Roo Code, Kilo Code, the Cline SDK, Pi, Aider and Kimi for the leak test
(tests/system/test_leaks.py): one session each, written in the agent's shape, with a canary in every place the
default view hides (reasoning, signatures, tool arguments and results, environment details and other injected
context, system prompts, unknown records) and the three shown texts where the user typed and the agent answered."""
from __future__ import annotations

import json

SHOWN = ("SHOWN-QUESTION", "SHOWN-ANSWER", "SHOWN-FOLLOWUP")


def canary(dialect: str, place: str) -> str:
    return f"CANARY-{dialect}-{place}-Q7"


def _text(value: str) -> dict:
    return {"type": "text", "text": value}


def _cline_history(dialect: str, environment: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731
    env = f"<environment_details>\n# VSCode Open Tabs\n{c('environment')}.md\n\n{environment}\n</environment_details>"
    records = [
        {"role": "user", "content": [_text(f"<task>\n{SHOWN[0]}\n</task>\n\n<file_content path=\"a.ts\">\n"
                                           f"{c('mention')}\n</file_content>"), _text(env)], "ts": 1781170924627},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": c("thinking"), "signature": "c2lnbmF0dXJl"},
            {"type": "tool_use", "id": "toolu_1", "name": "execute_command", "input": {"command": f"make\n{c('arguments')}"}}],
         "ts": 1781170929537},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                      "content": f"[execute_command for 'x'] Result:\n{c('reply')}"}, _text(env)],
         "ts": 1781170930427},
        {"role": "assistant", "content": [_text(f"<thinking>\n{c('xmlthinking')}\n</thinking>\n\n<read_file>\n"
                                                f"<path>a.ts</path>\n<note>{c('xmlarguments')}</note>\n</read_file>")],
         "ts": 1781170935897},
        {"role": "user", "content": [_text("[read_file for 'a.ts'] Result:"), _text(c("xmlreply")), _text(env)],
         "ts": 1781170952347},
        {"role": "assistant", "content": [{"type": "reasoning", "text": c("reasoning"), "summary": []},
                                          _text(SHOWN[1]), {"type": "gadget", "payload": c("unknown")}],
         "ts": 1781170956727},
        {"role": "user", "content": [_text(f"[TASK RESUMPTION] {c('resumption')}"),
                                     _text(f"New instructions for task continuation:\n<user_message>\n{SHOWN[2]}\n"
                                           "</user_message>"), _text(env)], "ts": 1781171032897},
    ]
    return json.dumps(records, separators=(",", ":"))


def _cline_body(dialect: str) -> str:
    return _cline_history(dialect, "# Current Time\n6/11/2026, 11:42:03 AM (Europe/Berlin, UTC+2:00)\n\n"
                                   "# Current Mode\nACT MODE")


def _roo_code_body(dialect: str) -> str:
    return _cline_history(dialect, "# Current Time\nCurrent time in ISO 8601 UTC format: 2026-04-16T12:00:13.551Z\n"
                                   "\n# Current Mode\n<slug>code</slug>\n<name>Code</name>\n<model>m</model>")


def _kilo_code_body(dialect: str) -> str:
    return _cline_history(dialect, "# Current Time\nCurrent time in ISO 8601 UTC format: 2026-03-12T10:24:05.301Z\n"
                                   "\n# Current Mode\n<slug>code</slug>\n<name>Code</name>\n<model>m</model>\n"
                                   "<tool_format>xml</tool_format>")


def _cline_sdk_body(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731

    def message(id, role, *blocks, **extra):
        return {"id": id, "role": role, "content": list(blocks), **extra}

    messages = [
        message("m1", "user", _text(f"<mode_notice>{c('notice')}</mode_notice><user_input mode=\"act\">{SHOWN[0]}"
                                    "</user_input>"), {"type": "file", "path": "a.ts", "content": c("file")}),
        message("m2", "assistant", {"type": "thinking", "thinking": c("thinking")},
                {"type": "tool_use", "id": "toolu_1", "name": "spawn_agent", "input": {"systemPrompt": c("arguments")}},
                modelInfo={"id": "m", "provider": "p"}),
        message("m3", "user", {"type": "tool_result", "tool_use_id": "toolu_1", "name": "spawn_agent",
                               "content": [{"query": "q", "result": c("reply"), "success": True}]}),
        message("m4", "assistant", _text(SHOWN[1]), {"type": "gadget", "payload": c("unknown")},
                modelInfo={"id": "m", "provider": "p"},
                metrics={"inputTokens": 9, "outputTokens": 3, "cacheReadTokens": 1, "cacheWriteTokens": 1,
                         "cost": 0.01}),
        message("m5", "user", _text(f"[TASK RESUMPTION] {c('resumption')}")),
        message("m6", "user", _text(f"<user_input mode=\"act\">{SHOWN[2]}</user_input>")),
    ]
    return json.dumps({"version": 1, "updated_at": "2026-07-21T08:24:02.761Z", "agent": "lead", "sessionId": "s1",
                       "origin": {"source": "vscode", "mode": "user", "sessionId": "s1"}, "messages": messages,
                       "system_prompt": c("system")}, indent=2) + "\n"


def _cline_ui_body(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731
    rows = [
        {"ts": 1781170923417, "type": "say", "say": "task", "text": SHOWN[0], "images": [], "files": []},
        {"ts": 1781170924597, "type": "say", "say": "api_req_started",
         "text": json.dumps({"request": f"<task>\n{SHOWN[0]}\n</task>\n\n<environment_details>{c('environment')}"
                                        "</environment_details>", "tokensIn": 3, "tokensOut": 2, "cost": 0.01})},
        {"ts": 1781170926467, "type": "say", "say": "reasoning", "text": c("reasoning")},
        {"ts": 1781170935927, "type": "ask", "ask": "tool",
         "text": json.dumps({"tool": "editedExistingFile", "path": "a.ts", "content": c("arguments")})},
        {"ts": 1781170936477, "type": "ask", "ask": "command", "text": f"make\n{c('command')}"},
        {"ts": 1781170941367, "type": "say", "say": "command_output", "text": c("reply")},
        {"ts": 1781170942000, "type": "say", "say": "task_progress", "text": "- [ ] test"},
        {"ts": 1781170943000, "type": "say", "say": "gizmo", "text": c("unknown")},
        {"ts": 1781170947017, "type": "say", "say": "completion_result", "text": SHOWN[1]},
        {"ts": 1781170947057, "type": "ask", "ask": "completion_result", "text": ""},
        {"ts": 1781171032827, "type": "say", "say": "user_feedback", "text": SHOWN[2], "images": [], "files": []},
    ]
    return json.dumps(rows, separators=(",", ":"))


def _pi_body(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731

    def entry(id, parent, kind="message", **fields):
        return {"type": kind, "id": id, "parentId": parent, "timestamp": "2026-03-10T14:02:29.607Z", **fields}

    def user(id, parent, said):
        return entry(id, parent, message={"role": "user", "content": [_text(said)], "timestamp": 1773151349607})

    def assistant(id, parent, *content, stop="stop"):
        return entry(id, parent, message={"role": "assistant", "content": list(content), "model": "m",
                                          "usage": {"input": 1, "output": 1, "cost": {"total": 0.01}},
                                          "stopReason": stop})

    lines = [
        {"type": "session", "version": 3, "id": "s1", "timestamp": "2026-03-10T14:02:11.407Z", "cwd": "/w"},
        entry("m0", None, "model_change", provider="anthropic", modelId="claude"),
        user("u1", "m0", SHOWN[0]),
        assistant("a1", "u1", {"type": "thinking", "thinking": c("thinking"), "thinkingSignature": "c2ln"},
                  {"type": "toolCall", "id": "t1", "name": "bash", "arguments": {"command": f"make\n{c('arguments')}"}},
                  stop="toolUse"),
        entry("r1", "a1", message={"role": "toolResult", "toolCallId": "t1", "toolName": "bash",
                                   "content": [_text(c("reply"))], "isError": False}),
        # A branch the user left with /tree: shown while it was the last line (a live upload's prefix), so it
        # holds no canary.
        assistant("x1", "r1", _text("LEFT-BRANCH")),
        entry("b1", "r1", "branch_summary", fromId="x1", summary=c("branch")),
        assistant("a2", "b1", _text(SHOWN[1])),
        entry("c1", "a2", "custom_message", customType="guard", content=c("extension"), display=False),
        entry("k1", "c1", "compaction", summary=c("compaction"), firstKeptEntryId="a2", tokensBefore=100),
        entry("z1", "k1", "teleport", payload=c("unknown")),
        user("u2", "z1", SHOWN[2]),
    ]
    return "".join(json.dumps(line) + "\n" for line in lines)


def _aider_body(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731
    thinking = "thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b"
    return (f"\n# aider chat started at 2026-02-14 09:31:07\n\n> /usr/bin/aider {c('commandline')}  \n"
            f"> Aider v0.86.2  \n> Main model: anthropic/claude-x with diff edit format  \n\n"
            f"#### {SHOWN[0]}  \n\n<{thinking}>\n\n{c('thinking')}\n\n</{thinking}>\n\n{SHOWN[1]}\n\n"
            f"> Tokens: 2.9k sent, 312 received. Cost: $0.0094 message, $0.0094 session.  \n"
            f"> Applied edit to {c('output')}.py  \n> Commit 3f2a9c1 {c('commit')}  \n\n"
            f"#### /run {SHOWN[2]}  \n> Add 0.2k tokens of command output to the chat? (Y)es/(N)o [Yes]: y  \n"
            f">  \n> ^C again to exit  \n\n<think>{c('interrupted')}\n\n")


def _aider_llm_body(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731
    context = (f"-------\nSYSTEM Act as an expert software developer.\nSYSTEM {c('system')}\n"
               f"-------\nUSER Here are summaries of some files present in my git repository.\nUSER {c('repomap')}\n"
               "-------\nASSISTANT Ok, I won't try and edit those files without asking first.\n")
    return (f"TO LLM 2026-02-14T09:31:38\n{context}-------\nUSER {SHOWN[0]}\n"
            f"LLM RESPONSE 2026-02-14T09:31:46\nASSISTANT <think>\nASSISTANT {c('thinking')}\nASSISTANT </think>\n"
            f"ASSISTANT {SHOWN[1]}\n"
            f"TO LLM 2026-02-14T09:33:02\n{context}-------\nUSER {SHOWN[0]}\n-------\nASSISTANT {SHOWN[1]}\n"
            f"-------\nUSER I ran this command:\nUSER \nUSER pytest\nUSER \nUSER And got this output:\nUSER \n"
            f"USER {c('output')}\n-------\nASSISTANT Ok.\n-------\nUSER {SHOWN[2]}\n"
            f"LLM RESPONSE 2026-02-14T09:33:05\nASSISTANT Looking.\n")


def _kimi_code_body(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731

    def record(kind, **fields):
        return {"type": kind, "agentId": "main", **fields, "time": 1787223612000}

    def said(text, **origin):
        return record("context.append_message", message={"role": "user", "content": [{"type": "text", "text": text}],
                                                         "toolCalls": [], "origin": origin or {"kind": "user"}})

    def loop(kind, step, **fields):
        return record("context.append_loop_event", event={"type": kind, "uuid": f"{kind}-{step}", "turnId": "0",
                                                          "step": 1, "stepUuid": step, **fields})

    lines = [
        {"type": "metadata", "protocol_version": "1.5", "created_at": 1787223600000},
        record("config.update", modelAlias="k", profileName="agent", systemPrompt=c("system")),
        said(SHOWN[0]),
        record("context.append_loop_event", event={"type": "step.begin", "uuid": "s1", "turnId": "0", "step": 1}),
        loop("content.part", "s1", part={"type": "think", "think": c("thinking")}),
        loop("tool.call", "s1", toolCallId="t1", name="Read", args={"path": "src/a.py", "offset": c("arguments")}),
        loop("tool.result", "s1", toolCallId="t1", result={"output": c("reply"), "note": c("note")}),
        said(f"<system-reminder>\n{c('injection')}\n</system-reminder>", kind="injection", variant="agents_md"),
        loop("step.end", "s1", finishReason="tool_use", usage={"inputOther": 1, "output": 1}),
        record("context.append_loop_event", event={"type": "step.begin", "uuid": "s2", "turnId": "0", "step": 2}),
        loop("content.part", "s2", part={"type": "text", "text": SHOWN[1]}),
        loop("step.end", "s2", finishReason="end_turn", usage={"inputOther": 1, "output": 1}),
        record("context.apply_compaction", summary=c("compaction"), compactedCount=4),
        {"type": "telepathy", "payload": c("unknown")},
        said(SHOWN[2]),
    ]
    return "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)


def _kimi_cli_body(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731

    def event(kind, payload):
        return {"timestamp": 1783050000.1, "message": {"type": kind, "payload": payload}}

    def sub(kind, payload):
        return event("SubagentEvent", {"parent_tool_call_id": "t2", "agent_id": "a1", "subagent_type": "explore",
                                       "event": {"type": kind, "payload": payload}})

    lines = [
        {"type": "metadata", "protocol_version": "1.10"},
        event("TurnBegin", {"user_input": [{"type": "text", "text": SHOWN[0]}]}),
        event("StepBegin", {"n": 1}),
        event("ContentPart", {"type": "think", "think": c("thinking"), "encrypted": None}),
        event("ToolCall", {"type": "function", "id": "t1", "function": {"name": "Shell", "arguments": "{\"c\": \""}}),
        event("ToolCallPart", {"arguments_part": c("arguments") + "\"}"}),
        event("ToolResult", {"tool_call_id": "t1", "return_value": {"is_error": False, "output": c("reply"),
                                                                    "message": c("note"), "display": []}}),
        event("StepBegin", {"n": 2}),
        event("ToolCall", {"type": "function", "id": "t2",
                           "function": {"name": "Agent", "arguments": json.dumps({"prompt": c("prompt")})}}),
        sub("TurnBegin", {"user_input": c("subtask")}), sub("StepBegin", {"n": 1}),
        sub("ContentPart", {"type": "text", "text": c("subagent")}),
        event("ToolResult", {"tool_call_id": "t2", "return_value": {"is_error": False, "output": c("subreply")}}),
        event("StepBegin", {"n": 3}),
        event("ContentPart", {"type": "text", "text": SHOWN[1]}),
        event("StatusUpdate", {"token_usage": {"input_other": 3, "output": 1}, "message_id": "m1"}),
        event("Telepathy", {"payload": c("unknown")}),
        event("TurnEnd", {}),
        event("TurnBegin", {"user_input": SHOWN[2]}),
    ]
    return "".join(json.dumps(line) + "\n" for line in lines)


AGENT_BUILDERS = {"cline": _cline_body, "roo-code": _roo_code_body, "kilo-code": _kilo_code_body,
                  "cline-sdk": _cline_sdk_body, "cline-ui": _cline_ui_body, "pi": _pi_body,
                  "aider": _aider_body, "aider-llm": _aider_llm_body, "kimi-code": _kimi_code_body,
                  "kimi-cli": _kimi_cli_body}
