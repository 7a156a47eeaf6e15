"""LangChain and LangGraph messages (langchain-core's `messages_to_dict` and `dumpd`, a message's `model_dump`),
read as the OpenAI chat message each stands for (elements.py makes its messages).

- `messages_to_dict`: `{"type": "human" | "ai" | "system" | "tool" | "function" | "chat", "data": {...}}`.
- `dumpd`: `{"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "AIMessage"],
  "kwargs": {...}}` (only the fields that differ from their defaults).
- A message's own fields (as the LangGraph API returns a thread's state): `{"type": "ai", "content", …}`.

The fields: `content` (text, or blocks: `text`, Anthropic's `thinking` and `tool_use`, LangChain's standard
`reasoning` block), `tool_calls` (`{"name", "args", "id"}`), `invalid_tool_calls` (arguments the model wrote
but LangChain could not parse: read as calls, reported), `additional_kwargs` (`reasoning_content` from DeepSeek
and Qwen, `reasoning` from the Responses API with its `summary` parts, the provider's raw `tool_calls`),
`tool_call_id` and `status: "error"` on a tool's reply, `role` on a `chat` message; `response_metadata`
(`model_name` or `model`, `finish_reason` or `stop_reason`, `id`) and `usage_metadata` are the meta of an AI
message's messages (response_meta.py), and what else they and the message hold is kept (JsonObject.account).

A LangGraph thread state (`{"values": {"messages": [...]}, "next", "config", "metadata", …}`, or a checkpoint's
`channel_values`) is the conversation of its `messages`; its other members are the header.
"""
from __future__ import annotations

from typing import Any

from viewer.model import Meta, Span
from viewer.parse.common import Pending
from viewer.parse.json import response_meta
from viewer.parse.json.elements import read_message
from viewer.parse.json.fields import object_in
from viewer.parse.json.plain import walk_object
from viewer.parse.json.positions import Member, read_value
from viewer.parse.json.source import JsonObject, Draft
from viewer.parse.json.unpacked import Unpacked

ROLES = {"human": "user", "ai": "assistant", "system": "system", "tool": "tool", "function": "tool",
         "developer": "developer", "remove": None}
"""LangChain's message types and the roles they speak with (`chat` messages carry their own `role`)."""
CLASSES = {"HumanMessage": "human", "AIMessage": "ai", "SystemMessage": "system", "ToolMessage": "tool",
           "FunctionMessage": "function", "ChatMessage": "chat"}
"""dumpd's class names (a `…Chunk` class is its message's type)."""
STATE_KEYS = ("values", "channel_values")


def is_message(value: dict[str, Any]) -> bool:
    """A LangChain message in any of the three spellings."""
    if value.get("lc") == 1 and value.get("type") == "constructor":
        return isinstance(value.get("id"), list) and isinstance(value.get("kwargs"), dict) and \
            _class_type(value["id"]) is not None
    kind = value.get("type")
    if not isinstance(kind, str) or "role" in value:
        return False
    if isinstance(value.get("data"), dict) and len(value) == 2:
        return kind in ROLES or kind == "chat"
    return (kind in ROLES or kind == "chat") and "content" in value


def wrapped_key(value: dict[str, Any]) -> str | None:
    """The member holding a message's fields when they are wrapped (`dumpd`'s `kwargs`, `messages_to_dict`'s
    `data`); None when they stand at the top."""
    return "kwargs" if value.get("lc") == 1 else "data" if isinstance(value.get("data"), dict) else None


def read_lc_message(source: JsonObject, builder: Any) -> list[Draft]:
    """One LangChain message as the OpenAI chat message it stands for."""
    value = source.value
    key = wrapped_key(value)
    kind = _class_type(value["id"]) if key == "kwargs" else value.get("type")
    # The fields' spans are known when the importer read the element with positions (it does when the message
    # gives several messages): then the fields are the outer member's node, read with its members.
    node = source.members[key].node if key and key in source.members else None
    if node is not None:
        node = read_value(builder.text, node.span[0], 2)  # down to the items of its content and calls
        fields, span, members = node.value, node.span, dict(node.members)
    else:
        fields, span = value[key] if key else value, source.span
        members = {} if key else dict(source.members)
    inner = JsonObject(_as_openai(fields, kind), span, _members(members))
    if fields.get("invalid_tool_calls"):
        inner.problem("W-JSON-SHAPE", "LangChain could not parse the arguments of this message's "
                                      "invalid_tool_calls; they are read as written.", inner.span_of("tool_calls"))
    found = response_meta.on_drafts(read_message(inner, builder), _meta(fields))
    if fields.get("status") == "error" and found:
        found[-1].problems.append(Pending("W-TOOL-ERROR", "The tool reported a failure (status: error).", span))
    source.problems.extend(inner.problems)
    if key is not None:
        _account(JsonObject(fields, span, members), source)
    return found


