"""Deterministic datasets: JSON Lines of whole OpenAI-style conversations (system prompt, question, sometimes a
tool call and its reply, reasoning, answer), for the dataset benchmark and tests."""
from __future__ import annotations

import json
import random

TOPICS = ("router", "invoice", "flight", "recipe", "laptop", "garden", "insurance", "bicycle", "printer", "visa")


def conversation(rng: random.Random, number: int) -> dict:
    topic = rng.choice(TOPICS)
    messages = [{"role": "system", "content": f"You help customers with their {topic}. Conversation {number}."},
                {"role": "user", "content": f"Question {number}: what should I do about my {topic}?"}]
    if rng.random() < 0.4:
        call_id = f"call_{rng.randrange(10)}"  # ids repeat across conversations, as real files do
        messages += [
            {"role": "assistant", "reasoning_content": f"Look up the {topic} first.", "content": None,
             "tool_calls": [{"id": call_id, "type": "function",
                             "function": {"name": "lookup", "arguments": json.dumps({"topic": topic})}}]},
            {"role": "tool", "tool_call_id": call_id, "content": json.dumps({"found": rng.randrange(100)})}]
    messages.append({"role": "assistant", "content": f"For your {topic}, " + " ".join(
        rng.choice(("check", "the", "settings", "first", "then", "restart", "it", "and", "call", "us"))
        for _ in range(rng.randint(8, 40))) + "."})
    return {"messages": messages}


def dataset(conversations: int, seed: int = 11) -> str:
    """`conversations` conversations, one JSON object per line."""
    rng = random.Random(seed)
    return "".join(json.dumps(conversation(rng, number)) + "\n" for number in range(conversations))
