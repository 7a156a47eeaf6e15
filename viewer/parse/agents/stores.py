"""What the readers of agents that keep their sessions in a database or a folder of files share (Goose, Crush,
OpenCode, Cursor): the rows of a database's tables, or the files of a folder, as lines of the bundle text
(viewer/bundles) that the session builder numbers; each session read on its own, its sub-agents' sessions joined
to it as threads, several sessions a dataset; and the times they record, as ISO 8601."""
from __future__ import annotations

import dataclasses
import datetime as dt
import json
from collections.abc import Callable, Iterable
from typing import Any

from viewer.bundles import Bundle, Member
from viewer.bundles.text import lines_of
from viewer.model import Diagnostic, Span, Transcript, make_diagnostic
from viewer.parse.agents.lines import Line
from viewer.parse.bundles import finished, titled
from viewer.parse.bundles.threads import Child, joined
from viewer.parse.common import Pending, shown_json
from viewer.parse.json.positions import JsonError, read_value
from viewer.parse.json.source import Draft


def not_a_database(dialect: str, text: str, said: str) -> Transcript:
    """What a store's reader makes of a text that is no database (chosen with `--dialect`): nothing, said."""
    diagnostics = (make_diagnostic("W-JSON-SHAPE", (0, len(text)), f"{said}; this is not one, and was not read."),) \
        if text.strip() else ()
    return Transcript(dialect=dialect, source=text, diagnostics=diagnostics)


def table(bundle: Bundle, name: str) -> Member | None:
    """The member of a database table (`<database>#<name>`), the first database's when there are several."""
    return next((member for member in bundle.members if member.readable and member.path.endswith("#" + name)), None)


def rows(text: str, member: Member | None, problems: list[Diagnostic]) -> list[Line]:
    """A table's rows, one JSON object a line; a line that is not one is reported and skipped."""
    found: list[Line] = []
    if member is None:
        return found
    for number, start, end in lines_of(text, member.span):
        line = document(text, (start, end), problems, f"Row {number} of {member.path}")
        if line is not None:
            line.number = number
            found.append(line)
    return found


def document(text: str, span: Span, problems: list[Diagnostic], what: str) -> Line | None:
    """One JSON object standing in `span` (a row, a file of a storage folder) as a line; None, reported, when it
    is no whole object."""
    try:
        node = read_value(text, span[0], 0)
        if text[node.span[1]:span[1]].strip():
            raise JsonError("extra text after the value", node.span[1] - span[0])
    except JsonError as error:
        code = "E-STREAM-TRUNCATED" if _cut_short(text, span) else "W-JSON-SYNTAX"
        problems.append(make_diagnostic(code, span, f"{what} is not valid JSON ({error.reason.strip()}); it was "
                                                    "not read."))
        return None
    if not isinstance(node.value, dict):
        problems.append(make_diagnostic("W-JSON-SHAPE", span, f"{what} is not a JSON object; it was not read."))
        return None
    return Line(1, span, node.value, text)


def _cut_short(text: str, span: Span) -> bool:
    """A JSON document that ends where its text ends, open: a file cut short while it was written."""
    stripped = text[span[0]:span[1]].rstrip()
    return bool(stripped) and stripped[-1] not in "}]"


def item_spans(line: Line, key: str) -> list[Span]:
    """The spans of the items of a row's list member (a message's parts): where each message of several lies."""
    member = line.member(key)
    if member is None or not isinstance(member.node.value, list):
        return []
    return [item.span for item in read_value(line.text, member.node.span[0], 1).items or ()]


def call_with_id(transcript: Transcript, call_id: str | None) -> int | None:
    """The index of the call with this id (a sub-agent's starting call); None when there is none."""
    return next((message.index for message in transcript.messages if message.is_call and message.call_id == call_id),
                None) if call_id else None


def unreadable(line: Line, key: str) -> Draft:
    """A row whose JSON column cannot be read (cut short as it was written, or not a list): a hidden message of its
    own, in the debug view, with a diagnostic."""
    piece = Draft(dict(role="unknown", channel="unknown", content=shown_json(line.get(key)), end="end"), line.span)
    piece.problems.append(Pending("W-JSON-SYNTAX", f"Its {key} is not the JSON list of parts the agent writes (cut "
                                                   "short as it was written?); it is kept as a message of its own, "
                                                   "hidden from the default view.", line.span))
    return piece


