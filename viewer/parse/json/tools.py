"""Tool declarations in JSON transcripts: OpenAI `tools` / legacy `functions` in an envelope, and
openai-harmony's tool namespaces, as tool address -> JSON schema of the arguments."""
from __future__ import annotations

from typing import Any

from viewer.parse.common import qualified_tool_name


def declared_tools(envelope: dict[str, Any]) -> dict[str, Any]:
    """`tools: [{"type": "function", "function": {name, parameters}}]` (or flat `{name, parameters}`), and
    legacy `functions: [{name, parameters}]`, as tool name -> argument schema."""
    tools = {}
    for entry in [*as_list(envelope.get("tools")), *as_list(envelope.get("functions"))]:
        if not isinstance(entry, dict):
            continue
        function = entry.get("function") if isinstance(entry.get("function"), dict) else entry
        name, schema = function.get("name"), function.get("parameters")
        if isinstance(name, str) and isinstance(schema, dict):
            tools[qualified_tool_name(name)] = schema
    return tools


def namespace_tools(namespaces: Any) -> dict[str, Any]:
    """openai-harmony `tools: {namespace: {name, tools: [{name, parameters}]}}` as tool name -> schema."""
    tools = {}
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