FIELDS = ("content", "additional_kwargs", "response_metadata", "usage_metadata", "tool_calls", "invalid_tool_calls",
          "tool_call_id", "name", "id", "type", "status", "role", "example")
"""A message's fields that read_lc_message reads (or its id and type tag; `example` is a flag of no meaning here)."""
READ_KWARGS = ("reasoning_content", "reasoning", "tool_calls")
READ_METADATA = ("model_name", "model", "finish_reason", "stop_reason", "done_reason", "id")
WRAPPERS = ("lc", "type", "id", "kwargs", "data", "graph")


def _meta(fields: dict[str, Any]) -> Meta | None:
    """An AI message's model, stop reason and response id (`response_metadata`) and usage (`usage_metadata`)."""
    said = object_in(fields, "response_metadata")
    model = said.get("model_name", said.get("model"))
    stop = said.get("finish_reason", said.get("stop_reason", said.get("done_reason")))
    meta = Meta(model=model if isinstance(model, str) and model else None, stop_reason=response_meta.stop_reason(stop),
                usage=response_meta.usage_of(fields.get("usage_metadata")),
                response=said["id"] if isinstance(said.get("id"), str) and said["id"] else None)
    return None if meta == response_meta.NOTHING else meta


def _account(fields: JsonObject, source: JsonObject) -> None:
    """What a message's fields hold beyond what is read, kept (for a message written with its fields at the top,
    `claimed` does it)."""
    fields.account(FIELDS, "message")
    fields.account(READ_KWARGS, "message", within="additional_kwargs")
    fields.account(READ_METADATA, "message", within="response_metadata")
    source.unread.update(fields.unread)
    source.problems.extend(fields.problems)


def claimed(value: dict[str, Any]) -> tuple[str, ...]:
    """The wrapper's members (its fields are accounted for inside read_lc_message), or the fields themselves."""
    return WRAPPERS if wrapped_key(value) else FIELDS


def plain_view(value: dict[str, Any]) -> dict[str, Any] | None:
    """The OpenAI chat message of a message that says nothing else: no failure to report, no invalid calls, no
    content blocks, no metadata, nothing the accounting would keep (plain.py reads such a message fast, to the
    messages `read_lc_message` makes)."""
    key = wrapped_key(value)
    fields = value[key] if key else value
    if fields.get("status") == "error" or fields.get("invalid_tool_calls") or isinstance(fields.get("content"), list) \
            or fields.get("response_metadata") or fields.get("usage_metadata") or not _plain_fields(value, fields):
        return None
    return _as_openai(fields, _class_type(value["id"]) if key == "kwargs" else value.get("type"))


def _plain_fields(value: dict[str, Any], fields: dict[str, Any]) -> bool:
    """Whether every member of the message is one its plain view says (or says nothing)."""
    extra = fields.get("additional_kwargs")
    return all(key in FIELDS or not item for key, item in fields.items()) \
        and (not wrapped_key(value) or all(key in WRAPPERS for key in value)) \
        and (not isinstance(extra, dict) or all(key in READ_KWARGS or not item for key, item in extra.items()))


def view_spans(text: str, start: int, value: dict[str, Any]) -> dict[Any, Span] | None:
    """The spans of the message at `start` under the names of its plain view, as read_lc_message gives them (its
    reasoning spans `additional_kwargs`; each call the item of `tool_calls` it comes from); None when they are not
    those of its fields (calls made from the provider's own `tool_calls`, an item that is no call)."""
    key = wrapped_key(value)
    fields = value[key] if key else value
    calls = fields.get("tool_calls")
    if not calls and isinstance(fields.get("additional_kwargs"), dict) \
            and fields["additional_kwargs"].get("tool_calls") is not None \
            or calls and (type(calls) is not list or any(type(call) is not dict for call in calls)):
        return None
    spans: dict[Any, Span] = {}
    if key is None:
        ended = walk_object(text, start, fields, spans, listed="tool_calls")
    else:
        def walk_fields(text: str, at: int, fields: Any) -> int | None:
            return walk_object(text, at, fields, spans, listed="tool_calls")
        ended = walk_object(text, start, value, {}, inner={key: walk_fields})
    if ended is None:
        return None
    if "additional_kwargs" in spans:
        spans["reasoning_content"] = spans["additional_kwargs"]
    return spans


