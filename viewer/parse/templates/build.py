"""Turns made into messages: what every family's body reader uses.

A family's reader gets each turn (turns.py) and adds its messages in source order through a `TurnBuilder`:
plain stretches of the turn's role, reasoning, calls, replies. The builder keeps the rules every dialect keeps:
a turn gives at least one message (so its markers are inside a message's span), its first message also spans
the opener and its last the closer, and a turn's diagnostics belong to the message holding their last character.
"""
from __future__ import annotations

import bisect
from typing import Any, Callable

from viewer.model import Diagnostic, Message, Segment, Span, Transcript
from viewer.model.drafts import new_message, new_segment
from viewer.parse.common import Pending, collector_paused, trimmed_span
from viewer.parse.options import ParseOptions
from viewer.parse.templates.turns import Grammar, Turn, read_turns


class TurnBuilder:
    """The messages of one turn as its body is read."""

    def __init__(self, source: str, turn: Turn, role: str) -> None:
        self.source = source
        self.turn = turn
        self.role = role
        """The role its plain text has (`model` turns are `assistant`)."""
        self.drafts: list[dict[str, Any]] = []
        self.notes: list[Pending] = []

    def add(self, span: Span, content: str, **fields: Any) -> None:
        """A message of this turn (role the turn's unless given)."""
        fields.setdefault("role", self.role)
        self.drafts.append({"span": span, "content": content, **fields})

    def text(self, start: int, end: int, **fields: Any) -> None:
        """The text in [start, end) without its blank edges, as a message of the turn's role; nothing when blank
        (the blank lies inside the turn's span either way)."""
        span = trimmed_span(self.source, start, end)
        if span is not None:
            self.add(span, self.source[span[0]:span[1]], **fields)

    def note(self, code: str, message: str, span: Span) -> None:
        self.notes.append(Pending(code, message, span))


BodyReader = Callable[[TurnBuilder, dict[str, Any]], None]
"""Reads one turn's body into messages; the dict holds what the family keeps across turns (declared tools under
`tools`, and anything of its own)."""
PlainTest = Callable[[str, Turn, str, dict[str, Any]], bool]
"""Whether a whole turn (text, turn, role, state) is one plain message of its role: the body reader would make
exactly that of it. Most turns of a long transcript are; they are made directly, three times faster."""


def read_transcript(text: str, options: ParseOptions, dialect: str, grammar: Grammar,
                    roles: dict[str, str], read_body: BodyReader, unknown_role: str, plain: PlainTest) -> Transcript:
    """A text of one family read into the model: its turns cut by `grammar`, each read by `read_body` unless
    `plain` says it is one plain message. `roles` maps the grammar's turn kinds to roles; a kind not in it is
    kept as written with W-UNKNOWN-ROLE, whose message `unknown_role` gives."""
    with collector_paused:  # see viewer/parse/common.py: a big transcript's objects all live on
        return _read(text, options, dialect, grammar, roles, read_body, unknown_role, plain)


def _read(text: str, options: ParseOptions, dialect: str, grammar: Grammar, roles: dict[str, str],
          read_body: BodyReader, unknown_role: str, plain: PlainTest) -> Transcript:
    primed = options.primed_role
    first = next((kind for kind, role in roles.items() if role == primed), primed) if primed else None
    cut = read_turns(text, grammar, first)
    messages: list[Message] = []
    diagnostics: list[Diagnostic] = [note.at(None) for note in cut.notes]
    state: dict[str, Any] = {"tools": {}}
    for number, turn in enumerate(cut.turns):
        role = roles.get(turn.kind)
        if role is not None and turn.end == "end" and plain(text, turn, role, state):
            span = trimmed_span(text, *turn.body)
            messages.append(new_message(len(messages), number, role, text[span[0]:span[1]] if span else "",
                                        turn.span, None, None, "final", False, None, False, None, None, "end", (),
                                        turn.header))
            continue
        builder = TurnBuilder(text, turn, role or turn.kind)
        if role is None:
            builder.note("W-UNKNOWN-ROLE", unknown_role.format(role=turn.kind), turn.header or turn.span)
        read_body(builder, state)
        _finish_turn(builder, number, messages, diagnostics, [*turn.notes, *builder.notes])
    diagnostics.sort(key=lambda d: (d.span[0], d.span[1]))
    return Transcript(dialect=dialect, source=text, messages=tuple(messages), diagnostics=tuple(diagnostics),
                      tools=state["tools"], frame=tuple(cut.frame))


def _finish_turn(builder: TurnBuilder, number: int, messages: list[Message], diagnostics: list[Diagnostic],
                 notes: list[Pending]) -> None:
    turn, drafts = builder.turn, builder.drafts
    if not drafts:
        builder.add(turn.body, "")
    elif len(drafts) > 1:
        drafts.sort(key=_span_of)
    first, last = drafts[0], drafts[-1]
    first["span"] = (turn.span[0], first["span"][1])
    first.setdefault("header", turn.header)
    last["span"] = (last["span"][0], turn.span[1])
    if turn.end == "eof" and last.get("end") != "call":  # a cut call is still a call, as in ChatML
        last["end"] = "eof"
    elif turn.end == "call" and last.get("recipient") is None:
        last["end"] = "end"  # `<|eom_id|>` after text that calls nothing
    first_index = len(messages)
    for offset, draft in enumerate(drafts):
        get = draft.get
        messages.append(new_message(
            first_index + offset, number, draft["role"], draft["content"], draft["span"], get("name"),
            get("recipient"), get("channel", "final"), False, get("content_type"), False, None, get("call_id"),
            get("end", "end"), get("segments", ()), get("header")))
    if not notes:
        return
    starts = [draft["span"][0] for draft in drafts]
    for note in notes:
        last_character = max(note.span[1] - 1, note.span[0])
        diagnostics.append(note.at(first_index + max(bisect.bisect_right(starts, last_character) - 1, 0)))


def _span_of(draft: dict[str, Any]) -> Span:
    return draft["span"]


def segment(kind: str, text: str, span: Span) -> tuple[Segment, ...]:
    """One segment, as the `segments` of a message."""
    return (new_segment(kind, text, span),)
