"""Records: a JSON object that is one whole conversation though no list of messages stands at its top (an API
response, a batch line, a preference pair), read by the module of its shape into the container's Reading.

Each shape module has `is_record(value)` (its marks) and `reading(node, text)` (the node read with spans two
levels down). The first shape whose marks an object has reads it; the order puts the most specific marks first
(a preference record may also hold `messages`; a batch line holds a request or a response).
"""
from __future__ import annotations

from typing import Any

from viewer.parse.json import batches, completion_chunks, completions, gemini, gemini_chunks, ollama, preference
from viewer.parse.json.container import Reading, list_key
from viewer.parse.json.positions import Node

DATASET_SHAPES = (preference, batches, completions, gemini)
"""Records that stand one per line (or per array item) in a dataset. (An Ollama response is a record too, but a
file of them is a stream, or a conversation of answers: ollama.streamed.)"""
SHAPES = (*DATASET_SHAPES, ollama)


def is_record(value: Any) -> bool:
    """Whether a value is one whole conversation of a dataset in one of the record shapes (a Gemini chunk that
    has not finished is a piece of an answer: its file is a stream)."""
    return isinstance(value, dict) and any(shape.is_record(value) for shape in DATASET_SHAPES) and not \
        gemini_chunks.is_partial(value)


def is_conversation(value: Any) -> bool:
    """Whether a value is one whole conversation: a record, or an envelope around a list of messages."""
    return isinstance(value, dict) and (list_key(value) is not None or is_record(value))


def record_reading(node: Node, text: str) -> Reading | None:
    """The record's reading by the first shape that knows it; None when the object is no record."""
    for shape in SHAPES:
        if shape.is_record(node.value):
            return shape.reading(node, text)
    return None


def lines_reading(reading: Reading) -> Reading:
    """JSON Lines (or a list, or server-sent events) as read, with the chunks of streamed answers (Ollama's, Chat
    Completions', Gemini's) made one element per answer, or per choice; the first element says which."""
    first = reading.elements[0].value if reading.elements else None
    if isinstance(first, dict) and ollama.is_record(first):
        return ollama.streamed(reading)
    if completion_chunks.is_chunk(first):
        return completion_chunks.streamed(reading)
    if gemini_chunks.is_partial(first):
        return gemini_chunks.streamed(reading)
    return reading
