"""A Cline SDK session's `<id>.messages.json` (dialect `cline-sdk`): what Cline 4.x's SDK bundle, the `cline` CLI
2.x and the SDK's apps write under `~/.cline/data/sessions/<id>/` (sdk/packages/core/docs/messages-contract-v1.md).

One object, `{version: 1, updated_at, agent: lead|subagent|teammate, sessionId, origin, messages, system_prompt?}`;
each message `{id, role: user|assistant, content: [blocks], ts?, modelInfo {id, provider}, metrics}` with
Anthropic's blocks (`text`, `thinking`, `tool_use`, `tool_result`) and `file` (an @-mentioned file inlined: context).
A user's text is what they typed (the VS Code bundle wraps it in `<user_input mode=…>`), unless it is one of the
prompts the SDK sends on its own: a `[TASK RESUMPTION]`, the plan-to-act continuation, hook output
(`<hook_context …>`), a `<mode_notice>`. Only the last assistant message of a turn carries `metrics`, the turn's
tokens (`inputTokens` counts the cached ones too) and cost. A sub-agent (`spawn_agent`) writes its own file beside
the lead's, `agent: "subagent"`: read alone, it is that sub-agent's conversation, its first message the task the
lead gave it; its header names the lead's session.

Every member is accounted for (docs/architecture.md, "Nothing lost"): the file's in the header, a message's by its
role (what its `modelInfo` and `metrics` say beside the model's id and the counts read is its last message's
details); any member no table here names is kept in the header's `unread`.
"""
from __future__ import annotations

import re
from typing import Any

from msgspec.structs import replace as replace_fields

from viewer.model import Message, Meta, Transcript, Usage, make_diagnostic
from viewer.model.collector import collector_paused
from viewer.parse.agents.arrays import to_end
from viewer.parse.agents.cline.history import milliseconds
from viewer.parse.agents.cline.turns import Run
from viewer.parse.agents.lines import Line, claims
from viewer.parse.agents.meta import NOTHING, usage_totals
from viewer.parse.agents.records import rest_details
from viewer.parse.agents.session import Session
from viewer.parse.common import trim_newline
from viewer.parse.json import drafts
from viewer.parse.json.anthropic import BLOCKS, block_reader
from viewer.parse.json.content_text import flat_text
from viewer.parse.json.media import MEDIA_PARTS, placeholder
from viewer.parse.json.positions import JsonError, Node, Partial, read_value, skip_blank
from viewer.parse.json.source import Draft, JsonObject, type_phrase
from viewer.parse.options import ParseOptions

DIALECT = "cline-sdk"
USER_INPUT = re.compile(r"\A\s*<user_input(?:\s[^>\n]*)?>(.*?)</user_input>\s*\Z", re.DOTALL)
MODE_NOTICE = re.compile(r"<mode_notice>.*?</mode_notice>\s*", re.DOTALL)
CONTINUATION = "The user approved switching to act mode. Continue with the approved plan now."
SYNTHETIC_OPENINGS = ("[TASK RESUMPTION]", "<hook_context")
"""How the prompts the SDK sends without the user begin (apps/vscode/src/sdk/sdk-user-message-mapping.ts)."""
HEADER_KEYS = {"sessionId": "session_id", "agent": "agent_role", "taskType": "task_type", "updated_at": "updated_at"}
ORIGIN_KEYS = {"source": "source", "parentThreadId": "parent_session", "subagent": "subagent", "mode": "origin_mode"}
DOCUMENT_CLAIMS = claims("version", "messages", "system_prompt", *HEADER_KEYS,
                         *(f"origin.{key}" for key in ORIGIN_KEYS))
"""What the reader reads of the file (the origin's `sessionId` is an id)."""
_COUNTED = ("modelInfo.id", *(f"metrics.{key}" for key in ("inputTokens", "outputTokens", "cacheReadTokens",
                                                               "cacheWriteTokens", "cost")))
RESPONSE_DETAILS = ("modelInfo", "metrics")
"""What an assistant message says of its model and turn beside what is read (`_COUNTED`): its details."""
MESSAGE_CLAIMS = {"user": claims("role", "content", "ts"),
                  "assistant": claims("role", "content", "ts", *RESPONSE_DETAILS)}
_READ = claims(*_COUNTED)


