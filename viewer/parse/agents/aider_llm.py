"""Aider's `.aider.llm.history` (dialect `aider-llm`, written with `--llm-history-file`): what the model saw and
answered, request after request (aider's io.log_llm_history and utils.format_messages).

- `TO LLM <local time>` opens a request: its messages each follow a `-------` line, every line of a message
  prefixed with its role in capitals (`SYSTEM `, `USER `, `ASSISTANT `). A request holds the whole context the
  model got: the system prompt (system, hidden), the pairs aider writes itself (the repository map, the files in
  the chat, commit notes, command output, `Ok.`) and the earlier turns (context, hidden: each is shown once, where
  it was asked), then what the user asks now (shown), unless aider wrote that too (a command's output, a failed
  edit or a lint report sent back to the model: context).
- `LLM RESPONSE <local time>` is the model's answer, `ASSISTANT ` lines (reasoning tags split out as analysis).
  The next request's history says when the user interrupted it (`^C KeyboardInterrupt`).

There is no model name, usage or id in this file; times are local, with no zone.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from viewer.model import Diagnostic, Message, Meta, Segment, Transcript, make_diagnostic
from viewer.parse.agents.aider_chat import raw_lines
from viewer.parse.agents.reasoning_tags import split_reasoning
from viewer.parse.options import ParseOptions

DIALECT = "aider-llm"
HEADER = re.compile(r"(TO LLM|LLM RESPONSE) (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\s*\Z")
SEPARATOR = "-------"
ROLE = re.compile(r"(SYSTEM|USER|ASSISTANT|TOOL|FUNCTION)(?: |\Z)")
AIDER_WRITTEN = re.compile(
    r"\A(?:I ran this command:|I committed the changes|I added these files to the chat|I have \*added these files|"
    r"Here are summaries of some files|Here are some READ ONLY files|I spoke to you previously|I did `git reset|"
    r"I switched to a new code base|# Fix any errors below|# \d+ SEARCH/REPLACE blocks? failed|The LLM did not "
    r"conform|\^C KeyboardInterrupt)")
"""How the messages aider writes in the user's place begin (aider/prompts.py, the coders' prompts, its reflected
messages)."""
INTERRUPTED = "^C KeyboardInterrupt"


@dataclass(slots=True)
class _Said:
    """One message of the log: its role and lines, where it stands."""

    role: str
    start: int
    end: int
    lines: list[str] = field(default_factory=list)


@dataclass(slots=True)
class _Exchange:
    """A request or a response: its kind, its time, its messages."""

    kind: str
    time: str
    said: list[_Said] = field(default_factory=list)


def parse_aider_llm(text: str, options: ParseOptions) -> Transcript:
    """Read an aider LLM history. Never raises on user input."""
    exchanges, frame, diagnostics = _read(text)
    messages: list[Message] = []
    responses: list[int] = []
    """The index of each response's first message."""
    for turn, exchange in enumerate(exchanges):
        if exchange.kind == "LLM RESPONSE":
            responses.append(len(messages))
            for said in exchange.said:
                _answer(messages, said, exchange, turn, diagnostics)
            continue
        for at, said in enumerate(exchange.said):
            last = at == len(exchange.said) - 1
            content = "\n".join(said.lines)
            role = {"SYSTEM": "system", "USER": "user", "ASSISTANT": "assistant"}.get(said.role, "tool")
            typed = last and role == "user" and not AIDER_WRITTEN.match(content)
            intent = None if typed or role == "system" else "context"
            meta = Meta(timestamp=exchange.time) if typed else None
            messages.append(Message(index=len(messages), turn=turn, role=role, body=content, span_start=said.start,
                                    span_end=said.end, intent=intent, meta=meta,
                                    name=None if role != "tool" else said.role.lower()))
            if role == "user" and content.rstrip().endswith(INTERRUPTED) and responses:
                _interrupted(responses[-1], messages, diagnostics)
    if messages and not text.endswith("\n") and text.strip():
        cut = messages[-1]
        diagnostics.append(make_diagnostic("E-STREAM-TRUNCATED", cut.span, "The file ends in the middle of a "
                                                                           "line: it was cut short.", cut.index))
    header = {"producer": DIALECT, "agent": "Aider", "requests": sum(e.kind == "TO LLM" for e in exchanges)}
    return Transcript(dialect=DIALECT, source=text, messages=tuple(messages),
                      diagnostics=tuple(sorted(diagnostics, key=lambda d: d.span)), header=header, frame=tuple(frame))


def _read(text: str) -> tuple[list[_Exchange], list[Segment], list[Diagnostic]]:
    """The requests and responses, the lines that are no message (headers, separators), and stray lines."""
    exchanges: list[_Exchange] = []
    frame: list[Segment] = []
    diagnostics: list[Diagnostic] = []
    current: _Said | None = None
    for number, start, end in raw_lines(text):
        line = text[start:end]
        header = HEADER.match(line)
        if header is not None:
            exchanges.append(_Exchange(header[1], header[2].strip()))
            frame.append(Segment("event", line, start, end))
            current = None
            continue
        if line.strip() == SEPARATOR and exchanges and exchanges[-1].kind == "TO LLM":
            frame.append(Segment("event", line, start, end))
            current = None
            continue
        role = ROLE.match(line)
        if role is None or not exchanges:
            if line.strip():
                diagnostics.append(make_diagnostic("W-STRAY-TEXT", (start, end), f"Line {number} has no role "
                                                                                  "prefix; it was not read."))
            continue
        exchange = exchanges[-1]
        if current is None or current.role != role[1] or exchange.kind == "LLM RESPONSE" and not exchange.said:
            current = _Said(role[1], start, end)
            exchange.said.append(current)
        current.lines.append(line[role.end():])
        current.end = end
    return exchanges, frame, diagnostics


def _answer(messages: list[Message], said: _Said, exchange: _Exchange, turn: int,
            diagnostics: list[Diagnostic]) -> None:
    """The model's answer (reasoning split out); lines of another role in a response are kept, hidden."""
    if said.role != "ASSISTANT":
        messages.append(Message(index=len(messages), turn=turn, role="unknown", body="\n".join(said.lines),
                                span_start=said.start, span_end=said.end, name=said.role.lower()))
        diagnostics.append(make_diagnostic("W-UNKNOWN-ROLE", (said.start, said.end), f"A response holds {said.role} "
                                           "lines; they are kept, hidden.", len(messages) - 1))
        return
    runs = split_reasoning("\n".join(said.lines)) or [(False, "", False)]
    for reasoning, content, unclosed in runs:
        messages.append(Message(index=len(messages), turn=turn, role="assistant", body=content,
                                span_start=said.start, span_end=said.end,
                                channel="analysis" if reasoning else "final", channel_explicit=reasoning,
                                meta=Meta(timestamp=exchange.time)))
        if unclosed:
            diagnostics.append(make_diagnostic("W-UNCLOSED-BLOCK", (said.start, said.end), "A reasoning block is "
                                               "not closed: the rest of the answer was read as reasoning.",
                                               len(messages) - 1))


def _interrupted(first: int, messages: list[Message], diagnostics: list[Diagnostic]) -> None:
    if any(d.code == "W-SESSION-INTERRUPTED" and d.message_index == first for d in diagnostics):
        return
    diagnostics.append(make_diagnostic("W-SESSION-INTERRUPTED", messages[first].span,
                                       "The user interrupted this answer (^C): it is what had streamed.", first))
