"""Cursor's agent transcripts (`~/.cursor/projects/<project>/agent-transcripts/<id>/<id>.jsonl`, written by the
agent CLI and newer editor builds), dialect `cursor-agent`: one message per line, `{"role", "message":
{"content": [Anthropic-like blocks]}}`, and `{"type": "turn_ended", "status"}` after each turn. Cursor is closed
source; the shape is what the tools that read these files agree on.

- A user line's text wraps what the user typed in `<user_query>`; everything around it (`<timestamp>`,
  `<user_info>`, `<rules>`, skills) is context the agent added.
- An assistant line: text (a preamble when the same line calls a tool, else the answer), `tool_use` blocks (calls,
  without ids), `thinking` where a build writes it. The transcripts record no tool results: calls stay
  unanswered.
- `turn_ended`: frame; `aborted` is W-SESSION-INTERRUPTED, `error` a hidden system message with W-API-ERROR.
  `metadata` lines are frame, what they hold kept in the header's `metadata`; any other line is a hidden message
  with W-JSON-UNKNOWN-ITEM.

Every line is accounted for (docs/architecture.md, "Nothing lost"): a member no table here names is kept in the
header's `unread`.

A transcript is read a line at a time by `CursorAgentReader` (viewer/parse/agents/online.py): whole by
`parse_cursor_agent`, and a big upload a piece at a time, in memory that follows the piece (no line waits for a
later one).
"""
from __future__ import annotations

import re
from typing import Any

from viewer.model import Transcript
from viewer.parse.agents.lines import Claims, Line, claims, claims_by
from viewer.parse.agents.online import Ended, LineReader, read_whole
from viewer.parse.agents.records import anthropic_blocks, member_object, read_record
from viewer.parse.agents.session import Session
from viewer.parse.common import Pending, shown_json
from viewer.parse.json import drafts
from viewer.parse.json.parts import text_pieces
from viewer.parse.json.source import Draft, JsonObject, type_phrase
from viewer.parse.options import ParseOptions

_QUERY = re.compile(r"<user_query>\s*(.*?)\s*</user_query>", re.DOTALL)
ANSWER = dict(role="assistant", channel="final", end="end")
MESSAGE_CLAIMS = claims("role", "message.role", "message.content")
"""What the reader reads of a message line (its blocks by their kinds)."""
EVENT_CLAIMS = claims_by("type", {"turn_ended": ("status", "error"), "metadata": ("*",)}, common=("type",))
"""What it reads of any other line: how a turn ended; a metadata line is kept whole in the header."""


def _claims(line: Line) -> Claims:
    return MESSAGE_CLAIMS if line.get("role") in ("user", "assistant") and isinstance(line.get("message"), dict) \
        else EVENT_CLAIMS(line)


def parse_cursor_agent(text: str, options: ParseOptions) -> Transcript:
    """Read a Cursor agent transcript. Never raises on user input."""
    return read_whole(CursorAgentReader(), text)


class CursorAgentReader(LineReader):
    """Reads a transcript's lines in order into the session. Nothing a line says is decided by a later one (the
    calls have no ids and no results), so the reader keeps only the header's metadata lines."""

    dialect = "cursor-agent"

    def __init__(self, session: Session | None = None) -> None:
        # The session keeps nothing of a line once read: no later line reads an earlier one.
        super().__init__(session or Session("", kept=lambda value: {}))
        self.header: dict[str, Any] = {"producer": self.dialect}

    def line(self, line: Line) -> None:
        self.session.account(line, _claims(line))
        value = line.value
        role, kind = value.get("role"), value.get("type")
        if role in ("user", "assistant") and isinstance(value.get("message"), dict):
            source, found = read_record(line.text, line, lambda source: _message_pieces(source, role, self.session))
            self.session.add_line(line, found, self.session.next_turn(), source.problems)
            if not found:
                self.quiet.append(line.span)
        elif kind == "turn_ended":
            self._turn_ended(line)
        elif kind == "metadata":
            self.quiet.append(line.span)
            kept = {key: item for key, item in value.items() if key != "type"}
            if kept:
                self.header.setdefault("metadata", []).append(kept)
        else:
            what = f"A line {type_phrase(kind if kind is not None else role, value)}"
            self.session.shown_whole(line)
            self.session.add_line(line, [drafts.unclassified("unknown", kind, value, line.span, "W-JSON-UNKNOWN-ITEM",
                                                             what)], self.session.next_turn())

    def _turn_ended(self, line: Line) -> None:
        session, status = self.session, line.value.get("status")
        if status == "error":
            error = line.value.get("error")
            text = error if isinstance(error, str) else shown_json(error) if error is not None else "The turn failed."
            session.add_line(line, [Draft(dict(role="system", name="error", channel="final", content=text,
                                               end="end"), None)], session.next_turn(),
                             [Pending("W-API-ERROR", f"The turn ended with an error: {text[:200]}", line.span)])
            return
        self.quiet.append(line.span)
        if status == "aborted":
            session.add_line(line, [], session.turn, [Pending(
                "W-SESSION-INTERRUPTED", "The user stopped the agent here (the turn was aborted).", line.span)])

    def header_now(self) -> dict[str, Any]:
        return dict(self.header)

    def end(self) -> Ended:
        return Ended(self.session.with_unread(self.header))


def _message_pieces(source: JsonObject, role: str, session: Session) -> list[Draft]:
    message = member_object(source, "message")
    assert message is not None  # a message line is read only when its message is an object
    texts = _user_texts if role == "user" else _answer
    found = anthropic_blocks(message, "content", role, session, texts)
    source.problems.extend(message.problems)
    return found


def _answer(text: str, span) -> list[Draft]:
    return text_pieces(text, ANSWER, span) if text.strip() else []


def _user_texts(text: str, span) -> list[Draft]:
    """What the user typed, inside `<user_query>`; what the agent wrote around it, context."""
    query = _QUERY.search(text)
    if query is None:
        return [_said(text, span, None)] if text.strip() else []
    rest = (text[:query.start()] + text[query.end():]).strip()
    found = [_said(query[1], span, None)]
    if rest:
        found.append(_said(rest, span, "context"))
    return found


def _said(text: str, span, intent: str | None) -> Draft:
    return Draft(dict(role="user", channel="final", content=text, end="end", intent=intent), span)
