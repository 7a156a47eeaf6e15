"""How each agent's own session list titles and dates a session (the records' `lister`, each given the path and
the dialect it was found as): its title or summary,
else the first thing the user typed (never a slash command the session began with, nor text the agent injected),
and the last time the session records. Each reads the start and the end of the file only."""
from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path
from typing import Any

from viewer.parse import parse
from viewer.parse.agents.wrappers import user_text
from viewer.policy import Projection
from viewer.sessions import stores
from viewer.sessions.folders import event_files
from viewer.sessions.listed import Listed, last_time, moment, one_line, peek

FIRST_EVENTS = 40
"""How many of a conversation folder's first events are read to find the first thing the user typed."""
_EVENT_FILE = re.compile(r"event-\d{5,}-[\w-]+\.json|\d+\.json")
"""How OpenHands names an event's file: V1 `event-00007-<id>.json`, V0 `7.json`."""
_SPECSTORY_NAME = re.compile(r"(\d{4}-\d{2}-\d{2})_(\d{2})-(\d{2})-(\d{2})Z(?:-(.+))?\.md\Z")


def first_shown(text: str, dialect: str) -> str | None:
    """The first user message the default view shows of the text (a start of the file)."""
    message = Projection.of(parse(text, dialect)).first_visible_user_message()
    return message.content if message is not None else None


def by_first_message(path: Path, dialect: str) -> Listed:
    """Any session: the first user message the default view shows, the last time the file records."""
    seen = peek(path)
    return Listed(one_line(first_shown(seen.head, dialect)), last_time(seen.tail))


# ---- Claude Code -------------------------------------------------------------------------------------------------

def claude_code(path: Path, dialect: str) -> Listed | None:
    """`custom-title` (a rename) > the last `ai-title` > a `summary` of a chain in this file > the first prompt
    the user typed; a sub-agent's log, and a file of title lines only, are not listed."""
    if path.name.startswith("agent-"):
        return None
    seen = peek(path)
    lines = _json_lines(seen.head) + ([] if seen.whole else _json_lines(seen.tail))
    said = [line for line in lines if line.get("type") in ("user", "assistant")]
    if not said or all(line.get("isSidechain") is True for line in said):
        return None
    uuids = {line.get("uuid") for line in said}
    titles = [*(line["summary"] for line in lines if line.get("type") == "summary"
                and line.get("leafUuid") in uuids and isinstance(line.get("summary"), str)),
              *(line["aiTitle"] for line in lines if line.get("type") == "ai-title"
                and isinstance(line.get("aiTitle"), str)),
              *(line["customTitle"] for line in lines if line.get("type") == "custom-title"
                and isinstance(line.get("customTitle"), str))]
    title = titles[-1] if titles else _first_prompt(said)
    return Listed(one_line(title), last_time(seen.tail))


def _first_prompt(lines: list[dict]) -> str | None:
    """The first thing the user typed: not a meta line, a command and its output, a reminder or an interruption."""
    for line in lines:
        if line.get("type") != "user" or line.get("isMeta") is True or line.get("isSidechain") is True \
                or line.get("isCompactSummary") is True:
            continue
        message = _object(line.get("message"))
        for text in _texts(message.get("content")):
            if user_text(text).kind == "typed" and text.strip():
                return text
    return None


def _texts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    return [block["text"] for block in content or () if isinstance(block, dict) and block.get("type") == "text"
            and isinstance(block.get("text"), str)] if isinstance(content, list) else []


def _json_lines(text: str) -> list[dict]:
    found = []
    for line in text.split("\n"):
        line = line.strip()
        if line.startswith("{"):
            try:
                value = json.loads(line)
            except ValueError:
                continue
            if isinstance(value, dict):
                found.append(value)
    return found


# ---- Codex -------------------------------------------------------------------------------------------------------

def codex(path: Path, dialect: str) -> Listed | None:
    """The thread's title in Codex's index (`state_5.sqlite`) when there is one, else the first message the user
    typed; a sub-agent's rollout (its `session_meta.source` names a sub-agent) is not listed."""
    seen = peek(path)
    first = next(iter(_json_lines(seen.head[:64 * 1024])), {})
    payload = _object(first.get("payload")) if first.get("type") == "session_meta" else {}
    source = payload.get("source")
    if isinstance(source, dict) and "subagent" in source:
        return None
    title = _indexed_title(path, payload.get("id")) or first_shown(seen.head, dialect)
    return Listed(one_line(title), last_time(seen.tail))


def _indexed_title(path: Path, thread: Any) -> str | None:
    for folder in list(path.parents)[:6]:
        for index in sorted(folder.glob("state_*.sqlite")):
            if {"title", "rollout_path"} <= stores.columns(index, "threads"):
                found = stores.rows(index, "SELECT title FROM threads WHERE rollout_path = ? OR id = ? LIMIT 1",
                                    (str(path), str(thread)))
                if found and isinstance(found[0][0], str) and found[0][0].strip():
                    return found[0][0]
            return None
    return None


