"""Deterministic API-record files of any size, for the importer benchmark (bench/parse.py): the conversations of
formats.py (OpenAI chat messages) written as other producers write them.

- `gemini`: one Gemini REST request (`systemInstruction`, `contents` with thought, functionCall and
  functionResponse parts, a thoughtSignature on each call).
- `batch_output`: OpenAI Batch output lines, one Chat Completions response per assistant answer.
- `ollama`: one Ollama `/api/chat` request (`thinking`, `tool_calls` with object arguments, `tool_name`).
- `ollama_stream`: one streamed Ollama answer per assistant message, a chunk per word.
- `completion_stream`: one streamed Chat Completion per assistant message (server-sent events), a chunk per word.
- `preference`: TRL conversational preference records (prompt, chosen, rejected).

    from tests.harness.api_formats import SHAPES
    text = SHAPES["gemini"](megabytes=30)
"""
from __future__ import annotations

import json
from typing import Callable, Iterator

from tests.harness.formats import conversations

SIGNATURE = "CiQB0e2Kb" * 8


def _gemini_parts(message: dict) -> list[dict]:
    if message["role"] == "tool":
        return [{"functionResponse": {"name": "get_weather", "response": {"output": message["content"]}}}]
    parts = [{"text": message["reasoning_content"], "thought": True}] if message.get("reasoning_content") else []
    parts += [{"text": message["content"]}] if message.get("content") else []
    for call in message.get("tool_calls") or ():
        parts.append({"functionCall": {"name": call["function"]["name"],
                                       "args": json.loads(call["function"]["arguments"])},
                      "thoughtSignature": SIGNATURE})
    return parts


def gemini(megabytes: float, seed: int = 7) -> str:
    contents = [{"role": "model" if m["role"] == "assistant" else "user", "parts": _gemini_parts(m)}
                for conversation in conversations(megabytes, 0, seed) for m in conversation if m["role"] != "system"]
    return json.dumps({"systemInstruction": {"parts": [{"text": "Be brief."}]}, "contents": contents},
                      ensure_ascii=False)


def batch_output(megabytes: float, seed: int = 7) -> str:
    lines = []
    for conversation in conversations(megabytes, 0, seed):
        for m in conversation:
            if m["role"] == "assistant":
                number = len(lines)
                body = {"id": f"chatcmpl-{number}", "object": "chat.completion", "model": "gpt-4o-mini",
                        "choices": [{"index": 0, "message": m, "finish_reason": "stop"}],
                        "usage": {"prompt_tokens": 50, "completion_tokens": 20, "total_tokens": 70}}
                lines.append(json.dumps({"id": f"batch_req_{number}", "custom_id": f"request-{number}",
                                         "response": {"status_code": 200, "request_id": f"req_{number}",
                                                      "body": body}, "error": None}, ensure_ascii=False))
    return "\n".join(lines) + "\n"


def _ollama_message(message: dict) -> dict:
    if message["role"] == "tool":
        return {"role": "tool", "content": message["content"], "tool_name": "get_weather"}
    converted = {"role": message["role"], "content": message.get("content") or ""}
    if message.get("reasoning_content"):
        converted["thinking"] = message["reasoning_content"]
    if message.get("tool_calls"):
        converted["tool_calls"] = [{"function": {"name": call["function"]["name"],
                                                 "arguments": json.loads(call["function"]["arguments"])}}
                                   for call in message["tool_calls"]]
    return converted


def ollama(megabytes: float, seed: int = 7) -> str:
    messages = [_ollama_message(m) for conversation in conversations(megabytes, 0, seed) for m in conversation]
    return json.dumps({"model": "qwen3:8b", "messages": messages, "stream": False}, ensure_ascii=False)


def _chunks(message: dict) -> Iterator[str]:
    for key in ("thinking", "content"):
        for word in (message.get(key) or "").split(" "):
            yield json.dumps({"model": "qwen3:8b", "created_at": "2025-11-26T19:41:00.000Z",
                              "message": {"role": "assistant", "content": "", key: word + " "}, "done": False},
                             ensure_ascii=False)
    yield json.dumps({"model": "qwen3:8b", "created_at": "2025-11-26T19:41:01.000Z",
                      "message": {"role": "assistant", "content": ""}, "done": True, "done_reason": "stop"})


def ollama_stream(megabytes: float, seed: int = 7) -> str:
    lines: list[str] = []
    size = 0
    for conversation in conversations(megabytes * 4, 0, seed):  # chunks are far larger than the text they carry
        for m in conversation:
            if m["role"] == "assistant":
                for line in _chunks(_ollama_message(m)):
                    lines.append(line)
                    size += len(line) + 1
        if size >= megabytes * 1_000_000:
            break
    return "\n".join(lines) + "\n"


def _deltas(message: dict, number: int) -> Iterator[str]:
    """A streamed Chat Completion of one assistant message as server-sent events, a chunk per word."""
    def event(delta: dict, finish: str | None = None) -> str:
        return "data: " + json.dumps({"id": f"chatcmpl-{number}", "object": "chat.completion.chunk", "created": 1,
                                      "model": "gpt-4o-mini", "choices": [{"index": 0, "delta": delta,
                                                                           "finish_reason": finish}]},
                                     ensure_ascii=False) + "\n\n"
    yield event({"role": "assistant", "content": ""})
    for key in ("reasoning_content", "content"):
        for word in (message.get(key) or "").split(" "):
            yield event({key: word + " "})
    for at, call in enumerate(message.get("tool_calls") or ()):
        yield event({"tool_calls": [{"index": at, "id": call["id"], "type": "function",
                                     "function": {"name": call["function"]["name"], "arguments": ""}}]})
        yield event({"tool_calls": [{"index": at, "function": {"arguments": call["function"]["arguments"]}}]})
    yield event({}, "stop")


def completion_stream(megabytes: float, seed: int = 7) -> str:
    events: list[str] = []
    size = 0
    for conversation in conversations(megabytes * 4, 0, seed):  # chunks are far larger than the text they carry
        for m in conversation:
            if m["role"] == "assistant":
                for event in _deltas(m, len(events)):
                    events.append(event)
                    size += len(event)
        if size >= megabytes * 1_000_000:
            break
    return "".join(events) + "data: [DONE]\n\n"


def preference(megabytes: float, seed: int = 7) -> str:
    lines = []
    size = 0
    for conversation in conversations(megabytes * 6, 0, seed):  # a record keeps a sixth of its conversation
        if size >= megabytes * 1_000_000:
            break
        prompt = conversation[:2]
        answers = [m for m in conversation if m["role"] == "assistant" and m.get("content")]
        chosen, rejected = answers[0], answers[-1]
        lines.append(json.dumps({"prompt": prompt, "chosen": [chosen], "rejected": [rejected],
                                 "score_chosen": 8.0, "score_rejected": 3.0}, ensure_ascii=False))
        size += len(lines[-1]) + 1
    return "\n".join(lines) + "\n"


SHAPES: dict[str, Callable[..., str]] = {"gemini": gemini, "batch output": batch_output, "ollama": ollama,
                                         "ollama stream": ollama_stream, "completion stream": completion_stream,
                                         "preference": preference}
