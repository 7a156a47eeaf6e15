"""A property per reader of agents' trajectories and exports (OpenHands, SWE-agent, mini-swe-agent, ATIF,
SpecStory): whatever the order and mix of a session's events, steps or blocks, a canary planted in each part the
policy hides (system prompts, injected context and template boilerplate, reasoning, call arguments, tool output,
errors, harness messages, sub-agents, unknown events) appears in none of the default view's exports, while the
user's task does. The web app's pages are covered by tests/system/test_leaks.py."""
from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from tests.parse.agents.test_agent_canaries import CANARY, _default_exports
from viewer import parse

kinds = lambda names: st.lists(st.sampled_from(names), min_size=1, max_size=10)  # noqa: E731


COMMAND = f"make\n{CANARY}"
"""A command whose first line is all its screen's line shows (`make …`): the canary stands in the rest."""


def _text(value: str) -> list[dict]:
    return [{"type": "text", "text": value}]


def _openhands_event(kind: str, number: int) -> list[dict]:
    base = {"id": f"e{number}", "timestamp": "2026-03-21T10:14:00", "source": "agent"}
    call = {"id": f"k{number}", "name": "terminal", "arguments": json.dumps({"command": COMMAND})}
    if kind == "typed":
        return [{**base, "kind": "MessageEvent", "source": "user", "llm_message": {"role": "user",
                                                                                     "content": _text(f"SHOWN-{number}")},
                 "extended_content": _text(CANARY)}]
    if kind == "answer":
        return [{**base, "kind": "MessageEvent", "llm_message": {"role": "assistant", "content": _text(f"SHOWN-{number}"),
                                                                 "reasoning_content": CANARY,
                                                                 "thinking_blocks": [{"type": "thinking",
                                                                                      "thinking": CANARY}]}}]
    if kind == "call":
        return [{**base, "kind": "ActionEvent", "thought": [], "reasoning_content": CANARY, "tool_name": "terminal",
                 "tool_call_id": f"k{number}", "tool_call": call, "action": {"kind": "TerminalAction", "command": COMMAND},
                 "llm_response_id": f"r{number}"},
                {**base, "kind": "ObservationEvent", "source": "environment", "tool_name": "terminal",
                 "tool_call_id": f"k{number}", "observation": {"kind": "TerminalObservation", "content": _text(CANARY),
                                                               "is_error": number % 2 == 0}}]
    if kind == "failed":
        return [{**base, "kind": "AgentErrorEvent", "tool_name": "x", "tool_call_id": f"k{number}", "error": CANARY},
                {**base, "kind": "UserRejectObservation", "tool_name": "x", "tool_call_id": f"k{number}",
                 "rejection_reason": CANARY}]
    if kind == "system":
        return [{**base, "kind": "SystemPromptEvent", "system_prompt": {"type": "text", "text": CANARY},
                 "dynamic_context": {"type": "text", "text": CANARY}},
                {**base, "kind": "Condensation", "summary": CANARY, "forgotten_event_ids": []}]
    if kind == "v0":
        metadata = {"tool_call_id": f"v{number}", "function_name": "execute_bash", "model_response": {
            "id": f"m{number}", "choices": [{"message": {"content": f"Plan {number}" if number % 2 else None, "reasoning_content": CANARY,
                                                         "tool_calls": [{"id": f"v{number}", "function": {
                                                             "name": "execute_bash", "arguments": json.dumps({"command": COMMAND})}}]}}]}}
        return [{"id": number, "timestamp": "2025-06-12T08:30:00", "source": "agent", "message": CANARY,
                 "action": "run", "args": {"command": COMMAND, "thought": f"Plan {number}"}, "tool_call_metadata": metadata},
                {"id": number + 1000, "timestamp": "2025-06-12T08:30:00", "source": "agent", "message": CANARY,
                 "cause": number, "observation": "run", "content": CANARY, "extras": {"command": CANARY},
                 "tool_call_metadata": metadata},
                {"id": number + 2000, "timestamp": "2025-06-12T08:30:00", "source": "environment", "message": "",
                 "observation": "recall", "content": CANARY, "extras": {"repo_instructions": CANARY}},
                {"id": number + 3000, "timestamp": "2025-06-12T08:30:00", "source": "agent", "message": "",
                 "action": "system", "args": {"content": CANARY}}]
    return [{**base, "kind": "BrowserSnapshotEvent", "data": CANARY}]


OPENHANDS_KINDS = ("typed", "answer", "call", "failed", "system", "v0", "unknown")


def openhands_conversation(chosen: list[str]) -> str:
    events = [event for number, kind in enumerate(["typed", *chosen]) for event in _openhands_event(kind, number)]
    return "".join(json.dumps(event) + "\n" for event in events)


@given(kinds(OPENHANDS_KINDS))
@settings(max_examples=60, deadline=None)
def test_no_hidden_part_of_an_openhands_conversation_reaches_a_default_view_export(chosen):
    text = openhands_conversation(chosen)
    assert parse(text).dialect == "openhands"
    exported = _default_exports(text)
    assert CANARY not in exported
    assert "SHOWN-0" in exported


