"""A property per agent importer: whatever the order and mix of a session's lines, a canary planted in each part
the policy hides (reasoning, signatures, tool arguments and results, injected context, sub-agents, system and
summary lines) appears in none of the default view's exports (JSON twin, Markdown, HTML), while the user's text
and the final answers do. A call's main argument is its screen's line: the canary stands in the rest of it. The web app's pages and search are covered by tests/system/test_leaks.py."""
from __future__ import annotations

import json

from hypothesis import given, strategies as st

from viewer import parse
from viewer.policy import Projection
from viewer.present import html, json_twin, markdown
from viewer.present.parsed import parsed_document

CANARY = "CANARY-Q7"


def _default_exports(text: str) -> str:
    document = lambda: parsed_document(Projection.of(parse(text)), "default", "t")  # noqa: E731
    return "".join([*json_twin.stream(document()), *markdown.markdown(document()), *html.html(document())])


def _claude_line(kind: str, number: int) -> list[dict]:
    """One event of a session with canaries in its hidden parts (its uuid chains to the line before)."""
    base = {"uuid": f"l{number}", "parentUuid": f"l{number - 1}" if number else None, "sessionId": "s",
            "timestamp": "2025-09-14T09:00:00Z"}

    def said(*blocks):
        return {**base, "type": "assistant",
                "message": {"id": f"m{number}", "role": "assistant", "content": list(blocks)}}

    def told(content, **extra):
        return {**base, "type": "user", "message": {"role": "user", "content": content}, **extra}

    if kind == "typed":
        return [told(f"SHOWN-{number}")]
    if kind == "answer":
        return [said({"type": "text", "text": f"SHOWN-{number}"})]
    if kind == "thinking":
        return [said({"type": "thinking", "thinking": CANARY, "signature": CANARY})]
    if kind == "call":  # the command's first line is its screen's line; the rest of the call stays hidden
        return [said({"type": "tool_use", "id": f"t{number}", "name": "Bash",
                      "input": {"command": f"make check-{number}\n{CANARY}", "description": CANARY}}),
                {**told([{"type": "tool_result", "tool_use_id": f"t{number}", "content": CANARY}]),
                 "uuid": f"r{number}", "toolUseResult": {"stdout": CANARY}}]
    if kind == "injected":
        return [told(f"<system-reminder>{CANARY}</system-reminder>"), told(CANARY, isMeta=True),
                told(f"<local-command-stdout>{CANARY}</local-command-stdout>")]
    if kind == "sidechain":
        return [{**told(CANARY), "isSidechain": True, "parentUuid": None},
                {**said({"type": "text", "text": CANARY}), "isSidechain": True}]
    if kind == "system":
        return [{**base, "type": "system", "subtype": "informational", "content": CANARY},
                {"type": "summary", "summary": CANARY, "leafUuid": "l0"}]
    return [{**base, "type": "attachment", "data": CANARY}]


CLAUDE_KINDS = ("typed", "answer", "thinking", "call", "injected", "sidechain", "system", "unknown")


@given(st.lists(st.sampled_from(CLAUDE_KINDS), min_size=1, max_size=12))
def test_no_hidden_part_of_a_claude_code_session_reaches_a_default_view_export(kinds):
    lines = [line for number, kind in enumerate(["typed", *kinds]) for line in _claude_line(kind, number)]
    text = "".join(json.dumps(line) + "\n" for line in lines)
    exported = _default_exports(text)
    assert CANARY not in exported
    assert "SHOWN-0" in exported


def _codex_line(kind: str, number: int) -> list[dict]:
    """One event of a rollout with canaries in its hidden parts."""
    def line(type_, payload):
        return {"timestamp": "2025-10-02T14:00:00Z", "type": type_, "payload": payload}

    def said(role, text, part="input_text"):
        return line("response_item", {"type": "message", "role": role, "content": [{"type": part, "text": text}]})

    if kind == "typed":
        return [said("user", f"SHOWN-{number}"), line("event_msg", {"type": "user_message", "message": CANARY})]
    if kind == "answer":
        return [said("assistant", f"SHOWN-{number}", "output_text")]
    if kind == "reasoning":
        return [line("response_item", {"type": "reasoning", "summary": [{"type": "summary_text", "text": CANARY}],
                                       "encrypted_content": CANARY}),
                line("event_msg", {"type": "agent_reasoning", "text": CANARY})]
    if kind == "call":
        return [line("response_item", {"type": "function_call", "name": "shell", "call_id": f"c{number}",
                                       "arguments": json.dumps({"command": ["bash", "-lc", f"make\n{CANARY}"],
                                                                "workdir": CANARY})}),
                line("response_item", {"type": "function_call_output", "call_id": f"c{number}", "output": CANARY})]
    if kind == "injected":
        return [said("user", f"<environment_context>{CANARY}</environment_context>"),
                said("developer", CANARY), line("session_meta", {"id": "s", "instructions": CANARY})]
    if kind == "system":
        return [line("compacted", {"message": CANARY}), line("turn_context", {"model": CANARY})]
    return [line("world_state", {"text": CANARY})]


CODEX_KINDS = ("typed", "answer", "reasoning", "call", "injected", "system", "unknown")


@given(st.lists(st.sampled_from(CODEX_KINDS), min_size=1, max_size=12))
def test_no_hidden_part_of_a_codex_rollout_reaches_a_default_view_export(kinds):
    lines = [line for number, kind in enumerate(["typed", *kinds]) for line in _codex_line(kind, number)]
    exported = _default_exports("".join(json.dumps(line) + "\n" for line in lines))
    assert CANARY not in exported
    assert "SHOWN-0" in exported
