"""Numbering an agent session's messages: the pieces each line gives (read by the JSON package's shape
readers) become messages of a turn, spanning their line when a line gives one, with the line they came from
remembered; and the text an assistant wrote before a tool call of the same response becomes its preamble.

A session read a piece at a time (viewer/parse/agents/online.py) hands its older messages on as it goes: only
the messages not yet handed on are held (`Held`), and a change to one handed on already is kept as an amendment
(`amend`), which whoever stored it applies there."""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeAlias

from msgspec.structs import replace as replace_fields

from viewer.model import Diagnostic, Message, Segment, Span, make_diagnostic
from viewer.parse.agents.held import Held
from viewer.parse.agents.lines import Claims, Line, unclaimed
from viewer.parse.json.builder import MessageBuilder
from viewer.parse.json.positions import read_value
from viewer.parse.json.source import JsonObject, Draft
from viewer.parse.json.unpacked import frame

Change: TypeAlias = Callable[[Message], Message]
"""A change to a message made after it was numbered (its preamble channel, its metadata, its branch)."""

LOCATED_DEPTH = 2
"""Levels of a message object read with spans when it gives several messages (its members and its content's
blocks)."""


class Session(MessageBuilder):
    """The messages of one session log, in order, with the line each came from."""

    def __init__(self, text: str, kept: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> None:
        super().__init__(text)
        self.messages: Held[Message] = Held()  # type: ignore[assignment]  # list's interface, by index
        self.lines: Held[Line] = Held()
        """The line of each message, by index."""
        self.amended: dict[int, list[Change]] = {}
        """Changes to messages handed on already, by index, in the order they were made."""
        self._kept = kept
        """What of a line's value is kept once its messages are read (what the metadata, the tree and the
        threads read later): a big session's decoded lines are most of the memory its parse takes."""
        self._said: dict[int, list[int]] = {}
        """Per turn: its assistant answers that no call has followed yet."""
        self._unread_at: dict[Span, tuple[int, int]] = {}
        """The W-JSON-UNREAD diagnostic of each line that has one, by the line's span: its place in `diagnostics`
        (given the line's first message when the line gives one) and its entry's in `unread`."""

    # ---- the accounting rule ----------------------------------------------------------------------------------

    def accounted(self, lines: Iterable[Line], claims_of: Callable[[Line], Claims], where: str = "line") \
            -> Iterator[Line]:
        """The lines, each accounted for (`account`) before its reader reads it (a session keeps nothing of a
        line once read)."""
        for line in lines:
            self.account(line, claims_of(line), where)
            yield line

    def account(self, line: Line, claimed: Claims, where: str = "line") -> None:
        """The accounting rule of the JSON readers for one line (or record) of a session: what of it its reader
        does not read (`claimed`: what it reads, shows in another form or knowingly leaves in the source, such as
        a type tag) is kept raw in the header's `unread` under the line's number, and named by W-JSON-UNREAD."""
        self.keep_left(line, unclaimed(line.value, claimed), where)

    def keep_left(self, line: Line, left: dict[str, Any], where: str = "line") -> None:
        """`account` of what a reader found unread itself (a record whose items are claimed by their kinds, each
        item's rest under its place, `{"response": {"[3]": …}}`)."""
        if not left:
            return
        self._unread_at[line.span] = (len(self.diagnostics), len(self.unread))
        self.unread.append({where: line.number, "members": left})
        named = _names(left)
        names = ", ".join(repr(name) for name in named[:NAMED]) + (" …" if len(named) > NAMED else "")
        plural = len(named) > 1
        self.diagnostics.append(make_diagnostic(
            "W-JSON-UNREAD", line.span,
            f"The member{'s' if plural else ''} {names} of {where} {line.number} {'are' if plural else 'is'} not "
            "read by the importer; kept as raw JSON in the header's 'unread'."))

    def shown_whole(self, line: Line) -> None:
        """A line its reader shows whole (an event it does not know, as a hidden message of its raw JSON), before
        the line's messages are added: nothing of it is unread, so what `account` kept of it goes."""
        places = self._unread_at.pop(line.span, None)
        if places is None:
            return
        diagnostic, entry = places
        del self.diagnostics[diagnostic]
        del self.unread[entry]
        self._unread_at = {span: (at - (at > diagnostic), kept - (kept > entry))
                           for span, (at, kept) in self._unread_at.items()}

    def read(self, line: Line, key: str, reader) -> tuple[JsonObject, list[Draft]]:
        """The object under `key` of a line read by `reader`, first as standing for the whole line; read again
        with the spans of its members and blocks when it gives several messages, which then span their own
        block (most lines give one, whose span and whose diagnostics' are the line's: reading spans costs ten
        times more)."""
        source = JsonObject(line.value[key], line.span)
        found = reader(source)
        if len(found) > 1:
            located = read_value(line.text, line.members()[key].node.span[0], LOCATED_DEPTH)
            source = JsonObject(located.value, located.span, located.members)
            found = reader(source)
        return source, found

    def add_line(self, line: Line, found: list[Draft], turn: int, problems=()) -> None:
        """The pieces of one line as messages of `turn`: one piece spans the whole line."""
        first = len(self.messages)
        for piece in found:
            span = line.span if len(found) == 1 else (piece.span or line.span)
            self._add(_message(len(self.messages), turn, span, piece.fields), line)
            if piece.problems:
                self._note(piece.problems, len(self.messages) - 1)
        self._note(list(problems), first if found else None)
        at = self._unread_at.pop(line.span, (None,))[0]
        if at is not None and found:
            self.diagnostics[at] = dataclasses.replace(self.diagnostics[at], message_index=first)
        if self._kept is not None:
            line.value = self._kept(line.value)

    def _add(self, message: Message, line: Line) -> None:
        if message.end == "call":
            self.note_call(message.call_id, message.recipient)
            self._to_preambles(message.turn)
        elif message.role == "assistant" and message.channel == "final" and message.recipient is None:
            self._said.setdefault(message.turn, []).append(message.index)
        self.messages.append(message)
        self.lines.append(line)

    def _to_preambles(self, turn: int) -> None:
        """Text the assistant wrote before a tool call in the same response was a preamble: it goes on the
        commentary channel, which the agent-preamble rule shows as a plan note (viewer/policy/rules.py)."""
        for index in self._said.pop(turn, ()):
            self.amend(index, _commentary)

    def taken_diagnostics(self) -> list[Diagnostic]:
        """The diagnostics found since they were last taken (a piece's, read a piece at a time), taken: the
        places of the lines' W-JSON-UNREAD among them are forgotten with them (a piece's spans are its own)."""
        found, self.diagnostics = self.diagnostics, []
        self._unread_at = {}
        return found

    def forget_unread_from(self, at: int) -> None:
        """Forget the places of the W-JSON-UNREAD diagnostics from place `at` of `diagnostics` on (its reader took
        them out, to give them with the piece of the lines they are about)."""
        self._unread_at = {span: places for span, places in self._unread_at.items() if places[0] < at}

    def amend(self, index: int, change: Change) -> None:
        """Change message `index`: here while it is held, else by an amendment to it where it was stored."""
        if self.messages.holds(index):
            self.messages[index] = change(self.messages[index])
        else:
            self.amended.setdefault(index, []).append(change)

    def hand_on(self, upto: int) -> tuple[list[Message], list[Line]]:
        """The messages before index `upto` still held, with their lines, handed on: no longer held. A turn's
        answers still waiting for a call of the same response stay known by their index."""
        return self.messages.drop(upto), self.lines.drop(upto)

    def through_line(self, number: int) -> int:
        """The index after the last message from a line up to number `number`: a message's line is never before
        an earlier message's, so those held after it are from later lines."""
        end = len(self.lines)
        while end > self.lines.start and self.lines[end - 1].number > number:
            end -= 1
        return end

    def rename_call(self, call_id: str | None, recipient: str) -> None:
        """Name the tool of a call read already (its replies, read later, are named after it)."""
        if call_id is not None:
            self._call_names[call_id] = recipient

    def next_turn(self) -> int:
        turn, self.turn = self.turn, self.turn + 1
        return turn

    def frame(self, quiet: list[Span], diagnostics: list[Diagnostic],
              messages: Iterable[Message] | None = None) -> tuple[Segment, ...]:
        """What of the source is not a message: the `quiet` lines (events that carry no conversation, kind
        `event`) and what else lies between messages (those held, or `messages`) and diagnostics (kind `json`),
        in source order."""
        events = [Segment("event", self.text[start:end], start, end) for start, end in quiet]
        claimed = [*(message.span for message in (self.messages if messages is None else messages)), *quiet,
                   *(diagnostic.span for diagnostic in diagnostics)]
        return tuple(sorted((*events, *frame(self.text, claimed)), key=lambda segment: segment.span))


def _commentary(message: Message) -> Message:
    return replace_fields(message, channel="commentary")


NAMED = 6
"""Members a W-JSON-UNREAD diagnostic names; the header's `unread` has them all."""


def _names(left: dict[str, Any], within: str = "", depth: int = 2) -> list[str]:
    """The dotted names of what a line left unread, two levels deep (`data.toolTelemetry`)."""
    names = []
    for key, value in left.items():
        name = f"{within}.{key}" if within else key
        names += _names(value, name, depth - 1) if isinstance(value, dict) and value and depth > 1 else [name]
    return names


def _message(index: int, turn: int, span: Span, fields: dict) -> Message:
    """`Message.drafted(index=index, turn=turn, span=span, **fields)`, with Message's defaults for the fields a
    piece leaves out; made positionally (a session makes hundreds of thousands)."""
    get = fields.get
    header = get("header") or (None, None)
    return Message(index, turn, fields["role"], fields["content"], span[0], span[1], get("name"), get("recipient"),
                   get("channel", "final"), get("channel_explicit", False), get("content_type"),
                   get("constrained", False), get("intent"), get("call_id"), get("end", "end"), get("segments", ()),
                   header[0], header[1])
