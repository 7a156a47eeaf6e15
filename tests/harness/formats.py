"""Deterministic ChatML and JSON transcripts of any size, for the importer benchmarks (bench/parse.py).

The same conversations as gen.py's Harmony (a system prompt declaring the weather tool, then exchanges of a
question, reasoning, tool calls with their replies and a final answer; one message in a thousand long), written
as real producers write them:

- ChatML as the Qwen3 template writes it: `<tools>` in the system prompt, `<think>` blocks, Hermes
  `<tool_call>` blocks in assistant turns and `<tool_response>` blocks in user turns.
- JSON as the OpenAI chat API writes it: one `{"messages": […], "tools": […]}` document, `reasoning_content`,
  `tool_calls` with their ids, `role: "tool"` replies with `tool_call_id`.

    from tests.harness.formats import chatml, openai_json
    text = chatml(megabytes=30)
"""
from __future__ import annotations

import json
import random

from tests.harness.gen import CITIES, Generator

SYSTEM = "You are a helpful assistant. Answer briefly and cite the tool you used. Today is 2025-08-{day:02d}."
TOOL = {"type": "function", "function": {
    "name": "get_weather", "description": "Gets the current weather for a city.",
    "parameters": {"type": "object", "properties": {
        "location": {"type": "string", "description": "City and country, e.g. \"Paris, FR\""},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["location"]}}}


def conversations(megabytes: float, messages: int, seed: int):
    """Each conversation as a list of OpenAI chat messages, until the JSON of them all reaches both sizes."""
    generator = Generator(seed)
    pick: random.Random = generator.random
    size = count = day = calls = 0
    while size < megabytes * 1_000_000 or count < messages:
        day += 1
        conversation: list[dict] = [{"role": "system", "content": SYSTEM.format(day=day % 28 + 1)}]
        for _ in range(pick.randint(3, 8)):
            city, temperature = pick.choice(CITIES), pick.randint(-10, 38)
            conversation.append({"role": "user", "content": f"What's the weather in {city}? {generator.sentence()}"})
            reasoning = generator.paragraph(pick.randint(1, 3))
            for _ in range(pick.choice((0, 1, 1, 2))):
                calls += 1
                call_id = f"call_{calls:07d}"
                arguments = json.dumps({"location": city, "unit": "celsius"})
                conversation.append({"role": "assistant", "content": None, "reasoning_content": reasoning,
                                     "tool_calls": [{"id": call_id, "type": "function", "function": {
                                         "name": "get_weather", "arguments": arguments}}]})
                reply = generator.long_text() if generator.is_long() else json.dumps(
                    {"ok": True, "content": {"temperature": temperature, "sky": pick.choice(("sunny", "rain"))}})
                conversation.append({"role": "tool", "tool_call_id": call_id, "content": reply})
                reasoning = generator.sentence()
            answer = generator.long_text() if generator.is_long() else generator.final_answer(city, temperature)
            conversation.append({"role": "assistant", "content": answer, "reasoning_content": reasoning})
        size += len(json.dumps(conversation))
        count += len(conversation)
        yield conversation


def openai_json(megabytes: float = 0, messages: int = 0, seed: int = 7) -> str:
    """One OpenAI chat document of at least `megabytes` and `messages` messages."""
    every = [message for conversation in conversations(megabytes, messages, seed) for message in conversation]
    return json.dumps({"messages": every, "tools": [TOOL]}, ensure_ascii=False)


def chatml(megabytes: float = 0, messages: int = 0, seed: int = 7) -> str:
    """ChatML as the Qwen3 template writes it, of at least `megabytes` and `messages` messages."""
    tools = "\n".join(json.dumps(tool) for tool in [TOOL])
    turns = []
    for conversation in conversations(megabytes, messages, seed):
        for message in conversation:
            turns.append(_turn(message, tools))
    return "".join(turns)


def _turn(message: dict, tools: str) -> str:
    role = message["role"]
    if role == "system":
        body = (f"{message['content']}\n\n# Tools\n\nYou may call one or more functions to assist with the user "
                f"query.\n\n<tools>\n{tools}\n</tools>\n\nFor each function call, return a json object with "
                "function name and arguments within <tool_call></tool_call> XML tags.")
    elif role == "tool":
        role, body = "user", f"<tool_response>\n{message['content']}\n</tool_response>"
    elif role == "assistant":
        body = f"<think>\n{message['reasoning_content']}\n</think>\n\n"
        for call in message.get("tool_calls") or ():
            function = call["function"]
            body += ('<tool_call>\n{"name": "%s", "arguments": %s}\n</tool_call>'
                     % (function["name"], function["arguments"]))
        body += message["content"] or ""
    else:
        body = message["content"]
    return f"<|im_start|>{role}\n{body}<|im_end|>\n"
