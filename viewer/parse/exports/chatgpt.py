"""ChatGPT's data export (`conversations.json`, dialect `chatgpt`): a JSON array of conversations, or one.

A conversation has `title`, `create_time` (seconds since the epoch), `mapping` (node id → `{id, message,
parent, children}`, in no useful order) and `current_node`, the last message of the branch the app showed. Each
node with a message gives one message, numbered in the tree's order (a parent before its children, children in
the order the node lists them), so the followed branch reads top to bottom; its parent is the nearest node
above it that gave one. A node without a message (the root) or with an empty one is frame.

A message has `author` (`role`: system, user, assistant, tool; `name`: the tool's), `recipient` (`all` or a
tool: python, web.run, bio, dalle.text2im …), `channel`, `content` (`content_type` with its own fields) and
`metadata` (`is_visually_hidden_from_conversation`, `model_slug`, `attachments`). What each becomes:
- `text`, `multimodal_text` (parts: text; `image_asset_pointer` and other media as placeholders, never fetched;
  `audio_transcription` as its text): the message's text, attachments named after it;
- `user_editable_context` (custom instructions, the user's profile) and `model_editable_context` (memory), and
  any message the app hid (`is_visually_hidden_from_conversation`): injected context (intent `context`), hidden;
- `thoughts` (each a summary and its content) and `reasoning_recap` ("Thought for 5s"): analysis, hidden;
- an assistant's message to a tool (`code` or text): a call to that tool; a `tool` author's message
  (`execution_output`, `tether_browsing_display`, `tether_quote`, `system_error`, text): the reply, named after
  the tool, paired with the call by name (the export has no call ids);
- any other content type: kept as a hidden message with W-JSON-UNKNOWN-PART.
"""
from __future__ import annotations

from typing import Any

from msgspec.structs import replace as replace_fields

from viewer.model import CHANNELS, Message, Meta, Transcript
from viewer.parse.common import shown_json
from viewer.parse.exports.conversations import Conversation, iso_time, read_export, title_of
from viewer.parse.json.drafts import hidden_role
from viewer.parse.json.fields import object_in
from viewer.parse.json.positions import Node
from viewer.parse.options import ParseOptions

DIALECT = "chatgpt"
DEPTH = 2
"""A conversation's members, the mapping's members (its nodes) keep their spans; each node is decoded whole."""
CONTEXT_TYPES = ("user_editable_context", "model_editable_context")
REASONING_TYPES = ("thoughts", "reasoning_recap")
REPLY_TYPES = ("execution_output", "tether_browsing_display", "tether_quote", "system_error", "text",
               "multimodal_text")
ROLES = ("system", "user", "assistant", "tool")
ADDRESS_CHARS = 200


def parse_chatgpt(text: str, options: ParseOptions) -> Transcript:
    """Read a ChatGPT export. Never raises on user input."""
    return read_export(text, DIALECT, DEPTH, read_conversation)


def read_conversation(text: str, node: Node) -> Transcript:
    value = node.value
    conversation = Conversation(text, node.span)
    conversation.header.update(_header(value))
    mapping = node.members.get("mapping")
    if mapping is None or not isinstance(mapping.node.value, dict):
        conversation.note("W-JSON-SHAPE", node.span, "This conversation has no `mapping` of messages.")
        return conversation.transcript(DIALECT, None)
    nodes = {key: member.node for key, member in mapping.node.members.items() if isinstance(member.node.value, dict)}
    for key, member in mapping.node.members.items():
        if key not in nodes:
            conversation.note("W-JSON-SHAPE", member.span, "This node of the mapping is not an object; it was skipped.")
    index_of: dict[str, int] = {}
    for key, parent in _tree_order(nodes):
        message = _message(nodes[key], conversation)
        if message is not None:
            index_of[key] = conversation.add(_with_parent(message, parent, index_of, nodes))
    current = value.get("current_node")
    followed = _last_message_at(current, index_of, nodes) if isinstance(current, str) else None
    return conversation.transcript(DIALECT, followed)


