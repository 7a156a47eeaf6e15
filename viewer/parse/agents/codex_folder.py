"""Codex rollouts uploaded together (a zip of a sessions folder, several files at once, `viewer open`): a sub-agent
Codex spawned writes a rollout of its own, beside its parent's, whose `session_meta` names its parent
(`payload.source.subagent.thread_spawn.parent_thread_id`, with the agent's `agent_nickname` and `agent_role`).

Each rollout is read on its own (codex.py); each sub-agent's is joined to its parent's as a thread, started by
the parent's `spawn_agent` call whose output names the sub-agent's id (`{"agent_id": …}`). Rollouts whose parent
is not in the bundle are sessions: several are a dataset, one conversation each.
"""
from __future__ import annotations

import json
from typing import Any

from viewer.bundles import Member, read_bundle
from viewer.model import Transcript
from viewer.parse.agents.codex import parse_codex
from viewer.parse.bundles import blanked, finished, rehomed, titled
from viewer.parse.bundles.threads import Child, joined
from viewer.parse.options import ParseOptions


def parse_codex_files(text: str, options: ParseOptions) -> Transcript:
    """A Codex rollout or `codex exec --json` stream, or a bundle of rollouts."""
    bundle = read_bundle(text)
    if bundle is None:  # no bundle: one rollout or stream
        return parse_codex(text, options)
    rollouts = bundle.matching(r"\.jsonl$")
    read: dict[str, tuple[Transcript, dict[str, Any]]] = {}
    order: list[str] = []
    for member in rollouts:
        view = blanked(text, [member.span])
        transcript = rehomed(parse_codex(view, options), view, text)
        facts = _session_facts(text, member)
        key = facts.get("id") or member.path
        if key in read:
            key = member.path
        read[key] = transcript, facts
        order.append(key)
    parents = {key: facts.get("parent") for key, (_, facts) in read.items()}
    roots = [key for key in order if parents[key] not in read]
    sessions = [_session(key, read, parents, order) for key in roots]
    if len(sessions) == 1:
        return finished(sessions[0], text, bundle, read=rollouts)
    dataset = Transcript(dialect="codex", source=text, conversations=tuple(titled(s) for s in sessions))
    return finished(dataset, text, bundle, read=rollouts)


def _session(root: str, read: dict[str, tuple[Transcript, dict[str, Any]]], parents: dict[str, Any],
             order: list[str]) -> Transcript:
    """A root rollout with its sub-agents', each after the one that spawned it."""
    children, queue = [], [root]
    while queue:
        below = [key for key in order if parents[key] == queue[0] and key != root]
        queue = queue[1:] + below
        children += [Child(key, _title(read[key][1]), read[key][0]) for key in below]
    return joined(read[root][0], children, _spawn_call)


def _session_facts(text: str, member: Member) -> dict[str, Any]:
    """A rollout's id and, for a sub-agent's, its parent's id, nickname and role, from its first line."""
    end = text.find("\n", member.span[0], member.span[1])
    try:
        first = json.loads(text[member.span[0]:end if end != -1 else member.span[1]])
    except (ValueError, RecursionError):
        return {}
    payload = first.get("payload") if isinstance(first, dict) and first.get("type") == "session_meta" else None
    if not isinstance(payload, dict):
        return {}
    source = payload.get("source")
    spawn = source.get("subagent") if isinstance(source, dict) else None
    spawn = spawn.get("thread_spawn") if isinstance(spawn, dict) else None
    spawn = spawn if isinstance(spawn, dict) else {}
    facts = {"id": payload.get("id"), "parent": spawn.get("parent_thread_id"),
             "nickname": spawn.get("agent_nickname") or payload.get("agent_nickname"),
             "role": spawn.get("agent_role") or spawn.get("agent_type") or payload.get("agent_role")}
    return {key: value for key, value in facts.items() if isinstance(value, str) and value}


def _title(facts: dict[str, Any]) -> str | None:
    """A sub-agent as Codex names it: its nickname and role (`Euler (explorer)`)."""
    nickname, role = facts.get("nickname"), facts.get("role")
    return f"{nickname} ({role})" if nickname and role else nickname or role


def _spawn_call(transcript: Transcript, child: str) -> int | None:
    """The `spawn_agent` call whose output names the sub-agent's id."""
    calls = {message.call_id: message.index for message in transcript.messages if message.is_call and message.call_id}
    for message in transcript.messages:
        if message.role == "tool" and message.call_id in calls and child in message.content:
            try:
                output = json.loads(message.content)
            except (ValueError, RecursionError):
                continue
            if isinstance(output, dict) and output.get("agent_id") == child:
                return calls[message.call_id]
    return None

