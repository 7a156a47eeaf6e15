"""Whole documents that frameworks and evaluation tools write, each read by its own module before the plain
reading of a conversation (conversation.py) is tried: an Inspect AI sample or a log of one sample
(inspect_log.py), a LangGraph thread state (langchain.py). (OpenTelemetry traces are read before any of these,
by json/__init__.py: a file of several traces is a dataset.)"""
from __future__ import annotations

from typing import Any

from viewer.parse.json import inspect_log, langchain
from viewer.parse.json.container import Reading
from viewer.parse.json.conversation import read_reading


def read_framework(reading: Reading, builder: Any) -> dict[str, Any] | None:
    """The header of a framework's document read into the importer's messages; None when the reading is not
    one (then nothing was read)."""
    reading = inspect_log.only_sample(reading, builder.text) or reading
    if inspect_log.is_sample_reading(reading):
        return inspect_log.read_sample(reading, builder)
    header = inspect_log.read_sampleless_log(reading, builder)
    if header is not None:
        return header
    state = langchain.state_reading(reading, builder.text)
    if state is not None:
        return read_reading(state, builder)
    return None
