"""Turns made into messages: what every family's body reader uses.

A family's reader gets each turn (turns.py) and adds its messages in source order through a `TurnBuilder`:
plain stretches of the turn's role, reasoning, calls, replies. The builder keeps the rules every dialect keeps:
a turn gives at least one message (so its markers are inside a message's span), its first message also spans
the opener and its last the closer, and a turn's diagnostics belong to the message holding their last character.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Any, Callable

from viewer.model import Diagnostic, Message, Segment, Span, Transcript
from viewer.model.collector import collector_paused
from viewer.parse.chatml.scanning import UNREADABLE, whole_json
from viewer.parse.common import Pending, trim_newline, trimmed_span
from viewer.parse.options import ParseOptions
from viewer.parse.patterns import always_matching
from viewer.parse.templates.turns import Grammar, Turn, read_turns


class TurnBuilder:
    """The messages of one turn as its body is read."""

    def __init__(self, source: str, turn: Turn, role: str) -> None:
        self.source = source
        self.turn = turn
        self.role = role
        """The role its plain text has (`model` turns are `assistant`)."""
        self.drafts: list[list[Any]] = []
        """Each message's fields in `add`'s order, span first (a list: the span grows to the turn's edges)."""
        self.notes: list[Pending] = []

    def add(self, span: Span, content: str, *, role: str | None = None, name: str | None = None,
            recipient: str | None = None, channel: str = "final", content_type: str | None = None,
            call_id: str | None = None, end: str = "end", segments: tuple[Segment, ...] = ()) -> None:
        """A message of this turn (role the turn's unless given)."""
        self.drafts.append([span, content, role or self.role, name, recipient, channel, content_type, call_id, end,
                            segments])

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
exactly that of it. Most turns of a long transcript are; they are made directly, without a builder."""


@dataclass(frozen=True, slots=True)
class Family:
    """What a family's module tells the shared reader."""

    dialect: str
    grammar: Grammar
    roles: dict[str, str]
    """The grammar's turn kinds and the roles they are; a kind not here is kept as written (W-UNKNOWN-ROLE)."""
    read_body: BodyReader
    plain: PlainTest
    unknown_role: str
    """The W-UNKNOWN-ROLE message, with `{role}`."""
    reasoning: tuple[str, str, str] | None = None
    """(opener, closer, call token) of a family whose answers start with reasoning: an answer that is such a
    block and then text with no call token is made directly, as `pieces.reasoning` and `TurnBuilder.text` would."""
    reply: Callable[[str, Turn], str | None] | None = None
    """The segment kind of a tool turn that is one reply of its whole body (made directly, as `toolkit.reply`
    would), or None for a turn the body reader must read."""


def read_transcript(text: str, options: ParseOptions, family: Family) -> Transcript:
    """A text of one family read into the model: its turns cut by its grammar, each made directly when it is
    plain (`Family.plain`, `Family.reasoning`), else read by its body reader."""
    with collector_paused:  # see viewer/parse/common.py: a big transcript's objects all live on
        return _read(text, options, family)


def _read(text: str, options: ParseOptions, family: Family) -> Transcript:
    primed, roles = options.primed_role, family.roles
    first = next((kind for kind, role in roles.items() if role == primed), primed) if primed else None
    cut = read_turns(text, family.grammar, first)
    messages: list[Message] = []
    diagnostics: list[Diagnostic] = [note.at(None) for note in cut.notes]
    state: dict[str, Any] = {"tools": {}}
    plain, add = family.plain, messages.append
    for number, turn in enumerate(cut.turns):
        kind, span, header, (start, end), how, _ = turn  # unpacked: a named tuple's fields are slower to read
        role = roles.get(kind)
        if role is not None and how == "end":
            if plain(text, turn, role, state):  # inline: most turns of a long transcript
                header_start, header_end = header or NO_HEADER
                add(Message(len(messages), number, role, text[start:end].strip(), span[0], span[1], None, None,
                            "final", False, None, False, None, None, "end", (), header_start, header_end))
                continue
            if _made_directly(text, turn, role, number, messages, family):
                continue
        builder = TurnBuilder(text, turn, role or turn.kind)
        if role is None:
            builder.note("W-UNKNOWN-ROLE", family.unknown_role.format(role=turn.kind), turn.header or turn.span)
        family.read_body(builder, state)
        _finish_turn(builder, number, messages, diagnostics, [*turn.notes, *builder.notes])
    diagnostics.sort(key=lambda d: (d.span[0], d.span[1]))
    return Transcript(dialect=family.dialect, source=text, messages=tuple(messages), diagnostics=tuple(diagnostics),
                      tools=state["tools"], frame=tuple(cut.frame))


def _made_directly(text: str, turn: Turn, role: str, number: int, messages: list[Message], family: Family) -> bool:
    """Make the messages of an answer that is reasoning and plain text, as the body reader would; False for any
    other turn."""
    if role == "tool" and family.reply is not None:
        return _reply_made(text, turn, number, messages, family.reply(text, turn))
    if family.reasoning is None or role != "assistant":
        return False
    opener, closer, call_token = family.reasoning
    start, end = turn.body
    lead = LEAD.match(text, start, end).end()
    close = text.find(closer, lead, end) if text.startswith(opener, lead, end) else -1
    if close == -1 or text.find(call_token, close, end) != -1:
        return False
    block_end = close + len(closer)
    inner = trim_newline(text[lead + len(opener):close], lead=True, tail=True)
    answer = trimmed_span(text, block_end, end)
    thought = (turn.span[0], turn.span[1] if answer is None else block_end)
    header_start, header_end = turn.header or NO_HEADER
    messages.append(Message(len(messages), number, "assistant", inner, thought[0], thought[1], None, None, "analysis",
                            False, None, False, None, None, "end", (Segment("think", inner, lead, block_end),),
                            header_start, header_end))
    if answer is not None:
        messages.append(Message(len(messages), number, role, text[answer[0]:answer[1]], answer[0], turn.span[1]))
    return True


def _finish_turn(builder: TurnBuilder, number: int, messages: list[Message], diagnostics: list[Diagnostic],
                 notes: list[Pending]) -> None:
    turn, drafts = builder.turn, builder.drafts
    if not drafts:
        builder.add(turn.body, "")
    elif len(drafts) > 1:
        drafts.sort(key=_span_of)
    first, last = drafts[0], drafts[-1]
    first[_SPAN] = (turn.span[0], first[_SPAN][1])
    last[_SPAN] = (last[_SPAN][0], turn.span[1])
    if turn.end == "eof" and last[_END] != "call":  # a cut call is still a call, as in ChatML
        last[_END] = "eof"
    elif turn.end == "call" and last[_RECIPIENT] is None:
        last[_END] = "end"  # `<|eom_id|>` after text that calls nothing
    first_index = len(messages)
    for offset, (span, content, role, name, recipient, channel, content_type, call_id, end, segments) in \
            enumerate(drafts):
        header_start, header_end = turn.header if offset == 0 and turn.header else NO_HEADER
        messages.append(Message(first_index + offset, number, role, content, span[0], span[1], name, recipient,
                                channel, False, content_type, False, None, call_id, end, segments, header_start,
                                header_end))
    if not notes:
        return
    starts = [draft[_SPAN][0] for draft in drafts]
    for note in notes:
        last_character = max(note.span[1] - 1, note.span[0])
        diagnostics.append(note.at(first_index + max(bisect.bisect_right(starts, last_character) - 1, 0)))


def _reply_made(text: str, turn: Turn, number: int, messages: list[Message], kind: str | None) -> bool:
    if kind is None:
        return False
    start, end = turn.body
    content = text[start:end].strip()
    content_type = None if whole_json(content) is UNREADABLE else "json"
    header_start, header_end = turn.header or NO_HEADER
    messages.append(Message(len(messages), number, "tool", content, turn.span[0], turn.span[1], None, "assistant",
                            "commentary", False, content_type, False, None, None, "end",
                            (Segment.of(kind, content, turn.body),), header_start, header_end))
    return True


_SPAN, _RECIPIENT, _END = 0, 4, 8
"""Positions in a draft (`TurnBuilder.add`)."""


def _span_of(draft: list[Any]) -> Span:
    return draft[_SPAN]


LEAD = always_matching(r"\s*")
"""The blank at the start of a body: `LEAD.match(text, start, end).end()` finds its first character without
copying the body."""


NO_HEADER = (None, None)
"""The header's ends of a message without one."""


def segment(kind: str, text: str, span: Span) -> tuple[Segment, ...]:
    """One segment, as the `segments` of a message."""
    return (Segment(kind, text, span[0], span[1]),)
