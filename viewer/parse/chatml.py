"""ChatML and OpenChatML 0.1 (plain and extended) transcripts, read into the one model.

Frame
    `<s>` `</s>`, `[BOS]` `[EOS]` and `<|begin_of_text|>` `<|end_of_text|>` outside any message become frame
    segments of kind `bos` / `eos` (their text is the token as written). Inside a message body `<s>`/`</s>` are
    Markdown strikethrough and stay text; the other spellings end the body (see "Broken envelopes").

Envelopes
    `<|im_start|>HEADER` line break `BODY` `<|im_end|>`. The header line runs from `<|im_start|>` to the first
    line break or the first `<|` token, whichever comes first; it holds the role word and at most one
    `name=<name>` (no whitespace). Anything else there, a missing role or an empty name is E-PARSE-HEADER; a role
    other than system, tool, user, assistant is kept as written with W-UNKNOWN-ROLE.
    The line break that ends the header line (LF or CRLF) belongs to the header, and one line break directly
    before the closing token belongs to that token; neither is content. Everything else, including CRLF inside
    the body and further blank lines, is content as written. A message ended by `<|im_end|>` has end `end`.
    Every envelope is one turn; `turn` counts envelopes (a fill-in-the-middle or multi-file document outside
    any envelope counts as one too), in source order from 0.

Tokens inside a body (a token written between backticks, as in a prompt that talks about `<|function_list|>`,
is text; so are `<|function_call|>` outside assistant messages and `<|function_output|>` outside tool messages)
    `<|reflect|>` `<|introspect|>` `<|reason|>`: flag segments (text = the flag's name), not content.
    `<|start_X|>…<|end_X|>` (X = reflect, introspect, reason): in an assistant envelope a message of its own
        (role assistant, channel `analysis`, one segment of kind X whose span is the whole block); elsewhere a
        segment of the message. An unclosed block runs to the end of the body (W-UNCLOSED-BLOCK); an `<|end_X|>`
        with no open block stays text (W-UNMATCHED-TOKEN).
    `<|function_call|>` + JSON `{"arguments": {…}, "name": "f"}` (assistant): a call message (channel
        `commentary`, recipient `functions.f`, content_type `json`, content = the arguments re-encoded as JSON,
        end `call`, one `function_call` segment holding the raw JSON). Unreadable JSON, or no string `name`, or
        no object `arguments`: still a call message (recipient None, content = the raw text) with E-CALL-SCHEMA.
    `<|function_output|>` + JSON `{"name": "f", "content": …}` (tool): a reply message (name `functions.f`,
        recipient `assistant`, channel `commentary`, content = the JSON as written, one `function_output`
        segment). Unreadable JSON: name None and W-JSON-SYNTAX.
    `<|function_list|>` + one or more JSON values (objects, or lists of them) in OpenAI tool form
        (`{"type": "function", "function": {"name", "description", "parameters"}}`, or the inner object alone):
        a `function_list` segment; each `parameters` schema goes to `Transcript.tools["functions.<name>"]`.
        Reading stops at the first text that does not start a JSON value; unreadable JSON is W-JSON-SYNTAX and
        a definition without a name W-TOOL-DEFINITION. The JSON stays in the content (the model saw it).
    A JSON value after a token is read up to the next body token, so a value whose strings contain a token is
    unreadable; that keeps reading linear in the size of the input.
    The remaining text of an assistant or tool envelope becomes messages of the envelope's role (channel
    `final`): one per stretch of non-blank text between the split-off messages above, so the messages of a turn
    keep non-overlapping spans in source order. The first message of a turn also spans the header and the last
    one the closing token.

Fill-in-the-middle and multi-file documents (inside a message, or as text between envelopes)
    A message whose text holds `<|fim_prefix|>` `<|fim_middle|>` `<|fim_suffix|>` or `<|file_separator|>` gets
    segments a renderer can show as panels, in source order: the text after a FIM marker is a segment of that
    marker's kind (exactly as written; in a task the `fim_middle` segment is empty and marks the cursor, in a
    completion it holds the model's infill); with separators, each file is a `file` segment (without its
    separator; blank files are skipped), and a file that holds FIM markers gives FIM segments instead; other
    text before the first marker is a `text` segment. The content is the text with the tokens removed
    (prefix + middle + suffix in the order written). Such a document outside any envelope becomes one message
    of role `user`. Whenever a message has segments, they cover its text in order (plain stretches as `text`
    segments). `text`, `file` and thought segments drop one line break at each end (it belongs to the
    neighbouring token); FIM segments are exact, since a line break there is part of the code.

Broken envelopes
    No `<|im_end|>` before the end of the input: end `eof` and E-STREAM-TRUNCATED. `<|im_start|>`, `[BOS]` or
    `<|begin_of_text|>` inside an open body closes it there (end `eof`, W-START-IN-BODY) and starts anew;
    `[EOS]` or `<|end_of_text|>` inside a body closes it (end `end`, W-EOS-IN-BODY). A call message keeps
    end `call`. Non-blank text between envelopes that is not a document, and a stray `<|im_end|>`, are
    W-STRAY-TEXT. With `ParseOptions.primed_role`, text before the first envelope is the body of a message of
    that role (a completion after a prefilled `<|im_start|>ROLE`).
"""
from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass
from typing import Any

