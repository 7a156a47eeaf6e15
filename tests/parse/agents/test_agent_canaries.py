"""A property per agent importer: whatever the order and mix of a session's lines, a canary planted in each part
the policy hides (reasoning, signatures, tool arguments and results, injected context, sub-agents, system and
summary lines) appears in none of the default view's exports (JSON twin, Markdown, HTML), while the user's text
and the final answers do. The web app's pages and search are covered by tests/system/test_leaks.py."""
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
        return {**base, "type": "assistant", "message": {"id": f"m{number}", "role": "assistant", "content": list(blocks)}}

    def told(content, **extra):
        return {**base, "type": "user", "message": {"role": "user", "content": content}, **extra}

    if kind == "typed":
        return [told(f"SHOWN-{number}")]
    if kind == "answer":
        return [said({"type": "text", "text": f"SHOWN-{number}"})]
    if kind == "thinking":
        return [said({"type": "thinking", "thinking": CANARY, "signature": CANARY})]
    if kind == "call":
        return [said({"type": "tool_use", "id": f"t{number}", "name": "Bash", "input": {"command": CANARY}}),
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