def is_element(value: dict[str, Any]) -> bool:
    return is_message(value)


def read_element(source: JsonObject, builder: Any) -> list[Draft]:
    return read_lc_message(source, builder)


def read_document(reading: Unpacked, builder: Any) -> Unpacked | None:
    """A LangGraph state: its messages, to be read as the conversation; None for anything else."""
    return state_reading(reading, builder.text)


def state_reading(reading: Unpacked, text: str) -> Unpacked | None:
    """A LangGraph thread state or checkpoint: its `messages` as the elements, its other members the envelope."""
    if len(reading.elements) != 1 or reading.envelope or not isinstance(reading.elements[0].value, dict):
        return None
    value = reading.elements[0].value
    key = next((key for key in STATE_KEYS if isinstance(value.get(key), dict)
                and isinstance(value[key].get("messages"), list)), None)
    if key is None:
        return None
    top = read_value(text, reading.elements[0].span[0], 2)
    values = read_value(text, top.members[key].node.span[0], 2)
    envelope = {name: member for name, member in top.members.items() if name != key}
    return Unpacked(list(values.members["messages"].node.items), envelope, key="messages")


def _class_type(path: list[Any]) -> str | None:
    name = path[-1] if path and isinstance(path[-1], str) else ""
    return CLASSES.get(name.removesuffix("Chunk"))


def _as_openai(fields: dict[str, Any], kind: Any) -> dict[str, Any]:
    """The message's fields under the names of an OpenAI chat message."""
    role = fields.get("role") if kind == "chat" else ROLES.get(kind, kind)
    extra = object_in(fields, "additional_kwargs")
    content = fields.get("content")
    message = {"role": role, "content": _content(content), "name": fields.get("name"),
               "tool_call_id": fields.get("tool_call_id")}
    if isinstance(extra.get("reasoning_content"), str):
        message["reasoning_content"] = extra["reasoning_content"]
    reasoning = extra.get("reasoning")
    if isinstance(reasoning, dict) and isinstance(reasoning.get("summary"), list):
        message["reasoning"] = reasoning["summary"]  # the Responses API's reasoning item: its summary parts
    calls = _calls(fields, content)
    if calls:
        message["tool_calls"] = calls
    elif isinstance(extra.get("tool_calls"), list):
        message["tool_calls"] = extra["tool_calls"]  # the provider's own calls, OpenAI-shaped
    return {key: value for key, value in message.items() if value is not None}


def _content(content: Any) -> Any:
    """Blocks as the JSON importer knows them: LangChain's `reasoning` block is a reasoning part."""
    if not isinstance(content, list):
        return content
    return [{"type": "reasoning_text", "text": block["reasoning"]}
            if isinstance(block, dict) and block.get("type") == "reasoning" and isinstance(block.get("reasoning"), str)
            else block for block in content]


def _calls(fields: dict[str, Any], content: Any) -> list[dict[str, Any]]:
    """`tool_calls` and `invalid_tool_calls` as OpenAI calls; a call an Anthropic `tool_use` block of the content
    already makes is not made twice."""
    in_content = {block.get("id") for block in content if isinstance(block, dict) and block.get("type") == "tool_use"
                  and isinstance(block.get("id"), str)} if isinstance(content, list) else set()
    calls = []
    for key in ("tool_calls", "invalid_tool_calls"):
        listed = fields.get(key)
        for call in listed if isinstance(listed, list) else []:
            if isinstance(call, dict) and not (isinstance(call.get("id"), str) and call["id"] in in_content):
                calls.append({"id": call.get("id"), "type": "function",
                              "function": {"name": call.get("name"), "arguments": call.get("args")}})
    return calls


def _members(members: dict[str, Member]) -> dict[str, Member]:
    """The spans of the fields, under the names `_as_openai` gives them."""
    found: dict[str, Member] = {key: members[key] for key in ("content", "name", "tool_call_id", "tool_calls")
                                if key in members}
    if "type" in members:
        found["role"] = members["type"]
    if "additional_kwargs" in members:
        for key in ("reasoning_content", "reasoning"):
            found[key] = members["additional_kwargs"]
        found.setdefault("tool_calls", members["additional_kwargs"])
    return found
