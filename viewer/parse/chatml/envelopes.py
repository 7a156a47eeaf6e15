"""Reading ChatML envelope by envelope: what stands between envelopes, each envelope's header line and end, and
the diagnostics of a turn attached to its messages."""
from __future__ import annotations

import bisect
import re
from typing import Any

from viewer.model import Diagnostic, Message, Segment, Span, Transcript, make_diagnostic
from viewer.parse.chatml.body import FILE_SEPARATOR, FIM_KINDS, scan_body
from viewer.parse.chatml.marks import BODY_ENDS, BOS, HEADER_STOP, TOP_MARKS, MarkFinder
from viewer.parse.chatml.plain import read_plain
from viewer.parse.chatml.turns import Draft, Envelope, run_message, turn_messages
from viewer.parse.common import CHATML_ROLES, Pending, trimmed_span
from viewer.parse.options import ParseOptions


class Reader:
    """One pass over a ChatML text, collecting messages, diagnostics, frame and declared tools."""

    def __init__(self, text: str, options: ParseOptions) -> None:
        self.text = text
        self.options = options
        self.messages: list[Message] = []
        self.diagnostics: list[Diagnostic] = []
        self.frame: list[Segment] = []
        self.tools: dict[str, Any] = {}
        self.turn = 0
        self.marks = MarkFinder(text)

    def run(self) -> Transcript:
        text = self.text
        position = self._primed_completion()
        while position < len(text):
            position = read_plain(self, position)  # most envelopes: plain.py reads them in one regex match each
            if position == len(text):
                break
            match = self.marks.next(TOP_MARKS, position)
            self._between(position, match.start() if match else len(text))
            if match is None:
                break
            position = self._top_token(match)
        return Transcript(dialect="chatml", source=text, messages=tuple(self.messages),
                          diagnostics=tuple(self.diagnostics), tools=self.tools, frame=tuple(self.frame))

    # -- outside envelopes ---------------------------------------------------------------------------------

    def _primed_completion(self) -> int:
        role = self.options.primed_role
        first = self.marks.next(TOP_MARKS, 0)
        if role is None or not self.text[:first.start() if first else len(self.text)].strip():
            return 0
        return self._envelope(0, role, None, None, [], body_start=0)

    def _top_token(self, match: re.Match[str]) -> int:
        token = match.group()
        if token == "<|im_start|>":
            return self._open_envelope(match)
        if token == "<|im_end|>":
            self.diagnostics.append(make_diagnostic("W-STRAY-TEXT", match.span(),
                                                    "This <|im_end|> closes no open message."))
        else:
            self.frame.append(Segment("bos" if token in BOS else "eos", token, match.start(), match.end()))
        return match.end()

    def _between(self, start: int, end: int) -> None:
        """Text between envelopes: blank, a FIM / multi-file document, or stray text."""
        span = trimmed_span(self.text, start, end)
        if span is None:
            return
        tools: dict[str, Any] = {}
        pieces, notes = scan_body(self.text, *span, "user", tools, read_tags=False)
        if any(piece.kind in FIM_KINDS or piece.kind == FILE_SEPARATOR for piece in pieces):
            self.tools.update(tools)
            envelope = Envelope("user", None, span, None, span, "end")
            self._add_turn(envelope, [run_message(envelope, pieces)], notes)
        else:
            self.diagnostics.append(make_diagnostic("W-STRAY-TEXT", span, "This text stands outside any message."))

    # -- envelopes -----------------------------------------------------------------------------------------

    def _open_envelope(self, match: re.Match[str]) -> int:
        text = self.text
        terminator = self.marks.next(BODY_ENDS, match.end())
        limit = terminator.start() if terminator else len(text)
        stop = HEADER_STOP.search(text, match.end(), limit)
        header_end = stop.start() if stop else limit
        body_start = stop.end() if stop and stop.group() != "<|" else header_end
        header = (match.start(), header_end)
        role, name, notes = _read_header(text[match.end():header_end], header)
        return self._envelope(match.start(), role, name, header, notes, body_start)

    def _envelope(self, start: int, role: str, name: str | None, header: Span | None, notes: list[Pending],
                  body_start: int) -> int:
        """Read one envelope from its body on; return where reading goes on."""
        text = self.text
        terminator = self.marks.next(BODY_ENDS, body_start)
        limit = terminator.start() if terminator else len(text)
        body_end = limit
        if text.endswith("\r\n", body_start, limit):
            body_end -= 2
        elif text.endswith("\n", body_start, limit):
            body_end -= 1
        end, resume, note = _closing(terminator, start, len(text))
        if note is not None:
            notes.append(note)
        envelope = Envelope(role, name, (start, resume), header, (body_start, body_end), end)
        pieces, body_notes = scan_body(text, body_start, body_end, role, self.tools)
        self._add_turn(envelope, turn_messages(envelope, pieces), notes + body_notes)
        return resume

    def _add_turn(self, envelope: Envelope, drafts: list[Draft], notes: list[Pending]) -> None:
        first_index = len(self.messages)
        drafts[0]["header"] = envelope.header
        drafts[0]["span"] = (envelope.span[0], drafts[0]["span"][1])
        drafts[-1]["span"] = (drafts[-1]["span"][0], envelope.span[1])
        if drafts[-1].get("end") != "call":
            drafts[-1]["end"] = envelope.end
        for number, draft in enumerate(drafts):
            self.messages.append(Message.drafted(index=first_index + number, turn=self.turn, **draft))
        starts = [message.span[0] for message in self.messages[first_index:]]
        for note in notes:
            # The message holding the note's last character (a note about the envelope's end belongs to its
            # last message); the spans of a turn are ordered, so bisect.
            last = max(note.span[1] - 1, note.span[0])
            self.diagnostics.append(note.at(first_index + max(bisect.bisect_right(starts, last) - 1, 0)))
        self.turn += 1