def parse_cline_sdk(text: str, options: ParseOptions) -> Transcript:
    """Read a Cline SDK session's messages file. Never raises on user input."""
    with collector_paused:  # see viewer/model/collector.py
        session = Session(text)
        header: dict[str, Any] = {"producer": DIALECT, "agent": "Cline"}
        start = skip_blank(text, 0)
        try:
            document = read_value(text, start, 4) if start < len(text) else None
        except JsonError as error:
            document = _cut(text, start, error, session)
        if document is not None and not isinstance(document.value, dict):
            session.diagnostics.append(make_diagnostic("W-JSON-SHAPE", document.span, "A Cline SDK messages file "
                                                                                      "is one JSON object."))
            document = None
        if document is not None:
            _read(document, header, session)
        messages, totals = _finished(session)
        return Transcript(dialect=DIALECT, source=text, messages=messages, diagnostics=tuple(session.diagnostics),
                          header=session.with_unread(header | totals), frame=session.frame([], session.diagnostics))


def _cut(text: str, start: int, error: JsonError, session: Session) -> Node | None:
    """A file cut short: the members and the messages read whole before the cut, as the document's node (its
    messages as its items)."""
    partial = Partial(("messages",))
    try:
        read_value(text, start, 4, into=partial)
    except JsonError:
        pass
    members = {key: member for key, member in partial.members.items() if key != "messages"}
    ends = [node.span[1] for node in partial.items] + [member.span[1] for member in members.values()]
    resume = max(ends, default=start)
    session.diagnostics.append(make_diagnostic(
        "E-STREAM-TRUNCATED", to_end(text, skip_blank(text, resume)),
        f"The file breaks off ({error.reason.removesuffix(' starting at').removesuffix(' at')}): it was cut short "
        "while it was written or copied; what follows is missing."))
    if not members and not partial.items:
        return None
    value = {key: member.node.value for key, member in members.items()}
    return Node(value, (start, resume), members, tuple(partial.items))


def _read(document: Node, header: dict[str, Any], session: Session) -> None:
    value = document.value
    session.account(Line(1, document.span, value, session.text), DOCUMENT_CLAIMS, "document")
    for key, name in HEADER_KEYS.items():
        if isinstance(value.get(key), str) and value[key]:
            header[name] = value[key]
    origin = value.get("origin")
    if isinstance(origin, dict):
        for key, name in ORIGIN_KEYS.items():
            if isinstance(origin.get(key), str) and origin[key]:
                header[name] = origin[key]
    if isinstance(value.get("system_prompt"), str) and value["system_prompt"]:
        member = document.members.get("system_prompt")
        span = member.span if member is not None else document.span
        session.add_line(Line(0, span, {}, session.text), [Draft(dict(
            role="system", channel="final", content=value["system_prompt"], end="end"), span)], session.next_turn())
    items = _items(document)
    for number, item in enumerate(items, 1):
        if not isinstance(item.value, dict):
            session.diagnostics.append(make_diagnostic("W-JSON-SHAPE", item.span,
                                                       f"Message {number} is not a JSON object; it was skipped."))
            continue
        line = Line(number, item.span, item.value, session.text, dict(item.members))
        source = JsonObject(item.value, item.span, dict(item.members))
        role = item.value.get("role")
        if role in MESSAGE_CLAIMS:
            session.account(line, MESSAGE_CLAIMS[role], "message")
        if role == "assistant":
            found = _assistant(source, session)
        elif role == "user":
            found = _user(source, session)
        else:
            what = f"A message {type_phrase(role, item.value)}"
            found = [drafts.unclassified("unknown", role, item.value, item.span, "W-JSON-UNKNOWN-ITEM", what)]
        session.add_line(line, found, session.next_turn(), source.problems)


def _items(document: Node) -> list[Node]:
    """The message nodes: the `messages` member's items, or those read before a cut."""
    member = document.members.get("messages")
    if member is None:
        return list(document.items)
    return list(member.node.items) if isinstance(member.node.value, list) else []


def _blocks(source: JsonObject) -> list[tuple[Any, tuple[int, int]]]:
    content = source.get("content")
    if isinstance(content, str):
        return [({"type": "text", "text": content}, source.span_of("content"))]
    if not isinstance(content, list):
        source.problem("W-JSON-MISSING-CONTENT", "This message has no content.")
        return []
    node = source.node_of("content")
    spans = [item.span for item in node.items] if node is not None and node.items else []
    return [(block, spans[at] if at < len(spans) else source.span_of("content")) for at, block in enumerate(content)]


