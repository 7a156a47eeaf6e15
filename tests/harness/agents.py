"""A deterministic Claude Code session of any size, text only (no images), for the benchmarks: the conversations
of formats.py written as Claude Code writes them, one line per content block of a response (thinking with its
signature, then each tool call, or the answer) sharing `message.id` and its usage, tool results as `user` lines
with a `toolUseResult` copy, every line chained by `parentUuid`.

    from tests.harness.agents import claude_code
    text = claude_code(megabytes=50)
"""
from __future__ import annotations

import json

from tests.harness.formats import conversations

SESSION = "5b0c9e1a-7d2f-4c83-9a61-0e4f2d8b7c35"


class _Writer:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.count = 0
        self.size = 0
        """Characters written so far."""
        self.parent: str | None = None

    def line(self, kind: str, message: dict, **extra) -> None:
        self.count += 1
        uuid = f"{self.count:08x}-0000-4000-8000-{self.count:012x}"
        seconds = self.count * 3
        line = {"parentUuid": self.parent, "isSidechain": False, "userType": "external", "cwd": "/home/ada/weather",
                "sessionId": SESSION, "version": "1.0.98", "gitBranch": "main", "type": kind, "message": message,
                "uuid": uuid, "timestamp": f"2025-09-14T{seconds // 3600 % 24:02d}:{seconds // 60 % 60:02d}:"
                                           f"{seconds % 60:02d}.000Z", **extra}
        self.lines.append(json.dumps(line, ensure_ascii=False, separators=(",", ":")))
        self.size += len(self.lines[-1]) + 1
        self.parent = uuid


def claude_code(megabytes: float = 0, messages: int = 0, seed: int = 7) -> str:
    """A Claude Code session of at least `megabytes` and `messages` lines."""
    writer = _Writer()
    responses = size = 0
    for conversation in conversations(float("inf"), 0, seed):  # endless: stopped when the lines reach the size
        if size >= megabytes * 1_000_000 and writer.count >= messages:
            break
        for message in conversation:
            role = message["role"]
            if role == "user":
                writer.line("user", {"role": "user", "content": message["content"]})
            elif role == "tool":
                block = {"tool_use_id": message["tool_call_id"], "type": "tool_result", "content": message["content"]}
                writer.line("user", {"role": "user", "content": [block]},
                            toolUseResult={"stdout": message["content"], "stderr": "", "interrupted": False})
            elif role == "assistant":
                responses += 1
                blocks = [{"type": "thinking", "thinking": message["reasoning_content"],
                           "signature": f"Eq{responses:06d}c2lnbmF0dXJl"}]
                blocks += [{"type": "tool_use", "id": call["id"], "name": call["function"]["name"],
                            "input": json.loads(call["function"]["arguments"])}
                           for call in message.get("tool_calls") or ()]
                if message["content"]:
                    blocks.append({"type": "text", "text": message["content"]})
                stop = "tool_use" if message.get("tool_calls") else "end_turn"
                for at, block in enumerate(blocks):
                    last = at == len(blocks) - 1
                    usage = {"input_tokens": 4, "cache_creation_input_tokens": 120, "cache_read_input_tokens": 9000,
                             "output_tokens": 30 + 10 * at, "service_tier": "standard"}
                    writer.line("assistant", {"id": f"msg_{responses:08d}", "type": "message", "role": "assistant",
                                              "model": "claude-sonnet-4-20250514", "content": [block],
                                              "stop_reason": stop if last else None, "stop_sequence": None,
                                              "usage": usage}, requestId=f"req_{responses:08d}")
        size = writer.size
    return "\n".join(writer.lines) + "\n"
