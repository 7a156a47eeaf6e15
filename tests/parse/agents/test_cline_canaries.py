"""Properties of the Cline family's readers: whatever the mix of a task's records, a canary planted in every part
the default view hides (reasoning in any spelling, signatures, tool arguments and results in either era,
environment details, resumption notes, expanded mentions, tags like the user's inside a tool's output, unknown
blocks) never reaches the default view's JSON, while the typed text and the answers do."""
from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from tests.parse.agents.default_view import CANARY, default_view_json

ENVIRONMENT = (f"<environment_details>\n# VSCode Open Tabs\n{CANARY}.md\n\n# Current Mode\nACT MODE\n"
               "</environment_details>")
HISTORY_KINDS = ("typed", "answer", "thinking", "native-call", "xml-call", "xml-thinking", "feedback", "resume",
                 "mention", "tag-in-output", "tag-in-text-output", "reasoning", "details", "completion", "interrupted",
                 "unknown")
EXAMPLES = settings(max_examples=80, deadline=None)


def _text(value: str) -> dict:
    return {"type": "text", "text": value}


def history_records(kind: str, number: int) -> list[dict]:
    """One exchange of a task history with a canary in each hidden part; SHOWN-<n> where the view shows it."""
    def user(*blocks):
        return {"role": "user", "content": [*blocks, _text(ENVIRONMENT)], "ts": 1781170924627 + number}

    def said(*blocks, **extra):
        return {"role": "assistant", "content": list(blocks), "ts": 1781170929537 + number, **extra}

    call_id = f"toolu_{number}"
    if kind == "typed":
        return [user(_text(f"<task>\nSHOWN-{number}\n</task>"))]
    if kind == "answer":
        return [said(_text(f"SHOWN-{number}"), modelInfo={"modelId": "m", "providerId": "p", "mode": "act"},
                     metrics={"tokens": {"prompt": 3, "completion": 2, "cached": 1}, "cost": 0.1})]
    if kind == "thinking":
        return [said({"type": "thinking", "thinking": CANARY, "signature": CANARY},
                     {"type": "redacted_thinking", "data": CANARY})]
    if kind == "native-call":
        return [said(_text(f"SHOWN-{number}"), {"type": "tool_use", "id": call_id, "name": "execute_command",
                                                "input": {"command": f"make\n{CANARY}", "task_progress": CANARY}}),
                user({"type": "tool_result", "tool_use_id": call_id,
                      "content": f"[execute_command for '{CANARY}'] Result:\n{CANARY}"})]
    if kind == "xml-call":
        return [said(_text(f"<read_file>\n<path>a.ts</path>\n<note>{CANARY}</note>\n</read_file>")),
                user(_text(f"[read_file for '{CANARY}'] Result:"), _text(CANARY))]
    if kind == "xml-thinking":
        return [said(_text(f"<thinking>\n{CANARY}\n</thinking>\n\nSHOWN-{number}"))]
    if kind == "feedback":
        return [user(_text(f"[replace_in_file for 'a'] Result:"), _text(f"The user denied this operation. {CANARY}"),
                     _text(f"The user provided the following feedback:\n<feedback>\nSHOWN-{number}\n</feedback>"))]
    if kind == "resume":
        return [user(_text(f"[TASK RESUMPTION] {CANARY}"),
                     _text(f"New instructions for task continuation:\n<user_message>\nSHOWN-{number}\n"
                           "</user_message>"))]
    if kind == "mention":
        return [user(_text(f"<task>\nSHOWN-{number} 'a.ts' (see below for file content)\n</task>\n\n"
                           f"<file_content path=\"a.ts\">\n<feedback>{CANARY}</feedback>\n</file_content>"))]
    if kind == "tag-in-output":
        return [said({"type": "tool_use", "id": call_id, "name": "read_file", "input": {"path": "a"}}),
                user({"type": "tool_result", "tool_use_id": call_id,
                      "content": f"[read_file for 'a'] Result:\n<x>\n<answer>{CANARY}</answer>\n</x>"})]
    if kind == "tag-in-text-output":
        return [said(_text("<read_file>\n<path>a</path>\n</read_file>")),
                user(_text("[read_file for 'a'] Result:"), _text(f"Notes <task>\n{CANARY}\n</task>"),
                     _text(f"more <answer>{CANARY}</answer>"))]
    if kind == "reasoning":
        return [said({"type": "reasoning", "text": CANARY, "summary": []},
                     {"type": "thoughtSignature", "thoughtSignature": CANARY}, _text(f"SHOWN-{number}"),
                     reasoning_content=CANARY)]
    if kind == "details":
        return [said(_text(f"SHOWN-{number}"), reasoning_details=[{"type": "reasoning.text", "text": CANARY},
                                                                  {"type": "reasoning.encrypted", "data": CANARY}])]
    if kind == "completion":
        return [said({"type": "tool_use", "id": call_id, "name": "attempt_completion",
                      "input": {"result": f"SHOWN-{number}", "command": f"make\n{CANARY}"}})]
    if kind == "interrupted":
        return [said(_text(f"SHOWN-{number}\n\n[Response interrupted by user]"))]
    return [said({"type": "gadget", "payload": CANARY}), {"role": "critic", "content": CANARY}]


