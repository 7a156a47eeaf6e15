"""A view as one Markdown file: a title, each entry under a heading (`## #3 · Assistant`, with its channel in the
debug view), bodies as written, code and JSON fenced with a fence longer than any backtick run inside, tool use
as the view shows it (a content-free "used get_weather" in the default view; calls and replies with their
recipients in the debug view). A dataset's conversations follow one another, each a section.

Only what the document's view shows is written: the entries come projected, and the default view's never
include a hidden message."""
from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any, Iterator

from viewer import policy, render
from viewer.model.branches import FORKS_KEY
from viewer.model.words import DEBUG, PROMPT_ROLES
from viewer.present import cards, changes
from viewer.render.highlight import pretty_json
from viewer.render.terminal import terminal_text
from viewer.present.document import (NOTHING_HIDDEN, OTHER_VERSIONS, WHAT_IS_HIDDEN, Document, buffered,
                                     conversation_title, windows)
from viewer.store import Entry, Located

_SPECIAL = re.compile(r"([\\`*\[\]<>#~]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))")
"""What could start Markdown inside a line; an underscore between letters (`get_weather`) cannot."""
_BACKTICKS = re.compile(r"`+")
_FENCE_LINE = re.compile(r" {0,3}(`{3,}|~{3,})(.*)")
_LANGUAGE = re.compile(r"[A-Za-z0-9_+#.-]{1,40}")


def markdown(document: Document) -> Iterator[str]:
    """The document as Markdown, in chunks."""
    return buffered(_pieces(document))


def _pieces(document: Document) -> Iterator[str]:
    yield f"# {inline(document.title)}\n\n"
    if document.is_dataset:
        yield (f"{inline(document.dialect)} dataset · {document.view} view · "
               f"{_count(document.counts['conversations'], 'conversation')}, "
               f"{_count(document.counts['messages'], 'message')}\n\n")
        if document.debug and document.header:
            yield f"Header:\n\n{fenced(json.dumps(document.header, ensure_ascii=False, indent=2, default=str), 'json')}"
        for part in document.conversations():
            named = conversation_title(part.header).get("title")  # a chat export's, escaped; the number is not
            yield f"## Conversation #{part.conversation:,}" + (f" · {inline(named)}" if named else "") + "\n\n"
            yield from _transcript(part, level=3)
    else:
        messages = _count(document.counts["messages"], "message")
        yield f"{inline(document.dialect)} · {document.view} view · {messages}\n\n"
        yield from _transcript(document, level=2)
        yield files_changed(document, level=2)


def _transcript(document: Document, level: int) -> Iterator[str]:
    yield _note(document)
    if document.debug:
        if document.header:
            yield f"Header:\n\n{fenced(json.dumps(document.header, ensure_ascii=False, indent=2, default=str), 'json')}"
        loose = [_diagnostic(located) for located in document.transcript_rows.loose_diagnostics()]
        if loose:
            yield "Diagnostics of no message:\n\n" + "".join(loose) + "\n"
    for window, diagnostics in windows(document):
        attached: dict[int | None, list[Located]] = {}
        for located in diagnostics:
            attached.setdefault(located.diagnostic.message_index, []).append(located)
        for item in window:
            if isinstance(item, policy.Marker):
                yield said_lines(item.lines) if item.lines else f"*⚙ {inline(item.text)}*\n\n"
            elif document.debug:
                yield from _debug_entry(item, attached.get(item.index, ()), level)
            else:
                label = cards.role_label(item.message)
                yield f"{'#' * level} #{item.index} · {inline(label)}\n\n{body(item)}"
                if item.said is not None:
                    yield said_lines(((item.index, item.said),))


def said_lines(lines: tuple[tuple[int, policy.Said], ...]) -> str:
    """What an agent's screen showed, a call a list item: the tool and its argument as code, the outcome after
    `⎿`, the lines under it, and a plan put to the user as written."""
    written = []
    for _, said in lines:
        target = f" `{_code_span(said.target)}`" if said.target else ""
        badge = f" **{said.status}**" if said.failed and said.kind != "interruption" else ""
        line = f"- ● {inline(said.tool)}{target}{badge}"
        if said.outcome:
            line += f"  \n  ⎿ {inline(said.outcome)}"
        line += "".join(f"  \n  {inline(item)}" for item in said.items)
        written.append(line + "\n")
        if said.text:
            written.append("\n" + "".join(f"  > {row}\n" if row else "  >\n" for row in said.text.split("\n")))
    return "".join(written) + "\n"


def files_changed(document: Document, level: int) -> str:
    """The debug view's files-changed section: a heading per file, each step's diff fenced under the call that
    made it (an agent's session only)."""
    if not document.debug or not changes.has_screen(document.dialect):
        return ""
    changed = changes.of_document(document)
    heading = "#" * level
    parts = [f"{heading} Files changed\n\n{inline(changes.summary(changed))}\n\n"]
    for item in changed:
        added, removed = item.counts
        parts.append(f"{heading}# {inline(item.path)} · {changes.WORDS[item.action]} (+{added} -{removed})\n\n")
        for step in item.steps:
            state = "" if step.applied else f" · **{step.status}**, not applied"
            placed = "" if step.placed else " · its text to replace was not in the file as known"
            parts.append(f"*#{step.call} · {step.action}{state}{placed}*\n\n")
            if step.diff:
                parts.append(fenced(step.diff, "diff"))
    return "".join(parts)


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def _note(document: Document) -> str:
    if document.debug:
        return "*Debug view: every message, with the rule that decides it in the default view.*\n\n"
    hidden, total = document.counts["hidden"], document.counts["messages"]
    versions = f" {OTHER_VERSIONS}" if document.header.get(FORKS_KEY) else ""
    if not hidden:
        return f"*{NOTHING_HIDDEN}{versions}*\n\n"
    return f"*{hidden:,} of {total:,} messages are not shown: {WHAT_IS_HIDDEN}{versions}*\n\n"