def _swe_item(kind: str, number: int) -> list[dict]:
    if kind == "function-call":
        return [{"role": "assistant", "content": f"Plan {number}", "thought": f"Plan {number}", "action": COMMAND,
                 "thinking_blocks": [{"type": "thinking", "thinking": CANARY}],
                 "tool_calls": [{"id": f"k{number}", "type": "function",
                                 "function": {"name": "bash", "arguments": json.dumps({"c": CANARY})}}]},
                {"role": "tool", "content": _text(CANARY), "tool_call_ids": [f"k{number}"]}]
    if kind == "text-command":
        return [{"role": "assistant", "content": f"DISCUSSION\nPlan {number}\n\n```\n{COMMAND}\n```",
                 "thought": f"DISCUSSION\nPlan {number}\n\n", "action": f"{COMMAND}\n"},
                {"role": "user", "content": f"{CANARY}\n(Open file: n/a)\nbash-$", "message_type": "observation"}]
    if kind == "hidden":
        return [{"role": "system", "content": CANARY, "message_type": "system_prompt"},
                {"role": "user", "content": CANARY, "is_demo": True, "message_type": "demonstration"}]
    if kind == "user":
        return [{"role": "user", "content": f"SHOWN-{number}", "message_type": "user"}]
    return [{"role": "critic", "content": CANARY}]


SWE_AGENT_KINDS = ("function-call", "text-command", "hidden", "user", "unknown")


def swe_agent_run(chosen: list[str], recorded: bool = True) -> str:
    task = f"<uploaded_files>\n/w\n</uploaded_files>\n{CANARY}\n<pr_description>\nSHOWN-0\n</pr_description>\n{CANARY}"
    history = [{"role": "system", "content": CANARY, "message_type": "system_prompt"},
               {"role": "user", "content": _text(task) if recorded else task, "message_type": "observation"},
               *(item for number, kind in enumerate(chosen, start=1) for item in _swe_item(kind, number))]
    trajectory = [{"action": COMMAND, "observation": CANARY, "response": CANARY, "thought": "Plan",
                   "query": [{"role": "system", "content": CANARY}]}]
    config = json.dumps({"problem_statement": {"text": "SHOWN-0"}}) if recorded else None
    return json.dumps({"trajectory": trajectory, "history": history, "replay_config": config,
                       "info": {"exit_status": "exit_cost", "submission": "SHOWN-patch"}}, indent=2)


@given(kinds(SWE_AGENT_KINDS), st.booleans())
@settings(max_examples=60, deadline=None)
def test_no_hidden_part_of_a_swe_agent_trajectory_reaches_a_default_view_export(chosen, recorded):
    text = swe_agent_run(chosen, recorded)
    assert parse(text).dialect == "swe-agent"
    exported = _default_exports(text)
    assert CANARY not in exported
    assert "SHOWN-0" in exported


def _mini_message(kind: str, number: int) -> list[dict]:
    if kind == "tool-call":
        return [{"role": "assistant", "content": f"Plan {number}", "reasoning_content": CANARY,
                 "tool_calls": [{"id": f"k{number}", "function": {"name": "bash", "arguments": COMMAND}}],
                 "extra": {"actions": [{"command": COMMAND}], "response": {"usage": {"prompt_tokens": 3}}, "cost": 0.1,
                           "timestamp": 1774084446.0 + number}},
                {"role": "tool", "tool_call_id": f"k{number}", "content": CANARY,
                 "extra": {"raw_output": CANARY, "exception_info": CANARY if number % 2 else ""}}]
    if kind == "text-command":
        return [{"role": "assistant", "content": f"THOUGHT: plan {number}\n\n```bash\n{COMMAND}\n```"},
                {"role": "user", "content": f"<returncode>1</returncode>\n<output>\n{CANARY}\n</output>"}]
    if kind == "harness":
        return [{"role": "user", "content": CANARY, "extra": {"interrupt_type": "FormatError",
                                                              "model_response": CANARY}},
                {"role": "user", "content": CANARY, "extra": {"interrupt_type": "UserRejection"}},
                {"role": "user", "content": CANARY}]
    if kind == "exit":
        return [{"role": "exit", "content": CANARY, "extra": {"exit_status": "LimitsExceeded", "traceback": CANARY}}]
    return [{"role": "observer", "content": CANARY}]


MINI_KINDS = ("tool-call", "text-command", "harness", "exit", "unknown")


def mini_swe_agent_run(chosen: list[str], version: str = "1.1") -> str:
    template = "Please solve this issue: {{task}}\n\nYou can execute bash commands.\n{{system}}\n"
    messages = [{"role": "system", "content": CANARY},
                {"role": "user", "content": f"Please solve this issue: SHOWN-0\n\nYou can execute bash commands.\n"
                                            f"{CANARY}\n"},
                *(message for number, kind in enumerate(chosen, start=1) for message in _mini_message(kind, number))]
    info = {"mini_version": "2.1.0", "config": {"agent": {"instance_template": template}}}
    return json.dumps({"info": info, "messages": messages, "trajectory_format": f"mini-swe-agent-{version}"},
                      indent=2)


