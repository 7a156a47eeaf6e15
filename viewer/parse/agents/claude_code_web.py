"""A Claude Code session as Claude Code on the web keeps it: the answer of its session API
(`GET /v1/session_ingress/session/<id>`), one JSON object whose `loglines` array holds the session's entries, each
the object the CLI writes as a line of its local log (it sends its entries there one at a time, and reads them back
to resume the session on another machine). `claude-code-transcripts web --json` saves that answer as it came,
indented; saved with curl it is one line.

The entries are read in order as a log's lines are, by the same reader (claude_code.py, `parse_claude_code`), each
numbered by its place in the array; the document's other members are kept in the header's `unread`. A document cut
short keeps every entry before the cut (E-STREAM-TRUNCATED).
"""
from __future__ import annotations

import re

import msgspec

from viewer.model import Diagnostic, make_diagnostic
from viewer.parse.agents.lines import Line
from viewer.parse.agents.session import Session, unread_names
from viewer.parse.json.positions import JsonError, Member, Node, Partial, read_value, skip_blank

ENTRIES = "loglines"
"""The member holding the session's entries."""
HEAD_CHARS = 65536
"""How much of an upload `is_document` looks at."""
_ENTRIES_KEY = re.compile(r'(?<!\\)"loglines"\s*:\s*\[')
_MEMBERS = msgspec.json.Decoder(dict[str, msgspec.Raw]).decode


def is_document(text: str) -> bool:
    """Whether a Claude Code upload (or the head of one) is the web's session document, not a log: a JSON object
    with a `loglines` array. A log's first line is a whole entry; a document's first line is the whole document
    (written on one line) or its opening brace (written indented)."""
    start = skip_blank(text, 0)
    head = text[start:start + HEAD_CHARS]
    if not head.startswith("{") or _ENTRIES_KEY.search(head) is None:
        return False
    first = head.split("\n", 1)[0]
    try:
        members = _MEMBERS(first)
    except (msgspec.DecodeError, RecursionError):
        return True  # a document written indented, or on one line longer than the head
    return ENTRIES in members


def document_lines(text: str, session: Session) -> tuple[list[Line], list[Diagnostic]]:
    """The document's entries that are objects, as lines numbered by their place, and the diagnostics of what
    could not be read; the document's other members are kept unread in `session` (the reader's)."""
    start = skip_blank(text, 0)
    partial = Partial((ENTRIES,))
    problems: list[Diagnostic] = []
    try:
        document = read_value(text, start, 2, into=partial)
    except JsonError as error:
        cut = max([item.span[1] for item in partial.items] + [member.span[1] for member in partial.members.values()],
                  default=start)
        reason = error.reason.removesuffix(" at").removesuffix(" starting")
        count = len(partial.items)
        problems.append(make_diagnostic(
            "E-STREAM-TRUNCATED", (cut, len(text.rstrip())),
            f"The session document breaks off mid-JSON ({reason}): it was cut short while it was saved; the "
            f"{count} entr{'y' if count == 1 else 'ies'} before the cut {'is' if count == 1 else 'are'} read."))
        items, members = partial.items, partial.members
    else:
        after = skip_blank(text, document.span[1])
        if after < len(text):
            problems.append(make_diagnostic("W-JSON-SYNTAX", (after, len(text.rstrip())),
                                            "Text follows the session document's closing brace; it was not read."))
        members = dict(document.members)
        held = members.get(ENTRIES)
        items = list(held.node.items) if held is not None and isinstance(held.node.value, list) else []
    _keep_other_members(session, members)
    return _lines(items, text, problems), problems


def _lines(items: list[Node], text: str, problems: list[Diagnostic]) -> list[Line]:
    lines = []
    for number, item in enumerate(items, 1):
        if isinstance(item.value, dict):
            lines.append(Line(number, item.span, item.value, text))
        else:
            problems.append(make_diagnostic("W-JSON-SHAPE", item.span,
                                            f"Entry {number} is not a JSON object; it was skipped."))
    return lines


def _keep_other_members(session: Session, members: dict[str, Member]) -> None:
    """What the document holds beside its entries (or a `loglines` that is no array), kept raw in the header's
    `unread` and named by W-JSON-UNREAD."""
    left = {key: member for key, member in members.items()
            if key != ENTRIES or not isinstance(member.node.value, list)}
    if not left:
        return
    values = {key: member.node.value for key, member in left.items()}
    span = (min(member.span[0] for member in left.values()), max(member.span[1] for member in left.values()))
    names = ", ".join(repr(name) for name in unread_names(values))
    plural = len(values) > 1
    session.unread.append({"members": values})
    session.diagnostics.append(make_diagnostic(
        "W-JSON-UNREAD", span,
        f"The member{'s' if plural else ''} {names} of the session document {'are' if plural else 'is'} not read "
        "by the importer; kept as raw JSON in the header's 'unread'."))
