"""Sub-agents in a Claude Code session: the lines marked `isSidechain` are the conversation of an agent that a
tool call (the `Task` tool, `Agent` in later versions) started, and belong to that call.

A sub-agent is named by the `agentId` of its lines (newer versions), else by the uuid of its first line. Its
call is found by the `agentId` in the `toolUseResult` of the call's reply, else as the call whose `prompt` is the
text of the sub-agent's first message. A file made only of sidechain lines is a sub-agent's own log, read as the
main conversation.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from viewer.model import Diagnostic, Message, Thread, make_diagnostic
from viewer.parse.agents.lines import Line


class Threads:
    """Which thread each sidechain message belongs to, and each thread's call."""

    def __init__(self, messages: Sequence[Message], lines: Sequence[Line]) -> None:
        self.of: dict[int, str] = {}
        """Message index -> its thread's id."""
        self.threads: list[Thread] = []
        self.diagnostics: list[Diagnostic] = []
        side = [index for index, line in enumerate(lines) if line.get("isSidechain") is True]
        if not side or len(side) == len(messages):
            return
        self._name(side, lines)
        first: dict[str, int] = {}
        for index in side:
            first.setdefault(self.of[index], index)
        calls = _calls_by_agent(messages, lines, set(side))
        prompts = _calls_by_prompt(messages, set(side))
        for thread, index in first.items():
            call = calls.get(thread)
            if call is None:
                call = prompts.get(messages[index].content.strip()) if messages[index].role == "user" else None
            self.threads.append(Thread(thread, call, _task(messages[call]) if call is not None else None))
            if call is None:
                self.diagnostics.append(make_diagnostic(
                    "W-SESSION-THREAD", messages[index].span,
                    "This sub-agent's conversation names no call that started it; it is kept, hidden from the "
                    "default view.", index))

    def _name(self, side: list[int], lines: Sequence[Line]) -> None:
        parents: dict[str, str] = {}
        for index in side:
            line = lines[index]
            uuid, parent = line.get("uuid"), line.get("parentUuid")
            if isinstance(uuid, str) and isinstance(parent, str):
                parents[uuid] = parent
        for index in side:
            line = lines[index]
            agent = line.get("agentId")
            self.of[index] = agent if isinstance(agent, str) and agent else _root(line.get("uuid"), parents)


def _task(call: Message) -> str | None:
    """What the call that started a sub-agent called its task: the Task tool's `description` (Claude Code's own
    screen names the agent so), else its `subagent_type`."""
    try:
        arguments = json.loads(call.content)
    except ValueError:
        return None
    if not isinstance(arguments, dict):
        return None
    for key in ("description", "subagent_type"):
        if isinstance(arguments.get(key), str) and arguments[key].strip():
            return arguments[key].strip()
    return None


def _root(uuid: Any, parents: dict[str, str]) -> str:
    if not isinstance(uuid, str):
        return "sidechain"
    seen = set()
    while uuid in parents and uuid not in seen:
        seen.add(uuid)
        uuid = parents[uuid]
    return uuid


def _calls_by_agent(messages: Sequence[Message], lines: Sequence[Line], side: set[int]) -> dict[str, int]:
    """agentId -> the call whose reply's `toolUseResult` names it."""
    calls = {message.call_id: message.index for message in messages
             if message.is_call and message.call_id and message.index not in side}
    found: dict[str, int] = {}
    for message in messages:
        if message.is_reply and message.index not in side and message.call_id in calls:
            result = lines[message.index].get("toolUseResult")
            agent = result.get("agentId") if isinstance(result, dict) else None
            if isinstance(agent, str):
                found.setdefault(agent, calls[message.call_id])
    return found


def _calls_by_prompt(messages: Sequence[Message], side: set[int]) -> dict[str, int]:
    """A sub-agent's first message -> the main conversation's call that gave it as its `prompt`."""
    found: dict[str, int] = {}
    for message in messages:
        if message.is_call and message.index not in side and '"prompt"' in message.content:
            try:
                arguments = json.loads(message.content)
            except ValueError:
                continue
            prompt = arguments.get("prompt") if isinstance(arguments, dict) else None
            if isinstance(prompt, str):
                found.setdefault(prompt.strip(), message.index)
    return found