def _header(value: dict[str, Any]) -> dict[str, Any]:
    header: dict[str, Any] = {"producer": "chatgpt"}
    if (title := title_of(value.get("title"))) is not None:
        header["title"] = title
    if (created := iso_time(value.get("create_time"))) is not None:
        header["created"] = created
    model = value.get("default_model_slug")
    if isinstance(model, str) and model:
        header["model"] = model[:100]
    return header


def _tree_order(nodes: dict[str, Node]) -> list[tuple[str, str | None]]:
    """Every node id with its parent's, a parent before its children; a node in a cycle of parents (no root
    above it) comes after the rest, in the mapping's order."""
    order: list[tuple[str, str | None]] = []
    seen: set[str] = set()
    roots = [key for key, node in nodes.items() if node.value.get("parent") not in nodes]
    for root in roots + list(nodes):
        waiting = [(root, nodes[root].value.get("parent") if root in nodes else None)]
        while waiting:
            key, parent = waiting.pop()
            if key in seen or key not in nodes:
                continue
            seen.add(key)
            order.append((key, parent if parent in nodes else None))
            below = nodes[key].value.get("children")
            listed = [child for child in below if isinstance(child, str)] if isinstance(below, list) else []
            # The node's own `parent` decides, so that a child listed under two nodes is read once, under its own.
            listed = [child for child in listed if child in nodes and nodes[child].value.get("parent") == key]
            waiting.extend((child, key) for child in reversed(listed))
    return order


def _with_parent(message: Message, parent: str | None, index_of: dict[str, int], nodes: dict[str, Node]) -> Message:
    above = _last_message_at(parent, index_of, nodes)
    return replace_fields(message, parent=above) if above is not None else message


def _last_message_at(key: str | None, index_of: dict[str, int], nodes: dict[str, Node]) -> int | None:
    """The message of node `key`, or of the nearest node above it that gave one."""
    seen: set[str] = set()
    while key is not None and key not in seen:
        seen.add(key)
        if key in index_of:
            return index_of[key]
        node = nodes.get(key)
        parent = node.value.get("parent") if node is not None else None
        key = parent if isinstance(parent, str) else None
    return None


def _message(node: Node, conversation: Conversation) -> Message | None:
    """The message of a node; None when it has none, or an empty one (the app shows nothing for it)."""
    message = node.value.get("message")
    if not isinstance(message, dict):
        return None
    author = object_in(message, "author")
    role = author.get("role") if isinstance(author.get("role"), str) else "unknown"
    name = author.get("name") if isinstance(author.get("name"), str) and author.get("name") else None
    content = object_in(message, "content")
    kind = content.get("content_type")
    metadata = object_in(message, "metadata")
    recipient = message.get("recipient") if isinstance(message.get("recipient"), str) else None
    recipient = None if recipient == "all" else recipient
    meta = _meta(message, metadata)
    span = node.span
    index = len(conversation.messages)
    if role not in ROLES:
        conversation.note("W-UNKNOWN-ROLE", span, f"The author role {shown_json(role)} is not one ChatGPT's "
                                                  "export writes; the message is hidden.", index)
        return Message.drafted(_any_text(content), span, index=index, turn=index, role=hidden_role("unknown"),
                               name=name, channel="unknown", meta=meta)
    if kind in CONTEXT_TYPES or metadata.get("is_visually_hidden_from_conversation") is True:
        body = _context_text(content) if kind in CONTEXT_TYPES else _any_text(content)
        return Message.drafted(body, span, index=index, turn=index, role=role, name=name, recipient=recipient,
                               content_type=kind if isinstance(kind, str) else None, intent="context", meta=meta)
    if kind in REASONING_TYPES:
        return Message.drafted(_reasoning_text(content), span, index=index, turn=index, role=hidden_role(role),
                               channel="analysis", channel_explicit=True, content_type=kind, meta=meta)
    if role == "assistant" and recipient is not None:
        return Message.drafted(_any_text(content), span, index=index, turn=index, role="assistant",
                               recipient=recipient[:ADDRESS_CHARS], channel="commentary", channel_explicit=True,
                               end="call", meta=meta)
    if role == "tool" and kind in REPLY_TYPES:
        if kind == "system_error":
            conversation.note("W-TOOL-ERROR", span, "The tool reported an error.", index)
        return Message.drafted(_any_text(content), span, index=index, turn=index, role="tool", name=name,
                               channel="commentary", meta=meta)
    if kind in ("text", "multimodal_text"):
        body = _parts_text(content.get("parts")) + _attachments(metadata.get("attachments"))
        if not body.strip():
            return None
        channel = message.get("channel")
        explicit = isinstance(channel, str) and channel in CHANNELS
        return Message.drafted(body, span, index=index, turn=index, role=role, name=name,
                               channel=channel if explicit else "final", channel_explicit=explicit, meta=meta)
    conversation.note("W-JSON-UNKNOWN-PART", span, f"A message content of type {shown_json(kind)} is not one the "
                                                   "importer knows; it is kept as a message of its own, hidden from "
                                                   "the default view.", index)
    return Message.drafted(_any_text(content), span, index=index, turn=index, role=hidden_role(role), name=name,
                           channel=kind if isinstance(kind, str) and kind and kind not in CHANNELS else "unknown",
                           meta=meta)