def _assistant(source: JsonObject, session: Session) -> list[Draft]:
    found: list[Draft] = []
    for block, span in _blocks(source):
        kind = block.get("type") if isinstance(block, dict) else None
        if kind == "text":
            text = block.get("text")
            found.append(Draft(dict(role="assistant", channel="final", content=text if isinstance(text, str)
                                    else flat_text(text), end="end"), span))
        elif kind in MEDIA_PARTS:
            found.append(Draft(dict(role="assistant", channel="final", content=placeholder(kind, block), end="end"),
                               span))
        else:
            reader = block_reader(kind)
            found.extend(reader(block, span, "assistant", session) if reader is not None else [
                drafts.unclassified("assistant", kind, block, span, "W-JSON-UNKNOWN-PART",
                                    f"A content block {type_phrase(kind, block)}")])
    return found or [Draft(dict(role="assistant", channel="final", content="", end="end"), source.span)]


def _user(source: JsonObject, session: Session) -> list[Draft]:
    found: list[Draft] = []
    for block, span in _blocks(source):
        kind = block.get("type") if isinstance(block, dict) else None
        if kind == "text":
            text = block.get("text") if isinstance(block.get("text"), str) else flat_text(block.get("text"))
            for run in user_runs(text):
                found.append(Draft(dict(role="user", channel="final", content=run.text, end="end",
                                        intent="context" if run.kind == "context" else None), span))
        elif kind == "file":
            path = block.get("path") if isinstance(block.get("path"), str) else "?"
            said = f'<file path="{path}">\n{flat_text(block.get("content"))}\n</file>'
            found.append(Draft(dict(role="user", channel="final", content=said, intent="context", end="end"), span))
        elif kind in MEDIA_PARTS:
            found.append(Draft(dict(role="user", channel="final", content=placeholder(kind, block), end="end"), span))
        elif kind == "tool_result":
            found.extend(BLOCKS["tool_result"](block, span, "user", session))
        else:
            reader = block_reader(kind)
            found.extend(reader(block, span, "user", session) if reader is not None else [
                drafts.unclassified("user", kind, block, span, "W-JSON-UNKNOWN-PART",
                                    f"A content block {type_phrase(kind, block)}")])
    return found or [Draft(dict(role="user", channel="final", content="", intent="context", end="end"),
                           source.span)]


def user_runs(text: str) -> list[Run]:
    """A user text of an SDK session as its injected and typed stretches."""
    runs = [Run("context", notice.group(0).strip()) for notice in MODE_NOTICE.finditer(text)]
    said = MODE_NOTICE.sub("", text)
    wrapped = USER_INPUT.match(said)
    inner = trim_newline(wrapped[1], lead=True, tail=True) if wrapped else said
    if not inner.strip():
        return runs
    synthetic = inner.strip() == CONTINUATION or inner.lstrip().startswith(SYNTHETIC_OPENINGS)
    return [*runs, Run("context" if synthetic else "typed", inner.strip() if synthetic else inner)]


def _finished(session: Session) -> tuple[tuple[Message, ...], dict[str, Any]]:
    messages, lines = session.messages, session.lines
    usages: list[Usage] = []
    models: dict[str, None] = {}
    done = []
    for index, (message, line) in enumerate(zip(messages, lines)):
        said = line.get("role") == "assistant"
        last_of_line = index + 1 == len(lines) or lines[index + 1] is not line
        usage = _usage(line.get("metrics")) if said and last_of_line else None
        if usage is not None:
            usages.append(usage)
        info = line.get("modelInfo")
        model = info.get("id") if said and isinstance(info, dict) and isinstance(info.get("id"), str) else None
        if model:
            models[model] = None
        details = rest_details(line.value, RESPONSE_DETAILS, _READ) if said and last_of_line else None
        meta = Meta(timestamp=milliseconds(line.get("ts")), model=model, usage=usage,
                    response=line.get("id") if said and isinstance(line.get("id"), str) else None, details=details)
        done.append(message if meta == NOTHING else replace_fields(message, meta=meta))
    return tuple(done), usage_totals(usages, models)


def _usage(metrics: Any) -> Usage | None:
    """A turn's `metrics`: `inputTokens` counts every input token, cache reads and writes included."""
    if not isinstance(metrics, dict):
        return None
    counts = {key: value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0
              for key, value in ((key, metrics.get(key)) for key in
                                 ("inputTokens", "outputTokens", "cacheReadTokens", "cacheWriteTokens"))}
    cost = metrics.get("cost")
    cost = float(cost) if isinstance(cost, (int, float)) and not isinstance(cost, bool) else None
    if not any(counts.values()) and cost is None:
        return None
    cached = counts["cacheReadTokens"] + counts["cacheWriteTokens"]
    return Usage(input=max(counts["inputTokens"] - cached, 0), output=counts["outputTokens"],
                 cache_read=counts["cacheReadTokens"], cache_write=counts["cacheWriteTokens"], cost=cost)
