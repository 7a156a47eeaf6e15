"""A message's content written as a list of parts (OpenAI chat and Responses API parts, Anthropic blocks,
openai-harmony's structured content), part by part: the importer shows only what it can positively classify.

- Text (`text`, `input_text`, `output_text`, `refusal`) and media placeholders (media.py) are the message's
  content; consecutive ones make one message, and an assistant's text is split at `<think>` (think.py).
- Reasoning parts (`reasoning_text`, `summary_text` with intent `summary`) are analysis.
- Anthropic's blocks (thinking, redacted thinking, tool use and results) are read by anthropic.py.
- The sources a text cites (Anthropic's `citations`, the Responses API's `annotations`) follow its run of text
  as a hidden system entry named `citations`, their members as JSON (an encrypted index stays in the source).
- Any other part is a message of its own that the policy hides, with W-JSON-UNKNOWN-PART.
"""
from __future__ import annotations

from typing import Any

from viewer.model import Span
from viewer.parse.common import Pending, shown_json
from viewer.parse.json import drafts
from viewer.parse.json.anthropic import block_reader
from viewer.parse.json.content_text import TEXT_KEYS, join, part_text
from viewer.parse.json.harmony_text import developer_text, system_text
from viewer.parse.json.media import MEDIA_PARTS, placeholder
from viewer.parse.json.source import JsonObject, Draft, type_phrase
from viewer.parse.json.think import split_think
from viewer.parse.json.tools import namespace_tools

REASONING_PARTS = {"reasoning_text": None, "summary_text": "summary"}
"""Reasoning part types (their text under `text`) and the intent of the analysis message they give (Anthropic's
`thinking` blocks, which carry a signature, are read by anthropic.py)."""


def content_pieces(source: JsonObject, base: dict[str, Any], builder: Any) -> list[Draft]:
    """The messages of a `content` list: runs of text and media with the message's own fields (`base`), and a
    message for every other part, in the order written."""
    value = source.get("content")
    parts = value if isinstance(value, list) else [value]
    node = source.node_of("content")
    spans = [item.span for item in node.items] if node is not None and node.items else []
    found: list[Draft] = []
    run: list[tuple[str, bool, Span]] = []
    cited: list[Any] = []
    for at, part in enumerate(parts):
        span = spans[at] if at < len(spans) else source.span_of("content")
        read = _part(part, span, base["role"], source, builder)
        if isinstance(read, tuple):
            run.append((*read, span))
            cited.extend(_citations(part))
            continue
        found.extend(_run_pieces(run, base, cited))
        run, cited = [], []
        found.extend(read)
    return found + _run_pieces(run, base, cited)


CITING = ("citations", "annotations")
"""The members of a text part that list what it cites."""
OPAQUE_CITATION = ("encrypted_index",)


def _citations(part: Any) -> list[Any]:
    if not isinstance(part, dict):
        return []
    return [{key: value for key, value in cited.items() if key not in OPAQUE_CITATION} if isinstance(cited, dict)
            else cited for key in CITING if isinstance(part.get(key), list) for cited in part[key]]


def _part(part: Any, span: Span, role: str, source: JsonObject, builder: Any) -> tuple[str, bool] | list[Draft]:
    """A text part as (text, is a placeholder); any other part as its messages."""
    text = part_text(part)
    if text is not None:
        return text, False
    kind = part.get("type") if isinstance(part, dict) else None
    if not isinstance(kind, str):
        return [_unknown(role, kind, part, span)]
    if kind in MEDIA_PARTS:
        return placeholder(kind, part), True
    if kind in TEXT_KEYS:
        source.problem("W-JSON-CONTENT-PART", f"A content part of type {kind!r} has no text to show; it was left "
                                              "out.", span)
        return []
    if kind in REASONING_PARTS:
        reasoning = part.get("text")
        return [drafts.analysis(role, reasoning if isinstance(reasoning, str) else "", span, REASONING_PARTS[kind])]
    if kind in ("system_content", "developer_content"):
        builder.tools.update(namespace_tools(part.get("tools")))
        if part.get("tools"):
            source.kept["tools"] = part["tools"]  # the namespaces as written: their descriptions too
        return (system_text(part) if kind == "system_content" else developer_text(part)), False
    reader = block_reader(kind)
    if reader is not None:
        return reader(part, span, role, builder)
    return [_unknown(role, kind, part, span)]


def _unknown(role: str, kind: Any, part: Any, span: Span) -> Draft:
    what = f"A content part {type_phrase(kind, part)}"
    return drafts.unclassified(role, kind, part, span, "W-JSON-UNKNOWN-PART", what)


def _run_pieces(run: list[tuple[str, bool, Span]], base: dict[str, Any], cited: list[Any]) -> list[Draft]:
    """One run of text and placeholders as the message's content (an empty run gives nothing), then what it
    cites."""
    if not run:
        return []
    text = join([(piece_text, alone) for piece_text, alone, _ in run])
    span = (run[0][2][0], run[-1][2][1])
    found = text_pieces(text, base, span)
    if cited:
        found.append(Draft(dict(role="system", name="citations", channel="final", content_type="json",
                                content=shown_json(cited), end="end"), span))
    return found


def text_pieces(text: str, base: dict[str, Any], span: Span) -> list[Draft]:
    """The message's text with its own fields; an assistant's answer split at `<think>` tags."""
    if not text:
        return []
    if base["role"] != "assistant" or base.get("end") == "call":
        return [Draft({**base, "content": text}, span)]
    found: list[Draft] = []
    runs, unclosed = split_think(text)
    for reasoning, run_text in runs:
        found.append(drafts.analysis(base["role"], run_text, span) if reasoning
                     else Draft({**base, "content": run_text}, span))
    if unclosed and found:
        found[-1].problems.append(Pending("W-UNCLOSED-BLOCK", "A <think> block is not closed: the rest of the text "
                                                              "was read as reasoning.", span))
    return found
