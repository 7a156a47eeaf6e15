"""System and developer prompts as the model saw them: verbatim, in one block (whitespace kept, never re-flowed
as markdown), with the tool declarations a prompt carries highlighted in place: Harmony's `namespace functions
{ … }` blocks (TypeScript-like) and the `<tools>` JSON that Hermes and Qwen templates write."""
from __future__ import annotations

import re

from markupsafe import Markup, escape

from viewer.render.highlight import Rendered, clean, highlighted_spans, pre

PROMPT_CAP = 100_000
"""Characters; a longer prompt is shown verbatim without looking for tool blocks (the search is linear per
block, but a hostile prompt could hold very many)."""
_TOOL_BLOCK = re.compile(r"^namespace [\w.]+ \{$.*?^\} // namespace [\w.]+$|<tools>(?=\s*\S).*?</tools>",
                         re.MULTILINE | re.DOTALL)
"""A namespace block, or a `<tools>` block with something in it (Qwen's prompt also names an empty
`<tools></tools>` in its prose)."""


def prompt(text: str) -> Rendered:
    """A prompt as written, its tool blocks highlighted in place."""
    text = clean(text)
    if len(text) > PROMPT_CAP:
        return Rendered(pre(escape(text), "plain prompt-text"))
    parts, at = [], 0
    for block in _TOOL_BLOCK.finditer(text):
        parts.append(escape(text[at:block.start()]))
        parts.append(_tool_block(block.group()))
        at = block.end()
    parts.append(escape(text[at:]))
    return Rendered(pre(Markup("").join(parts), "plain prompt-text"))


def _tool_block(block: str) -> Markup:
    if block.startswith("<tools>"):
        inner = block.removeprefix("<tools>").removesuffix("</tools>")
        return escape("<tools>") + highlighted_spans(inner, "json") + escape("</tools>")
    return highlighted_spans(block, "typescript")