def _closing(terminator: re.Match[str] | None, start: int, length: int) -> tuple[str, int, Pending | None]:
    """How an envelope ends: its `end`, where reading goes on, and a note when it was not `<|im_end|>`."""
    if terminator is None:
        return "eof", length, Pending("E-STREAM-TRUNCATED", "The input ends before this message's <|im_end|>.",
                                      (start, length))
    token = terminator.group()
    if token == "<|im_end|>":
        return "end", terminator.end(), None
    if token in ("[EOS]", "<|end_of_text|>"):
        return "end", terminator.start(), Pending("W-EOS-IN-BODY", f"{token} ends this message, which has no "
                                                                   "<|im_end|>.", terminator.span())
    return "eof", terminator.start(), Pending("W-START-IN-BODY", f"{token} starts anew before this message's "
                                                                 "<|im_end|>.", terminator.span())


def _read_header(line: str, span: Span) -> tuple[str, str | None, list[Pending]]:
    """Role, name and notes from the header line (the text after `<|im_start|>`)."""
    words = line.split()
    if not words:
        return "", None, [Pending("E-PARSE-HEADER", "The message header names no role.", span)]
    role = words[0]
    name, problems = _name_attribute(words[1:])
    notes = []
    if role not in CHATML_ROLES:
        notes.append(Pending("W-UNKNOWN-ROLE",
                             f"Unknown role {role!r}; ChatML roles are system, tool, user and assistant.", span))
    if problems:
        notes.append(Pending("E-PARSE-HEADER", f"The message header has {', '.join(problems)}; only role and "
                                               "name=<name> belong there.", span))
    return role, name, notes


def _name_attribute(words: list[str]) -> tuple[str | None, list[str]]:
    """The `name=` of the words after the role, and what else is wrong with them."""
    name, problems, unexpected = None, [], []
    for word in words:
        key, equals, value = word.partition("=")
        if key != "name" or not equals:
            unexpected.append(repr(word))
        elif not value:
            problems.append("name= has no value")
        elif name is not None:
            problems.append(f"a second name ({value!r})")
        else:
            name = value
    if unexpected:
        problems.insert(0, f"unexpected {', '.join(unexpected)}")
    return name, problems