def _meta(message: dict[str, Any], metadata: dict[str, Any]) -> Meta | None:
    timestamp = iso_time(message.get("create_time"))
    model = metadata.get("model_slug") if isinstance(metadata.get("model_slug"), str) else None
    return Meta(timestamp=timestamp, model=model) if timestamp or model else None


def _parts_text(parts: Any) -> str:
    """Text parts as written, media as placeholders; the parts of one message joined by blank lines."""
    if not isinstance(parts, list):
        return ""
    texts = []
    for part in parts:
        if isinstance(part, str):
            texts.append(part)
        elif isinstance(part, dict):
            texts.append(_part_placeholder(part))
    return "\n\n".join(text for text in texts if text)


def _part_placeholder(part: dict[str, Any]) -> str:
    kind = part.get("content_type")
    if kind == "audio_transcription" and isinstance(part.get("text"), str):
        return part["text"]
    facts = []
    if isinstance(part.get("asset_pointer"), str):
        facts.append(part["asset_pointer"][:ADDRESS_CHARS])
    width, height = part.get("width"), part.get("height")
    if type(width) is int and type(height) is int:
        facts.append(f"{width}×{height}")
    if type(part.get("size_bytes")) is int:
        facts.append(f"{part['size_bytes']:,} bytes")
    word = "image" if kind == "image_asset_pointer" else "attachment"
    return f"[{word}: {', '.join(facts)}]" if facts else f"[{word}]"


def _attachments(value: Any) -> str:
    """The files attached to a message, named (their contents are not in the export)."""
    if not isinstance(value, list):
        return ""
    named = []
    for attachment in value:
        if not isinstance(attachment, dict):
            continue
        facts = [str(attachment[key])[:ADDRESS_CHARS] for key in ("name", "mime_type")
                 if isinstance(attachment.get(key), str) and attachment[key]]
        if type(attachment.get("size")) is int:
            facts.append(f"{attachment['size']:,} bytes")
        named.append(f"[file: {', '.join(facts)}]" if facts else "[file]")
    return "\n\n" + "\n".join(named) if named else ""


def _context_text(content: dict[str, Any]) -> str:
    fields = ("user_profile", "user_instructions", "model_set_context", "repository", "repo_summary")
    return "\n\n".join(content[key] for key in fields if isinstance(content.get(key), str) and content[key])


def _reasoning_text(content: dict[str, Any]) -> str:
    if isinstance(content.get("content"), str):  # reasoning_recap
        return content["content"]
    texts: list[str] = []
    for thought in content.get("thoughts") or ():
        if isinstance(thought, dict):
            texts.extend(thought[key] for key in ("summary", "content")
                         if isinstance(thought.get(key), str) and thought[key])
    return "\n\n".join(texts)


def _any_text(content: dict[str, Any]) -> str:
    """Whatever text a content holds, whatever its type: `text`, `result`, `parts`; else its JSON."""
    for key in ("text", "result"):
        if isinstance(content.get(key), str):
            return content[key]
    if isinstance(content.get("parts"), list):
        return _parts_text(content["parts"])
    return shown_json({key: item for key, item in content.items() if key != "content_type"}) if content else ""


__all__ = ["DIALECT", "parse_chatgpt"]
