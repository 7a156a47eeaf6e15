"""Tool declarations in JSON transcripts: OpenAI `tools` / legacy `functions` in an envelope (also the
Responses API's flat function tools, Anthropic's `input_schema`, and LLaMA-Factory's `tools` written as JSON
text), and openai-harmony's tool namespaces, as tool address -> JSON schema of the arguments."""
from __future__ import annotations

import json
from typing import Any

from viewer.parse.common import qualified_tool_name


def declared_tools(envelope: dict[str, Any]) -> dict[str, Any]:
    """`tools: [{"type": "function", "function": {name, parameters}}]` (or flat `{name, parameters}`, or
    Anthropic's `{name, input_schema}`), and legacy `functions: [{name, parameters}]`, as tool name -> argument
    schema. Tools written as JSON text (LLaMA-Factory) are read the same way."""
    tools = {}
    for entry in [*as_list(tools_value(envelope.get("tools"))), *as_list(envelope.get("functions")),
                  *as_list(envelope.get("declared"))]:
        if not isinstance(entry, dict):
            continue
        function = entry.get("function")
        if not isinstance(function, dict):  # a flat declaration: the entry is the function
            function = entry
        name, schema = function.get("name"), function.get("parameters", function.get("input_schema"))
        if isinstance(name, str) and isinstance(schema, dict):
            tools[qualified_tool_name(name)] = schema
    return tools


def namespace_tools(namespaces: Any) -> dict[str, Any]:
    """openai-harmony `tools: {namespace: {name, tools: [{name, parameters}]}}` as tool name -> schema."""
    tools: dict[str, Any] = {}
    if not isinstance(namespaces, dict):
        return tools
    for key, namespace in namespaces.items():
        if not isinstance(namespace, dict):
            continue
        prefix = namespace.get("name") if isinstance(namespace.get("name"), str) else key
        for tool in as_list(namespace.get("tools")):
            if not isinstance(tool, dict):
                continue
            name, schema = tool.get("name"), tool.get("parameters")
            if isinstance(name, str) and isinstance(schema, dict):
                tools[f"{prefix}.{name}"] = schema
    return tools


def as_list(value: Any) -> list[Any]:
    """A JSON list, or none for anything else."""
    return value if isinstance(value, list) else []


def tools_value(value: Any) -> Any:
    """A `tools` value; one written as JSON text is read (None when that text is not JSON)."""
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except (ValueError, RecursionError):
        return None
