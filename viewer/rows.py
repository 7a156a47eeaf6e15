"""Conversions between the model and database rows, both ways.

`*_rows` turn an analysis into rows to insert; `record`, `entry` and `located` turn rows back into frozen data.
"""
from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any, Iterator

from sqlalchemy import Column

from viewer.ingest import Analysis
from viewer.model import Diagnostic, Message, Segment
from viewer.schema import transcripts


@dataclass(frozen=True, slots=True)
class Record:
    """A stored transcript's metadata and counts (no raw bytes, no messages)."""

    id: str
    name: str | None
    dialect: str
    requested_dialect: str
    created_at: dt.datetime
    debug_allowed: bool
    manage_hash: str | None
    is_sample: bool
    parser_version: str
    header: dict[str, Any]
    size: int
    message_count: int
    visible_count: int
    hidden_count: int
    diagnostic_count: int
    error_count: int
    pair_count: int
    deleted: bool


@dataclass(frozen=True, slots=True)
class Entry:
    """A stored message with the default view's decision and its place in the source."""

    message: Message
    show_as: str
    """The default view's treatment: `message` `preamble` `marker` `hidden`."""
    rank: int | None
    """Position among the default view's entries; None when the default view hides it."""
    rule: str
    reason: str
    pair: int | None
    """Pair number shared by a call and its reply."""
    partner: int | None
    """Index of the other half of the pair."""
    line: int
    column: int
    source: str
    """The exact source text of the message."""


@dataclass(frozen=True, slots=True)
class Located:
    """A diagnostic with its 1-based line and column."""

    diagnostic: Diagnostic
    line: int
    column: int


def summary(analysis: Analysis) -> dict[str, Any]:
    transcript = analysis.transcript
    hidden = sum(1 for decision in analysis.decisions if decision.show_as == "hidden")
    return {
        "dialect": transcript.dialect,
        "parser_version": analysis.parser_version,
        "header": json.dumps(transcript.header, default=str, ensure_ascii=False),
        "message_count": len(transcript.messages),
        "visible_count": len(transcript.messages) - hidden,
        "hidden_count": hidden,
        "diagnostic_count": len(transcript.diagnostics),
        "error_count": sum(1 for diagnostic in transcript.diagnostics if diagnostic.severity == "error"),
        "pair_count": len(transcript.pairs),
    }


def message_rows(id: str, analysis: Analysis) -> Iterator[dict[str, Any]]:
    transcript = analysis.transcript
    decisions = {decision.index: decision for decision in analysis.decisions}
    partner: dict[int, tuple[int, int]] = {}
    for number, pair in enumerate(transcript.pairs, start=1):
        partner[pair.call] = (number, pair.reply)
        partner[pair.reply] = (number, pair.call)
    rank = 0
    for message in transcript.messages:
        decision = decisions.get(message.index)
        show_as = decision.show_as if decision else "hidden"
        line, column = transcript.position(message.span[0])
        number, other = partner.get(message.index, (None, None))
        yield {
            "transcript_id": id, "idx": message.index, "vrank": None if show_as == "hidden" else rank,
            "turn": message.turn, "role": message.role, "name": message.name, "recipient": message.recipient,
            "channel": message.channel, "channel_explicit": message.channel_explicit,
            "content_type": message.content_type, "constrained": message.constrained, "intent": message.intent,
            "call_id": message.call_id, "end": message.end,
            "span_start": message.span[0], "span_end": message.span[1],
            "header_start": message.header[0] if message.header else None,
            "header_end": message.header[1] if message.header else None,
            "line": line, "col": column, "content": message.content,
            "segments": segments_json(message),
            "source": transcript.text(message.span),
            "show_as": show_as, "rule": decision.rule if decision else "unknown",
            "reason": decision.reason if decision else "The policy gave no decision for this message.",
            "pair": number, "partner": other,
        }
        if show_as != "hidden":
            rank += 1


def segments_json(message: Message) -> str:
    if not message.segments:  # most messages; json.dumps is a third of the row-building time
        return "[]"
    return json.dumps([segment.to_json() for segment in message.segments], ensure_ascii=False)


def diagnostic_rows(id: str, analysis: Analysis) -> Iterator[dict[str, Any]]:
    transcript = analysis.transcript
    for seq, diagnostic in enumerate(transcript.diagnostics):
        line, column = transcript.position(diagnostic.span[0])
        yield {"transcript_id": id, "seq": seq, "code": diagnostic.code, "severity": diagnostic.severity,
               "message": diagnostic.message, "span_start": diagnostic.span[0], "span_end": diagnostic.span[1],
               "line": line, "col": column, "message_index": diagnostic.message_index}


def pair_rows(id: str, analysis: Analysis) -> Iterator[dict[str, Any]]:
    for number, pair in enumerate(analysis.transcript.pairs, start=1):
        yield {"transcript_id": id, "number": number, "call": pair.call, "reply": pair.reply, "by": pair.by}


def record_columns() -> list[Column]:
    return [column for column in transcripts.c if column.name != "raw"]


def record(row: Any) -> Record:
    data = row._asdict()
    deleted_at = data.pop("deleted_at")
    data.pop("sha256")
    created = data["created_at"]
    if created.tzinfo is None:  # SQLite returns naive datetimes
        data["created_at"] = created.replace(tzinfo=dt.timezone.utc)
    return Record(**{**data, "header": json.loads(data["header"] or "{}"), "deleted": deleted_at is not None})


def entry(row: Any) -> Entry:
    message = Message(
        index=row.idx, turn=row.turn, role=row.role, content=row.content, span=(row.span_start, row.span_end),
        name=row.name, recipient=row.recipient, channel=row.channel, channel_explicit=row.channel_explicit,
        content_type=row.content_type, constrained=row.constrained, intent=row.intent, call_id=row.call_id,
        end=row.end, segments=tuple(Segment(kind=s["kind"], text=s["text"], span=tuple(s["span"]))
                                    for s in json.loads(row.segments)),
        header=(row.header_start, row.header_end) if row.header_start is not None else None)
    return Entry(message=message, show_as=row.show_as, rank=row.vrank, rule=row.rule, reason=row.reason, pair=row.pair,
                 partner=row.partner, line=row.line, column=row.col, source=row.source)


def located(row: Any) -> Located:
    diagnostic = Diagnostic(code=row.code, severity=row.severity, message=row.message,
                            span=(row.span_start, row.span_end), message_index=row.message_index)
    return Located(diagnostic=diagnostic, line=row.line, column=row.col)
