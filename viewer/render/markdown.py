"""Markdown as safe HTML with markdown-it-py: raw HTML off, so every character a transcript supplies reaches the
page through an escaping renderer rule. The rules replaced here (links, images, table cells, code) emit only
allowlisted elements with `href`, `title`, `rel`, `class` or `start` attributes; link targets must be http,
https, mailto or relative. Size caps keep a hostile body from costing more than a plain escaped `<pre>`.
"""
from __future__ import annotations

import html
import re
from typing import Any
from urllib.parse import unquote

from markdown_it import MarkdownIt
from markdown_it.common.utils import unescapeAll
from markdown_it.rules_core import StateCore
from markupsafe import Markup, escape

from viewer.render.highlight import CODE_CLASS, Rendered, highlighted, pre

MARKDOWN_CAP = 100_000
"""Characters; a body longer than this is shown as escaped plain text, not run through markdown at all.
markdown-it-py runs at about 0.5 MB/s on prose and ten times slower on hostile text (`*a` repeated: 1.5 s for
100 KB on the 2-core machine), so the cap bounds a body's cost at a second or two."""
BRACKET_BUDGET = 50_000_000
"""markdown-it-py's link-label scan is quadratic: every `[` may scan to the end of its paragraph (`[` * 10,000
takes over a second). A body whose sum over paragraphs of brackets × length exceeds this is shown plain."""

ALLOWED_SCHEMES = frozenset({"http", "https", "mailto"})
LINK_REL = "nofollow noopener noreferrer"

MARKDOWN_SKIPPED = "This body is longer than 100,000 characters, so it is shown as plain text without formatting."
BRACKETS_SKIPPED = "This body has too many square brackets to format quickly, so it is shown as plain text."


_SCHEME = re.compile(r"([a-z][a-z0-9+.\-]*):")
_IGNORED_IN_URL = re.compile(r"[\x00-\x20\x7f-\x9f]")
_DECODE_ROUNDS = 4


def is_allowed_url(url: str) -> bool:
    """Whether a link target is http, https, mailto or relative, however its scheme is encoded or split."""
    text = url
    # Undo stacked entity and percent encoding (`jav&#x09;ascript:`, `java%09script:`), a bounded number of times.
    for _ in range(_DECODE_ROUNDS):
        decoded = unquote(html.unescape(text))
        if decoded == text:
            break
        text = decoded
    # Browsers drop tabs and newlines anywhere in a URL and trim controls and spaces around it.
    text = _IGNORED_IN_URL.sub("", text).lower()
    scheme = _SCHEME.match(text)
    if scheme:
        return scheme.group(1) in ALLOWED_SCHEMES
    # Relative, unless a colon comes before any path, query or fragment: then it is some odd scheme.
    return ":" not in re.split(r"[/?#]", text, maxsplit=1)[0]


def _alignment_as_class(state: StateCore) -> None:
    """Table alignment as `class="align-left"` instead of markdown-it's `style="text-align:left"`."""
    for token in state.tokens:
        if token.type in ("th_open", "td_open") and token.attrs:
            style = str(token.attrs.pop("style", ""))
            alignment = style.removeprefix("text-align:")
            if alignment in ("left", "right", "center"):
                token.attrSet("class", "align-" + alignment)


def _blank_headers_as_cells(state: StateCore) -> None:
    """A blank header cell (`| | |`, written to draw a table without a header, or a corner left empty) becomes a
    plain cell: an empty `<th>` names no column, and a screen reader would announce nothing for it."""
    tokens = state.tokens
    for index, token in enumerate(tokens[:-2]):
        if token.type == "th_open" and tokens[index + 2].type == "th_close" and not tokens[index + 1].content.strip():
            for cell in (token, tokens[index + 2]):
                cell.type, cell.tag = cell.type.replace("th_", "td_"), "td"


def _link_open(self: Any, tokens: list, idx: int, options: Any, env: dict) -> str:
    env["open_links"] = env.get("open_links", 0) + 1  # the image rule must know it is inside a link
    tokens[idx].attrSet("rel", LINK_REL)
    return self.renderToken(tokens, idx, options, env)


def _link_close(self: Any, tokens: list, idx: int, options: Any, env: dict) -> str:
    env["open_links"] -= 1
    return self.renderToken(tokens, idx, options, env)


def _image(self: Any, tokens: list, idx: int, options: Any, env: dict) -> str:
    """An image as a plain link to it, so a transcript cannot make the page load anything remote."""
    token = tokens[idx]
    src = str(token.attrGet("src") or "")
    label = self.renderInlineAsText(token.children, options, env) or src
    if env.get("open_links"):
        return str(escape(label))  # a link inside a link is not HTML; the outer link stands
    return f'<a class="image-link" href="{escape(src)}" rel="{LINK_REL}">{escape(label)}</a>'


def _fence(self: Any, tokens: list, idx: int, options: Any, env: dict) -> str:
    token = tokens[idx]
    info = unescapeAll(token.info).strip()
    language = info.split(maxsplit=1)[0] if info else None
    rendered = highlighted(token.content, language)
    if rendered.degraded:
        env.setdefault("degraded", []).append(rendered.degraded)
    if rendered.transient:
        env["transient"] = True
    return rendered.html


def _code_block(self: Any, tokens: list, idx: int, options: Any, env: dict) -> str:
    return pre(escape(tokens[idx].content), CODE_CLASS)


def _make_markdown() -> MarkdownIt:
    md = MarkdownIt("js-default", {"html": False, "linkify": False, "typographer": False})
    md.validateLink = is_allowed_url  # type: ignore[method-assign]
    md.core.ruler.push("alignment_as_class", _alignment_as_class)
    md.core.ruler.push("blank_headers_as_cells", _blank_headers_as_cells)
    md.add_render_rule("link_open", _link_open)
    md.add_render_rule("link_close", _link_close)
    md.add_render_rule("image", _image)
    md.add_render_rule("fence", _fence)
    md.add_render_rule("code_block", _code_block)
    return md


_MD = _make_markdown()


def rendered_markdown(text: str) -> Rendered:
    if len(text) > MARKDOWN_CAP:
        return Rendered(pre(escape(text), "plain"), MARKDOWN_SKIPPED)
    if _bracket_cost(text) > BRACKET_BUDGET:
        return Rendered(pre(escape(text), "plain"), BRACKETS_SKIPPED)
    env: dict[str, Any] = {}
    html_text = _MD.render(text, env)
    notes = env.get("degraded")
    return Rendered(Markup(html_text), " ".join(dict.fromkeys(notes)) if notes else None,
                    transient=env.get("transient", False))


_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")


def _bracket_cost(text: str) -> int:
    """An upper bound on the work of markdown-it's link-label scans: brackets × length, per paragraph."""
    whole = text.count("[") * len(text)
    if whole <= BRACKET_BUDGET:
        return whole
    return sum(block.count("[") * len(block) for block in _PARAGRAPH_BREAK.split(text))


