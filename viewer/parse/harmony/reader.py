"""OpenChatML 2.x and Harmony text (`<|start|>role…<|message|>body<|end|>`) into the one model.

The reader walks the text message by message. A plain message (a header of words, `<|channel|>` and
`<|constrain|>`; a body without `<|`; an unescaped stop token) is read by one regex match, and headers are read
once per distinct header text (cached). Anything else (stray text, escapes, literal blocks, chain-of-thought
markers, broken headers, a cut stream) takes the general path, which reports what it found.

Choices where the specs are silent (each has a test in tests/parse/test_harmony.py):
- A `<|start|>` inside a body closes the open message with `end = "eof"` (no stop token was seen) and a
  W-START-IN-BODY warning, then starts a new message; `<<|start|>` or a literal block keeps it as text.
- A literal block drops one newline right after `<|literal|>` and one right before `<|endliteral|>`: like
  the fence lines of a code block, they lay the markers out on lines of their own (2.2 §16.4) and are not
  part of the literal text. Inside the block nothing is a token and `<<|` stays as written.
- With `primed_role`, text that starts with a header token or a `key=` attribute continues the primed header;
  any other text is the body of a message whose whole header was primed.
- A chain-of-thought block runs from its `<|start_X|>` marker to `<|end_X|>`, the next start marker, a literal
  block, or the end of the body.
- A header that never reaches `<|message|>` but has loose words after its role or channel (`<|channel|>final I
  cannot…<|end|>`, also right after a primed role) is read as openai-harmony's non-strict parser reads it: the
  loose text is the body, with W-HEADER-BODY-RECOVERED. Unlike openai-harmony, attributes before the loose
  text stay in the header and the text is kept as written (it joins the words with single spaces).
- A body with literal blocks or chain-of-thought markers is read by `Body` (body.py).
"""
from __future__ import annotations

import re

from viewer.model import ROLES, Diagnostic, Message, Segment, Transcript, make_diagnostic
from viewer.model.collector import collector_paused
from viewer.parse.common import trimmed_span
from viewer.parse.harmony.body import Body, Literal
from viewer.parse.harmony.header import Header, loose_text_start, read_header
from viewer.parse.harmony.plain import read_plain
from viewer.parse.harmony.tokens import (ENDLITERAL, START, STOPS, T_LITERAL, T_MESSAGE, T_START, TOKEN_RE,
                                         is_escaped, unescape)
from viewer.parse.harmony.tool_namespace import declared_tools
from viewer.parse.harmony.yaml_header import read_yaml_header
from viewer.parse.options import ParseOptions
from viewer.parse.patterns import always_matching

# A header with no surprises: words, and only <|channel|> / <|constrain|> tokens, up to <|message|>.
# Each repetition starts with `<` and `[^<]` excludes it, so the match is linear.
_PLAIN_HEADER = re.compile(r"([^<]*(?:<\|(?:channel|constrain)\|>[^<]*)*)<\|message\|>")
_HEADER_CONTINUATION = re.compile(r"<\|(?:channel|constrain|message)\|>|(?:to|call_id|name|intent|content_type)=")
_GENERATION_PROMPT = re.compile(r"\s*(%s)\s*" % "|".join(ROLES))
_SPACE = always_matching(r"\s*")
_START_LENGTH = len(START)


def parse_harmony(text: str, options: ParseOptions) -> Transcript:
    """Read Harmony or OpenChatML 2.x text. Never raises on user input: defects become diagnostics."""
    return _Reader(text).read(options)


