"""Deterministic ChatGPT exports (`conversations.json`) for the exports benchmark: conversations in the export's
shape (a hidden system node, custom instructions, questions and answers, an edited question, reasoning, a code
interpreter call and its output), their nodes in no useful order, each about `size` characters long."""
from __future__ import annotations

import json
import random

WORDS = ("the", "route", "along", "river", "walk", "then", "tram", "castle", "market", "early", "museum", "bridge",
         "lunch", "view", "quiet", "street", "station", "coffee", "north", "south")


def _sentence(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


def conversation(rng: random.Random, number: int, size: int) -> dict:
    nodes: dict[str, dict] = {}

    def add(role, content, parent, **fields):
        id = f"{number:06d}-{len(nodes):03d}-{rng.getrandbits(32):08x}"
        message = None if role is None else {
            "id": id, "author": {"role": role, "name": fields.pop("name", None), "metadata": {}},
            "create_time": 1.7e9 + number * 100 + len(nodes), "update_time": None, "content": content,
            "status": "finished_successfully", "end_turn": None, "weight": 1.0, "metadata": fields.pop("metadata", {}),
            "recipient": fields.pop("recipient", "all"), "channel": None}
        nodes[id] = {"id": id, "message": message, "parent": parent, "children": []}
        if parent is not None:
            nodes[parent]["children"].append(id)
        return id

    text = lambda *parts: {"content_type": "text", "parts": list(parts)}  # noqa: E731
    last = add(None, None, None)
    last = add("system", text(""), last, metadata={"is_visually_hidden_from_conversation": True})
    last = add("user", {"content_type": "user_editable_context", "user_profile": "Prefers short answers.",
                        "user_instructions": "Be brief."}, last, metadata={"is_visually_hidden_from_conversation": True})
    edited = add("user", text(f"Question {number}: " + _sentence(rng, 12)), last)
    add("assistant", text(_sentence(rng, 60)), edited, metadata={"model_slug": "gpt-4o"})
    written = sum(len(json.dumps(node)) for node in nodes.values())
    while written < size:
        last = add("user", text(_sentence(rng, rng.randint(8, 30))), last)
        if rng.random() < 0.3:
            last = add("assistant", {"content_type": "thoughts", "thoughts": [
                {"summary": "Planning", "content": _sentence(rng, 40), "chunks": [], "finished": True}]}, last)
            last = add("assistant", {"content_type": "code", "language": "python", "text": "print(sum(range(10)))"},
                       last, recipient="python")
            last = add("tool", {"content_type": "execution_output", "text": "45"}, last, name="python")
        last = add("assistant", text(*(_sentence(rng, rng.randint(20, 80)) for _ in range(rng.randint(1, 4)))), last,
                   metadata={"model_slug": "gpt-4o"})
        written = sum(len(json.dumps(node)) for node in nodes.values())
    order = list(nodes.items())
    rng.shuffle(order)  # the export stores nodes in no useful order
    return {"title": f"Trip plan {number}", "create_time": 1.7e9 + number * 100, "update_time": 1.7e9 + number * 100 + 50,
            "mapping": dict(order), "current_node": last, "conversation_id": f"conv-{number:06d}",
            "id": f"conv-{number:06d}", "default_model_slug": "gpt-4o"}


def chatgpt_export(conversations: int, size: int = 20_000, seed: int = 5) -> str:
    """An export of `conversations` conversations of about `size` characters each, as one JSON array."""
    rng = random.Random(seed)
    return "[" + ", ".join(json.dumps(conversation(rng, number, size)) for number in range(conversations)) + "]"
