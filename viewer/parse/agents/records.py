"""What the readers of the newer agents' logs share (Copilot CLI, VS Code chat, Gemini CLI, Antigravity, Qwen Code,
Factory Droid, Cursor): a record read with the spans of its members only when it gives several messages, the spans
of a list member's items, a member read as an object of its own, and the messages finished with what the log
recorded about them (meta, sub-agent thread, branch aside).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import msgspec
from msgspec.structs import replace as replace_fields

from viewer.model import Diagnostic, Message, Meta, Span, Thread, Usage, make_diagnostic
from viewer.parse.agents.lines import Claims, Line, unclaimed
from viewer.parse.json import drafts
from viewer.parse.json.anthropic import block_reader
from viewer.parse.json.content_text import flat_text
from viewer.parse.json.gemini_content import read_content
from viewer.parse.json.media import MEDIA_PARTS, placeholder
from viewer.parse.json.positions import Node, read_value
from viewer.parse.json.source import Draft, JsonObject, type_phrase

INLINE_DETAIL = 1024
"""Characters of a detail's JSON text kept as a copy in a message's meta; a longer one whose span is known is kept
as that span (`{"$source": [start, end]}`): a tool's display of a big file is not held twice. Only a span inside its
message's own, which the debug card's source panel shows, stays one (`shown_by_reference`)."""

RECORD_DEPTH = 3
"""Levels of a record read with spans when it gives several messages: its members, their items, and the members
of those items (a tool call's arguments and result inside a list of calls)."""

Reader = Callable[[JsonObject], list[Draft]]


def read_record(text: str, line: Line, reader: Reader, depth: int = RECORD_DEPTH) -> tuple[JsonObject, list[Draft]]:
    """A record (a line, or an object standing for one) read by `reader`, first as standing for the whole record;
    read again with the spans of its members when it gives several messages, which then span their own part (most
    records give one, whose span is the record's: reading spans costs ten times more). `reader` is called again
    then, so it must not change anything outside what it returns."""
    source = JsonObject(line.value, line.span)
    found = reader(source)
    if len(found) > 1:
        located = read_value(text, line.span[0], depth)
        source = JsonObject(located.value, located.span, dict(located.members))
        found = reader(source)
    return source, found


def item_spans(source: JsonObject, key: str) -> list[Span]:
    """The span of each item of the list under `key`, as far as it was read with spans (else the member's)."""
    value = source.get(key)
    node = source.node_of(key)
    count = len(value) if isinstance(value, list) else 0
    if node is not None and len(node.items) == count:
        return [item.span for item in node.items]
    return [source.span_of(key)] * count


def item_objects(source: JsonObject, key: str) -> list[JsonObject]:
    """The objects of the list under `key`, each with the spans of its members when they were read (items that are
    not objects are left out)."""
    value = source.get(key)
    if not isinstance(value, list):
        return []
    node = source.node_of(key)
    nodes = node.items if node is not None and len(node.items) == len(value) else [None] * len(value)
    spans = item_spans(source, key)
    return [JsonObject(item, spans[at], dict(located.members) if (located := nodes[at]) is not None else None)
            for at, item in enumerate(value) if isinstance(item, dict)]


def member_object(source: JsonObject, key: str) -> JsonObject | None:
    """The object under `key` with the spans of its members when they were read; None when it is no object."""
    value = source.get(key)
    if not isinstance(value, dict):
        return None
    node: Node | None = source.node_of(key)
    return JsonObject(value, source.span_of(key), dict(node.members) if node is not None else None)


def details(source: JsonObject, keys: Sequence[str]) -> dict[str, Any] | None:
    """What a record says of a message beside its text (the `keys` it holds, as written), for `Meta.details`; a
    long value whose span was read is kept as its span (INLINE_DETAIL). None when it holds none of them."""
    found: dict[str, Any] = {}
    for key in keys:
        value = source.get(key)
        if value is None or value == "" or value == {} or value == []:
            continue
        member = source.members.get(key)
        if member is not None and member.span[1] - member.span[0] > INLINE_DETAIL:  # long: kept as its span
            found[key] = {"$source": list(member.span)}
        else:
            found[key] = value
    return found or None


def rest_details(value: Any, keys: Sequence[str], read: Claims) -> dict[str, Any] | None:
    """What the `keys` of an object hold beside what its reader reads of them (`read`, a claims tree: a model's id
    read, its provider left), as written, for `Meta.details`; None when nothing is left."""
    if not isinstance(value, dict):
        return None
    found = unclaimed({key: value[key] for key in keys if key in value}, read)
    return found or None


def line_details(line: Line, path: Sequence[str], keys: Sequence[str]) -> dict[str, Any] | None:
    """`details` of the object at `path` inside a line (`("toolCallResult",)`): the spans of its members are read
    only when one of them is long."""
    holder: Any = line.value
    for key in path:
        holder = holder.get(key) if isinstance(holder, dict) else None
    if not isinstance(holder, dict):
        return None
    present = [key for key in keys if holder.get(key) not in (None, "", {}, [])]
    if not present:
        return None
    if all(len(msgspec.json.encode(holder[key])) <= INLINE_DETAIL for key in present):
        return {key: holder[key] for key in present}
    node = read_value(line.text, line.span[0], len(path) + 1)
    for key in path:
        member = node.members.get(key) if node.members else None
        if member is None:
            return {key: holder[key] for key in present}
        node = member.node
    return details(JsonObject(holder, node.span, dict(node.members)), keys)


def by_reference(line: Line, kept: dict[str, Any], depth: int = 2) -> dict[str, Any]:
    """What a line keeps of its value (`kept`, as `unclaimed` leaves it) with each long value it keeps whole, down
    to `depth` levels, kept as its span in the source (`{"$source": [start, end]}`, INLINE_DETAIL): a tool's old and
    new file are not held twice. The spans are read only when something is long."""
    if len(msgspec.json.encode(kept)) <= INLINE_DETAIL:
        return kept
    return _pointed(kept, line.value, read_value(line.text, line.span[0], depth), depth)


def _pointed(kept: dict[str, Any], value: Any, node: Node, depth: int) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, item in kept.items():
        member = node.members.get(key) if node.members else None
        written = value.get(key) if isinstance(value, dict) else None
        if member is not None and item == written and len(msgspec.json.encode(item)) > INLINE_DETAIL:
            found[key] = {"$source": list(member.node.span)}
        elif member is not None and depth > 1 and isinstance(item, dict) and isinstance(written, dict) \
                and member.node.members:
            found[key] = _pointed(item, written, member.node, depth - 1)
        else:
            found[key] = item
    return found


def shown_by_reference(messages: Sequence[Message], text: str) -> list[Message]:
    """The messages with each detail kept by its span (`{"$source": [start, end]}`) that lies outside its message's
    own span read back as written: the debug card shows a message's source alone, so a span elsewhere (the whole
    text a message shows a piece of) would be a pointer to nothing it shows."""
    done = []
    for message in messages:
        meta = message.meta
        if meta is not None and meta.details:
            read = _outside_read(meta.details, message.span, text)
            if read is not meta.details:
                message = replace_fields(message, meta=dataclasses.replace(meta, details=read))
        done.append(message)
    return done


def details_read(details: dict[str, Any], within: Span, text: str) -> dict[str, Any]:
    """A message's details with each span outside `within` (its own) read as `shown_by_reference` reads it: the
    details themselves when they hold none."""
    return _outside_read(details, within, text)


def _outside_read(value: Any, within: Span, text: str) -> Any:
    """`value` with each span outside `within` read as the JSON it is (as written, when it is not JSON); `value`
    itself when it holds none."""
    if isinstance(value, dict):
        span = value.get("$source")
        if len(value) == 1 and isinstance(span, list) and len(span) == 2:
            start, end = span
            if within[0] <= start and end <= within[1]:
                return value
            try:
                return msgspec.json.decode(text[start:end])
            except msgspec.DecodeError:
                return text[start:end]
        read = {key: _outside_read(item, within, text) for key, item in value.items()}
        return value if all(read[key] is item for key, item in value.items()) else read
    if isinstance(value, list):
        items = [_outside_read(item, within, text) for item in value]
        return value if all(new is old for new, old in zip(items, value)) else items
    return value


def record_line(text: str, node: Node, number: int) -> Line:
    """An object inside a document (a message of a whole-file session) as a line of its own."""
    return Line(number, node.span, node.value, text)


def finished(messages: Sequence[Message], metas: dict[int, Meta], threads: dict[int, str] | None = None,
             aside: set[int] | frozenset[int] = frozenset(),
             parents: dict[int, int] | None = None) -> tuple[Message, ...]:
    """The messages with what the log recorded about each."""
    threads = threads or {}
    parents = parents or {}
    done = []
    for message in messages:
        index = message.index
        changes: dict[str, Any] = {}
        if index in metas:
            changes["meta"] = metas[index]
        if index in threads:
            changes["thread"] = threads[index]
        if index in aside:
            changes["aside"] = True
        if index in parents:
            changes["parent"] = parents[index]
        done.append(replace_fields(message, **changes) if changes else message)
    return tuple(done)


def finished_now(messages: Sequence[Message], metas: dict[int, Meta], threads: dict[int, str],
                 place: Callable[[int, str], None]) -> list[Message]:
    """`finished` for a batch of a session read online (viewer/parse/agents/online.py): the metadata and thread each
    message's line gave, taken from `metas` and `threads` (held no longer); each message of a thread told to
    `place`."""
    done = []
    for message in messages:
        index = message.index
        changes: dict[str, Any] = {}
        meta = metas.pop(index, None)
        if meta is not None:
            changes["meta"] = meta
        thread = threads.pop(index, None)
        if thread is not None:
            changes["thread"] = thread
            place(index, thread)
        done.append(replace_fields(message, **changes) if changes else message)
    return done


def count(value: Any) -> int:
    """A token count as written, or 0 for anything that is not a whole number."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def gemini_usage(prompt: Any, cached: Any, candidates: Any, thoughts: Any = 0, tool_prompt: Any = 0) -> Usage:
    """Usage as the Gemini API counts it: the prompt count includes the cached tokens (apart in the model), and the
    thoughts are output tokens too."""
    cache_read = count(cached)
    return Usage(input=max(count(prompt) + count(tool_prompt) - cache_read, 0),
                 output=count(candidates) + count(thoughts), cache_read=cache_read)


def text_of(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def gemini_parts(source: JsonObject, key: str, role: str, builder: Any) -> list[Draft]:
    """The Gemini API parts under `key` (text, thoughts, function calls and responses, media) read as a content of
    `role` (`user` or `model`) by the JSON package's reader; a content that gives nothing gives no message."""
    member = source.members.get(key)
    content = JsonObject({"role": role, "parts": source.get(key)}, source.span_of(key),
                         {"parts": member} if member is not None else None)
    found = read_content(content, builder)
    source.problems.extend(content.problems)
    return [piece for piece in found if piece.fields.get("content") or piece.fields.get("end") == "call"
            or piece.fields.get("role") == "tool" or piece.problems]


TextReader = Callable[[str, Span], list[Draft]]
"""The messages of one text of a message: what was typed, what the agent wrote into it."""


def anthropic_blocks(source: JsonObject, key: str, role: str, builder: Any, texts: TextReader) -> list[Draft]:
    """The Anthropic content under `key` (a text, or blocks) of a message of `role`: each text through `texts`,
    media as placeholders, thinking, tool_use and tool_result blocks by the JSON package's block readers, and
    any other block hidden with W-JSON-UNKNOWN-PART."""
    content = source.get(key)
    if content is None or isinstance(content, str):
        return texts(content or "", source.span_of(key))
    if not isinstance(content, list):
        return texts(flat_text(content), source.span_of(key))
    found: list[Draft] = []
    for block, span in zip(content, item_spans(source, key)):
        kind = block.get("type") if isinstance(block, dict) else None
        if kind == "text" or isinstance(block, str):
            text = block if isinstance(block, str) else block.get("text")
            found.extend(texts(text if isinstance(text, str) else flat_text(text), span))
        elif kind in MEDIA_PARTS:
            found.append(Draft(dict(role=role, channel="final", content=placeholder(kind, block), end="end"), span))
        elif (read := block_reader(kind)) is not None:
            found.extend(read(block, span, role, builder))
        else:
            found.append(drafts_unclassified(role, kind, block, span))
    return found


def drafts_unclassified(role: str, kind: Any, block: Any, span: Span) -> Draft:
    return drafts.unclassified(role, kind, block, span, "W-JSON-UNKNOWN-PART",
                               f"A content block {type_phrase(kind, block)}")


def threads_of(messages: Sequence[Message], thread_of: dict[int, str], call_of: Callable[[str], int | None],
               unnamed: str) -> tuple[tuple[Thread, ...], list[Diagnostic]]:
    """Each sub-agent's thread, in the order its first message stands, with the call that started it
    (`call_of(thread)`); a thread whose call is not known is W-SESSION-THREAD (saying `unnamed`) on its first
    message."""
    first: dict[str, int] = {}
    for index in sorted(thread_of):
        first.setdefault(thread_of[index], index)
    threads = tuple(Thread(name, call_of(name)) for name in first)
    problems = [make_diagnostic("W-SESSION-THREAD", messages[first[thread.id]].span, unnamed, first[thread.id])
                for thread in threads if thread.call is None]
    return threads, problems
