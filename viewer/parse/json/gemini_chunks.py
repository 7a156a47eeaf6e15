"""A streamed Gemini answer (`streamGenerateContent`): a response per chunk, `{"candidates": [{"content":
{"role": "model", "parts": […]}, "index"}], "usageMetadata", "modelVersion", "responseId"}`, the last one with
its candidates' `finishReason`. The REST API writes them as one JSON array (container.py reads its items) or,
with `alt=sse`, as server-sent events (`data: {…}`, container.py too); logs keep them as JSON Lines.

The chunks of one answer run up to the chunk with a `finishReason`; each candidate's parts add up to one Gemini
content element (gemini_content.py reads it), as the unstreamed response would hold it: a text part continues
the text part before it while `thought` stays the same (its signature joins the run unless both carry one);
any other part (a function call, code, media) is a part of its own. Each part spans the chunks it came from. An
answer whose chunks end without a `finishReason` was cut short: its messages end `eof`, with E-STREAM-TRUNCATED.
The chunks' modelVersion, responseId, usageMetadata and each candidate's finishReason are its messages' meta
(stream_meta.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from viewer.model import Span, make_diagnostic
from viewer.parse.json import stream_meta
from viewer.parse.json.positions import Member, Node
from viewer.parse.json.record_helpers import cut_short, spanning
from viewer.parse.json.unpacked import Unpacked

SIGNATURES = ("thoughtSignature", "thought_signature")
TEXT_PART_KEYS = frozenset(("text", "thought", *SIGNATURES))
"""The fields of a text part that may continue the text part before it."""
FINISH = ("finishReason", "finish_reason")


def is_response(value: Any) -> bool:
    """A response with candidates (a chunk, or a whole answer): not a request."""
    return isinstance(value, dict) and isinstance(value.get("candidates"), list) and "contents" not in value


def is_partial(value: Any) -> bool:
    """A chunk before the last of its answer: candidates of which none has finished."""
    return is_response(value) and bool(value["candidates"]) and all(
        isinstance(candidate, dict) and not any(candidate.get(key) for key in FINISH)
        for candidate in value["candidates"])


def _finished(value: dict[str, Any]) -> bool:
    return any(isinstance(candidate, dict) and any(candidate.get(key) for key in FINISH)
               for candidate in value["candidates"])


@dataclass(slots=True)
class _Candidate:
    """One candidate's content gathered from its chunks: its parts, each with the spans of its chunks."""

    role: Any = None
    parts: list[dict[str, Any]] = field(default_factory=list)
    part_spans: list[list[Span]] = field(default_factory=list)
    spans: list[Span] = field(default_factory=list)

    def add(self, content: dict[str, Any], span: Span) -> None:
        self.spans.append(span)
        self.role = self.role if self.role is not None else content.get("role")
        listed = content.get("parts")
        for part in listed if isinstance(listed, list) else []:
            if self.parts and _continues(self.parts[-1], part):
                last = self.parts[-1]
                last["text"] += part["text"]
                for key in SIGNATURES:
                    if part.get(key):
                        last[key] = part[key]
                self.part_spans[-1].append(span)
            else:
                self.parts.append(dict(part) if isinstance(part, dict) else part)
                self.part_spans.append([span])

    def element(self) -> Node:
        """The content the chunks add up to; its parts' items span the chunks that gave them."""
        span = spanning(self.spans)
        value = {"role": self.role if self.role is not None else "model", "parts": self.parts}
        items = tuple(Node(part, spanning(spans)) for part, spans in zip(self.parts, self.part_spans))
        if not items:  # nothing said at all: an empty answer
            value["parts"] = [{"text": ""}]
            items = (Node(value["parts"][0], self.spans[-1]),)
        return Node(value, span, {"parts": Member(Node(value["parts"], span, items=items), span)})


def _continues(last: Any, part: Any) -> bool:
    """Whether `part` is more of the text of `last`, as the unstreamed response would have written one part."""
    return (isinstance(last, dict) and isinstance(part, dict) and TEXT_PART_KEYS.issuperset(last)
            and TEXT_PART_KEYS.issuperset(part) and isinstance(last.get("text"), str)
            and isinstance(part.get("text"), str) and bool(last.get("thought")) == bool(part.get("thought"))
            and not (any(last.get(key) for key in SIGNATURES) and any(part.get(key) for key in SIGNATURES)))


def starts(first: Any) -> bool:
    return is_partial(first)


def streamed(found: Unpacked) -> Unpacked:
    """The elements with the chunks of each answer made one element per candidate; other elements kept."""
    merged = Unpacked([], found.envelope, found.unread, found.key, notes=list(found.notes), marks=dict(found.marks))
    chunks: list[Node] = []
    for element in found.elements:
        if not is_response(element.value):
            _add_answer(merged, chunks)
            chunks = []
            merged.elements.append(element)
            continue
        chunks.append(element)
        if _finished(element.value):
            _add_answer(merged, chunks, finished=True)
            chunks = []
    _add_answer(merged, chunks)
    return merged


def _add_answer(merged: Unpacked, chunks: list[Node], finished: bool = False) -> None:
    """One answer's candidates, in the order they first appear, each an element."""
    candidates: dict[Any, _Candidate] = {}
    reasons: dict[Any, Any] = {}
    for chunk in chunks:
        for number, candidate in enumerate(chunk.value["candidates"]):
            if isinstance(candidate, dict):  # its finishReason, though it may say nothing else
                index = candidate.get("index", number)
                at = index if isinstance(index, (int, str)) else number
                reasons[at] = next((candidate[key] for key in FINISH if candidate.get(key)), None) or reasons.get(at)
            content = candidate.get("content") if isinstance(candidate, dict) else candidate
            if content is None:
                continue  # a candidate that only finishes (its reason, its safety ratings) adds no part
            if not isinstance(content, dict) or not isinstance(candidate, dict):
                merged.notes.append(make_diagnostic("W-JSON-SHAPE", chunk.span, "A candidate, or its content, is not "
                                                    "an object; it was left out."))
                continue
            index = candidate.get("index", number)
            key = index if isinstance(index, (int, str)) else number
            candidates.setdefault(key, _Candidate()).add(content, chunk.span)
    values = [chunk.value for chunk in chunks]
    for number, (key, state) in enumerate(candidates.items()):
        if number:
            merged.continued.add(len(merged.elements))
        merged.elements.append(state.element())
        if not finished:
            cut_short(merged, len(merged.elements) - 1, state.spans[-1],
                      "The stream ends before a chunk with a finishReason; the answer is cut short.")
        meta = stream_meta.gemini(values, reasons.get(key), usage=number == len(candidates) - 1)
        stream_meta.mark(merged, len(merged.elements) - 1, meta)
