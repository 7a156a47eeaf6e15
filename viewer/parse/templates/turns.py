"""Cutting a raw prompt into turns by the marker tokens of its family's template.

Every family writes turns between marker tokens: an opener naming the role (`<|start_header_id|>user…`,
`<start_of_turn>model`, `<|user|>`), or a token that both ends one turn and opens the next (`[/INST]`,
`<｜Assistant｜>`), and a closer (`<|eot_id|>`, `<end_of_turn>`, `</s>`). A family describes its tokens as a
`Grammar`; `read_turns` walks them once, in one regex pass.

A marker counts only where the grammar allows it: an opener between turns, a closer ending a turn of a kind it
may end. Anywhere else it is text of the open turn's body, so a prompt that quotes a template (a system prompt
describing `<|start_header_id|>`) keeps it as text. When a turn never closes, its body cannot be told from a
cut stream that went on with more turns: then the first opener inside it starts the next turn (the open one
ends there, cut, with W-START-IN-BODY), and reading goes on from that opener.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, NamedTuple

from viewer.model import Segment, Span
from viewer.parse.common import Pending

_KNOWN_MARKS = 256
ANY = "*"
"""In `Mark.ends`: a closer that ends a turn of any kind."""


@dataclass(frozen=True, slots=True)
class Mark:
    """What one marker token does."""

    opens: str | None = None
    """The kind of turn it starts (between turns, or right after ending one)."""
    ends: tuple[str, ...] = ()
    """The kinds of open turn it ends (ANY for all); a marker that ends nothing open is body text."""
    end: str = "end"
    """The `end` of the turn it ends (`call` for a token that hands over to a tool, `<|eom_id|>`)."""
    frame: str | None = None
    """`bos` or `eos`: a frame token when it stands between turns."""
    then: str | None = None
    """The kind of turn that text right after it belongs to without an opener of its own (DeepSeek writes the
    system prompt right after `<｜begin▁of▁sentence｜>`, Mistral the answer right after `[/TOOL_RESULTS]`)."""


@dataclass(frozen=True, slots=True)
class Grammar:
    """A family's marker tokens."""

    pattern: re.Pattern[str]
    """Every marker token; an opener that names its role has the group `role`."""
    mark: Callable[[re.Match[str]], Mark]
    """What a match does."""
    prompt_tail: re.Pattern[str] | None = None
    """What a generation prompt may write after its opener (DeepSeek-R1's `<think>\\n`): an opener at the end of
    the text followed by only this is a prompt, not a cut message."""
    open_ended: tuple[str, ...] = ()
    """Kinds of turn that the next turn's opener ends (DeepSeek's user turn ends at `<｜Assistant｜>`): at the end of
    the text such a turn is whole, not cut."""


class Turn(NamedTuple):
    """One turn as written (a named tuple: a long transcript makes one per message, and a tuple is made fastest)."""

    kind: str
    """The role word or kind the grammar gave it (`user`, `model`, `tool_outputs` …)."""
    span: Span
    """From its opener (or first character) to the end of its closer."""
    header: Span | None
    """Its opener, when it has one."""
    body: Span
    end: str
    """`end`, `call`, or `eof` when it was cut."""
    notes: tuple[Pending, ...] = ()
    """Why it was cut."""


@dataclass(slots=True)
class Turns:
    """A text cut into turns, and what stands between them."""

    turns: list[Turn]
    frame: list[Segment]
    notes: list[Pending]
    """Stray text and stray closers between turns."""


def read_turns(text: str, grammar: Grammar, first: str | None = None) -> Turns:
    """The turns of `text`. `first` is the kind of a turn that text before the first marker belongs to (a
    completion after a prefilled opener, `ParseOptions.primed_role`)."""
    reader = _Reader(text, grammar, first)
    position: int | None = 0
    while position is not None:
        position = reader.run(position)
    return Turns(reader.turns, reader.frame, reader.notes)


_Open = tuple[str, int, Span | None, int]
"""An open turn: its kind, start, header and body start."""