from viewer.model import Diagnostic, Message, Segment, Span, Transcript
from viewer.parse.options import ParseOptions

ROLES = ("system", "tool", "user", "assistant")
THOUGHTS = ("reflect", "introspect", "reason")
FIM_KINDS = ("fim_prefix", "fim_middle", "fim_suffix")
FILE_SEPARATOR = "file_separator"

_BOS = ("<s>", "[BOS]", "<|begin_of_text|>")
# Structural tokens, one pattern per leading literal: `re` skips ahead fast to a literal, not to alternatives.
_PIPE_MARK = re.compile(r"<\|(?:im_start|im_end|begin_of_text|end_of_text)\|>")
_ANGLE_MARK = re.compile(r"</?s>")
_BRACKET_MARK = re.compile(r"\[[BE]OS\]")
_TOP_MARKS = (_PIPE_MARK, _ANGLE_MARK, _BRACKET_MARK)
_BODY_ENDS = (_PIPE_MARK, _BRACKET_MARK)  # inside a body <s> and </s> are Markdown strikethrough
_BODY_TOKEN = re.compile(r"<\|(?:reflect|introspect|reason|(?:start|end)_(?:reflect|introspect|reason)"
                         r"|function_(?:list|call|output)|fim_(?:prefix|middle|suffix)|file_separator)\|>")
_HEADER_STOP = re.compile(r"\r?\n|<\|")
_SPACE = re.compile(r"\s*")
_DECODER = json.JSONDecoder()
_UNREADABLE = object()
_UNSEEN = object()

_Draft = dict[str, Any]
"""The fields of a Message before its index, turn and final span are known."""

# Body pieces that become messages of their own, by envelope role.
_SPLIT_OFF = {"assistant": (*THOUGHTS, "function_call"), "tool": ("function_output",)}


def parse_chatml(text: str, options: ParseOptions) -> Transcript:
    """Parse ChatML / OpenChatML 0.1 text. Never raises: every defect is a diagnostic."""
    return _Parser(text, options).run()


@dataclass(frozen=True, slots=True)
class _Note:
    """A diagnostic before the index of its message is known."""

    code: str
    severity: str
    message: str
    span: Span


@dataclass(frozen=True, slots=True)
class _Piece:
    """One stretch of a body: plain text, or a token with what belongs to it."""

    kind: str
    span: Span
    content: str = ""
    """What the piece adds to its message's content."""
    shown: str = ""
    """The text of its segment."""
    value: Any = None
    """The JSON read after a function token, or _UNREADABLE."""


@dataclass(frozen=True, slots=True)
class _Envelope:
    role: str
    name: str | None
    span: Span
    header: Span | None
    body: Span
    end: str