class _Reader:
    """One pass over a Harmony text, collecting messages, diagnostics and frame."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.messages: list[Message] = []
        self.diagnostics: list[Diagnostic] = []
        self.frame: list[Segment] = []

    def read(self, options: ParseOptions) -> Transcript:
        with collector_paused:  # a third slower otherwise: see viewer/model/collector.py
            return self._read(options)

    def _read(self, options: ParseOptions) -> Transcript:
        header_values, dialect = {}, "harmony"
        if options.primed_role:
            position = self._read_primed(options.primed_role)
        else:
            yaml_header = read_yaml_header(self.text)
            position = 0
            if yaml_header is not None:
                header_values, position = yaml_header.values, yaml_header.span[1]
                dialect = "openchatml" if yaml_header.openchatml_version else "harmony"
                self.frame.append(Segment.of("yaml_header", yaml_header.yaml_text, yaml_header.span))
                self.diagnostics.extend(yaml_header.diagnostics)
            position = self._read_completion_start(position)
        self._read_messages(position)
        return Transcript(dialect=dialect, source=self.text, messages=tuple(self.messages),
                          diagnostics=tuple(self.diagnostics), header=header_values, tools=declared_tools(self.messages),
                          frame=tuple(self.frame))

    # --- where messages start --------------------------------------------------------------------------------

    def _read_messages(self, position: int) -> None:
        """Read messages from `position` to the end: runs of plain messages in the hot loop of plain.py, and
        whatever stops a run (stray text, an escape, a literal block, a broken header …) the general way."""
        length = len(self.text)
        while position < length:
            position = read_plain(self.text, position, self.messages)
            if position < length:
                position = self._read_next(position)

    def _read_next(self, position: int) -> int:
        """Read what follows `position` the general way: stray text up to the next `<|start|>` and the message
        it starts; return where reading goes on."""
        text = self.text
        start = text.find(START, position)
        while start > 0 and text[start - 1] == "<":  # `<<|start|>` is text
            start = text.find(START, start + _START_LENGTH)
        if start == -1:
            self._between(position, len(text))
            return len(text)
        if start > position and not text[position:start].isspace():
            self._between(position, start)
        return self._read_message(start, start + _START_LENGTH, None)

    def _read_completion_start(self, position: int) -> int:
        """A completion that follows a prefilled `<|start|>assistant` begins inside the header."""
        first = self._first_visible(position)
        if _HEADER_CONTINUATION.match(self.text, first):
            self._between(position, first)
            return self._read_message(first, first, "assistant")
        return position

    def _read_primed(self, role: str) -> int:
        first = self._first_visible(0)
        if first == len(self.text) or self.text.startswith(START, first):
            return first
        if _HEADER_CONTINUATION.match(self.text, first):
            return self._read_message(first, first, role)
        return self._read_body(first, None, read_header("", role), first)

    def _first_visible(self, position: int) -> int:
        return _SPACE.match(self.text, position).end()

    def _between(self, start: int, end: int) -> None:
        """Text between messages: whitespace is layout; anything else is reported, never dropped."""
        stray = trimmed_span(self.text, start, end)
        if stray is not None:
            self.diagnostics.append(make_diagnostic(
                "W-STRAY-TEXT", stray, "This text stands outside any message, so it belongs to no one."))

    # --- one message -----------------------------------------------------------------------------------------

    def _read_message(self, start: int, header_from: int, implied_role: str | None) -> int:
        """Read the message whose header text begins at `header_from`; return where the next one may begin."""
        text = self.text
        plain = _PLAIN_HEADER.match(text, header_from)
        if plain is not None:
            header = read_header(plain.group(1), implied_role)
            return self._read_body(start, (start, plain.end()), header, plain.end(), header_from)
        header_to, token, token_end = self._header_end(header_from)
        header_text = text[header_from:header_to]
        if token == T_MESSAGE:
            header = read_header(header_text, implied_role)
            return self._read_body(start, (start, token_end), header, token_end, header_from)
        if token is None and implied_role is None and _GENERATION_PROMPT.fullmatch(header_text):
            role = header_text.strip()
            self.frame.append(Segment.of("generation_prompt", role, (start, len(text))))
            return len(text)
        return self._header_without_body(start, header_from, header_to, token, token_end, implied_role)

    def _header_end(self, position: int) -> tuple[int, int | None, int]:
        """Where a header that the plain pattern could not read ends: (end, ending token, after the token)."""
        text = self.text
        while True:
            match = TOKEN_RE.search(text, position)
            if match is None:
                return len(text), None, len(text)
            token = match.lastindex
            if token in (T_MESSAGE, T_START) or token in STOPS:
                if not is_escaped(text, match.start()):
                    return match.start(), token, match.end()
            position = match.end()

    def _header_without_body(self, start: int, header_from: int, header_to: int, token: int | None,
                             token_end: int, implied_role: str | None) -> int:
        loose = loose_text_start(self.text[header_from:header_to], implied_role)
        if loose is not None:
            return self._recovered_body(start, header_from, header_from + loose, header_to, token, token_end,
                                        implied_role)
        header = read_header(self.text[header_from:header_to], implied_role)
        end, span_end, why = self._missing_message(header_to, token, token_end)
        index = len(self.messages)
        self._add_message(index, header, "", (start, span_end), end, (), (start, header_to))
        self._header_problems(header, header_from, index)
        self.diagnostics.append(make_diagnostic("E-PARSE-HEADER", (start, header_to), why, index))
        return span_end

    def _missing_message(self, header_to: int, token: int | None, token_end: int) -> tuple[str, int, str]:
        """How a header that never reached <|message|> ends: (`end`, where its message ends, why)."""
        if token is None:
            return "eof", len(self.text), "The input ends inside this message's header."
        if token == T_START:
            return "eof", header_to, "The next <|start|> comes before this header's <|message|>."
        return (STOPS[token], token_end,
                f"The header ends at <|{STOPS[token]}|> without <|message|>, so the message has no body.")

    def _recovered_body(self, start: int, header_from: int, body_from: int, body_to: int, token: int | None,
                        token_end: int, implied_role: str | None) -> int:
        """A header with loose text and no <|message|>: the loose text is the body, as openai-harmony's
        non-strict parser reads it, with a warning; the words before it are the header (after the primed role in
        a completion: `<|channel|>analysis I must refuse<|end|>`)."""
        header = read_header(self.text[header_from:body_from].rstrip(), implied_role)
        end, span_end, _ = self._missing_message(body_to, token, token_end)
        index = len(self.messages)
        self._add_message(index, header, unescape(self.text[body_from:body_to]), (start, span_end), end, (),
                          (start, body_from))
        self._header_problems(header, header_from, index)
        self.diagnostics.append(make_diagnostic(
            "W-HEADER-BODY-RECOVERED", (body_from, body_to),
            "The header never reaches <|message|>; the text after it is read as the body, as openai-harmony's "
            "non-strict parser does.", index))
        if end == "eof":
            self._truncated(index, body_from, body_to)
        return span_end

    def _read_body(self, start: int, header_span: tuple[int, int] | None, header: Header, body_from: int,
                   header_from: int = 0) -> int:
        """Read the body that starts at `body_from` and add its message; return where the next one may begin."""
        body_to, after, end, literals = self._body_end(body_from)
        index = len(self.messages)
        body = self.text[body_from:body_to]
        if literals or header.channel == "analysis" and "<|" in body:
            content, segments = Body(self.text, header.channel == "analysis").read(body_from, body_to, literals)
        else:
            content, segments = unescape(body), ()
        self._add_message(index, header, content, (start, after), end, segments, header_span)
        if header.problems:
            self._header_problems(header, header_from, index)
        if end == "eof":
            self._unterminated(index, body_from, body_to, literals)
        return after

    def _body_end(self, position: int) -> tuple[int, int, str, list[Literal]]:
        """Where the body that starts at `position` ends, where reading goes on, its `end`, and the literal
        blocks in it (inside which no token counts)."""
        text = self.text
        search = TOKEN_RE.search
        literals: list[Literal] = []
        while True:
            match = search(text, position)
            if match is None:
                return len(text), len(text), "eof", literals
            token, at = match.lastindex, match.start()
            unescaped = at == 0 or text[at - 1] != "<"  # `at == 0`: a primed body that begins with its token
            if token in STOPS and unescaped:
                return at, match.end(), STOPS[token], literals
            if token == T_START and unescaped:
                return at, at, "eof", literals
            if token == T_LITERAL and unescaped:
                close = text.find(ENDLITERAL, match.end())
                if close == -1:
                    literals.append((at, match.end(), len(text), len(text)))
                    return len(text), len(text), "eof", literals
                literals.append((at, match.end(), close, close + len(ENDLITERAL)))
                position = close + len(ENDLITERAL)
                continue
            position = match.end()

    def _add_message(self, index: int, header: Header, content: str, span: tuple[int, int], end: str,
                     segments: tuple[Segment, ...], header_span: tuple[int, int] | None) -> None:
        self.messages.append(Message.drafted(
            content, span, header_span, index=index, turn=index, role=header.role, name=header.name,
            recipient=header.recipient, channel=header.channel, channel_explicit=header.channel_explicit,
            content_type=header.content_type, constrained=header.constrained, intent=header.intent,
            call_id=header.call_id, end=end, segments=segments))

    def _header_problems(self, header: Header, header_from: int, index: int) -> None:
        self.diagnostics.extend(problem.at(index, offset=header_from) for problem in header.problems)

    def _unterminated(self, index: int, body_from: int, body_to: int, literals: list[Literal]) -> None:
        """The diagnostics of a body that no stop token ended."""
        text, add = self.text, self.diagnostics.append
        if literals and literals[-1][2] == len(text) and literals[-1][3] == len(text):
            add(make_diagnostic(
                "W-UNTERMINATED-LITERAL", (literals[-1][0], len(text)),
                "This <|literal|> block has no <|endliteral|>, so it runs to the end of the input.", index))
        if body_to < len(text):
            add(make_diagnostic(
                "W-START-IN-BODY", (body_to, body_to + _START_LENGTH),
                "A <|start|> inside this body ends the message without a stop token and starts a new one; write "
                "<<|start|> or use a literal block to keep it as text.", index))
        else:
            self._truncated(index, body_from, body_to)

    def _truncated(self, index: int, body_from: int, body_to: int) -> None:
        self.diagnostics.append(make_diagnostic(
            "E-STREAM-TRUNCATED", (body_from, body_to),
            "The input ends inside this message's body, before <|end|>, <|call|> or <|return|>.", index))
