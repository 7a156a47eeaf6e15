"""OpenAI Responses API items: a response's `output`, or a request's `input` (where plain `{role, content}`
messages may stand among the items).

- `message` (`role`, `content` parts, `phase`): read as any message object (elements.py).
- `reasoning`: each `summary_text` is an analysis message with intent `summary`, each `reasoning_text` (open
  models) an analysis message; `encrypted_content` is opaque (W-JSON-OPAQUE-DATA) and, alone, an analysis
  message saying so.
- `function_call` (`call_id`, `name`, `arguments`): a call to `functions.<name>` with JSON arguments;
  `custom_tool_call` (`input`) likewise, free-form.
- `computer_call`, `local_shell_call`, `shell_call`, `apply_patch_call` and any other `*_call`: a call to the
  built-in tool (`computer`, `local_shell` …), which the client runs; its `*_call_output` (`call_id`, `output`)
  is the tool's reply, paired by `call_id`.
- `web_search_call`, `file_search_call`, `code_interpreter_call`, `image_generation_call`, `mcp_call`: tools the
  server ran, which writes the result into the item: a call and its reply (results, or only the status).
- `mcp_list_tools`: the MCP server's tools, declared as `<server_label>.<name>` and shown as a hidden entry of its
  own (a system message named `mcp_list_tools`: the model read them as its instructions); an `error` is
  W-TOOL-ERROR. `mcp_approval_request` (the model asks to call an MCP tool that needs the user's approval) and
  the next request's `mcp_approval_response` (`approve`, `reason`) are hidden entries named after the item.
- anything else: a hidden message of its own, W-JSON-UNKNOWN-ITEM.

Every item accounts for its members (`claimed`): what its reader does not read is kept (JsonObject.account).
"""
from __future__ import annotations

from typing import Any

from viewer.parse.common import Pending, qualified_tool_name, shown_json
from viewer.parse.json import drafts
from viewer.parse.json.content_text import flat_text
from viewer.parse.json.elements import read_message
from viewer.parse.json.media import placeholder
from viewer.parse.json.source import JsonObject, Draft, type_phrase
from viewer.parse.json.tools import as_list

SERVER_TOOLS = {
    "web_search_call": ("web_search", ("action", "query"), ("results", "status")),
    "file_search_call": ("file_search", ("queries",), ("results", "status")),
    "code_interpreter_call": ("code_interpreter", ("code",), ("outputs", "status")),
    "image_generation_call": ("image_generation", ("revised_prompt",), ("result", "status")),
    "mcp_call": (None, ("arguments",), ("output", "error")),
}
"""Items of tools the server runs: the tool's address (None: named by the item), the keys of its arguments,
and of its result."""
CLIENT_ARGUMENTS = {"computer_call": ("action", "actions"), "local_shell_call": ("action",),
                    "shell_call": ("action",), "apply_patch_call": ("operation",)}
"""Items of built-in tools the client runs, and the keys of their arguments (their output is an item of its
own); another `*_call` passes everything but its ids."""
BOOKKEEPING = ("type", "id", "call_id", "status")
NOTED = {"mcp_list_tools": ("server_label", "tools", "error"),
         "mcp_approval_request": ("server_label", "name", "arguments"),
         "mcp_approval_response": ("approval_request_id", "approve", "reason")}
"""Items that are no message of the conversation but bookkeeping the debug view shows, and the members shown."""
CLAIMED = {"reasoning": ("summary", "content", "encrypted_content"), "function_call": ("name", "arguments"),
           "custom_tool_call": ("name", "input"), "mcp_call": ("server_label", "name", "arguments", "output",
                                                                "error", "approval_request_id"),
           **NOTED}
"""The members each item type's reader reads, besides its bookkeeping (`BOOKKEEPING`)."""


def is_item(value: dict[str, Any]) -> bool:
    """Whether an element is a Responses API item rather than a message: it has a `type` other than `message`
    and no role."""
    kind = value.get("type")
    return kind is not None and kind != "message" and "role" not in value and "author" not in value


def is_element(value: dict[str, Any]) -> bool:
    return is_item(value)


def read_element(source: JsonObject, builder: Any) -> list[Draft]:
    return read_item(source, builder)


def claimed(value: dict[str, Any]) -> Any:
    """The members an item's reader reads (see `read_item`); an item it does not know is kept whole."""
    kind = value.get("type")
    if not isinstance(kind, str):
        return value
    if kind in CLAIMED:
        return (*BOOKKEEPING, *CLAIMED[kind])
    if kind in SERVER_TOOLS:
        return (*BOOKKEEPING, *SERVER_TOOLS[kind][1], *SERVER_TOOLS[kind][2])
    if kind in CLIENT_ARGUMENTS:
        return (*BOOKKEEPING, *CLIENT_ARGUMENTS[kind])
    if kind.endswith("_call_output"):
        return (*BOOKKEEPING, "output")
    return value  # another `*_call` passes all but its bookkeeping; an unknown item is kept whole


def read_item(source: JsonObject, builder: Any) -> list[Draft]:
    kind = source.get("type")
    if kind == "message":
        return read_message(source, builder)
    if kind == "reasoning":
        return _reasoning(source)
    if isinstance(kind, str) and kind in NOTED:
        return [_noted(source, kind, builder)]
    if isinstance(kind, str) and kind in SERVER_TOOLS:
        return _server_call(source, kind, builder)
    if isinstance(kind, str) and kind.endswith("_call"):
        return [_client_call(source, kind)]
    if isinstance(kind, str) and kind.endswith("_call_output"):
        return [_output(source, kind, builder)]
    return [drafts.unclassified("unknown", kind, source.value, source.span, "W-JSON-UNKNOWN-ITEM",
                                f"An item {type_phrase(kind, source.value)}")]