@EXAMPLES
@given(st.lists(st.sampled_from(HISTORY_KINDS), min_size=1, max_size=10))
def test_no_hidden_part_of_a_cline_history_reaches_the_default_view(kinds):
    records = [record for number, kind in enumerate(["typed", *kinds]) for record in history_records(kind, number)]
    shown = default_view_json(json.dumps(records, separators=(",", ":")), "cline")
    assert CANARY not in shown
    assert "SHOWN-0" in shown


UI_KINDS = ("task", "feedback", "request", "text", "reasoning", "tool", "command", "mcp", "error", "checkpoint",
            "completion", "unknown")


def ui_rows(kind: str, number: int) -> list[dict]:
    def row(say: str, text: str, type_: str = "say", **extra) -> dict:
        return {"ts": 1781170923417 + number, "type": type_, type_: say, "text": text, **extra}

    if kind in ("task", "feedback"):
        return [row("user_feedback", f"SHOWN-{number}", images=[f"data:image/png;base64,{CANARY}"])]
    if kind == "request":
        return [row("api_req_started", json.dumps({"request": f"{CANARY}\n{ENVIRONMENT}", "tokensIn": 3,
                                                   "tokensOut": 2, "cost": 0.1, "cancelReason": "user_cancelled"}))]
    if kind == "text":
        return [row("text", f"SHOWN-{number}")]
    if kind == "reasoning":
        return [row("reasoning", CANARY)]
    if kind == "tool":
        return [row("tool", json.dumps({"tool": "editedExistingFile", "path": "a", "content": CANARY}), "ask")]
    if kind == "command":
        return [row("command", f"make\n{CANARY}", "ask"), row("command_output", CANARY)]
    if kind == "mcp":
        return [row("use_mcp_server", json.dumps({"serverName": "s", "toolName": "t", "arguments": CANARY}), "ask"),
                row("mcp_server_response", CANARY)]
    if kind == "error":
        return [row("error", CANARY), row("diff_error", CANARY)]
    if kind == "checkpoint":
        return [row("checkpoint_created", "", lastCheckpointHash=CANARY), row("task_progress", CANARY)]
    if kind == "completion":
        return [row("completion_result", f"SHOWN-{number}"), row("completion_result", "", "ask")]
    return [row("gizmo", CANARY), {"ts": 1, "type": "whisper", "text": CANARY}]


@EXAMPLES
@given(st.lists(st.sampled_from(UI_KINDS), min_size=1, max_size=10))
def test_no_hidden_row_of_a_cline_chat_panel_reaches_the_default_view(kinds):
    rows = [{"ts": 1781170923417, "type": "say", "say": "task", "text": "SHOWN-0"}]
    rows += [row for number, kind in enumerate(kinds, 1) for row in ui_rows(kind, number)]
    shown = default_view_json(json.dumps(rows, separators=(",", ":")), "cline-ui")
    assert CANARY not in shown
    assert "SHOWN-0" in shown


SDK_KINDS = ("typed", "wrapped", "synthetic", "answer", "thinking", "call", "file", "unknown")


def sdk_messages(kind: str, number: int) -> list[dict]:
    def message(role, *blocks, **extra):
        return {"id": f"m{number}", "role": role, "content": list(blocks), "ts": 1784622193102 + number, **extra}

    if kind == "typed":
        return [message("user", _text(f"SHOWN-{number}"))]
    if kind == "wrapped":
        return [message("user", _text(f"<mode_notice>{CANARY}</mode_notice><user_input mode=\"act\">SHOWN-{number}"
                                      "</user_input>"))]
    if kind == "synthetic":
        return [message("user", _text(f"[TASK RESUMPTION] {CANARY}")),
                message("user", _text(f"<hook_context source=\"x\">{CANARY}</hook_context>"))]
    if kind == "answer":
        return [message("assistant", _text(f"SHOWN-{number}"), modelInfo={"id": "m", "provider": "p"},
                        metrics={"inputTokens": 3, "outputTokens": 1, "cacheReadTokens": 1, "cacheWriteTokens": 1,
                                 "cost": 0.1})]
    if kind == "thinking":
        return [message("assistant", {"type": "thinking", "thinking": CANARY})]
    if kind == "call":
        return [message("assistant", {"type": "tool_use", "id": f"t{number}", "name": "spawn_agent",
                                      "input": {"systemPrompt": CANARY}}),
                message("user", {"type": "tool_result", "tool_use_id": f"t{number}", "name": "spawn_agent",
                                 "content": [{"query": CANARY, "result": CANARY, "success": True}]})]
    if kind == "file":
        return [message("user", {"type": "file", "path": "a.ts", "content": CANARY})]
    return [message("assistant", {"type": "gadget", "x": CANARY}), message("critic", _text(CANARY))]


@EXAMPLES
@given(st.lists(st.sampled_from(SDK_KINDS), min_size=1, max_size=10), st.sampled_from(("lead", "subagent")))
def test_no_hidden_part_of_a_cline_sdk_session_reaches_the_default_view(kinds, agent):
    messages = [message for number, kind in enumerate(["typed", *kinds]) for message in sdk_messages(kind, number)]
    raw = json.dumps({"version": 1, "updated_at": "2026-07-21T08:24:02.761Z", "agent": agent, "sessionId": "s",
                      "messages": messages, "system_prompt": CANARY}, indent=2)
    shown = default_view_json(raw, "cline-sdk")
    assert CANARY not in shown
    assert "SHOWN-0" in shown
