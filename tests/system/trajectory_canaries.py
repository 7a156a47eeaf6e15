"""Canary transcripts of agents' trajectories and exports for the leak test (tests/system/test_leaks.py): one
session each (an OpenHands conversation's events, a SWE-agent and a mini-swe-agent trajectory, an ATIF
trajectory with an embedded sub-agent, a SpecStory export), with a canary in every place the default view hides
(the system prompt, injected context and the instance template's boilerplate, reasoning, call arguments, tool
output, errors, a sub-agent's messages, a format error, a compaction summary) and the shown texts where the user
typed and where the agent answered."""
from __future__ import annotations

import json

SHOWN = ("SHOWN-QUESTION", "SHOWN-ANSWER", "SHOWN-FOLLOWUP")


def canary(dialect: str, place: str) -> str:
    return f"CANARY-{dialect}-{place}-Q7"


def _openhands_body(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731
    number = iter(range(100))

    def event(kind: str, source: str, **fields) -> dict:
        index = next(number)
        return {"kind": kind, "id": f"e{index}", "timestamp": f"2026-03-21T10:14:{index:02d}.000000",
                "source": source, **fields}

    def text(value: str) -> list[dict]:
        return [{"cache_prompt": False, "type": "text", "text": value}]

    def message(role: str, value: str, **extra) -> dict:
        return {"role": role, "content": text(value), "tool_calls": None, **extra}

    def action(call_id: str, tool: str, arguments: dict, response: str, **extra) -> dict:
        return event("ActionEvent", "agent", thought=[], action={"kind": "TerminalAction", **arguments},
                     tool_name=tool, tool_call_id=call_id, llm_response_id=response,
                     tool_call={"id": call_id, "name": tool, "arguments": json.dumps(arguments), "origin": "completion"},
                     **extra)

    events = [
        {"id": "conv1", "agent": {"kind": "Agent", "llm": {"model": "anthropic/claude-sonnet-4-5"}},
         "workspace": {"kind": "LocalWorkspace", "working_dir": "/w"}, "execution_status": "finished"},
        event("SystemPromptEvent", "agent", system_prompt={"type": "text", "text": c("system")}, tools=[],
              dynamic_context={"type": "text", "text": c("environment")}),
        event("MessageEvent", "user", llm_message=message("user", SHOWN[0]), extended_content=text(c("skill"))),
        action("k1", "terminal", {"command": f"make\n{c('arguments')}"}, "r1", reasoning_content=c("reasoning"),
               thinking_blocks=[{"type": "thinking", "thinking": c("thinking"), "signature": "c2ln"}]),
        event("ObservationEvent", "environment", tool_name="terminal", tool_call_id="k1", action_id="e3",
              observation={"kind": "TerminalObservation", "content": text(c("output")), "is_error": False}),
        event("AgentErrorEvent", "agent", tool_name="file_editor", tool_call_id="k2", error=c("error")),
        event("MessageEvent", "agent", llm_message=message("assistant", SHOWN[1], reasoning_content=c("reasoning2")),
              llm_response_id="r2"),
        event("Condensation", "environment", forgotten_event_ids=["e3"], summary=c("summary")),
        event("ConversationStateUpdateEvent", "environment", key="execution_status", value="running"),
        event("MessageEvent", "user", llm_message=message("user", SHOWN[2])),
        event("ObservationEvent", "environment", tool_name="finish", tool_call_id="k3",
              observation={"kind": "FinishObservation", "content": text(c("finish-echo")), "is_error": False}),
    ]
    return "".join(json.dumps(made) + "\n" for made in events)


def _swe_agent_body(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731
    task = (f"<uploaded_files>\n/w\n</uploaded_files>\nI've uploaded a code repository in /w. Consider the following "
            f"PR description:\n\n<pr_description>\n{SHOWN[0]}\n</pr_description>\n\n{c('template')}")
    history = [
        {"role": "system", "content": c("system"), "agent": "main", "message_type": "system_prompt"},
        {"role": "user", "content": c("demonstration"), "agent": "main", "message_type": "demonstration",
         "is_demo": True},
        {"role": "user", "content": [{"type": "text", "text": task}], "agent": "main", "message_type": "observation"},
        {"role": "assistant", "content": "Look first.", "thought": "Look first.", "action": "ls",
         "agent": "main", "message_type": "action",
         "thinking_blocks": [{"type": "thinking", "thinking": c("thinking"), "signature": "c2ln"}],
         "tool_calls": [{"id": "k1", "type": "function",
                         "function": {"name": "bash", "arguments": json.dumps({"command": f"make\n{c('arguments')}"})}}]},
        {"role": "tool", "content": [{"type": "text", "text": f"OBSERVATION:\n{c('output')}"}], "agent": "main",
         "message_type": "observation", "tool_call_ids": ["k1"]},
        {"role": "user", "content": SHOWN[2], "agent": "main", "message_type": "user"},
        {"role": "assistant", "content": "Then send it.", "thought": "Then send it.", "action": "cat x",
         "agent": "main", "message_type": "action"},
        {"role": "user", "content": f"{c('output2')}\n(Open file: n/a)\nbash-$", "agent": "main",
         "message_type": "observation"},
    ]
    trajectory = [{"action": "ls\n", "observation": "(the output, as the history has it)", "response": "Look first.",
                   "thought": "Look first.", "execution_time": 0.2, "state": {"working_dir": "/w"}, "query": [],
                   "extra_info": {}}]
    info = {"exit_status": "submitted", "submission": SHOWN[1],
            "model_stats": {"instance_cost": 0.01, "tokens_sent": 100, "tokens_received": 10, "api_calls": 2}}
    return json.dumps({"trajectory": trajectory, "history": history, "info": info,
                       "replay_config": json.dumps({"problem_statement": {"text": SHOWN[0], "id": "w-1"}}),
                       "environment": "main"}, indent=2)


def _mini_swe_agent_body(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731
    template = "Please solve this issue: {{task}}\n\nYou can execute bash commands.\n\n<system_information>\n" \
               "{{system}}\n</system_information>\n"
    messages = [
        {"role": "system", "content": c("system")},
        {"role": "user", "content": template.replace("{{task}}", SHOWN[0]).replace("{{system}}", c("environment"))},
        {"role": "assistant", "content": "Look first.", "reasoning_content": c("reasoning"),
         "thinking_blocks": [{"type": "thinking", "thinking": c("thinking"), "signature": "c2ln"}],
         "tool_calls": [{"id": "k1", "type": "function",
                         "function": {"name": "bash", "arguments": json.dumps({"command": f"make\n{c('arguments')}"})}}],
         "extra": {"actions": [{"command": f"make\n{c('arguments')}", "tool_call_id": "k1"}], "cost": 0.01,
                   "timestamp": 1774084446.1}},
        {"role": "tool", "tool_call_id": "k1", "content": f"<returncode>0</returncode>\n<output>\n{c('output')}\n"
                                                          "</output>",
         "extra": {"raw_output": c("output"), "returncode": 0, "timestamp": 1774084446.3, "exception_info": ""}},
        {"role": "user", "content": c("format-error"), "extra": {"interrupt_type": "FormatError", "cost": 0.01}},
        {"role": "user", "content": f"Interrupted by user: {SHOWN[2]}", "extra": {"interrupt_type": "UserInterruption"}},
        {"role": "assistant", "content": "THOUGHT: then send it.\n\n```mswea_bash_command\nmake\n" + c("command") + "\n```",
         "extra": {"actions": [{"command": "make\n" + c("command")}], "cost": 0.01, "timestamp": 1774084450.0}},
        {"role": "user", "content": f"<returncode>0</returncode>\n<output>\n{c('output2')}\n</output>",
         "extra": {"raw_output": c("output2"), "returncode": 0, "timestamp": 1774084451.0}},
        {"role": "exit", "content": SHOWN[1], "extra": {"exit_status": "Submitted", "submission": SHOWN[1]}},
    ]
    info = {"model_stats": {"instance_cost": 0.03, "api_calls": 3},
            "config": {"agent": {"instance_template": template}, "model": {"model_name": "m"}},
            "mini_version": "2.1.0", "exit_status": "Submitted", "submission": SHOWN[1]}
    return json.dumps({"info": info, "messages": messages, "trajectory_format": "mini-swe-agent-1.1"}, indent=2)


def _atif_body(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731

    def step(number: int, source: str, message: str, **fields) -> dict:
        return {"step_id": number, "timestamp": f"2026-03-21T09:14:{number:02d}Z", "source": source,
                "message": message, **fields}

    sub = {"schema_version": "ATIF-v1.7", "session_id": "sub1", "trajectory_id": "sub1",
           "agent": {"name": "a", "version": "1"},
           "steps": [step(1, "user", c("sub-prompt")),
                     step(2, "agent", c("sub-answer"), reasoning_content=c("sub-reasoning"))]}
    steps = [
        step(1, "system", c("system")),
        step(2, "user", SHOWN[0], extra={"injected": c("environment")}),
        step(3, "agent", "Look first.", reasoning_content=c("reasoning"),
             tool_calls=[{"tool_call_id": "k1", "function_name": "Bash", "arguments": {"command": f"make\n{c('arguments')}"}},
                         {"tool_call_id": "k2", "function_name": "Task", "arguments": {"prompt": c("sub-prompt")}}],
             observation={"results": [{"source_call_id": "k1", "content": c("output")},
                                      {"source_call_id": "k2", "content": c("sub-answer"),
                                       "subagent_trajectory_ref": [{"session_id": "sub1", "trajectory_id": "sub1"}]}]},
             metrics={"prompt_tokens": 100, "completion_tokens": 10, "cached_tokens": 50, "cost_usd": 0.01}),
        step(4, "system", "Context compacted.", observation={"results": [{"content": c("summary")}]}),
        step(5, "agent", SHOWN[1]),
        step(6, "user", SHOWN[2]),
    ]
    return json.dumps({"schema_version": "ATIF-v1.7", "session_id": "s1", "trajectory_id": "s1",
                       "agent": {"name": "a", "version": "1", "model_name": "m"}, "steps": steps,
                       "final_metrics": {"total_prompt_tokens": 100}, "subagent_trajectories": [sub]}, indent=2)


def _specstory_body(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731
    agent = "_**Agent (claude-sonnet-4-5 2026-03-21 09:14:06Z)**_\n\n"
    return (
        "<!-- Generated by SpecStory, Markdown v2.1.0 -->\n\n# 2026-03-21 09:14:02Z\n\n"
        "<!-- Claude Code Session s1 (2026-03-21 09:14:02Z) -->\n\n"
        f"_**User (2026-03-21 09:14:02Z)**_\n\n{SHOWN[0]}\n\n---\n\n"
        f"{agent}<think><details><summary>Thought Process</summary>\n{c('analysis')}\n</details></think>\n\n"
        f"{agent}Look first.\n\n"
        f"{agent}<tool-use data-tool-type=\"write\" data-tool-name=\"apply_patch\"><details>\n"
        f"<summary>Tool use: **apply_patch**</summary>\n\n```diff\n+{c('arguments')}\n```\n</details></tool-use>\n\n"
        f"{agent}<tool-use data-tool-type=\"shell\" data-tool-name=\"Bash\"><details>\n"
        f"<summary>Tool use: **Bash**</summary>\n`ls`\n\n```text\n{c('output')}\n```\n</details></tool-use>\n\n"
        f"{agent}<tool-use data-tool-type=\"generic\" data-tool-name=\"Task\"><details>\n"
        f"<summary>Tool use: **Task**</summary>\nFind it\n\n```text\n{c('task-output')}\n```\n</details></tool-use>\n\n"
        "---\n\n"
        f"_**User - sidechain (2026-03-21 09:14:07Z)**_\n\n{c('sub-prompt')}\n\n---\n\n"
        f"_**Agent - sidechain (claude-haiku-4-5 2026-03-21 09:14:08Z)**_\n\n{c('sub-answer')}\n\n---\n\n"
        "_**User (2026-03-21 09:14:09Z)**_\n\n[Request interrupted by user]\n\n---\n\n"
        f"{agent}<tool-use data-tool-type=\"generic\" data-tool-name=\"Glob\"><details>\n"
        f"<summary>Tool use: **Glob**</summary>\n\n**Error:**\n```\n{c('error')}\n```\n</details></tool-use>\n\n"
        f"{agent}{SHOWN[1]}\n\n---\n\n"
        f"_**User (2026-03-21 09:14:20Z)**_\n\n{SHOWN[2]}\n")


TRAJECTORY_BUILDERS = {"openhands": _openhands_body, "swe-agent": _swe_agent_body, "mini-swe-agent": _mini_swe_agent_body,
                  "atif": _atif_body, "specstory": _specstory_body}