def _reasoning(source: JsonObject) -> list[Draft]:
    found: list[Draft] = []
    for key, intent in (("summary", "summary"), ("content", None)):
        node = source.node_of(key)
        spans = [item.span for item in node.items] if node is not None and node.items else []
        for at, part in enumerate(as_list(source.get(key))):
            found.append(_reasoning_part(part, spans[at] if at < len(spans) else source.span_of(key), intent))
    encrypted = source.get("encrypted_content")
    if encrypted:
        span = source.span_of("encrypted_content")
        if found:
            found[0].problems.append(drafts.opaque_problem("reasoning item", encrypted, "encrypted_content", span))
        else:
            found.append(drafts.opaque("assistant", "encrypted reasoning", encrypted, "encrypted_content", span))
    return found


def _reasoning_part(part: Any, span: tuple[int, int], intent: str | None) -> Draft:
    kind = part.get("type") if isinstance(part, dict) else None
    if kind in ("summary_text", "reasoning_text", "text") and isinstance(part.get("text"), str):
        return drafts.analysis("assistant", part["text"], span, intent)
    return drafts.unclassified("assistant", kind, part, span, "W-JSON-UNKNOWN-PART",
                               f"A reasoning part {type_phrase(kind, part)}")


def _client_call(source: JsonObject, kind: str) -> Draft:
    call_id = source.text("call_id") or source.text("id")
    if kind in ("function_call", "custom_tool_call"):
        name = source.text("name")
        recipient = qualified_tool_name(name) if name else None
        key = "arguments" if kind == "function_call" else "input"
        piece = drafts.call(recipient, drafts.arguments_text(source.get(key)), source.span, call_id,
                            json_arguments=kind == "function_call")
        if recipient is None:
            piece.problems.append(Pending("W-JSON-SHAPE", f"This {kind} item does not say which tool it calls.",
                                          source.span))
        return piece
    keys = CLIENT_ARGUMENTS.get(kind) or tuple(key for key in source.value if key not in BOOKKEEPING)
    content, is_json = _fields(source.value, keys)
    return drafts.call(kind.removesuffix("_call"), content, source.span, call_id, json_arguments=is_json)


def _output(source: JsonObject, kind: str, builder: Any) -> Draft:
    call_id = source.text("call_id") or source.text("id")
    tool = kind.removesuffix("_call_output")
    name = builder.tool_named(call_id) or (None if tool in ("function", "custom_tool") else tool)
    return drafts.reply(name, flat_text(source.get("output")), source.span, call_id)


def _server_call(source: JsonObject, kind: str, builder: Any) -> list[Draft]:
    """A tool the server ran: the call, and the reply the item records (its results, or only its status)."""
    address, argument_keys, result_keys = SERVER_TOOLS[kind]
    if address is None:  # mcp_call
        label, name = source.text("server_label"), source.text("name") or "tool"
        address = f"{label}.{name}" if label else f"mcp.{name}"
    call_id = source.text("id") or source.text("call_id")
    arguments = source.get("arguments") if kind == "mcp_call" else None
    content, is_json = (arguments, True) if isinstance(arguments, str) else _fields(source.value, argument_keys)
    call = drafts.call(address, content, source.span, call_id, json_arguments=is_json)
    builder.note_call(call_id, address)
    reply = drafts.reply(address, _result(source.value, kind, result_keys), source.span, call_id)
    if source.get("error"):
        reply.problems.append(Pending("W-TOOL-ERROR", f"The tool {address} reported a failure: "
                                                      f"{flat_text(source.get('error'))[:200]}", source.span))
    return [call, reply]


def _result(item: dict[str, Any], kind: str, keys: tuple[str, ...]) -> str:
    if kind == "image_generation_call" and isinstance(item.get("result"), str):
        return placeholder("image", {"data": item["result"]})  # the generated image, base64: never text
    if kind == "mcp_call" and isinstance(item.get("output"), str):
        return item["output"]
    if kind == "code_interpreter_call" and isinstance(item.get("outputs"), list):
        return flat_text(item["outputs"])
    present = {key: item[key] for key in keys if item.get(key) is not None}
    return shown_json(present) if present else ""


def _fields(item: dict[str, Any], keys: tuple[str, ...]) -> tuple[str, bool]:
    """The chosen keys of an item as a JSON object's text, or a single text value (code, a query) as itself;
    and whether the text is JSON."""
    present = {key: item[key] for key in keys if item.get(key) is not None}
    if len(present) == 1 and isinstance(next(iter(present.values())), str):
        return next(iter(present.values())), False
    return (shown_json(present), True) if present else ("", False)


def _noted(source: JsonObject, kind: str, builder: Any) -> Draft:
    """An MCP item that is bookkeeping: a hidden system entry named after it, its members as JSON. The tools an
    `mcp_list_tools` item lists are declared, under `<server_label>.<name>`."""
    shown = {key: source.get(key) for key in NOTED[kind] if source.get(key) is not None}
    piece = Draft(dict(role="system", name=kind, channel="final", content_type="json",
                       content=shown_json(shown), end="end"), source.span)
    if kind == "mcp_list_tools":
        label = source.text("server_label") or "mcp"
        for tool in as_list(source.get("tools")):
            if isinstance(tool, dict) and isinstance(tool.get("name"), str) \
                    and isinstance(tool.get("input_schema"), dict):
                builder.tools[f"{label}.{tool['name']}"] = tool["input_schema"]
        if source.get("error"):
            piece.problems.append(Pending("W-TOOL-ERROR", f"The MCP server {label} could not list its tools: "
                                                          f"{flat_text(source.get('error'))[:200]}", source.span))
    return piece
