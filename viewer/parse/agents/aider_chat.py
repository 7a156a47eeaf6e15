"""Aider's `.aider.chat.history.md` (dialect `aider`): what the user saw in the terminal, as aider's io.py appends it,
every run of aider in the repository one after another.

- `# aider chat started at <local time>` begins a run (frame; its time is the time of the run's first message).
- What the user typed: a blank line, then each line as `#### <line>` with a Markdown hard break (two spaces);
  commands (`#### /add x`) too. Shown as typed.
- Aider's own output (announcements, confirmations, `Applied edit to …`, `Commit …`, warnings, errors, lint
  reports): each line as `> <line>` with a hard break. Hidden (role `system`, named `aider`); the announcements
  name aider's version and the main model, `Tokens: … Cost: …` the usage of the reply before it (aider rounds
  counts of a thousand or more: `2.9k`), `^C again to exit` an interruption of the reply after it.
- Anything else is the model's reply, written whole after a blank line: its SEARCH/REPLACE edits are part of the
  answer the user saw; reasoning left in it (`<thinking-content-…>`, `<think>`) is analysis.

The reply's own Markdown may hold lines that look like aider's (`#### a heading  `, `> a quote  `). Aider writes
its own lines with two trailing spaces, a blank line before what the user typed and before a reply, and a blank
line after a reply: a line that looks like aider's is the reply's when no blank line comes before it; lines that
looked like aider's after a blank line but are followed by more of the reply with none between (which aider never
writes) were the reply's too, and are reported (W-AMBIGUOUS-LINE) rather than decided silently. A file that ends
mid-line was cut short (E-STREAM-TRUNCATED). Shell output (`/run`, `!cmd`) is not in this file: the LLM history
has it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from viewer.model import Message, Meta, Segment, Transcript, Usage, make_diagnostic
from viewer.parse.agents.meta import usage_totals
from viewer.parse.agents.reasoning_tags import split_reasoning
from viewer.parse.options import ParseOptions

DIALECT = "aider"
RUN = re.compile(r"# aider chat started at (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\s*\Z")
TYPED = "#### "
HARD_BREAK = "  "
VERSION = re.compile(r"\AAider v(\S+)")
MAIN_MODEL = re.compile(r"\A(?:Main model|Model): (\S+)")
TOKENS = re.compile(r"Tokens: ([\d.]+k?) sent(?:, ([\d.]+k?) cache write)?(?:, ([\d.]+k?) cache hit)?, "
                    r"([\d.]+k?) received\.")
COST = re.compile(r"Cost: \$([\d.]+) message")
INTERRUPTED = ("^C again to exit", "^C KeyboardInterrupt")


@dataclass(slots=True)
class _Block:
    """Consecutive lines of one kind: `user`, `aider` or `reply`."""

    kind: str
    start: int
    end: int
    lines: list[str] = field(default_factory=list)
    run: int = 0


def parse_aider_chat(text: str, options: ParseOptions) -> Transcript:
    """Read an aider chat history. Never raises on user input."""
    reader = _Reader(text)
    for number, start, end in raw_lines(text):
        reader.line(number, start, end)
    return reader.finished()


def raw_lines(text: str):
    """`(line number from 1, start, end)` of every line, blank ones too, with its trailing blanks (aider's marks
    are two trailing spaces) but without its line break."""
    start = 0
    number = 0
    while start < len(text):
        number += 1
        stop = text.find("\n", start)
        stop = len(text) if stop == -1 else stop
        yield number, start, stop - 1 if stop > start and text[stop - 1] == "\r" else stop
        start = stop + 1


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.blocks: list[_Block] = []
        self.frame: list[Segment] = []
        self.diagnostics: list = []
        self.runs: list[str] = []
        self.blank_before = True

    def line(self, number: int, start: int, end: int) -> None:
        line = self.text[start:end]
        if not line.strip():
            self.blank_before = True
            return
        after_blank, self.blank_before = self.blank_before, False
        run = RUN.match(line)
        if run is not None:
            self.runs.append(run[1])
            self.frame.append(Segment("event", line, start, end))
            self.blocks.append(_Block("run", start, end, run=len(self.runs)))
            return
        current = self.blocks[-1] if self.blocks else None
        # Right after aider's or the user's lines (no blank between, so no reply can start here), a line's first
        # mark is enough: a line cut short has lost its trailing spaces.
        kind = _kind(line, strict=after_blank or current is None or current.kind == "reply")
        if kind == "reply":
            if current is not None and current.kind == "reply":
                current.end = end
            elif current is not None and current.kind != "run" and not after_blank and self._follows_reply():
                self._back_into_reply(current, number, end)
            else:
                self.blocks.append(_Block("reply", start, end, run=len(self.runs)))
            return
        if current is not None and current.kind == "reply" and not after_blank:
            current.end = end  # aider ends a reply with a blank line: this is the reply's own Markdown
            return
        if current is not None and current.kind == kind and not (kind == "user" and after_blank):
            current.lines.append(_content(line, kind))
            current.end = end
            return
        self.blocks.append(_Block(kind, start, end, [_content(line, kind)], run=len(self.runs)))

    def _follows_reply(self) -> bool:
        return len(self.blocks) >= 2 and self.blocks[-2].kind == "reply"

    def _back_into_reply(self, block: _Block, number: int, end: int) -> None:
        """Lines read as typed input or aider's output, after a reply and before more of its text with no blank
        line between: aider never writes so, they were the reply's own Markdown (reported, as the reading is
        the file's layout, not its marks)."""
        self.blocks.pop()
        reply = self.blocks[-1]
        reply.end = end
        self.diagnostics.append(make_diagnostic(
            "W-AMBIGUOUS-LINE", (block.start, block.end),
            f"These lines look like {'typed input' if block.kind == 'user' else 'aider output'}, but the reply "
            f"goes on right after them (line {number}): they were read as the reply's own Markdown."))

    def finished(self) -> Transcript:
        messages: list[Message] = []
        usages: list[Usage] = []
        models: dict[str, None] = {}
        header: dict[str, Any] = {"producer": DIALECT, "agent": "Aider"}
        model: str | None = None
        started: set[int] = set()
        interrupted = False
        for turn, block in enumerate(self.blocks):
            if block.kind == "run":
                continue
            first_of_run = block.run not in started
            started.add(block.run)
            timestamp = _run_time(self.runs[block.run - 1]) if first_of_run and block.run else None
            if block.kind == "aider":
                model, usage = self._aider_lines(block, header, model, messages)
                if usage is not None:
                    usages.append(usage)
                interrupted = interrupted or any(line.strip() in INTERRUPTED for line in block.lines)
                messages.append(_message(len(messages), turn, "system", "\n".join(block.lines), block, name="aider",
                                         timestamp=timestamp))
            elif block.kind == "user":
                typed = "\n".join("" if line == "<blank>" else line for line in block.lines)
                messages.append(_message(len(messages), turn, "user", typed, block, timestamp=timestamp))
                if typed.strip() and not typed.startswith("/"):
                    header.setdefault("title", typed.strip().splitlines()[0])
            else:
                if model:
                    models[model] = None
                first = len(messages)
                for reasoning, said, unclosed in split_reasoning(self.text[block.start:block.end]):
                    messages.append(_message(len(messages), turn, "assistant", said, block, model=model,
                                             channel="analysis" if reasoning else "final",
                                             timestamp=timestamp if len(messages) == first else None))
                    if unclosed:
                        self.diagnostics.append(make_diagnostic(
                            "W-UNCLOSED-BLOCK", (block.start, block.end), "A reasoning block is not closed: the "
                                                                          "rest of the reply was read as reasoning.",
                            len(messages) - 1))
                if interrupted:
                    self.diagnostics.append(make_diagnostic(
                        "W-SESSION-INTERRUPTED", (block.start, block.end), "The user interrupted this reply "
                                                                           "(^C): it is what had streamed.", first))
                    interrupted = False
        if messages and self.text.rstrip(" \t") and not self.text.endswith("\n"):
            last = messages[-1]
            self.diagnostics.append(make_diagnostic(
                "E-STREAM-TRUNCATED", last.span, "The file ends in the middle of a line: it was cut short while aider "
                                                 "wrote it or while it was copied; what follows is missing.",
                last.index))
        if self.runs:
            header |= {"runs": len(self.runs), "started": _run_time(self.runs[0])}
        header |= usage_totals(usages, models)
        return Transcript(dialect=DIALECT, source=self.text, messages=tuple(messages),
                          diagnostics=tuple(sorted(self.diagnostics, key=lambda d: d.span)), header=header,
                          frame=tuple(self.frame))

    def _aider_lines(self, block: _Block, header: dict[str, Any], model: str | None,
                     messages: list[Message]) -> tuple[str | None, Usage | None]:
        """The facts aider's output gives: its version, the main model, the usage of the reply before it (put on
        that reply's last message)."""
        usage = None
        said = " ".join(block.lines)
        for line in block.lines:
            version = VERSION.match(line)
            if version is not None:
                header.setdefault("version", version[1])
            named = MAIN_MODEL.match(line)
            if named is not None:
                model = named[1]
        tokens = TOKENS.search(said)
        if tokens is not None:
            sent, write, hit, received = (_count(group) for group in tokens.groups())
            cost = COST.search(said)
            usage = Usage(input=max(sent - write - hit, 0), output=received, cache_read=hit, cache_write=write,
                          cost=float(cost[1]) if cost else None)
            for at in range(len(messages) - 1, -1, -1):
                message = messages[at]
                if message.role == "assistant":
                    messages[at] = message.changed(meta=Meta(timestamp=message.meta.timestamp if message.meta else None,
                                                             model=model, usage=usage))
                    break
                if message.role == "user":
                    break
        return model, usage


