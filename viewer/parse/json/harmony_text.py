"""openai-harmony's structured system and developer content, written as text the way its renderer lays it
out, so the viewer shows what the model saw."""
from __future__ import annotations

from typing import Any

from viewer.parse.json.tools import as_list, namespace_tools


def system_text(part: dict[str, Any]) -> str:
    """openai-harmony's system content, written the way its renderer lays it out."""
    lines = []
    if isinstance(part.get("model_identity"), str):
        lines.append(part["model_identity"])
    for key, label in (("knowledge_cutoff", "Knowledge cutoff"), ("conversation_start_date", "Current date"),
                       ("reasoning_effort", "Reasoning")):
        if isinstance(part.get(key), str):
            lines.append(f"{label}: {part[key].lower() if key == 'reasoning_effort' else part[key]}")
    config = part.get("channel_config")
    if isinstance(config, dict) and as_list(config.get("valid_channels")):
        channels = ", ".join(str(channel) for channel in config["valid_channels"])
        lines.append(f"# Valid channels: {channels}.")
    lines.extend(_tool_lines(part.get("tools")))
    return "\n".join(lines)


def developer_text(part: dict[str, Any]) -> str:
    lines = [part["instructions"]] if isinstance(part.get("instructions"), str) else []
    lines.extend(_tool_lines(part.get("tools")))
    return "\n".join(lines)


def _tool_lines(namespaces: Any) -> list[str]:
    names = sorted(namespace_tools(namespaces))
    return [f"# Tools: {', '.join(names)}"] if names else []