# ---- the other agents whose own lists title a session otherwise than by its first message ---------------------

def factory_droid(path: Path, dialect: str) -> Listed | None:
    """Its `session_start` line's `sessionTitle`, else its `title`; a sub-agent's session (its `session_start`
    names the session that called it) is not listed."""
    seen = peek(path)
    start = next((line for line in _json_lines(seen.head[:64 * 1024]) if line.get("type") == "session_start"), {})
    if start.get("callingSessionId"):
        return None
    title = next((start[key] for key in ("sessionTitle", "title") if isinstance(start.get(key), str)
                  and start[key].strip()), None)
    return Listed(one_line(title or first_shown(seen.head, dialect)), last_time(seen.tail))


def copilot_cli(path: Path, dialect: str) -> Listed:
    """The summary (or the name given with /rename) in the session folder's `workspace.yaml`, else the first
    message the user typed."""
    seen = peek(path)
    title = None
    try:
        workspace = (path.parent / "workspace.yaml").read_text(encoding="utf-8", errors="replace")[:64 * 1024]
    except OSError:
        workspace = ""
    for key in ("name", "summary"):
        found = re.search(rf"^{key}:[ \t]*(.+)$", workspace, re.MULTILINE)
        if found and found[1].strip().strip("'\"") and title is None:
            title = found[1].strip().strip("'\"")
    return Listed(one_line(title or first_shown(seen.head, dialect)), last_time(seen.tail))


# ---- the agents of trajectories and exports ----------------------------------------------------------------------

def openhands(folder: Path, dialect: str) -> Listed | None:
    """A conversation folder: V0's `metadata.json` title, else the first message the user typed; the time of
    its last event. A sub-agent's conversation (`subagents/<id>/`) is not listed."""
    if folder.parent.name == "subagents":
        return None
    files = event_files(folder / "events")
    if not files or not _EVENT_FILE.fullmatch(files[0].name):  # another program's `events` folder
        return None
    metadata = _json_file(folder / "metadata.json")
    title = metadata.get("title") if isinstance(metadata.get("title"), str) else None
    for file in files[:FIRST_EVENTS] if title is None else ():
        title = _typed_event(_json_file(file))
        if title:
            break
    when = moment(metadata.get("last_updated_at")) or moment(_json_file(files[-1]).get("timestamp"))
    return Listed(one_line(title), when)


def _typed_event(event: dict[str, Any]) -> str | None:
    if event.get("source") != "user":
        return None
    if event.get("kind") == "MessageEvent":
        message = _object(event.get("llm_message"))
        return " ".join(_texts(message.get("content"))) or None
    args = _object(event.get("args"))
    return args.get("content") if event.get("action") == "message" and isinstance(args.get("content"), str) else None


def swe_agent(path: Path, dialect: str) -> Listed:
    """A run's trajectory: titled by its instance, dated by its file (it records no times)."""
    return Listed(path.name.removesuffix(".traj"), None)


def mini_swe_agent(path: Path, dialect: str) -> Listed:
    """Titled by its instance (batch runs) or the first line of the task; dated by its last step."""
    seen = peek(path)
    instance = re.search(r'"instance_id"\s*:\s*"([^"\\]+)"', seen.tail)
    task = first_shown(seen.head, dialect)
    title = instance[1] if instance else (task.strip().split("\n", 1)[0] if task else None)
    return Listed(one_line(title), last_time(seen.tail))


def atif(path: Path, dialect: str) -> Listed:
    """A Harbor trial's task (`../result.json`), else the first thing the user typed; its last step's time."""
    seen = peek(path)
    result = _json_file(path.parent.parent / "result.json")
    task = next((result[key] for key in ("task_name", "trial_name") if isinstance(result.get(key), str)), None)
    return Listed(one_line(task or first_shown(seen.head, dialect)), last_time(seen.tail))


def specstory(path: Path, dialect: str) -> Listed:
    """Titled by the words its file is named with (the first words the user typed), dated by the time in its name
    (the first message's, UTC)."""
    named = _SPECSTORY_NAME.search(path.name)
    if named is None:
        return by_first_message(path, dialect)
    when = dt.datetime.fromisoformat(f"{named[1]}T{named[2]}:{named[3]}:{named[4]}+00:00")
    title = named[5].replace("-", " ") if named[5] else first_shown(peek(path).head, dialect)
    return Listed(one_line(title), when)


def _json_file(path: Path) -> dict[str, Any]:
    try:
        value = json.loads(path.read_text(encoding="utf-8", errors="replace"))
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def _object(value: Any) -> dict[str, Any]:
    """A JSON value that should be an object, or an empty one."""
    return value if isinstance(value, dict) else {}
