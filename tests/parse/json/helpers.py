"""Writing JSON inputs for the JSON importer tests."""
from __future__ import annotations

import json

CALL = {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city":"Oslo"}'}}
"""An OpenAI tool call."""


def jsonl(*objects) -> str:
    """JSON Lines: one object a line."""
    return "".join(json.dumps(value) + "\n" for value in objects)
