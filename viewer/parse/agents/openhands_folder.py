"""OpenHands conversation folders uploaded together (a zip of `~/.openhands/conversations/<id>/`, its files sent
at once, `viewer open`): each conversation's `base_state.json` (V1) or `metadata.json` (V0) and its event files
(`events/event-00007-<id>.json`, V0 `events/7.json`), read in the order of their numbers by openhands.py.

A V1 conversation's sub-agents (the delegate tool's) are conversations of their own in its `subagents/<id>/`
folder: each is joined to it as a thread, started by the call whose arguments hold the sub-agent's first message
(the task it was given), else by the parent's delegating calls in order. Conversations that are no one's
sub-agent are sessions: several are a dataset, one conversation each.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable

from viewer.bundles import Bundle, Member
from viewer.model import Span, Transcript
from viewer.parse.bundles import blanked, finished, titled
from viewer.parse.bundles.threads import Child, joined

EVENT_FILE = re.compile(r"(?:^|/)events/(?:event-(\d{5,})-[^/]+|(\d+))\.json$")
STATE_FILE = re.compile(r"(?:^|/)(?:base_state|metadata)\.json$")
SUBAGENTS = "subagents/"
DELEGATING = ("task", "delegate", "spawn_agent")
"""The tools that start a sub-agent."""


def read_folders(text: str, bundle: Bundle, read: Callable[[str, list[Span]], Transcript]) -> Transcript:
    """The conversations of a bundle text (read as `bundle`), each read by `read` (`(view, spans) -> Transcript`,
    the spans its files' in the order they are read), sub-agents joined to their parents."""
    folders = _conversations(bundle.members)
    transcripts: dict[str, Transcript] = {}
    chosen: list[Member] = []
    for folder, members in folders.items():
        view = blanked(text, [member.span for member in members])
        transcripts[folder] = read(view, [member.span for member in members])
        chosen += members
    roots = [folder for folder in folders if _parent(folder) not in folders]
    sessions = [_joined(root, transcripts, folders) for root in roots]
    if len(sessions) == 1:
        return finished(sessions[0], text, bundle, read=chosen)
    dialect = sessions[0].dialect if sessions else "openhands"
    dataset = Transcript(dialect=dialect, source=text, conversations=tuple(titled(s) for s in sessions))
    return finished(dataset, text, bundle, read=chosen)


def _conversations(members: Iterable[Member]) -> dict[str, list[Member]]:
    """Each conversation folder's state file and event files, in the order they are read."""
    found: dict[str, list[tuple[tuple[int, str], Member]]] = {}
    for member in members:
        if not member.readable:
            continue
        event = EVENT_FILE.search(member.path)
        if event is not None:
            folder = member.path[:event.start()]
            found.setdefault(folder, []).append(((int(event[1] or event[2]), member.path), member))
        elif (state := STATE_FILE.search(member.path)) is not None:
            folder = member.path[:state.start()]
            found.setdefault(folder, []).append(((-1, member.path), member))
    return {folder: [member for _, member in sorted(items, key=lambda item: item[0])]
            for folder, items in sorted(found.items()) if any(EVENT_FILE.search(m.path) for _, m in items)}


def _parent(folder: str) -> str | None:
    """The conversation folder a sub-agent's folder (`<parent>/subagents/<id>`) lies in; None for any other."""
    parts = folder.split("/")
    return "/".join(parts[:-2]) if len(parts) >= 2 and parts[-2] == SUBAGENTS.rstrip("/") else None


def _joined(root: str, transcripts: dict[str, Transcript], folders: dict[str, list[Member]]) -> Transcript:
    """A conversation with its sub-agents' (and theirs), each after the one that started it."""
    children, queue = [], [root]
    while queue:
        below = [folder for folder in folders if _parent(folder) == queue[0]]
        queue = queue[1:] + below
        children += [Child(folder.rsplit("/", 1)[-1], None, transcripts[folder]) for folder in below]
    by_id = {child.id: child for child in children}
    used: set[int] = set()

    def call_of(parent: Transcript, child: str) -> int | None:
        return _delegating_call(parent, by_id[child].transcript, used)
    return joined(transcripts[root], children, call_of)


def _delegating_call(parent: Transcript, child: Transcript, used: set[int]) -> int | None:
    """The call whose arguments hold the sub-agent's first message, else the first delegating call not matched
    yet."""
    task = next((message.content.strip() for message in child.messages if message.role == "user"
                 and message.intent is None and message.content.strip()), None)
    calls = [message for message in parent.messages if message.is_call and message.index not in used]
    found = next((call for call in calls if task and task in _argument_texts(call.content)), None)
    found = found or next((call for call in calls if (call.recipient or "").rsplit(".", 1)[-1] in DELEGATING), None)
    if found is None:
        return None
    used.add(found.index)
    return found.index


def _argument_texts(arguments: str) -> set[str]:
    try:
        value = json.loads(arguments)
    except (ValueError, RecursionError):
        return set()
    values = value.values() if isinstance(value, dict) else []
    return {item.strip() for item in values if isinstance(item, str)}
