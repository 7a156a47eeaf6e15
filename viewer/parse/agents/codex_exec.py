"""`codex exec --json` streams (codex-rs/exec's ThreadEvent, one per line), read as dialect `codex`.

- `thread.started` (`thread_id`): the header's session id. `turn.started`, `item.started` and `item.updated`
  repeat what the item's `item.completed` says: frame. An item that never completes (the stream was cut) is read
  from its last state, with E-STREAM-TRUNCATED.
- `item.completed` (`item`: `id`, `type` and its fields): `agent_message` (`text`) is the assistant's answer;
  `reasoning` (`text`) analysis; `command_execution` (`command`, `aggregated_output`, `exit_code`, `status`) a
  call to `shell` and its reply; `file_change` (`changes`, `status`) a call to `apply_patch` and its reply;
  `mcp_tool_call` (`server`, `tool`, `arguments`, `result`, `error`) a call to `<server>.<tool>` and its reply;
  `web_search` (`query`) a call; `todo_list` (`items`) the agent's plan, a status note; `error` (`message`) a
  system message. Any other type is hidden with W-JSON-UNKNOWN-ITEM.
- `turn.completed` (`usage`: `input_tokens`, `cached_input_tokens`, `output_tokens`): the turn's usage, on its
  last message. `turn.failed` and `error` (`message`): a system message.
The stream does not repeat the user's prompt: only what the agent did is in it.

Every line is accounted for (docs/architecture.md, "Nothing lost"): a command's exit code is its reply's details; a member no table here names is kept in the header's
`unread`. An item's started and updated states are what its completed state says as it was being written: read
only when it never completed.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from msgspec.structs import replace as replace_fields

from viewer.model import Diagnostic, Meta, Transcript, Usage
from viewer.model.collector import collector_paused
from viewer.parse.agents.lines import Claims, Line, claims, claims_by
from viewer.parse.agents.meta import openai_usage, usage_totals
from viewer.parse.agents.session import Session
from viewer.parse.common import Pending, shown_json
from viewer.parse.json import drafts
from viewer.parse.json.content_text import flat_text
from viewer.parse.json.source import JsonObject, Draft, type_phrase

ITEM_CLAIMS = claims_by("item.type", {
    "agent_message": ("item.text",),
    "reasoning": ("item.text",),
    "command_execution": ("item.command", "item.aggregated_output", "item.exit_code", "item.status"),
    "file_change": ("item.changes", "item.status"),
    "mcp_tool_call": ("item.server", "item.tool", "item.arguments", "item.result", "item.error", "item.status"),
    "web_search": ("item.query",),
    "todo_list": ("item.items",),
    "error": ("item.message",),
}, common=("type", "item.id", "item.type"))
"""What the reader reads of a completed item, by its type (an item of an unknown type is shown whole)."""
LINE_CLAIMS = claims_by("type", {
    "thread.started": ("thread_id",),
    "turn.started": (),
    "item.started": ("item",),
    "item.updated": ("item",),
    "turn.completed": ("usage.input_tokens", "usage.cached_input_tokens", "usage.output_tokens"),
    "turn.failed": ("error.message",),
    "error": ("message",),
}, common=("type",))
"""What it reads of any other line (an item's started and updated states are its completed one's)."""


def line_claims(line: Line) -> Claims:
    return ITEM_CLAIMS(line) if line.get("type") == "item.completed" else LINE_CLAIMS(line)


EXEC_TYPES = ("thread.started", "turn.started", "turn.completed", "turn.failed", "item.started", "item.updated",
              "item.completed", "error")


def parse_codex_exec(text: str, lines: Iterable[Line], unreadable: list[Diagnostic]) -> Transcript:
    """Read a `codex exec --json` stream (its lines already read)."""
    with collector_paused:  # see viewer/model/collector.py
        session = Session(text)
        header: dict[str, Any] = {"producer": "codex exec"}
        quiet: list[tuple[int, int]] = []
        usage: dict[int, Usage] = {}
        details: dict[int, dict[str, Any]] = {}
        """Message index -> what its item said beside it."""
        pending: dict[str, Line] = {}
        """Items started or updated and not completed yet, by id: their last state."""
        turn: int | None = None
        for line in session.accounted(lines, line_claims):
            kind = line.get("type")
            item = line.get("item")
            if kind in ("item.started", "item.updated") and isinstance(item, dict):
                pending[str(item.get("id"))] = line
                quiet.append(line.span)
            elif kind == "item.completed" and isinstance(item, dict):
                pending.pop(str(item.get("id")), None)
                turn = session.next_turn() if turn is None else turn
                _item(session, line, turn, details)
            elif kind == "thread.started":
                if isinstance(line.get("thread_id"), str):
                    header.setdefault("session_id", line.get("thread_id"))
                quiet.append(line.span)
            elif kind == "turn.started":
                turn = session.next_turn()
                quiet.append(line.span)
            elif kind == "turn.completed":
                found = openai_usage(line.get("usage"))
                if found is not None and session.messages:
                    usage[len(session.messages) - 1] = found
                quiet.append(line.span)
            elif kind in ("turn.failed", "error"):
                error = line.get("error") if kind == "turn.failed" else line.value
                message = error.get("message") if isinstance(error, dict) else error
                session.add_line(line, [_system(message, kind)], session.next_turn())
            else:
                what = f"A line {type_phrase(kind, line.value)}"
                session.shown_whole(line)
                session.add_line(line, [drafts.unclassified("unknown", kind, line.value, line.span,
                                                            "W-JSON-UNKNOWN-ITEM", what)], session.next_turn())
        for line in pending.values():
            quiet.remove(line.span)
            turn = session.next_turn() if turn is None else turn
            _item(session, line, turn, details, cut=True)
        messages = tuple(_with_meta(session, usage, details))
        diagnostics = [*unreadable, *session.diagnostics]
        return Transcript(dialect="codex", source=text, messages=messages, diagnostics=tuple(diagnostics),
                          header=session.with_unread(header | usage_totals(usage.values())),
                          frame=session.frame(quiet, diagnostics))


def _item(session: Session, line: Line, turn: int, details: dict[int, dict[str, Any]], cut: bool = False) -> None:
    source, found = session.read(line, "item", lambda source: _item_pieces(source, session))
    problems = list(source.problems)
    if cut:
        problems.append(Pending("E-STREAM-TRUNCATED", "This item never completed: the stream ends before it; its "
                                                      "last state is shown.", line.span))
    first = len(session.messages)
    noted = [piece.fields.pop("details", None) for piece in found]
    session.add_line(line, found, turn, problems)
    for offset, said in enumerate(noted):
        if said:
            details[first + offset] = said


def _item_pieces(source: JsonObject, session: Session) -> list[Draft]:
    kind, item_id = source.get("type"), source.text("id")
    if kind == "agent_message":
        return [Draft(dict(role="assistant", channel="final", content=source.text("text") or "", end="end"),
                      source.span_of("text"))]
    if kind == "reasoning":
        return [drafts.analysis("assistant", source.text("text") or "", source.span_of("text"))]
    if kind == "command_execution":
        exit_code = source.get("exit_code")
        return _call_and_reply(source, "shell", {"command": source.get("command")}, "command",
                               flat_text(source.get("aggregated_output")), "aggregated_output",
                               _failed(source, exit_code not in (0, None)),
                               {"exit_code": exit_code} if exit_code is not None else None)
    if kind == "file_change":
        return _call_and_reply(source, "apply_patch", {"changes": source.get("changes")}, "changes",
                               f"status: {source.text('status') or 'unknown'}", "status", _failed(source, False))
    if kind == "mcp_tool_call":
        address = f"{source.text('server') or 'mcp'}.{source.text('tool') or 'tool'}"
        result = source.get("error") or source.get("result")
        return _call_and_reply(source, address, source.get("arguments"), "arguments", flat_text(result),
                               "error" if source.get("error") else "result", _failed(source, bool(source.get("error"))))
    if kind == "web_search":
        return [drafts.call("web_search", shown_json({"query": source.get("query")}), source.span_of("query"),
                            item_id)]
    if kind == "todo_list":
        return [Draft(dict(role="assistant", channel="commentary", intent="status",
                           content=shown_json(source.get("items")), end="end"), source.span_of("items"))]
    if kind == "error":
        return [_system(source.get("message"), "error")]
    return [drafts.unclassified("assistant", kind, source.value, source.span, "W-JSON-UNKNOWN-ITEM",
                                f"An item {type_phrase(kind, source.value)}")]


def _call_and_reply(source: JsonObject, address: str, arguments: Any, arguments_key: str, result: str,
                    result_key: str, failed: bool, details: dict[str, Any] | None = None) -> list[Draft]:
    item_id = source.text("id")
    session_call = drafts.call(address, shown_json(arguments), source.span_of(arguments_key), item_id)
    reply = drafts.reply(address, result, source.span_of(result_key), item_id)
    if details:
        reply.fields["details"] = details
    if failed:
        reply.problems.append(Pending("W-TOOL-ERROR", f"The tool {address} reported a failure.",
                                      source.span_of(result_key)))
    return [session_call, reply]


def _failed(source: JsonObject, failed: bool) -> bool:
    return failed or source.get("status") in ("failed", "declined")


def _system(value: Any, name: str) -> Draft:
    return Draft(dict(role="system", name=name, channel="final", content=flat_text(value), end="end"), None)


def _with_meta(session: Session, usage: dict[int, Usage], details: dict[int, dict[str, Any]]):
    for message in session.messages:
        found, said = usage.get(message.index), details.get(message.index)
        yield message if found is None and said is None else replace_fields(message, meta=Meta(usage=found,
                                                                                                details=said))
