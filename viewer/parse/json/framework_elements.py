"""Message objects that frameworks write, told apart by their marks before the shapes of the chat APIs are
tried (conversation.py): LangChain's three spellings (langchain.py) and the Vercel AI SDK's UI messages
(ai_sdk.py)."""
from __future__ import annotations

from typing import Any, Callable

from viewer.model import Span
from viewer.parse.json import ai_sdk, langchain
from viewer.parse.json.source import JsonObject, Piece

ElementReader = Callable[[JsonObject, Any], list[Piece]]


def plain_view(value: dict[str, Any]) -> dict[str, Any] | None:
    """The plain OpenAI chat message a LangChain message stands for (None when it has more to say); any other
    element is its own plain view."""
    return langchain.plain_view(value) if langchain.is_message(value) else value


def view_spans(text: str, start: int, value: dict[str, Any]) -> dict[Any, Span] | None:
    """The spans of a LangChain message's members under the names of its plain view (langchain.view_spans)."""
    return langchain.view_spans(text, start, value) if langchain.is_message(value) else None


def element_reader(value: dict[str, Any]) -> ElementReader | None:
    """The reader of a framework's message object; None for any other element."""
    if langchain.is_message(value):
        return langchain.read_lc_message
    if ai_sdk.is_ui_message(value):
        return ai_sdk.read_ui_message
    return None
