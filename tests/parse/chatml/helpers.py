"""Reading ChatML text the way the ChatML tests need it."""
from __future__ import annotations

from viewer.model import Transcript
from viewer.parse import parse


WEATHER_TOOL = ('{"type": "function", "function": {"name": "get_weather", "description": "Weather for a city.", '
                '"parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}')


def chatml(text: str, **options) -> Transcript:
    """The full pipeline (parser, shared checks, pairing) on ChatML text."""
    return parse(text, "chatml", **options)