class _Parser:
    def __init__(self, text: str, options: ParseOptions) -> None:
        self.text = text
        self.options = options
        self.messages: list[Message] = []
        self.diagnostics: list[Diagnostic] = []
        self.frame: list[Segment] = []
        self.tools: dict[str, Any] = {}
        self.turn = 0
        self.marks = _MarkFinder(text)

    def run(self) -> Transcript:
        text = self.text
        position = self._primed_completion()
        while position < len(text):
            match = self.marks.next(_TOP_MARKS, position)
            self._between(position, match.start() if match else len(text))
            if match is None:
                break
            position = self._top_token(match)
        return Transcript(dialect="chatml", source=text, messages=tuple(self.messages),
                          diagnostics=tuple(self.diagnostics), tools=self.tools, frame=tuple(self.frame))

    # -- outside envelopes ---------------------------------------------------------------------------------

    def _primed_completion(self) -> int:
        role = self.options.primed_role
        first = self.marks.next(_TOP_MARKS, 0)
        if role is None or not self.text[:first.start() if first else len(self.text)].strip():
            return 0
        return self._envelope(0, role, None, None, [], body_start=0)

    def _top_token(self, match: re.Match[str]) -> int:
        token = match.group()
        if token == "<|im_start|>":
            return self._open_envelope(match)
        if token == "<|im_end|>":
            self.diagnostics.append(Diagnostic("W-STRAY-TEXT", "warning", "This <|im_end|> closes no open message.",
                                               match.span()))
        else:
            self.frame.append(Segment("bos" if token in _BOS else "eos", token, match.span()))
        return match.end()

    def _between(self, start: int, end: int) -> None:
        """Text between envelopes: blank, a FIM / multi-file document, or stray text."""
        chunk = self.text[start:end]
        stripped = chunk.strip()
        if not stripped:
            return
        start += len(chunk) - len(chunk.lstrip())
        end = start + len(stripped)
        tools: dict[str, Any] = {}
        pieces, notes = _scan_body(self.text, start, end, "user", tools)
        if any(piece.kind in FIM_KINDS or piece.kind == FILE_SEPARATOR for piece in pieces):
            self.tools.update(tools)
            envelope = _Envelope("user", None, (start, end), None, (start, end), "end")
            self._add_turn(envelope, [self._run_message(envelope, pieces)], notes)
        else:
            self.diagnostics.append(Diagnostic("W-STRAY-TEXT", "warning",
                                               "This text stands outside any message.", (start, end)))

    # -- envelopes -----------------------------------------------------------------------------------------

    def _open_envelope(self, match: re.Match[str]) -> int:
        text = self.text
        terminator = self.marks.next(_BODY_ENDS, match.end())
        limit = terminator.start() if terminator else len(text)
        stop = _HEADER_STOP.search(text, match.end(), limit)
        header_end = stop.start() if stop else limit
        body_start = stop.end() if stop and stop.group() != "<|" else header_end
        header = (match.start(), header_end)
        role, name, notes = _read_header(text[match.end():header_end], header)
        return self._envelope(match.start(), role, name, header, notes, body_start)

    def _envelope(self, start: int, role: str, name: str | None, header: Span | None, notes: list[_Note],
                  body_start: int) -> int:
        """Read one envelope from its body on; return where reading goes on."""
        text = self.text
        terminator = self.marks.next(_BODY_ENDS, body_start)
        limit = terminator.start() if terminator else len(text)
        body_end = limit
        if text.endswith("\r\n", body_start, limit):
            body_end -= 2
        elif text.endswith("\n", body_start, limit):
            body_end -= 1
        end, resume, note = _closing(terminator, start, len(text))
        if note is not None:
            notes.append(note)
        envelope = _Envelope(role, name, (start, resume), header, (body_start, body_end), end)
        pieces, body_notes = _scan_body(text, body_start, body_end, role, self.tools)
        self._add_turn(envelope, self._turn_messages(envelope, pieces), notes + body_notes)
        return resume

    def _turn_messages(self, envelope: _Envelope, pieces: list[_Piece]) -> list[_Draft]:
        split_off = _SPLIT_OFF.get(envelope.role, ())
        messages: list[_Draft] = []
        run: list[_Piece] = []
        for piece in pieces:
            if piece.kind not in split_off:
                run.append(piece)
                continue
            if _has_substance(run):
                messages.append(self._run_message(envelope, run))
            run = []
            messages.append(_split_message(envelope, piece))
        if _has_substance(run) or not messages:
            messages.append(self._run_message(envelope, run))
        return messages

    def _run_message(self, envelope: _Envelope, run: list[_Piece]) -> _Draft:
        body_start, body_end = envelope.body
        span = (run[0].span[0], run[-1].span[1]) if run else envelope.body
        content = _trim_newline("".join(piece.content for piece in run),
                                lead=span[0] != body_start, tail=span[1] != body_end)
        return {"role": envelope.role, "name": envelope.name, "content": content, "span": span,
                "segments": _segments(run)}

    def _add_turn(self, envelope: _Envelope, drafts: list[_Draft], notes: list[_Note]) -> None:
        first_index = len(self.messages)
        drafts[0]["header"] = envelope.header
        drafts[0]["span"] = (envelope.span[0], drafts[0]["span"][1])
        drafts[-1]["span"] = (drafts[-1]["span"][0], envelope.span[1])
        if drafts[-1].get("end") != "call":
            drafts[-1]["end"] = envelope.end
        for number, draft in enumerate(drafts):
            self.messages.append(Message(index=first_index + number, turn=self.turn, **draft))
        starts = [message.span[0] for message in self.messages[first_index:]]
        for note in notes:
            # The message holding the note's last character (a note about the envelope's end belongs to its
            # last message); the spans of a turn are ordered, so bisect.
            last = max(note.span[1] - 1, note.span[0])
            index = first_index + max(bisect.bisect_right(starts, last) - 1, 0)
            self.diagnostics.append(Diagnostic(note.code, note.severity, note.message, note.span, index))
        self.turn += 1


