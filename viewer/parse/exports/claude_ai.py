"""Claude.ai's data export (`conversations.json`, dialect `claude-ai`): a JSON array of conversations.

A conversation has `uuid`, `name` (its title), `created_at` and `chat_messages`, each with `uuid`, `sender`
(`human` or `assistant`), `created_at`, `text`, `content` (blocks with `start_timestamp`/`stop_timestamp`:
`text`, `thinking`, `tool_use`, `tool_result`, …), `attachments` (`file_name`, `file_type`, `file_size`,
`extracted_content`), `files` (`file_name`) and `parent_message_uuid` (the first message's names a root that
is no message). Older exports have no content blocks and no parent: only `text`, in order.

What each becomes: a text block is the message's text; thinking is analysis, tool use a call and its result
the reply, as in the Anthropic Messages API (viewer/parse/json/anthropic.py); any other block is kept as a
hidden message with W-JSON-UNKNOWN-PART. Where there are blocks, `text` is the app's flattened copy of them,
thinking included, so it is never read as a message; the export writes a placeholder ("This block is not supported
on your current device yet.") for each block it cannot render: never the assistant's answer (W-EXPORT-PLACEHOLDER).
A `text` no message shows whole (the flattened copy, or an old export's text with its placeholders) is kept as
written in the chat message's first message's details.
Attachments are named in the message; the text extracted from them is what the model read, injected context
(hidden). The branch followed is the one ending at the latest leaf (the newest message nothing follows).
What a block says beside what its reader reads (a thinking block's `summaries`, the line the app showed for a tool
use, `message`, an integration's name, citations, when it started and stopped) is its first message's details.
"""
from __future__ import annotations

import re
from typing import Any

from viewer.model import Message, Meta, Span, Transcript
from viewer.parse.common import Pending
from viewer.parse.exports.conversations import Conversation, iso_time, read_export, title_of
from viewer.parse.json import drafts
from viewer.parse.json.anthropic import block_reader
from viewer.parse.json.builder import MessageBuilder
from viewer.parse.json.positions import Node
from viewer.parse.json.source import Draft, type_phrase
from viewer.parse.options import ParseOptions

DIALECT = "claude-ai"
DEPTH = 4
"""A conversation's members, its messages, their members and their content blocks keep their spans."""
SENDERS = {"human": "user", "assistant": "assistant"}
PLACEHOLDER = re.compile(r"\s*`{3}[^\S\n]*\n?[^\S\n]*This block is not supported on your current device yet\.?\s*`{3}\s*")
NAME_CHARS = 200
BLOCK_DETAILS = ("summaries", "cut_off", "message", "integration_name", "integration_icon_url", "context",
                 "display_content", "approval_options", "approval_key", "citations", "flags", "start_timestamp",
                 "stop_timestamp")
"""What a content block of the export says beside its text, thinking, call or result (the app's own fields)."""


def parse_claude_ai(text: str, options: ParseOptions) -> Transcript:
    """Read a Claude.ai export. Never raises on user input."""
    return read_export(text, DIALECT, DEPTH, read_conversation)


def read_conversation(text: str, node: Node) -> Transcript:
    value = node.value
    conversation = Conversation(text, node.span)
    conversation.header.update(_header(value))
    listed = node.members.get("chat_messages")
    items = listed.node.items if listed is not None and isinstance(listed.node.value, list) else ()
    if listed is None or not isinstance(listed.node.value, list):
        conversation.note("W-JSON-SHAPE", listed.span if listed is not None else node.span,
                          "This conversation has no list of `chat_messages`; nothing of it was read.")
    calls = MessageBuilder(text)  # remembers each tool_use id's tool, to name its result
    last_of: dict[str, int] = {}
    previous: int | None = None
    stamps: list[tuple[str, int, int]] = []  # (created_at, position, last message) of each chat message
    for position, item in enumerate(items):
        if not isinstance(item.value, dict):
            conversation.note("W-JSON-SHAPE", item.span, "This chat message is not an object; it was skipped.")
            continue
        parent = _parent(item.value, last_of, previous)
        last = _read_message(item, position, parent, conversation, calls)
        if last is None:
            continue
        uuid = item.value.get("uuid")
        if isinstance(uuid, str):
            last_of[uuid] = last
        previous = last
        created = item.value.get("created_at")
        stamps.append((created if isinstance(created, str) else "", position, last))
    return conversation.transcript(DIALECT, _latest_leaf(conversation.messages, stamps))


