"""System and developer prompts as the model saw them: verbatim (whitespace kept, never re-flowed as markdown),
with the tool declarations a prompt carries highlighted as code: Harmony's `namespace functions { … }` blocks
(TypeScript-like) and the `<tools>` JSON that Hermes and Qwen templates write."""
from __future__ import annotations

import re

from markupsafe import Markup, escape

from viewer.render.highlight import Rendered, clean, highlighted, pre

PROMPT_CAP = 100_000
"""Characters; a longer prompt is shown verbatim without looking for tool blocks (the search is linear per
block, but a hostile prompt could hold very many)."""
_TOOL_BLOCK = re.compile(r"^namespace [\w.]+ \{$.*?^\} // namespace [\w.]+$|<tools>.*?</tools>",
                         re.MULTILINE | re.DOTALL)


def prompt(text: str) -> Rendered:
    """A prompt as written, its tool blocks highlighted."""
    text = clean(text)
    if len(text) > PROMPT_CAP:
        return Rendered(_verbatim(text))
    parts, at = [], 0
    for block in _TOOL_BLOCK.finditer(text):
        parts.append(_verbatim(text[at:block.start()]))
        parts.append(_tool_block(block.group()))
        at = block.end()
    parts.append(_verbatim(text[at:]))
    return Rendered(Markup('<div class="prompt">') + Markup("").join(parts) + Markup("</div>"))


def _verbatim(text: str) -> Markup:
    return pre(escape(text), "plain prompt-text") if text.strip() else Markup("")


def _tool_block(block: str) -> Markup:
    if block.startswith("<tools>"):
        inner = block.removeprefix("<tools>").removesuffix("</tools>")
        return (_verbatim("<tools>") + highlighted(inner.strip("\n"), "json").html + _verbatim("</tools>"))
    return highlighted(block, "typescript").html