def _debug_entry(entry: Entry, diagnostics: tuple[Located, ...] | list[Located], level: int) -> Iterator[str]:
    card = cards.Card(DEBUG, entry.index, entry)
    message = entry.message
    shows_channel = message.role == "assistant" or message.channel_explicit or message.channel != "final"
    channel = f" · {inline(message.channel)}" if shows_channel else ""
    yield f"{'#' * level} #{entry.index} · {inline(card.label)}{channel}\n\n"
    yield " · ".join(f"{name}: `{_code_span(str(value))}`" for name, value in card.fields) + "\n\n"
    states: dict[str | None, str] = {"unanswered": " · **unanswered call**", "orphan": " · **orphan reply**"}
    state = states.get(card.pair_state, "")
    pair = (f" · pair {entry.pair}: {'reply' if message.is_call else 'call'} #{entry.partner}"
            if entry.pair is not None else "")
    yield (f"*Default view: {entry.show_as} — rule `{entry.rule}`: {inline(entry.reason)}*{pair}{state}\n\n")
    yield body(entry)
    if diagnostics:
        yield "".join(_diagnostic(located) for located in diagnostics) + "\n"


def _diagnostic(located: Located) -> str:
    diagnostic = located.diagnostic
    return (f"- **{diagnostic.severity}** `{diagnostic.code}` {located.line}:{located.column} "
            f"{inline(diagnostic.message)}\n")


def body(entry: Entry) -> str:
    """A message body as Markdown: prose as written, code and JSON fenced, structured bodies as labelled
    parts, prompts verbatim (fenced: the model saw them as text, not as Markdown)."""
    message = entry.message
    parts = cards.panel_parts(message)
    if parts:
        return "".join((f"**{inline(part.label)}**\n\n" if part.label else "")
                       + (fenced(part.text, None) if part.as_code else as_written(part.text)) for part in parts)
    content_type = (message.content_type or "").strip().lower().removeprefix("<|constrain|>")
    if message.role in PROMPT_ROLES and not content_type:
        return fenced(message.content, "text")
    tool = cards.tool_job(message)
    if tool is not None:
        return _tool_body(tool)
    if (message.is_call or message.is_reply) and message.content.lstrip().startswith(("{", "[")):
        content_type = content_type or "json"
    if content_type in render.MARKDOWN_TYPES:
        return as_written(message.content)
    if content_type.endswith(("/json", "+json")):
        content_type = "json"
    return fenced(message.content, content_type if _LANGUAGE.fullmatch(content_type) else None)


def _tool_body(job: Any) -> str:
    """A tool's traffic as the page draws it (cards.tool_job), in Markdown: each part fenced, output as the
    terminal showed it, an edit as a diff under its file's path."""
    if job.kind == "terminal":
        return fenced(terminal_text(str(job.payload)), "text")
    parts = []
    for part in job.payload:
        label = f"**{inline(part.label)}**\n\n" if part.label else ""
        if part.language == render.TERMINAL:
            parts.append(label + fenced(terminal_text(part.text), "text"))
        else:
            parts.append(label + fenced(pretty_json(part.text) if part.language == "json" else part.text,
                                        part.language))
    return "".join(parts)


def as_written(text: str) -> str:
    """Prose as written, closing a code fence it leaves open (it would swallow the rest of the file)."""
    if not text.strip():
        return "*(empty)*\n\n"
    opened = None
    for line in text.split("\n"):
        match = _FENCE_LINE.fullmatch(line.rstrip("\r"))
        if match is None:
            continue
        fence, info = match.groups()
        if opened is None and not (fence[0] == "`" and "`" in info):
            opened = fence
        elif opened is not None and fence[0] == opened[0] and len(fence) >= len(opened) and not info.strip():
            opened = None
    closing = f"\n{opened}" if opened else ""
    return f"{text.rstrip()}{closing}\n\n"


def fenced(text: str, language: str | None) -> str:
    """A code block whose fence is longer than any run of backticks inside it."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language or ''}\n{text.rstrip(chr(10))}\n{fence}\n\n"


@lru_cache(maxsize=1024)
def inline(text: str) -> str:
    """Text for a heading or a line: Markdown's special characters escaped, line breaks as spaces. Cached: the
    same few labels head thousands of messages (a tenth of a big export's time)."""
    return _SPECIAL.sub(r"\\\1", " ".join(text.split()))


def _code_span(text: str) -> str:
    # A backtick inside a one-backtick code span would end it; field values rarely hold one.
    return " ".join(text.replace("`", "'").split())
