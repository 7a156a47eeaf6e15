"""Sub-agents in a Claude Code session: the lines marked `isSidechain` are the conversation of an agent that a
tool call (the `Task` tool, `Agent` in later versions) started, and belong to that call.

A sub-agent is named by the `agentId` of its lines (newer versions), else by the uuid of its first line. Its
call is found by the `agentId` in the `toolUseResult` of the call's reply, else as the call whose `prompt` is the
text of the sub-agent's first message. A file made only of sidechain lines is a sub-agent's own log, read as the
main conversation.

Read online (viewer/parse/agents/online.py): each batch of messages is placed as it is finished, the calls and
replies of the main conversation remembered by id (and by prompt, for calls that give one); a thread's call is
the one known when its messages are finished, and the end names the call each thread has at last (the reply that
names its agent comes after it), amending the messages given another.
"""
from __future__ import annotations

import json
from array import array
from collections.abc import Callable, Sequence
from typing import Any

from viewer.model import Message, Thread
from viewer.parse.agents.lines import Line
from viewer.model import Note
from viewer.parse.agents.online import Reread

UNNAMED = ("This sub-agent's conversation names no call that started it; it is kept, hidden from the default "
           "view.")


class Threads:
    """Which thread each sidechain message belongs to, and each thread's call, found a batch at a time."""

    def __init__(self) -> None:
        self.own_log: bool | None = None
        """Whether the file is a sub-agent's own log (every message of a sidechain line): decided at the first
        batch, from every message read by then."""
        self.parents: dict[str, str] = {}
        """A sidechain line's uuid -> the uuid it follows."""
        self.first: dict[str, int] = {}
        """Each thread's first message, in the order threads start."""
        self.opening: dict[str, str | None] = {}
        """A thread's first message's text when it is the user's (its call gave it as the `prompt`)."""
        self.members: dict[str, tuple[array, array]] = {}
        """A thread's messages, and the call each was finished with (-1: none)."""
        self._calls: dict[str, int] = {}
        """call_id -> the main conversation's latest call with it."""
        self._by_agent: dict[str, int] = {}
        self._by_prompt: dict[str, int] = {}
        self._titles: dict[int, str] = {}
        """A call that may start a sub-agent (its arguments name a task) -> what it calls the task (`_task`): the
        thread's title once the call is its thread's."""

    def place(self, messages: Sequence[Message], lines: Sequence[Line], held: Sequence[Line]) -> list[str | None]:
        """The thread of each message of a batch (None: the main conversation); `held`, the lines of the messages
        read but not finished yet."""
        if self.own_log is None:
            self.own_log = all(line.get("isSidechain") is True for line in (*lines, *held))
        names: list[str | None] = []
        for message, line in zip(messages, lines):
            if line.get("isSidechain") is not True:
                if self.own_log:
                    raise Reread("a line of the main conversation after a sub-agent's own log")
                names.append(None)
                self._main(message, line)
                continue
            if self.own_log:
                names.append(None)
                continue
            name = self._name(line)
            if name not in self.first:
                self.first[name] = message.index
                self.opening[name] = message.content.strip() if message.role == "user" else None
                self.members[name] = (array("i"), array("i"))
            indices, calls = self.members[name]
            indices.append(message.index)
            call = self.call_of(name)
            calls.append(-1 if call is None else call)
            names.append(name)
        return names

    def _name(self, line: Line) -> str:
        uuid, parent = line.get("uuid"), line.get("parentUuid")
        if isinstance(uuid, str) and isinstance(parent, str):
            self.parents[uuid] = parent
        agent = line.get("agentId")
        return agent if isinstance(agent, str) and agent else _root(uuid, self.parents)

    def _main(self, message: Message, line: Line) -> None:
        """Remember a main conversation's call (by id, and by its prompt) and the agent its reply names."""
        call_id = message.call_id
        if message.is_call and call_id:
            self._calls[call_id] = message.index
            if '"description"' in message.content or '"subagent_type"' in message.content:
                title = _task(message.content)
                if title is not None:
                    self._titles[message.index] = title
            if '"prompt"' in message.content:
                prompt = prompt_of(message.content)
                if prompt is not None:
                    self._by_prompt.setdefault(prompt.strip(), message.index)
        elif message.is_reply and call_id in self._calls:
            result = line.get("toolUseResult")
            agent = result.get("agentId") if isinstance(result, dict) else None
            if isinstance(agent, str):
                self._by_agent.setdefault(agent, self._calls[call_id])

    def call_of(self, name: str) -> int | None:
        call = self._by_agent.get(name)
        if call is None:
            opening = self.opening.get(name)
            call = self._by_prompt.get(opening) if opening is not None else None
        return call

    def now(self) -> tuple[Thread, ...]:
        """The threads so far, each with the call known now."""
        threads = []
        for name in self.first:
            call = self.call_of(name)
            threads.append(Thread(name, call, self._titles.get(call) if call is not None else None))
        return tuple(threads)

    def ended(self, amend: Callable[[int], None]) -> tuple[tuple[Thread, ...], list[Note]]:
        """The threads with their calls at last, a note on each that has none; `amend` is called with each message
        finished with another call."""
        threads = self.now()
        for thread in threads:
            indices, calls = self.members[thread.id]
            final = -1 if thread.call is None else thread.call
            for index, call in zip(indices, calls):
                if call != final:
                    amend(index)
        return threads, [Note("W-SESSION-THREAD", UNNAMED, self.first[thread.id]) for thread in threads
                         if thread.call is None]


def _task(arguments: str) -> str | None:
    """What the call that started a sub-agent called its task: the Task tool's `description` (Claude Code's own
    screen names the agent so), else its `subagent_type`."""
    try:
        value = json.loads(arguments)
    except ValueError:
        return None
    if not isinstance(value, dict):
        return None
    for key in ("description", "subagent_type"):
        if isinstance(value.get(key), str) and value[key].strip():
            return value[key].strip()
    return None


def _root(uuid: Any, parents: dict[str, str]) -> str:
    if not isinstance(uuid, str):
        return "sidechain"
    seen = set()
    while uuid in parents and uuid not in seen:
        seen.add(uuid)
        uuid = parents[uuid]
    return uuid


def prompt_of(arguments: str) -> str | None:
    try:
        value = json.loads(arguments)
    except ValueError:
        return None
    prompt = value.get("prompt") if isinstance(value, dict) else None
    return prompt if isinstance(prompt, str) else None