def _header(value: dict[str, Any]) -> dict[str, Any]:
    header: dict[str, Any] = {"producer": "claude.ai"}
    if (title := title_of(value.get("name"))) is not None:
        header["title"] = title
    if (created := iso_time(value.get("created_at"))) is not None:
        header["created"] = created
    return header


def _parent(value: dict[str, Any], last_of: dict[str, int], previous: int | None) -> int | None:
    """The last message of the chat message this one follows: the one it names, or (an old export, which names
    none) the one before it. A name that is no message read (the root's) means it follows nothing."""
    if "parent_message_uuid" not in value:
        return previous
    named = value.get("parent_message_uuid")
    return last_of.get(named) if isinstance(named, str) else None


def _latest_leaf(messages: list[Message], stamps: list[tuple[str, int, int]]) -> int | None:
    """The last message of the newest chat message that no other follows."""
    followed = {message.parent for message in messages}
    leaves = [stamp for stamp in stamps if stamp[2] not in followed]
    return max(leaves)[2] if leaves else None


def _read_message(item: Node, turn: int, parent: int | None, conversation: Conversation,
                  calls: MessageBuilder) -> int | None:
    """The messages of one chat message, each following the one before; the index of its last (None: none)."""
    value = item.value
    sender = value.get("sender")
    role = SENDERS.get(sender) if isinstance(sender, str) else None
    found = _pieces(item, role or "unknown", conversation, calls) if role is not None else [
        drafts.unclassified("unknown", sender, {"sender": sender}, item.span, "W-UNKNOWN-ROLE",
                            f"A chat message from {type_phrase(sender, value)}")]
    timestamp = iso_time(value.get("created_at")) if value.get("created_at") else None
    for piece in found:
        index = len(conversation.messages)
        fields = piece.fields
        details = fields.pop("details", None)
        meta = Meta(timestamp=timestamp, details=details) if timestamp or details else None
        span = piece.span or item.span
        message = Message(index=index, turn=turn, role=fields["role"], body=fields["content"], span_start=span[0],
                          span_end=span[1], name=fields.get("name"), recipient=fields.get("recipient"),
                          channel=fields.get("channel", "final"), channel_explicit=fields.get("channel_explicit", False),
                          content_type=fields.get("content_type"), constrained=fields.get("constrained", False),
                          intent=fields.get("intent"), call_id=fields.get("call_id"), end=fields.get("end", "end"),
                          parent=parent, meta=meta)
        conversation.add(message)
        conversation.diagnostics.extend(problem.at(index) for problem in piece.problems)
        parent = index
    return parent if found else None


def _pieces(item: Node, role: str, conversation: Conversation, calls: MessageBuilder) -> list[Draft]:
    value = item.value
    content = item.members.get("content")
    if content is not None and isinstance(content.node.value, list) and content.node.value:
        found = [piece for block in content.node.items for piece in _with_details(block, _block(block, role, calls))]
    else:
        text = item.members.get("text")
        found = _text_pieces(value.get("text"), role, text.span if text is not None else item.span)
    named = _named_files(value)
    if named:
        if found and found[0].fields.get("channel", "final") == "final" and role == "user":
            found[0].fields["content"] += "\n\n" + named
        else:
            found.insert(0, Draft(dict(role=role, content=named), item.span))
    extracted = _extracted(value.get("attachments"))
    if extracted:
        span = item.members["attachments"].span
        found.append(Draft(dict(role=role, content=extracted, intent="context"), span))
    if len(found) == 1:
        found[0].span = item.span  # one message spans its whole chat message
    _keep_text(value.get("text"), found)
    return found