class _Reader:
    def __init__(self, text: str, grammar: Grammar, first: str | None) -> None:
        self.text, self.grammar = text, grammar
        self.turns: list[Turn] = []
        self.frame: list[Segment] = []
        self.notes: list[Pending] = []
        self.then = first
        # The open turn, and the first opener seen inside its body.
        self.open: _Open | None = None
        self.opener_inside: re.Match[str] | None = None
        self.known: dict[str, Mark] = {}
        """Each marker token's Mark, asked of the grammar once."""

    def run(self, position: int) -> int | None:
        """Read from `position` to the end; return where to read again when a cut turn was closed at an opener
        inside it, else None."""
        text, mark_of, known, add_turn = self.text, self.grammar.mark, self.known, self.turns.append
        for match in self.grammar.pattern.finditer(text, position):
            token = match.group()
            mark = known.get(token)
            if mark is None:
                mark = mark_of(match)
                if len(known) < _KNOWN_MARKS:  # the openers a text writes are few, but whatever it writes
                    known[token] = mark
            opened, ends, opens = self.open, mark.ends, mark.opens
            start, end = match.span()
            if opened is None:
                if opens is not None and (start == position or text[position:start].isspace()):
                    # The common case, inline: an opener after blank text (a long transcript has one per turn).
                    self.open, self.opener_inside, self.then = (opens, start, (start, end), end), None, None
                    position = end
                else:
                    position = self._between(position, match, mark)
            elif ends and (ANY in ends or opened[0] in ends):
                # Closing, inline: a marker that also opens the next turn (`[/INST]`) is that turn's header.
                kind, turn_start, header, body_start = opened
                add_turn(Turn(kind, (turn_start, start if opens is not None else end), header, (body_start, start),
                              mark.end))
                if opens is not None:
                    self.open, self.opener_inside, self.then = (opens, start, (start, end), end), None, None
                else:
                    self.open, self.then = None, mark.then
                position = end
            elif opens is not None and self.opener_inside is None:
                self.opener_inside = match
        if self.open is None:
            self._gap(position, len(text))  # which may open a turn the last closer implies, cut by the end
        return None if self.open is None else self._cut(self.open)

    def _between(self, position: int, match: re.Match[str], mark: Mark) -> int:
        """A marker between turns; text before it may open a turn of the kind the last closer names."""
        start = match.start()
        opened = self._gap(position, start)
        if opened is not None:
            if mark.ends and (ANY in mark.ends or opened[0] in mark.ends):
                return self._close(opened, match, mark)
            if mark.opens is not None and self.opener_inside is None:
                self.opener_inside = match
            return position
        if mark.opens is not None:
            self._open(mark.opens, start, match.span(), match.end())
        elif mark.frame is not None:
            self.frame.append(Segment(mark.frame, match.group(), match.start(), match.end()))
            self.then = mark.then
        else:
            self.notes.append(Pending("W-STRAY-TEXT", f"This {match.group()} ends no open turn.", match.span()))
        return match.end()

    def _gap(self, start: int, end: int) -> _Open | None:
        """Text between turns: blank, the start of a turn the last marker implies (then that turn), or stray."""
        piece = self.text[start:end]
        stripped = piece.lstrip()
        if not stripped:
            return None
        first = end - len(stripped)
        if self.then is not None:
            return self._open(self.then, first, None, first)
        self.notes.append(Pending("W-STRAY-TEXT", "This text stands outside any turn.",
                                  (first, first + len(stripped.rstrip()))))
        return None

    def _open(self, kind: str, start: int, header: Span | None, body_start: int) -> _Open:
        opened = self.open = (kind, start, header, body_start)
        self.opener_inside = None
        self.then = None
        return opened

    def _close(self, opened: _Open, match: re.Match[str], mark: Mark) -> int:
        """As `run` closes a turn inline."""
        kind, start, header, body_start = opened
        end = match.start() if mark.opens is not None else match.end()
        self.turns.append(Turn(kind, (start, end), header, (body_start, match.start()), mark.end))
        self.open = None
        self.then = mark.then
        if mark.opens is not None:
            self._open(mark.opens, match.start(), match.span(), match.end())
        return match.end()

    def _cut(self, opened: _Open) -> int | None:
        """The open turn at the end of the text: a generation prompt, a cut turn, or a cut turn that more turns
        follow (then reading goes on at the first opener inside it)."""
        kind, start, header, body_start = opened
        text = self.text
        inside = self.opener_inside
        self.open = None
        if kind in self.grammar.open_ended:
            self.turns.append(Turn(kind, (start, len(text)), header, (body_start, len(text)), "end"))
            return None
        if inside is not None:
            note = Pending("W-START-IN-BODY", f"{inside.group()} starts a new turn before this one ends.",
                           inside.span())
            self.turns.append(Turn(kind, (start, inside.start()), header, (body_start, inside.start()), "eof",
                                   (note,)))
            return inside.start()
        tail = self.grammar.prompt_tail
        rest = text[body_start:]
        if header is not None and (not rest.strip() or (tail is not None and tail.fullmatch(rest))):
            self.frame.append(Segment.of("generation_prompt", kind, (start, len(text))))
            return None
        note = Pending("E-STREAM-TRUNCATED", "The input ends before this turn is complete.", (start, len(text)))
        self.turns.append(Turn(kind, (start, len(text)), header, (body_start, len(text)), "eof", (note,)))
        return None
