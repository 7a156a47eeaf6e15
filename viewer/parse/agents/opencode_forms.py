"""OpenCode's three forms (viewer/parse/agents/opencode.py) read into the same objects: the export's values, the
storage folder's files and the database's rows, each object with the line (a value, a file, a row) it stands in."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from viewer.bundles import Bundle, Member
from viewer.model import Diagnostic, Transcript, make_diagnostic
from viewer.parse.agents.lines import Line
from viewer.parse.agents.stores import call_with_id, document, owner, rows, table
from viewer.parse.json.fields import object_in
from viewer.parse.json.positions import JsonError, read_value

STORAGE = {"session": r"(?:^|/)session/[^/]+/ses_[^/]+\.json$", "message": r"(?:^|/)message/ses_[^/]+/[^/]+\.json$",
           "part": r"(?:^|/)part/msg_[^/]+/[^/]+\.json$", "project": r"(?:^|/)project/[^/]+\.json$"}
"""The storage folder's files of each kind (also under an older `session/` layout: the last two levels decide)."""


@dataclass(slots=True)
class Store:
    """The objects of one form, each with the line (a row, a file, a value of the export) it stands in."""

    sessions: dict[str, Line] = field(default_factory=dict)
    messages: dict[Any, list[Line]] = field(default_factory=dict)
    """By session id as written (an object that names none, or names it by other than text, is under what it
    says, which is no session's: the reader names it as not read); each line's value the message object (with
    its ids)."""
    parts: dict[Any, list[Line]] = field(default_factory=dict)
    """By message id as written (as `messages`); each line's value the part object."""
    problems: list[Diagnostic] = field(default_factory=list)
    read: list[Member] = field(default_factory=list)
    unread: list[dict[str, Any]] = field(default_factory=list)
    """The messages and parts read into no session (their owner is not in the upload), for the header's `unread`
    (stores.kept_unread)."""
    projects: dict[str, dict] = field(default_factory=dict)
    """The projects the sessions belong to (the worktree, its version control), by id, as written less the id."""

    def project(self, value: dict) -> None:
        if isinstance(value.get("id"), str):
            self.projects[value["id"]] = {key: item for key, item in value.items() if key != "id"}

    def message(self, line: Line) -> None:
        self.messages.setdefault(owner(line.value.get("sessionID")), []).append(line)

    def part(self, line: Line) -> None:
        self.parts.setdefault(owner(line.value.get("messageID")), []).append(line)


def export_store(text: str) -> Store | Diagnostic:
    """`opencode export`'s session, its messages and their parts, each read where it stands; what is wrong when
    the text is no export."""
    store = Store()
    try:
        root = read_value(text, len(text) - len(text.lstrip()), 4)
    except JsonError as error:
        return make_diagnostic("E-STREAM-TRUNCATED" if not text.rstrip().endswith("}") else "W-JSON-SYNTAX",
                               (0, len(text)), f"The export is not valid JSON ({error.reason.strip()}); it was not "
                                               "read.")
    info = root.members.get("info")
    messages = root.members.get("messages")
    if info is None or not isinstance(info.node.value, dict):
        return make_diagnostic("W-JSON-SHAPE", (0, len(text)), "An OpenCode export holds its session as `info`; "
                                                               "this has none.")
    if text[root.span[1]:].strip():
        store.problems.append(make_diagnostic("W-JSON-SYNTAX", (root.span[1], len(text)), "Text follows the export; "
                                                                                          "it was not read."))
    store.sessions[str(info.node.value.get("id"))] = Line(1, info.node.span, info.node.value, text)
    for message in messages.node.items if messages is not None else ():
        node = message.members.get("info")
        if node is None or not isinstance(node.node.value, dict):
            store.problems.append(make_diagnostic("W-JSON-SHAPE", message.span, "This message has no `info`; it "
                                                                                "was not read."))
            continue
        store.message(Line(1, node.node.span, node.node.value, text))
        parts = message.members.get("parts")
        for part in parts.node.items if parts is not None else ():
            if isinstance(part.value, dict):
                store.part(Line(1, part.span, {"messageID": node.node.value.get("id"), **part.value}, text))
    return store


def storage_store(text: str, bundle: Bundle) -> Store:
    """The storage folder's session, message and part files."""
    store = Store()
    for kind, pattern in STORAGE.items():
        for member in bundle.matching(pattern):
            line = document(text, member.span, store.problems, f"The file {member.path}")
            store.read.append(member)
            if line is None:
                continue
            if kind == "session":
                store.sessions[str(line.value.get("id"))] = line
            elif kind == "project":
                store.project(line.value)
            elif kind == "message":
                store.message(line)
            else:
                store.part(line)
    return store


def database_store(text: str, bundle: Bundle) -> Store:
    """opencode.db's rows, each object with the ids its columns hold."""
    store = Store()
    for name in ("session", "message", "part"):
        member = table(bundle, name)
        if member is not None:
            store.read.append(member)
        for row in rows(text, member, store.problems):
            data = row.get("data") if name != "session" else row.value
            if not isinstance(data, dict):
                store.problems.append(make_diagnostic("W-JSON-SYNTAX", row.span, f"The {name} row's data is not a "
                                                      "JSON object (cut short as it was written?); it was not read."))
                continue
            ids = {"id": row.get("id"), "sessionID": row.get("session_id"), "messageID": row.get("message_id")}
            row.value = {**{key: value for key, value in ids.items() if value is not None}, **data}
            if name == "session":
                row.value = {**row.value, "parentID": row.get("parent_id"), "directory": row.get("directory"),
                             "time": {"created": row.get("time_created"), "updated": row.get("time_updated")}}
                store.sessions[str(row.get("id"))] = row
            elif name == "message":
                store.message(row)
            else:
                store.part(row)
    projects = table(bundle, "project")
    for row in rows(text, projects, store.problems):
        store.project(row.value)
    if projects is not None:
        store.read.append(projects)
    return store


def task_calls(store: Store) -> Callable[[Transcript, str], int | None]:
    """The call that started each sub-agent's session: the `task` tool part whose state names the session."""
    started: dict[str, str] = {}
    for lines in store.parts.values():
        for line in lines:
            metadata = object_in(object_in(line.value, "state"), "metadata")
            if isinstance(metadata.get("sessionId"), str) and isinstance(line.get("callID"), str):
                started[metadata["sessionId"]] = line.get("callID")
    return lambda parent, child: call_with_id(parent, started.get(child))
