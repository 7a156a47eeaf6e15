"""One message object of a JSON transcript (any of the shapes the package docstring lists: OpenChatML, OpenAI
chat, openai-harmony dicts, Anthropic messages, Responses API `message` items) made into its messages:
reasoning, content (part by part, parts.py), then tool calls."""
from __future__ import annotations

from typing import Any

from viewer.model import CHANNELS, ROLES, is_tool_address
from viewer.parse.common import qualified_tool_name, shown_json
from viewer.parse.json import drafts, response_meta
from viewer.parse.json.calls import call_pieces, read_content_type
from viewer.parse.json.completions import details_pieces
from viewer.parse.json.content_text import part_text
from viewer.parse.json.media import with_images
from viewer.parse.json.parts import content_pieces, text_pieces
from viewer.parse.json.source import JsonObject, Draft, type_phrase

REASONING_KEYS = ("thinking", "reasoning_content", "reasoning")
REASONING_TEXT = {"reasoning_text": "text", "summary_text": "text", "thinking": "thinking"}
"""Parts of a reasoning field that hold text besides text parts, and the key of their text."""
CLAIMED = frozenset(("role", "author", "name", "content", *REASONING_KEYS, "reasoning_details", "tool_calls",
                     "tool_call", "recipient", "channel", "content_type", "intent", "tool_call_id", "call_id",
                     "tool_name", "images", "phase", "refusal", "id", "type", "status", *response_meta.MEMBERS))
"""The members of a message object that read_message reads (its meta among them: response_meta.py), or leaves in
the source knowingly (its id, the `message` type tag, the item's status)."""
PHASES = {"commentary": "commentary", "final_answer": "final"}
"""The Responses API's `phase` of an assistant message, as a channel: intermediate commentary (hidden unless
marked a preamble) or the final answer."""


def is_element(value: dict[str, Any]) -> bool:
    """Any element the other shapes do not claim is read as a chat message (the element level's last shape)."""
    return True


def read_element(source: JsonObject, builder: Any) -> list[Draft]:
    return read_message(source, builder)


def claimed(value: dict[str, Any]) -> frozenset[str]:
    return CLAIMED


def read_message(source: JsonObject, builder: Any) -> list[Draft]:
    """A message object's messages: each distinct reasoning text, the content, then each tool call."""
    role, name = author(source)
    channel = _channel(source)
    reasoning = _reasoning_pieces(source, role)
    calls = call_pieces(source, role, channel)
    base = _base_fields(source, role, name, channel, builder)
    content = _content_pieces(source, base, builder)
    if not (reasoning or content or calls):
        # Empty content beside reasoning or calls (OpenAI writes "" or null there) is not a message of its own.
        if source.get("content") is None:
            source.problem("W-JSON-MISSING-CONTENT", "This message has no content.")
        content = [Draft({**base, "content": ""}, source.span_of("content") if "content" in source.members
                         else None)]
    return response_meta.on_drafts(_without_repeated_reasoning([*reasoning, *content, *calls]),
                                   response_meta.of_message(source.value))


def _content_pieces(source: JsonObject, base: dict[str, Any], builder: Any) -> list[Draft]:
    value = source.get("content")
    if isinstance(source.get("images"), list):  # Ollama: base64 images beside the text
        return text_pieces(with_images(source.text("content") or "", source.get("images")), base, source.span)
    if value is None:
        # OpenAI writes a refusal beside null content: it is what the user was told.
        refusal = source.get("refusal")
        return text_pieces(refusal, base, source.span_of("refusal")) if isinstance(refusal, str) else []
    if isinstance(value, (list, dict)):
        return content_pieces(source, base, builder)
    return text_pieces(source.text("content") or "", base, source.span_of("content"))