def _closing(terminator: re.Match[str] | None, start: int, length: int) -> tuple[str, int, _Note | None]:
    """How an envelope ends: its `end`, where reading goes on, and a note when it was not `<|im_end|>`."""
    if terminator is None:
        return "eof", length, _Note("E-STREAM-TRUNCATED", "error",
                                    "The input ends before this message's <|im_end|>.", (start, length))
    token = terminator.group()
    if token == "<|im_end|>":
        return "end", terminator.end(), None
    if token in ("[EOS]", "<|end_of_text|>"):
        return "end", terminator.start(), _Note("W-EOS-IN-BODY", "warning",
                                                f"{token} ends this message, which has no <|im_end|>.",
                                                terminator.span())
    return "eof", terminator.start(), _Note("W-START-IN-BODY", "warning",
                                            f"{token} starts anew before this message's <|im_end|>.",
                                            terminator.span())


def _read_header(line: str, span: Span) -> tuple[str, str | None, list[_Note]]:
    """Role, name and notes from the header line (the text after `<|im_start|>`)."""
    words = line.split()
    if not words:
        return "", None, [_Note("E-PARSE-HEADER", "error", "The message header names no role.", span)]
    role, name, problems, unexpected = words[0], None, [], []
    for word in words[1:]:
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
    notes = []
    if role not in ROLES:
        notes.append(_Note("W-UNKNOWN-ROLE", "warning",
                           f"Unknown role {role!r}; ChatML roles are system, tool, user and assistant.", span))
    if problems:
        notes.append(_Note("E-PARSE-HEADER", "error",
                           f"The message header has {', '.join(problems)}; only role and name=<name> belong there.",
                           span))
    return role, name, notes