@given(kinds(MINI_KINDS), st.sampled_from(("1", "1.1")))
@settings(max_examples=60, deadline=None)
def test_no_hidden_part_of_a_mini_swe_agent_trajectory_reaches_a_default_view_export(chosen, version):
    text = mini_swe_agent_run(chosen, version)
    assert parse(text).dialect == "mini-swe-agent"
    exported = _default_exports(text)
    assert CANARY not in exported
    assert "SHOWN-0" in exported


def _atif_step(kind: str, number: int) -> dict:
    step = {"step_id": number, "timestamp": "2026-03-21T09:14:00Z"}
    if kind == "typed":
        return {**step, "source": "user", "message": f"SHOWN-{number}", "extra": {"context": CANARY}}
    if kind == "call":
        return {**step, "source": "agent", "message": f"Plan {number}", "reasoning_content": CANARY,
                "tool_calls": [{"tool_call_id": f"k{number}", "function_name": "Task", "arguments": {"p": CANARY}}],
                "observation": {"results": [{"source_call_id": f"k{number}", "content": CANARY,
                                             "subagent_trajectory_ref": [{"session_id": "sub"}]},
                                            {"content": CANARY}]}}
    if kind == "copied":
        return {**step, "source": "user", "message": CANARY, "is_copied_context": True}
    if kind == "system":
        return {**step, "source": "system", "message": CANARY, "observation": {"results": [{"content": CANARY}]}}
    return {**step, "source": "critic", "message": CANARY}


ATIF_KINDS = ("typed", "call", "copied", "system", "unknown")


def atif_trajectory(chosen: list[str]) -> str:
    steps = [_atif_step(kind, number) for number, kind in enumerate(["typed", *chosen], start=1)]
    sub = {"schema_version": "ATIF-v1.7", "session_id": "sub", "agent": {"name": "a"},
           "steps": [{"step_id": 1, "source": "user", "message": CANARY},
                     {"step_id": 2, "source": "agent", "message": CANARY, "reasoning_content": CANARY}]}
    return json.dumps({"schema_version": "ATIF-v1.7", "session_id": "s", "agent": {"name": "a"},
                       "steps": [{"step_id": 0, "source": "system", "message": CANARY}, *steps],
                       "subagent_trajectories": [sub, {**sub, "session_id": "other"}]})


@given(kinds(ATIF_KINDS))
@settings(max_examples=60, deadline=None)
def test_no_hidden_part_of_an_atif_trajectory_reaches_a_default_view_export(chosen):
    text = atif_trajectory(chosen)
    assert parse(text).dialect == "atif"
    exported = _default_exports(text)
    assert CANARY not in exported
    assert "SHOWN-1" in exported


def _specstory_block(kind: str, number: int) -> str:
    agent = "_**Agent (m 2026-03-21 09:14:06Z)**_\n\n"
    if kind == "typed":
        return f"_**User (2026-03-21 09:14:02Z)**_\n\nSHOWN-{number}\n\n---\n\n"
    if kind == "think":
        return f"{agent}<think><details><summary>Thought Process</summary>\n{CANARY}\n</details></think>\n\n"
    if kind == "tool":
        return (f"{agent}<tool-use data-tool-type=\"shell\" data-tool-name=\"Bash\"><details>\n<summary>Tool use: "
                f"**Bash**</summary>\n`{CANARY}`\n\n```text\n{CANARY}\n```\n</details></tool-use>\n\n")
    if kind == "task":
        return (f"{agent}<tool-use data-tool-type=\"generic\" data-tool-name=\"Task\"><details>\n<summary>Tool use: "
                f"**Task**</summary>\n\n**Result:**\n{CANARY}\n</details></tool-use>\n\n---\n\n"
                f"_**User - sidechain (2026-03-21 09:14:07Z)**_\n\n{CANARY}\n\n---\n\n"
                f"_**Agent - sidechain (m 2026-03-21 09:14:08Z)**_\n\n{CANARY}\n\n---\n\n")
    if kind == "interrupted":
        return "_**User**_\n\n[Request interrupted by user for tool use]\n\n---\n\n"
    return f"{agent}<tool-use data-tool-type=\"write\" data-tool-name=\"Edit\"><details>\n<summary>Tool use: **Edit**" \
           f"</summary>\n\n```diff\n-{CANARY}\n```\n"


SPECSTORY_KINDS = ("typed", "think", "tool", "task", "interrupted", "cut")


def specstory_export(chosen: list[str]) -> str:
    return "<!-- Generated by SpecStory, Markdown v2.1.0 -->\n\n" + "".join(
        _specstory_block(kind, number) for number, kind in enumerate(["typed", *chosen]))


@given(kinds(SPECSTORY_KINDS))
@settings(max_examples=60, deadline=None)
def test_no_hidden_part_of_a_specstory_export_reaches_a_default_view_export(chosen):
    text = specstory_export(chosen)
    assert parse(text).dialect == "specstory"
    exported = _default_exports(text)
    assert CANARY not in exported
    assert "SHOWN-0" in exported