def _base_fields(source: JsonObject, role: str, name: str | None, channel: str | None,
                 builder: Any) -> dict[str, Any]:
    """The header fields of the message's content: who wrote it, to whom, on which channel."""
    recipient = source.text("recipient")
    content_type, constrained = read_content_type(source.text("content_type"))
    call_id = source.text("tool_call_id") or source.text("call_id")
    if role == "tool":
        name = name or source.text("tool_name")  # Ollama names the tool a reply comes from, with no call id
        name = qualified_tool_name(name) if name else builder.tool_named(call_id)
    to_tool = role == "assistant" and is_tool_address(recipient)
    default_channel = "commentary" if role == "tool" or to_tool else "final"
    return dict(role=role, name=name, recipient=recipient, channel=channel or default_channel,
                channel_explicit=channel is not None, content_type=content_type, constrained=constrained,
                intent=source.text("intent"), call_id=call_id, end="call" if to_tool else "end")


def _reasoning_pieces(source: JsonObject, role: str) -> list[Draft]:
    found: list[Draft] = []
    for key in REASONING_KEYS:
        if source.get(key) is None:
            continue
        text = _joined_text(source, key)
        if text:
            found.append(drafts.analysis(role, text, source.span_of(key)))
    if source.get("reasoning_details") is not None:
        found.extend(details_pieces(source, role))
    return found


def _without_repeated_reasoning(found: list[Draft]) -> list[Draft]:
    """Some producers write the same reasoning twice (under two keys, or as `reasoning_content` and `<think>`
    in the content): show it once."""
    seen: set[str] = set()
    kept = []
    for piece in found:
        fields = piece.fields
        if fields.get("channel") == "analysis" and fields.get("intent") is None and fields["content"]:
            if fields["content"] in seen:
                continue
            seen.add(fields["content"])
        kept.append(piece)
    return kept


def _joined_text(source: JsonObject, key: str) -> str | None:
    """The text of a reasoning field: a string, or a list of parts whose text is joined (it is hidden whole)."""
    value = source.get(key)
    if value is None or isinstance(value, str):
        return value
    if not isinstance(value, (list, dict)):
        return source.text(key)
    node = source.node_of(key)
    spans = [item.span for item in node.items] if node is not None and node.items else []
    texts = []
    for at, part in enumerate(value if isinstance(value, list) else [value]):
        text = _reasoning_text(part)
        if text is None:
            kind = part.get("type") if isinstance(part, dict) else None
            source.problem("W-JSON-CONTENT-PART", f"A reasoning part {type_phrase(kind, part)} has no text to "
                                                  "show; it was left out.",
                           spans[at] if at < len(spans) else source.span_of(key))
        texts.append(text or "")
    return "".join(texts)


def _reasoning_text(part: Any) -> str | None:
    text = part_text(part)
    kind = part.get("type") if isinstance(part, dict) else None
    if text is None and isinstance(kind, str) and kind in REASONING_TEXT:
        text = part.get(REASONING_TEXT[kind])
    return text if isinstance(text, str) else None


def author(source: JsonObject) -> tuple[str, str | None]:
    """The role and name, from `author: {role, name}` or flat keys. A role naming a tool (`functions.x`,
    `browser.search`) is the tool speaking, as in Harmony text."""
    author_value = source.get("author")
    holder = JsonObject(author_value, source.span_of("author")) if isinstance(author_value, dict) else source
    role, name = holder.get("role"), holder.text("name")
    source.problems.extend(holder.problems if holder is not source else [])
    role_span = holder.span_of("role")
    if role is None:
        source.problem("W-UNKNOWN-ROLE", "This message has no role.", role_span)
        return "unknown", name
    if not isinstance(role, str):
        shown = shown_json(role)
        source.problem("W-UNKNOWN-ROLE", f"The role {shown} is not a word; it was kept as written.", role_span)
        return shown, name
    if role in ROLES:
        return role, name
    if role == "function":  # OpenAI's legacy name for a tool reply
        return "tool", name
    if "." in role:
        return "tool", role
    source.problem("W-UNKNOWN-ROLE", f"Unknown role {role!r}; it was kept as written.", role_span)
    return role, name


def _channel(source: JsonObject) -> str | None:
    channel = source.text("channel")
    key = "channel"
    if channel is None and isinstance(source.get("phase"), str):
        channel, key = PHASES.get(source.get("phase"), source.get("phase")), "phase"
    if channel is not None and channel not in CHANNELS:
        source.problem("W-UNKNOWN-CHANNEL", f"Unknown channel {channel!r}; it was kept as written.",
                       source.span_of(key))
    return channel
