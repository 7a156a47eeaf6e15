"""What the chunks of a streamed answer say about it besides its message: the model, the response's id, why each
choice stopped and the tokens the answer used, as the Meta of its messages (the debug view shows it), set with
the element's marks (builder.mark): a Chat Completion's chunks (completion_chunks.py), Ollama's (ollama.py) and
Gemini's (gemini_chunks.py). Usage goes on the answer's last message only, so that a sum over messages counts
each answer once; an answer of several choices is one response, its usage on the last choice's last message.
The chunks' text is still the frame it was: the meta is read from it, it claims no span.
"""
from __future__ import annotations

from typing import Any, TypeGuard

from viewer.model import Meta, Usage
from viewer.parse.json.gemini_content import snake
from viewer.parse.json.unpacked import Unpacked

NOTHING = Meta()


def mark(found: Unpacked, position: int, meta: Meta) -> None:
    """Set `meta` on the messages of the element at `position`, beside its other marks."""
    if meta != NOTHING:
        found.marks[position] = {**found.marks.get(position, {}), "meta": meta}


def completion(chunks: list[dict[str, Any]], stop_reason: Any, usage: bool) -> Meta:
    """A choice of a streamed Chat Completion: its chunks' `model` and `id`, the choice's `finish_reason`, and
    (`usage`: for the last choice) the `usage` that `stream_options.include_usage` adds in the last chunk."""
    figures = _last(chunks, "usage") if usage else None
    return Meta(model=_first(chunks, "model"), stop_reason=_text(stop_reason), response=_first(chunks, "id"),
                usage=_openai_usage(figures))


def ollama(chunks: list[dict[str, Any]]) -> Meta:
    """A streamed Ollama answer: its model, the time and `done_reason` of its last chunk, and that chunk's token
    counts (`prompt_eval_count`, `eval_count`)."""
    last = chunks[-1]
    counts = [last.get(key) for key in ("prompt_eval_count", "eval_count")]
    usage = Usage(*(count if _is_count(count) else 0 for count in counts)) if any(map(_is_count, counts)) else None
    return Meta(timestamp=_text(last.get("created_at")), model=_first(chunks, "model"),
                stop_reason=_text(last.get("done_reason")), usage=usage)


def gemini(chunks: list[dict[str, Any]], stop_reason: Any, usage: bool) -> Meta:
    """A candidate of a streamed Gemini answer: the chunks' `modelVersion` and `responseId`, the candidate's
    `finishReason`, and (`usage`: for the last candidate) the last `usageMetadata` (REST camelCase or the SDK's
    snake_case)."""
    figures = snake(_last(chunks, "usageMetadata", "usage_metadata")) if usage else None
    return Meta(model=_first(chunks, "modelVersion", "model_version"), stop_reason=_text(stop_reason),
                response=_first(chunks, "responseId", "response_id"), usage=_gemini_usage(figures))


def _openai_usage(figures: Any) -> Usage | None:
    """OpenAI's counts: cached prompt tokens are counted inside `prompt_tokens` there, apart in the model."""
    if not isinstance(figures, dict) or not _is_count(figures.get("prompt_tokens")):
        return None
    details = figures.get("prompt_tokens_details")
    cached = details.get("cached_tokens") if isinstance(details, dict) else None
    cached = cached if _is_count(cached) else 0
    output = figures.get("completion_tokens")
    return Usage(input=max(figures["prompt_tokens"] - cached, 0), output=output if _is_count(output) else 0,
                 cache_read=cached)


def _gemini_usage(figures: Any) -> Usage | None:
    """Gemini's counts: `promptTokenCount` holds the cached tokens, and the thoughts are output beside the
    candidates' tokens."""
    if not isinstance(figures, dict) or not _is_count(figures.get("prompt_token_count")):
        return None
    counts = {key: figures.get(key) for key in ("cached_content_token_count", "candidates_token_count",
                                                "thoughts_token_count")}
    cached, candidates, thoughts = (count if _is_count(count) else 0 for count in counts.values())
    return Usage(input=max(figures["prompt_token_count"] - cached, 0), output=candidates + thoughts,
                 cache_read=cached)


def _first(chunks: list[Any], *keys: str) -> str | None:
    """The first text any chunk gives under one of `keys` (a field's spellings)."""
    return next((chunk[key] for chunk in chunks for key in keys if _text(chunk.get(key))), None)


def _last(chunks: list[Any], *keys: str) -> Any:
    """The last object any chunk gives under one of `keys`."""
    return next((chunk[key] for chunk in reversed(chunks) for key in keys if isinstance(chunk.get(key), dict)), None)


def _is_count(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