def _kind(line: str, strict: bool) -> str:
    """What a line is by its marks: typed input, aider's output, or the reply's text. `strict`: its trailing two
    spaces are asked for too."""
    spaced = line.endswith(HARD_BREAK) or not strict
    if line.startswith(TYPED) and spaced:
        return "user"
    if line.startswith(">") and (spaced or not line[1:].strip()) and (len(line) == 1 or line[1] == " "):
        return "aider"
    return "reply"


def _content(line: str, kind: str) -> str:
    if kind == "user":
        return line[len(TYPED):].removesuffix(HARD_BREAK)
    if kind == "aider":
        return line[2:].removesuffix(HARD_BREAK) if line[1:].strip() else ""
    return line


def _count(value: str | None) -> int:
    """A count as aider prints it: exact below a thousand, then `2.9k` or `12k`."""
    if not value:
        return 0
    try:
        return round(float(value[:-1]) * 1000) if value.endswith("k") else int(float(value))
    except ValueError:
        return 0


def _run_time(value: str) -> str:
    """The run's local time as written (aider records no zone): ISO 8601 without an offset."""
    return value.replace(" ", "T")


def _message(index: int, turn: int, role: str, content: str, block: _Block, *, name: str | None = None,
             channel: str = "final", model: str | None = None, timestamp: str | None = None) -> Message:
    meta = Meta(timestamp=timestamp, model=model) if timestamp or model else None
    return Message(index=index, turn=turn, role=role, body=content, span_start=block.start, span_end=block.end,
                   name=name, channel=channel, channel_explicit=channel == "analysis", meta=meta)
