"""System and developer prompts as the model saw them: verbatim, in one block (whitespace kept, never re-flowed
as markdown), with the tool declarations a prompt carries highlighted in place: Harmony's `namespace functions
{ … }` blocks (TypeScript-like) and the `<tools>` JSON that Hermes and Qwen templates write."""
from __future__ import annotations

import re
from typing import Iterator

from markupsafe import Markup, escape

from viewer.render.highlight import Rendered, clean, highlighted_spans, pre

PROMPT_CAP = 100_000
"""Characters; a longer prompt is shown verbatim without looking for tool blocks."""
_OPENERS = re.compile(r"^namespace [\w.]+ \{$|<tools>(?=\s*\S)", re.MULTILINE)
"""Where a tool block starts: a namespace line, or a `<tools>` with something in it (Qwen's prompt also names an
empty `<tools></tools>` in its prose)."""
_CLOSERS = {"n": re.compile(r"^\} // namespace [\w.]+$", re.MULTILINE), "<": re.compile("</tools>")}
"""Where the block a kind of opener starts ends: the nearest closer after it."""


def prompt(text: str) -> Rendered:
    """A prompt as written, its tool blocks highlighted in place."""
    text = clean(text)
    if len(text) > PROMPT_CAP:
        return Rendered(pre(escape(text), "plain prompt-text"))
    parts, at = [], 0
    for start, end in tool_blocks(text):
        parts.append(escape(text[at:start]))
        parts.append(_tool_block(text[start:end]))
        at = end
    parts.append(escape(text[at:]))
    return Rendered(pre(Markup("").join(parts), "plain prompt-text"))


def tool_blocks(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each tool block: an opener and the nearest closer of its kind after it, blocks never
    overlapping. Linear: once an opener finds no closer, no later opener of its kind can, so that kind is not
    looked for again (one lazy regex over both took seconds on 100 KB of openers with no closer)."""
    position, closable = 0, set(_CLOSERS)
    while closable and (opener := _OPENERS.search(text, position)):
        kind = opener.group()[0]
        closer = _CLOSERS[kind].search(text, opener.end()) if kind in closable else None
        if closer is None:
            closable.discard(kind)
            position = opener.start() + 1
            continue
        yield opener.start(), closer.end()
        position = closer.end()


def _tool_block(block: str) -> Markup:
    if block.startswith("<tools>"):
        inner = block.removeprefix("<tools>").removesuffix("</tools>")
        return escape("<tools>") + highlighted_spans(inner, "json") + escape("</tools>")
    return highlighted_spans(block, "typescript")
