"""What an API response says of itself, in each provider's spelling, as the Meta of its messages (the debug view
lists it on each message): the model that answered, the response's id, why it stopped, and the tokens it used
(on its last message only, so that a sum over messages counts each response once); and when a message object
says when it was written, its time.

- A message object that is a whole response (Anthropic's `{"type": "message", "model", "stop_reason", "usage"}`,
  or any message carrying `model` or `usage`): `of_message`.
- A Responses API response (`{"object": "response", "model", "status", "usage", "output": [...]}`): `of_response`.
- Usage in every spelling: Anthropic (`input_tokens` without the cache, `cache_read_input_tokens`,
  `cache_creation_input_tokens`), OpenAI chat (`prompt_tokens` with the cache, `prompt_tokens_details`),
  the Responses API (`input_tokens` with the cache, `input_tokens_details`), OpenRouter's `cost`, Gemini's
  `usageMetadata` and LangChain's `usage_metadata` (`input_token_details`).
"""
from __future__ import annotations

import dataclasses
from typing import Any, TypeGuard

from viewer.model import Meta, Usage
from viewer.parse.json.source import Draft

TIMES = ("timestamp", "created_at", "createdAt")
"""A message object's members that say when it was written (an app's store, an SDK's log)."""
MEMBERS = ("model", "usage", "stop_reason", "stop_sequence", "finish_reason", *TIMES)
"""A message object's members that say what response it is part of (its `id` names the response), and when."""
NOTHING = Meta()


def of_message(value: dict[str, Any]) -> Meta | None:
    """The meta of a message object that records its response (None: it records none)."""
    model, figures = _text(value.get("model")), value.get("usage")
    stop = stop_reason(value.get("stop_reason", value.get("finish_reason")), value.get("stop_sequence"))
    timestamp = next((value[key] for key in TIMES if _text(value.get(key))), None)
    if model is None and stop is None and timestamp is None and not isinstance(figures, dict):
        return None
    response = _text(value.get("id")) if model is not None else None
    return Meta(timestamp=timestamp, model=model, stop_reason=stop, usage=usage_of(figures), response=response)


def of_response(envelope: dict[str, Any]) -> Meta | None:
    """The meta of a Responses API response's output (its envelope's members); None for a request, which names
    the model it asks for, not the one that answered."""
    if envelope.get("object") != "response" and "status" not in envelope:
        return None
    details = envelope.get("incomplete_details")
    reason = details.get("reason") if isinstance(details, dict) else None
    status = _text(envelope.get("status"))
    stop = f"{status} ({reason})" if status and isinstance(reason, str) else status
    meta = Meta(model=_text(envelope.get("model")), stop_reason=stop, usage=usage_of(envelope.get("usage")),
                response=_text(envelope.get("id")))
    return None if meta == NOTHING else meta


def stop_reason(reason: Any, sequence: Any = None) -> str | None:
    """A stop reason as text; the stop sequence that ended the answer, when one did, beside it."""
    said = _text(reason)
    if said is not None and isinstance(sequence, str) and sequence:
        return f"{said} ({sequence!r})"
    return said


def usage_of(figures: Any) -> Usage | None:
    """Token usage in any provider's spelling (see the module docstring); None when it counts nothing known."""
    if not isinstance(figures, dict):
        return None
    cost = figures.get("cost") if _is_number(figures.get("cost")) else None
    if _is_count(figures.get("prompt_tokens")):  # OpenAI chat: cached tokens counted inside the prompt's
        cached = _count((figures.get("prompt_tokens_details") or {}).get("cached_tokens")
                        if isinstance(figures.get("prompt_tokens_details"), dict) else None)
        return Usage(max(figures["prompt_tokens"] - cached, 0), _count(figures.get("completion_tokens")), cached,
                     cost=cost)
    if _is_count(figures.get("input_tokens")):
        details = figures.get("input_tokens_details", figures.get("input_token_details"))
        if isinstance(details, dict):  # the Responses API, LangChain: cached tokens counted inside the input's
            cached = _count(details.get("cached_tokens", details.get("cache_read")))
            written = _count(details.get("cache_write_tokens", details.get("cache_creation")))
            return Usage(max(figures["input_tokens"] - cached - written, 0), _count(figures.get("output_tokens")),
                         cached, written, cost)
        return Usage(figures["input_tokens"], _count(figures.get("output_tokens")),  # Anthropic: counted apart
                     _count(figures.get("cache_read_input_tokens")), _count(figures.get("cache_creation_input_tokens")),
                     cost)
    return None


def on_drafts(found: list[Draft], meta: Meta | None) -> list[Draft]:
    """`meta` on each of a response's messages, its usage on the last only."""
    if meta is None or not found:
        return found
    bare = dataclasses.replace(meta, usage=None)
    for piece in found:
        piece.fields["meta"] = meta if piece is found[-1] else bare
    return found


def _count(value: Any) -> int:
    return value if _is_count(value) else 0


def _is_count(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