def _keep_text(text: Any, found: list[Draft]) -> None:
    """The chat message's `text` as written, in its first message's details, unless a message shows it whole: the
    app's flattened copy of the blocks (thinking and placeholders included), or an old export's text with the
    placeholders the reader took out."""
    if not isinstance(text, str) or not text.strip() or not found:
        return
    written = text.strip()
    if any(written in str(piece.fields.get("content", "")) for piece in found):
        return
    first = found[0].fields
    first["details"] = {**(first.get("details") or {}), "text": text}


def _block(block: Node, role: str, calls: MessageBuilder) -> list[Draft]:
    value = block.value
    kind = value.get("type") if isinstance(value, dict) else None
    if kind == "text":
        return _text_pieces(value.get("text"), role, block.span)
    reader = block_reader(kind) if role == "assistant" or kind == "tool_result" else None
    if reader is not None and kind in ("thinking", "redacted_thinking", "tool_use", "tool_result"):
        return reader(value, block.span, role, calls)
    return [drafts.unclassified(role, kind, value, block.span, "W-JSON-UNKNOWN-PART",
                                f"A content block {type_phrase(kind, value)}")]


def _with_details(block: Node, found: list[Draft]) -> list[Draft]:
    """A block's messages, the first with what the block says beside them (BLOCK_DETAILS) as its details."""
    value = block.value
    said = {key: value[key] for key in BLOCK_DETAILS if isinstance(value, dict)
            and value.get(key) not in (None, "", [], {})} if found else {}
    if said:
        found[0].fields["details"] = said
    return found


def _text_pieces(text: Any, role: str, span: Span) -> list[Draft]:
    """A text without the placeholders the export wrote for blocks it cannot render (each reported)."""
    if not isinstance(text, str):
        return []
    kept = PLACEHOLDER.sub("\n\n", text).strip() if PLACEHOLDER.search(text) else text
    found = [Draft(dict(role=role, content=kept), span)] if kept.strip() else []
    for _ in PLACEHOLDER.finditer(text):
        problem = Pending("W-EXPORT-PLACEHOLDER", "The export wrote a placeholder here for a block it cannot "
                                                         "render; it is not the assistant's answer and is left "
                                                         "out.", span)
        if found:
            found[0].problems.append(problem)
        else:
            found.append(Draft(dict(role=drafts.hidden_role(role), channel="placeholder", content="", end="end"),
                               span, [problem]))
    return found


def _named_files(value: dict[str, Any]) -> str:
    """The attachments and files of a message, named: `[file: notes.txt, text/plain, 1,024 bytes]`."""
    named = []
    for key, name_key in (("attachments", "file_name"), ("files", "file_name")):
        listed = value.get(key)
        for entry in listed if isinstance(listed, list) else ():
            if not isinstance(entry, dict):
                continue
            facts = [str(entry[field])[:NAME_CHARS] for field in (name_key, "file_type")
                     if isinstance(entry.get(field), str) and entry[field]]
            if type(entry.get("file_size")) is int:
                facts.append(f"{entry['file_size']:,} bytes")
            named.append(f"[file: {', '.join(facts)}]" if facts else "[file]")
    return "\n".join(named)


def _extracted(attachments: Any) -> str:
    """The text extracted from attached files, which the model read and the user did not type."""
    if not isinstance(attachments, list):
        return ""
    texts = [entry["extracted_content"] for entry in attachments
             if isinstance(entry, dict) and isinstance(entry.get("extracted_content"), str) and entry["extracted_content"]]
    return "\n\n".join(texts)


__all__ = ["DIALECT", "parse_claude_ai"]