class _MarkFinder:
    """Finds the next structural token among several patterns, remembering each pattern's next match so that
    no stretch of text is scanned twice. Callers only ever ask from the same or a later position."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.ahead: dict[re.Pattern[str], Any] = {}  # a pattern's next match, None for no more

    def next(self, patterns: tuple[re.Pattern[str], ...], start: int) -> re.Match[str] | None:
        best = None
        for pattern in patterns:
            match = self.ahead.get(pattern, _UNSEEN)
            if match is _UNSEEN or (match is not None and match.start() < start):
                match = self.ahead[pattern] = pattern.search(self.text, start)
            if match is not None and (best is None or match.start() < best.start()):
                best = match
        return best


# -- bodies ------------------------------------------------------------------------------------------------


def _next_body_token(text: str, start: int, end: int) -> re.Match[str] | None:
    """The next body token in [start, end) that is not wrapped in backticks (such a token is being talked about,
    as in a prompt that explains the `<|function_list|>` tag)."""
    while (match := _BODY_TOKEN.search(text, start, end)) is not None:
        quoted = (match.start() > 0 and text[match.start() - 1] == "`"
                  and match.end() < end and text[match.end()] == "`")
        if not quoted:
            return match
        start = match.end()
    return None


def _scan_body(text: str, start: int, end: int, role: str, tools: dict[str, Any]) -> tuple[list[_Piece], list[_Note]]:
    """Cut a body into text and token pieces; record declared tools."""
    pieces: list[_Piece] = []
    notes: list[_Note] = []
    position = text_from = start
    while True:
        match = _next_body_token(text, position, end)
        if match is None:
            break
        name = match.group()[2:-2]
        position = match.end()
        if name.startswith("end_"):
            notes.append(_Note("W-UNMATCHED-TOKEN", "warning",
                               f"{match.group()} closes no open <|start_{name[4:]}|> block; it is kept as text.",
                               match.span()))
            continue
        if (name == "function_call" and role != "assistant") or (name == "function_output" and role != "tool"):
            continue
        if match.start() > text_from:
            pieces.append(_text_piece(text, text_from, match.start()))
        piece = _token_piece(text, name, match, end, tools, notes)
        pieces.append(piece)
        position = text_from = piece.span[1]
    if end > text_from:
        pieces.append(_text_piece(text, text_from, end))
    return pieces, notes


def _text_piece(text: str, start: int, end: int) -> _Piece:
    chunk = text[start:end]
    return _Piece("text", (start, end), content=chunk, shown=chunk)


def _token_piece(text: str, name: str, match: re.Match[str], end: int, tools: dict[str, Any],
                 notes: list[_Note]) -> _Piece:
    if name in THOUGHTS:
        return _Piece("flag", match.span(), shown=name)
    if name.startswith("start_"):
        return _thought_block(text, name[len("start_"):], match, end, notes)
    if name == "function_list":
        return _function_list(text, match, end, tools, notes)
    if name in ("function_call", "function_output"):
        value, (json_start, json_end) = _json_after(text, match.end(), end)
        if value is _UNREADABLE and name == "function_output":
            notes.append(_Note("W-JSON-SYNTAX", "warning", "The text after <|function_output|> is not readable JSON.",
                               (match.start(), json_end)))
        if name == "function_call" and _call_target(value)[1] is _UNREADABLE:
            notes.append(_Note("E-CALL-SCHEMA", "error", _call_problem(value), (match.start(), json_end)))
        raw = text[json_start:json_end]
        return _Piece(name, (match.start(), json_end), content=raw, shown=raw, value=value)
    return _Piece(name, match.span())


def _thought_block(text: str, kind: str, match: re.Match[str], end: int, notes: list[_Note]) -> _Piece:
    closer = f"<|end_{kind}|>"
    close = text.find(closer, match.end(), end)
    if close == -1:
        notes.append(_Note("W-UNCLOSED-BLOCK", "warning",
                           f"The {kind} block has no {closer}; it runs to the end of the message.",
                           (match.start(), end)))
        inner, block_end = text[match.end():end], end
    else:
        inner, block_end = text[match.end():close], close + len(closer)
    inner = _trim_newline(inner, lead=True, tail=True)
    return _Piece(kind, (match.start(), block_end), content=inner, shown=inner)


def _json_after(text: str, start: int, end: int) -> tuple[Any, Span]:
    """The JSON value written after a token (or _UNREADABLE) and the span of its text."""
    at = _SPACE.match(text, start, end).end()
    following = _next_body_token(text, at, end)
    chunk = text[at:following.start() if following else end]
    try:
        value, stop = _DECODER.raw_decode(chunk)
    except (ValueError, RecursionError):
        return _UNREADABLE, (at, at + len(chunk.rstrip()))
    return value, (at, at + stop)


def _function_list(text: str, match: re.Match[str], end: int, tools: dict[str, Any], notes: list[_Note]) -> _Piece:
    at = _SPACE.match(text, match.end(), end).end()
    following = _next_body_token(text, at, end)
    chunk = text[at:following.start() if following else end]
    values: list[Any] = []
    position = stop = 0
    failed = False
    # Each round reads one value and moves past it, so the loop ends.
    while position < len(chunk) and chunk[position] in "{[":
        try:
            value, stop = _DECODER.raw_decode(chunk, position)
        except (ValueError, RecursionError):
            failed, stop = True, len(chunk.rstrip())
            break
        values.append(value)
        position = _SPACE.match(chunk, stop).end()
    span = (match.start(), at + stop)
    if failed or not values:
        notes.append(_Note("W-JSON-SYNTAX", "warning",
                           "The tool definitions after <|function_list|> are not readable JSON.", span))
    for value in values:
        for definition in value if isinstance(value, list) else [value]:
            _declare(definition, tools, notes, span)
    raw = text[match.end():at + stop]
    return _Piece("function_list", span, content=raw, shown=raw.strip(), value=values)


def _declare(definition: Any, tools: dict[str, Any], notes: list[_Note], span: Span) -> None:
    """Record one tool definition's parameter schema under `functions.<name>`."""
    function = definition.get("function", definition) if isinstance(definition, dict) else None
    name = function.get("name") if isinstance(function, dict) else None
    if not isinstance(name, str) or not name:
        notes.append(_Note("W-TOOL-DEFINITION", "warning",
                           "A tool definition after <|function_list|> has no function name.", span))
        return
    parameters = function.get("parameters")
    if isinstance(parameters, dict):
        tools[f"functions.{name}"] = parameters


