"""The string values of a JSON input that a reader must not lose, and a test of whether a text holds one.

Used by bench/nothing_lost.py (the share of them found in `viewer render --view debug`) and by
tests/parse/json/test_nothing_lost.py (every one of them found in the debug view's model of the input).

A leaf counts when it is a string of at least `MIN_LENGTH` characters that is none of these, which a reader may
show in another form or not at all: an id (by its key, or by its shape: a UUID, a hash, `call_…`/`msg_…`), a
timestamp, a type tag (`type`, `object`, `event`), or an opaque blob (a signature, encrypted reasoning, base64,
a `data:` URL, an Inspect attachment reference). A string that holds a JSON object or list (tool arguments, a
`tools` string, an OpenTelemetry attribute) counts by the leaves inside it, since readers show it parsed.

A file is counted as the viewer is given it (`file_leaves`): a zip archive of a session folder or a SQLite
database by its members, each member's values on their own (a database's rows as its bundle text writes them: one
JSON line a row, a column that holds JSON text parsed; its schema's SQL, the database's own definition that no
reader reads as a conversation, not counted), and an Inspect AI `.eval` archive by the JSON log it holds.

"Found" compares letters and digits only: a body rendered as Markdown loses its `**` and its line breaks, and a
source panel shows a string with its JSON escapes."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Iterator

from viewer.bundles import is_bundle, read_bundle
from viewer.parse.decode import decode

MIN_LENGTH = 12

ID_KEYS = re.compile(r"(?:^|_)(?:id|ids|uuid|hash|key|fingerprint)$|(?<=[a-z])(?:Id|Ids|Uuid)$"
                     r"|^(?:id|uuid|lc|parent|children|current_node)$", re.I)
TIME_KEYS = re.compile(r"(?:^|_)(?:timestamp|time|created|updated|date|at)$|(?<=[a-z])(?:Time|At|Timestamp)$",
                       re.I)
TAG_KEYS = frozenset(("type", "object", "event", "role", "from", "phase", "state", "status", "content_type",
                      "channel", "subtype", "kind", "say", "ask", "provenance"))
"""Type tags, and the words of a closed set that readers show in another form (a role, a channel, a state; the
type of a Qwen Code system record, a VS Code response part, a Cline UI row; whose a Qwen Code record is, which
makes a user record context or not)."""
OPAQUE_KEYS = frozenset(("signature", "encrypted_content", "thoughtSignature", "thought_signature", "data",
                         "base64", "redacted_content", "encryptedContent", "bytes", "image_url", "url", "file_data",
                         "fileData", "inlineData", "inline_data", "blob", "images", "encrypted_index"))
"""Members whose strings are payloads or opaque tokens, never text a person reads."""

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)
_PREFIXED_ID = re.compile(r"[A-Za-z]{1,12}[_-][A-Za-z0-9]{12,}")
_HEX = re.compile(r"[0-9a-f]{16,}", re.I)
_TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?")
_BLOB = re.compile(r"[A-Za-z0-9+/=_-]{48,}")
_OPAQUE_PREFIXES = ("data:", "attachment://", "@@cut-")
_NOT_WORD = re.compile(r"[\W_]+")
_MARKUP = re.compile(r"</?([A-Za-z][\w:-]*)((?:\s+[\w:-]+=\"[^\"]*\")*)\s*/?>")
"""Where readers split a text: reasoning left in an answer (`<think>…</think>`) is a message of its own, and the
tags an agent wraps around what it wrote or was sent (`<task>`, `<user_query>`, Cline's XML tool calls, whose
parameters are a call's arguments) are shown as what they wrap: a tag's name is markup, its attributes' values
and the text between tags count."""
_ATTRIBUTE = re.compile(r"=\"([^\"]*)\"")
_CUT_MARK = re.compile(r"\s*(\[Response interrupted by (?:user|API Error)\])\s*\Z")
"""The mark Cline, Roo Code and Kilo Code append to a response they saved cut short: readers take it off the text
and quote it in the diagnostic that says so, so the text before it and the mark count on their own."""
_BASE64_MEDIA = ("iVBORw0K", "/9j/", "R0lGOD", "UklGR", "JVBERi0")
"""How base64 PNG, JPEG, GIF, WebP and PDF data start."""


@dataclass(frozen=True, slots=True)
class Leaf:
    path: str
    """Where it stands: `messages[2].content[0].text` (a `~` marks a JSON string read as JSON)."""
    value: str


def string_leaves(value: Any, path: str = "$") -> Iterator[Leaf]:
    """Every counted string leaf of a decoded JSON value (see the module's docstring)."""
    yield from _walk(value, path, None)


def _walk(value: Any, path: str, key: str | None) -> Iterator[Leaf]:
    if isinstance(value, dict):
        for name, item in value.items():
            yield from _walk(item, f"{path}.{name}", name if isinstance(name, str) else None)
    elif isinstance(value, list):
        for at, item in enumerate(value):
            yield from _walk(item, f"{path}[{at}]", key)
    elif isinstance(value, str) and (nested := _json_inside(value)) is not None:
        yield from _walk(nested, path + "~", key)
    elif isinstance(value, str) and (mark := _CUT_MARK.search(value)) and mark.start() and key not in OPAQUE_KEYS:
        yield from _walk(value[:mark.start()], path + "#0", key)
        yield Leaf(path + "#1", mark[1])
    elif isinstance(value, str) and _MARKUP.search(value) and key not in OPAQUE_KEYS:
        # Reasoning left in an answer (`<think>…</think>`) or text inside an agent's tags: readers split it off or
        # take the tags away, and what follows may be JSON (a ShareGPT function_call's calls), so each piece
        # counts on its own.
        for number, piece in enumerate(_pieces(value)):
            yield from _walk(piece, f"{path}#{number}", key)
    elif isinstance(value, str) and counts(value, key):
        yield Leaf(path, _as_shown(value, key))


def _pieces(value: str) -> list[str]:
    """A text cut at its tags: the text between them and the values of the tags' attributes."""
    pieces, at = [], 0
    for tag in _MARKUP.finditer(value):
        pieces.append(value[at:tag.start()])
        pieces.extend(_ATTRIBUTE.findall(tag[2]))
        at = tag.end()
    pieces.append(value[at:])
    return pieces


def counts(value: str, key: str | None) -> bool:
    """Whether a string under `key` is one a reader must show (long enough, and no id, time, tag or blob)."""
    stripped = value.strip()
    if len(stripped) < MIN_LENGTH or not _NOT_WORD.sub("", stripped):
        return False
    if key is not None and (key in TAG_KEYS or key.endswith("status") or key in OPAQUE_KEYS or ID_KEYS.search(key)
                            or TIME_KEYS.search(key)):
        return False
    if stripped.startswith(_OPAQUE_PREFIXES + _BASE64_MEDIA) or _TIMESTAMP.fullmatch(stripped):
        return False
    if _UUID.fullmatch(stripped) or _HEX.fullmatch(stripped) or _PREFIXED_ID.fullmatch(stripped):
        return False
    return not (_BLOB.fullmatch(stripped) and not stripped.isalpha())


def _as_shown(value: str, key: str | None) -> str:
    """A value as readers show it when they show it in another form: an MCP tool's name `mcp__server__tool`
    (Claude Code's) is the address `server.tool`, Antigravity's `default_api:tool` the tool `functions.tool`."""
    if key == "name" and value.startswith("mcp__") and value.count("__") >= 2:
        return value.removeprefix("mcp__").replace("__", ".", 1)
    if key == "name" and value.startswith("default_api:"):  # the Gemini API's namespace of declared functions
        return value.removeprefix("default_api:")
    return value


def _json_inside(value: str) -> Any:
    """The object or list a string holds as JSON text, else None."""
    text = value.strip()
    if not text.startswith(("{", "[")):
        return None
    try:
        found = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return found if isinstance(found, (dict, list)) else None


def decoded_values(text: str) -> list[Any]:
    """The JSON values of an input: one document, else each line of JSON Lines (or `data:` event) that parses."""
    try:
        return [json.loads(text)]
    except (ValueError, RecursionError):
        pass
    values = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("data:"):
            line = line[5:].strip()
        if not line.startswith(("{", "[")):
            continue
        try:
            values.append(json.loads(line))
        except (ValueError, RecursionError):
            continue
    return values


def input_leaves(text: str) -> list[Leaf]:
    """The counted string leaves of a whole input."""
    values = decoded_values(text)
    if len(values) == 1:
        return list(string_leaves(values[0]))
    return [leaf for number, value in enumerate(values) for leaf in string_leaves(value, f"line{number + 1}")]


def file_leaves(data: bytes) -> list[Leaf]:
    """The counted string leaves of a file's bytes, decoded as the viewer decodes an upload: an archive or a
    database by its members (see the module's docstring), anything else as its text."""
    text, _ = decode(data)
    return text_leaves(text)


def text_leaves(text: str) -> list[Leaf]:
    """The counted string leaves of a decoded input; of a bundle text (several files, or a database's tables),
    each member's on their own, their paths under the member's (`s1/subagents/agent-a1.jsonl:line3.message`)."""
    bundle = read_bundle(text) if is_bundle(text) else None
    if bundle is None:
        return input_leaves(text)
    return [Leaf(f"{member.path}:{leaf.path}", leaf.value)
            for member in bundle.members if member.readable and not member.is_schema
            for leaf in input_leaves(text[member.span[0]:member.span[1]])]


def folded(text: str) -> str:
    """A text with everything but letters and digits taken out, as "found" compares."""
    return _NOT_WORD.sub("", text)


class Haystack:
    """A text in which leaves are looked for, folded once."""

    def __init__(self, text: str) -> None:
        self.folded = folded(text)

    def holds(self, leaf: Leaf) -> bool:
        """Whether the text holds the value, or its JSON spelling (as a source panel or a JSON body shows it), or
        the JSON spelling of the value trimmed of its blank edges (an argument an agent wrote as XML, whose line
        breaks after its opening tag and before its closing one are layout, shown in a call's JSON arguments)."""
        return any(folded(spelling) in self.folded for spelling in (
            leaf.value, json.dumps(leaf.value, ensure_ascii=False), json.dumps(leaf.value.strip(), ensure_ascii=False)))