def decoded(value: Any) -> Any:
    """A column that holds JSON: written as JSON in the bundle when it was JSON text (viewer/bundles/database.py),
    else decoded here (a JSON string, a number); None when it is not JSON."""
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except (ValueError, RecursionError):
        return None


def iso_time(value: Any) -> str | None:
    """A time as ISO 8601 UTC: seconds or milliseconds since the epoch (a number over 10^11 is milliseconds), or
    SQLite's `YYYY-MM-DD HH:MM:SS` text (UTC), or ISO text kept as written."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        seconds = value / 1000 if value > 1e11 else value
        try:
            moment = dt.datetime.fromtimestamp(seconds, dt.timezone.utc)
        except (ValueError, OverflowError, OSError):
            return None
        return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    if isinstance(value, str) and value:
        if len(value) == 19 and value[10] == " ":
            return value.replace(" ", "T") + "Z"
        return value[:40]
    return None


@dataclasses.dataclass(slots=True)
class Sessions:
    """An agent's sessions as read: each session's transcript, parent, title and how its sub-agent's thread is
    named, in the order the agent lists them (oldest first)."""

    read: dict[str, Transcript] = dataclasses.field(default_factory=dict)
    parents: dict[str, str | None] = dataclasses.field(default_factory=dict)
    titles: dict[str, str | None] = dataclasses.field(default_factory=dict)

    def add(self, id: str, transcript: Transcript, parent: str | None = None, title: str | None = None) -> None:
        self.read[id] = transcript
        self.parents[id] = parent
        self.titles[id] = title

    def assembled(self, dialect: str, text: str, bundle: Bundle, find_call: Callable[[Transcript, str], int | None],
                  *, read: Iterable[Member], understood: Iterable[Member] = (),
                  problems: Iterable[Diagnostic] = (), unread: Iterable[dict[str, Any]] = ()) -> Transcript:
        """One transcript per session whose parent is not among them, each with its sub-agents' sessions joined
        as threads; several are a dataset, each titled (its own title, else the first thing the user typed). The
        rows read into no session (`unread`, as `kept_unread` writes them) are the header's `unread`, the single
        session's or the dataset's own."""
        roots = [id for id, parent in self.parents.items() if parent not in self.read]
        conversations = []
        for root in roots:
            children, queue = [], [root]
            while queue:
                below = [id for id, parent in self.parents.items() if parent == queue[0] and id != root]
                queue = queue[1:] + below
                children += [Child(id, self.titles[id], self.read[id]) for id in below]
            session = joined(self.read[root], children, find_call)
            title = self.titles[root]
            header = {**session.header, **({"title": title} if title else {})}
            conversations.append(titled(dataclasses.replace(session, header=header)))
        problems, left = tuple(problems), list(unread)
        if len(conversations) == 1:
            single = conversations[0]
            header = {**single.header, "unread": [*single.header.get("unread", ()), *left]} if left else single.header
            single = dataclasses.replace(single, diagnostics=single.diagnostics + problems, header=header)
            return finished(single, text, bundle, read=read, understood=understood)
        dataset = Transcript(dialect=dialect, source=text, conversations=tuple(conversations), diagnostics=problems,
                             header={"unread": left} if left else {})
        return finished(dataset, text, bundle, read=read, understood=understood)


def owner(value: Any) -> Any:
    """An id a row names its owner by (its session, its message), as a key: as written when it is text or a number,
    else its JSON text marked apart (a column holding JSON may give a list, which is no key, and no session's id)."""
    return value if value is None or isinstance(value, (str, int, float)) else ("json", shown_json(value))


def kept_unread(line: Line, where: str) -> dict[str, Any]:
    """A row (or a file) read into no session, which its reader names as not read (W-BUNDLE-MEMBER: a message
    whose session has no row, a part whose message has none), as written, for the header's `unread` (as
    `Session.keep_left` keeps a line's members: `{"messages row": 17, "members": …}`)."""
    return {where: line.number, "members": line.value}
