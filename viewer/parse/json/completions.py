"""A single Chat Completions response (`{"object": "chat.completion", "choices": [{"message": …}], "usage"}`, as
OpenAI and every compatible server write it): each choice's `message` is an element (read as any message
object: `reasoning_content`, `reasoning`, `tool_calls`, `refusal`), and the rest (`id`, `model`, `usage`) the
header. A legacy completion's choice (`text`) is the assistant's text.

Also `reasoning_details` (OpenRouter and others): `reasoning.text` and `reasoning.summary` entries are
analysis, `reasoning.encrypted` opaque data.
"""
from __future__ import annotations

from typing import Any

from viewer.model import Meta
from viewer.parse.json import drafts, response_meta, stream_meta
from viewer.parse.json.positions import Member, Node
from viewer.parse.json.record_helpers import envelope, items, said
from viewer.parse.json.source import JsonObject, Draft, type_phrase
from viewer.parse.json.unpacked import Unpacked

DETAIL_TEXT = {"reasoning.text": ("text", None), "reasoning.summary": ("summary", "summary")}
"""`reasoning_details` entry types that hold reasoning text, the key of their text and the analysis' intent."""


def is_record(value: dict) -> bool:
    choices = value.get("choices")
    return isinstance(choices, list) and bool(choices) and all(
        isinstance(choice, dict) and ("message" in choice or "text" in choice) for choice in choices)


def in_datasets(value: dict) -> bool:
    return is_record(value)


CHOICE_READ = ("message", "text", "finish_reason", "native_finish_reason", "index")


def reading(node: Node, text: str, inner: object = None) -> Unpacked:
    """Each choice's message, with its facts (`choice_facts`) as its messages' meta and in the header."""
    found = Unpacked([], envelope(node, "choices"))
    choices = items(text, node.members["choices"].node, 1)
    for number, choice in enumerate(choices):
        message = choice.members.get("message")
        if message is not None and isinstance(message.node.value, dict):
            found.elements.append(message.node)
        elif "text" in choice.members:
            found.elements.append(said("assistant", choice.members["text"]))
        else:
            continue
        meta, rest = choice_facts(node.value, choice.value, number, number == len(choices) - 1)
        stream_meta.mark(found, len(found.elements) - 1, meta)
        found.envelope.update((key, Member(Node(value, choice.span), choice.span)) for key, value in rest.items())
    return found


def choice_facts(response: dict, choice: dict, number: int, last: bool) -> tuple[Meta, dict[str, Any]]:
    """A choice's meta (the response's model, id and, for the last choice, usage; the choice's finish reason,
    beside OpenRouter's `native_finish_reason`, the upstream's own, when they differ) and what else it holds
    (logprobs), for the header under `choice <index>`."""
    stop = response_meta.stop_reason(choice.get("finish_reason"))
    native = choice.get("native_finish_reason")
    if isinstance(native, str) and native and native != stop:
        stop = f"{stop} (native: {native})" if stop else native
    meta = Meta(model=_text(response.get("model")), stop_reason=stop, response=_text(response.get("id")),
                usage=response_meta.usage_of(response.get("usage")) if last else None)
    rest = {key: value for key, value in choice.items() if key not in CHOICE_READ and value is not None}
    return meta, ({f"choice {choice.get('index', number)}": rest} if rest else {})


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def details_pieces(source: JsonObject, role: str) -> list[Draft]:
    """The analysis messages of a `reasoning_details` list, in order; an encrypted entry is opaque."""
    node = source.node_of("reasoning_details")
    spans = [item.span for item in node.items] if node is not None and node.items else []
    found: list[Draft] = []
    value = source.get("reasoning_details")
    for at, detail in enumerate(value if isinstance(value, list) else []):
        span = spans[at] if at < len(spans) else source.span_of("reasoning_details")
        found.append(_detail(detail, span, role))
    return found


def _detail(detail: Any, span: tuple[int, int], role: str) -> Draft:
    kind = detail.get("type") if isinstance(detail, dict) else None
    # A `type` of a list or an object is no key of a dict: it is unhashable.
    if isinstance(kind, str) and kind in DETAIL_TEXT and isinstance(detail.get(DETAIL_TEXT[kind][0]), str):
        key, intent = DETAIL_TEXT[kind]
        return drafts.analysis(role, detail[key], span, intent)
    if kind == "reasoning.encrypted":
        return drafts.opaque(role, "encrypted reasoning", detail.get("data") or "", "data", span)
    return drafts.unclassified(role, kind, detail, span, "W-JSON-UNKNOWN-PART",
                               f"A reasoning detail {type_phrase(kind, detail)}")
