"""A Claude Code session with its sub-agents' own logs, uploaded as a bundle of files (a zip of the project or
session folder, several files at once, `viewer open`): Claude Code 2.x writes each sub-agent of a session to
`<session>/subagents/agent-<id>.jsonl`, with `agent-<id>.meta.json` beside it (`agentType`, `description`,
`toolUseId`: the id of the parent's `Task`/`Agent` call, `spawnDepth`, `parentAgentId`); 1.0.x wrote
`agent-<id>.jsonl` beside the session, its lines naming the session (`sessionId`).

Each session is read with its sub-agents' logs after it, as one session file (claude_code.py, whose threads.py
makes every sub-agent a thread of the session): the same reading `viewer open` gave a session and its companion
logs. A meta file then names its thread's task (its title) and the call that started it, by the call's id, where
the logs alone found none or found it by its prompt. Several sessions are a dataset, one conversation each, titled
by the first thing the user typed.
"""
from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from viewer.bundles import Bundle, Member, read_bundle
from viewer.model import Diagnostic, Thread, Transcript, make_diagnostic
from viewer.parse.agents.claude_code import parse_claude_code
from viewer.parse.agents.records import text_of
from viewer.parse.bundles import TITLE_CHARS, blanked, finished, rehomed, titled
from viewer.parse.bundles.threads import THREAD_HEADERS
from viewer.parse.options import ParseOptions

SUBAGENT_LOG = re.compile(r"(?:^|/)subagents/agent-([^/]+)\.jsonl$")
SUBAGENT_META = re.compile(r"(?:^|/)subagents/agent-([^/]+)\.meta\.json$")
OLD_SUBAGENT_LOG = re.compile(r"(?:^|/)agent-[^/]+\.jsonl$")
META_READ = ("agentType", "description", "toolUseId")
"""What the reader reads of a sub-agent's meta file: its thread's title and call."""
_SESSION_ID = re.compile(r'"sessionId"\s*:\s*"([^"\\]{1,200})"')


def parse_claude_code_files(text: str, options: ParseOptions) -> Transcript:
    """A Claude Code session file (a log, or the web's session document), or a bundle of a session's (or a
    project's) files."""
    bundle = read_bundle(text)
    if bundle is None:  # no bundle: one session file
        return parse_claude_code(text, options)
    groups = _sessions(text, bundle)
    metas = {found[1]: member for member in bundle.members if member.readable
             and (found := SUBAGENT_META.search(member.path))}
    read = [member for members in groups for member in members]
    if len(groups) == 1:
        view = blanked(text, [member.span for member in groups[0]])
        session = _with_metas(parse_claude_code(view, options), text, metas)
        return finished(session, text, bundle, read=read, understood=metas.values(), view=view)
    conversations = []
    for members in groups:
        view = blanked(text, [member.span for member in members])
        conversations.append(titled(rehomed(_with_metas(parse_claude_code(view, options), text, metas), view, text)))
    dataset = Transcript(dialect="claude-code", source=text, conversations=tuple(conversations))
    return finished(dataset, text, bundle, read=read, understood=metas.values())


def _sessions(text: str, bundle: Bundle) -> list[list[Member]]:
    """Each session's log followed by its sub-agents' logs, in the bundle's order. Logs of sub-agents that name
    no session of the bundle are read as sessions of their own (a sub-agent's log read alone)."""
    logs = bundle.matching(r"\.jsonl$")
    sessions = [member for member in logs if not SUBAGENT_LOG.search(member.path)
                and not OLD_SUBAGENT_LOG.search(member.path)]
    groups = {member.path: [member] for member in sessions}
    by_id = {member.name.removesuffix(".jsonl"): member.path for member in sessions}
    for member in logs:
        if member in sessions:
            continue
        owner = next((session.path for session in sessions
                      if member.path.startswith(session.path.removesuffix(".jsonl") + "/")), None)
        if owner is None:
            named = _SESSION_ID.search(text, member.span[0], min(member.span[1], member.span[0] + 4096))
            owner = by_id.get(named[1]) if named is not None else None
        groups.setdefault(owner or member.path, []).append(member)
    return list(groups.values()) or [[]]


def _with_metas(session: Transcript, text: str, metas: dict[str, Member]) -> Transcript:
    """The session's threads titled, and their calls found, from their agents' meta files."""
    if not session.threads or not metas:
        return session
    calls = {message.call_id: message.index for message in session.messages if message.is_call and message.call_id}
    first: dict[str, int] = {}
    for message in session.messages:
        if message.thread is not None:
            first.setdefault(message.thread, message.index)
    threads: list[Thread] = []
    found: set[int | None] = set()
    problems: list[Diagnostic] = []
    kept: dict[str, dict[str, Any]] = {}
    for thread in session.threads:
        member = metas.get(thread.id)
        meta = _meta(text, member, problems) if member is not None else {}
        rest = {key: value for key, value in meta.items() if key not in META_READ}
        if rest:  # what the meta file says beside the title and the call (how deep the sub-agent was spawned)
            kept[thread.id] = {"meta": rest}
        tool_use = meta.get("toolUseId")
        call = calls.get(tool_use) if isinstance(tool_use, str) else None
        if call is not None and thread.call is None:
            found.add(first.get(thread.id))
        threads.append(Thread(thread.id, call if call is not None else thread.call, _title(meta) or thread.title))
    diagnostics: list[Diagnostic] = [d for d in session.diagnostics
                                     if not (d.code == "W-SESSION-THREAD" and d.message_index in found)]
    header = session.header
    if kept:
        header = {**header, THREAD_HEADERS: {**header.get(THREAD_HEADERS, {}), **kept}}
    return dataclasses.replace(session, threads=tuple(threads), diagnostics=tuple([*diagnostics, *problems]),
                               header=header)


def _meta(text: str, member: Member, problems: list[Diagnostic]) -> dict[str, Any]:
    try:
        value = json.loads(text[member.span[0]:member.span[1]])
    except (ValueError, RecursionError) as error:
        problems.append(make_diagnostic("W-JSON-SYNTAX", member.span, f"The sub-agent's meta file {member.path} is "
                                                                      f"not valid JSON ({error}); it was not read."))
        return {}
    return value if isinstance(value, dict) else {}


def _title(meta: dict[str, Any]) -> str | None:
    """A thread's task as Claude Code shows it: its description, after its agent's type."""
    description = text_of(meta.get("description")) or ""
    kind = text_of(meta.get("agentType")) or ""
    title = f"{kind}: {description}" if kind and description else description or kind
    return " ".join(title.split())[:TITLE_CHARS] or None