def _split_message(envelope: _Envelope, piece: _Piece) -> _Draft:
    """A thought block, call or tool output that is a message of its own."""
    segment = Segment(piece.kind, piece.shown, piece.span)
    common = {"role": envelope.role, "span": piece.span, "segments": (segment,)}
    if piece.kind in THOUGHTS:
        return dict(content=piece.content, name=envelope.name, channel="analysis", **common)
    if piece.kind == "function_call":
        recipient, arguments = _call_target(piece.value)
        content = piece.content if arguments is _UNREADABLE else json.dumps(arguments, ensure_ascii=False)
        return dict(content=content, name=envelope.name, recipient=recipient, channel="commentary",
                    content_type="json", end="call", **common)
    output = piece.value
    name = output.get("name") if isinstance(output, dict) else None
    return dict(content=piece.content, name=f"functions.{name}" if isinstance(name, str) and name else None,
                recipient="assistant", channel="commentary",
                content_type=None if output is _UNREADABLE else "json", **common)


def _call_problem(call: Any) -> str:
    if call is _UNREADABLE:
        return "The function call after <|function_call|> is not readable JSON."
    return ("The function call needs a string \"name\" and an object \"arguments\" "
            "(the spec's FunctionCall schema).")


def _call_target(call: Any) -> tuple[str | None, Any]:
    """`functions.<name>` and the arguments of a well-formed call, else (None, _UNREADABLE)."""
    if not isinstance(call, dict):
        return None, _UNREADABLE
    name, arguments = call.get("name"), call.get("arguments")
    if not isinstance(name, str) or not name or not isinstance(arguments, dict):
        return None, _UNREADABLE
    return f"functions.{name}", arguments


def _segments(run: list[_Piece]) -> tuple[Segment, ...]:
    """Segments of a message made of a run of pieces, or none when it is plain text."""
    if all(piece.kind == "text" for piece in run):
        return ()
    kind = "file" if any(piece.kind == FILE_SEPARATOR for piece in run) else "text"
    segments: list[Segment] = []
    opened_at, parts, forced = run[0].span[0], [], False
    for piece in run:
        if piece.kind == "text":
            parts.append(piece.shown)
            continue
        segments.extend(_text_segment(kind, "".join(parts), (opened_at, piece.span[0]), forced))
        parts = []
        if piece.kind in FIM_KINDS or piece.kind == FILE_SEPARATOR:
            kind = "file" if piece.kind == FILE_SEPARATOR else piece.kind
            opened_at, forced = piece.span[0], piece.kind in FIM_KINDS
        else:
            segments.append(Segment(piece.kind, piece.shown, piece.span))
            opened_at, forced = piece.span[1], False
    segments.extend(_text_segment(kind, "".join(parts), (opened_at, run[-1].span[1]), forced))
    return tuple(segments)


def _text_segment(kind: str, text: str, span: Span, forced: bool) -> list[Segment]:
    """The segment of the text after a marker; FIM parts are kept exactly, an empty one marks the cursor."""
    if not forced and not (text if kind in FIM_KINDS else text.strip()):
        return []
    if kind in FIM_KINDS:
        return [Segment(kind, text, span)]
    return [Segment(kind, _trim_newline(text, lead=True, tail=True), span)]


def _has_substance(run: list[_Piece]) -> bool:
    return any(piece.kind != "text" or piece.content.strip() for piece in run)


def _trim_newline(text: str, *, lead: bool, tail: bool) -> str:
    """Drop one line break (LF or CRLF) at each chosen end: it belongs to the neighbouring token."""
    if lead:
        text = text[2:] if text.startswith("\r\n") else text[1:] if text.startswith("\n") else text
    if tail:
        text = text[:-2] if text.endswith("\r\n") else text[:-1] if text.endswith("\n") else text
    return text
