"""Safe HTML for message bodies: markdown, JSON and code, returned as `Markup`.

Safe by construction: markdown-it-py runs with raw HTML off, so every character a transcript supplies reaches
the page through an escaping renderer rule. The rules replaced here (links, images, table cells, code) emit
only allowlisted elements with `href`, `title`, `rel`, `class` or `start` attributes; link targets must be
http, https, mailto or relative. Pygments writes CSS classes, never `style=`. Size caps keep a hostile body
from costing more than a plain escaped `<pre>`.
"""
from __future__ import annotations

import functools
import html
import json
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from markdown_it import MarkdownIt
from markdown_it.common.utils import unescapeAll
from markdown_it.rules_core import StateCore
from markupsafe import Markup, escape
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

HIGHLIGHT_CAP = 50_000
"""Characters; a code block longer than this is shown escaped but not highlighted. Pygments has no time limit,
and its Python lexer manages about 0.1 MB/s on the 2-core machine."""
MARKDOWN_CAP = 100_000
"""Characters; a body longer than this is shown as escaped plain text, not run through markdown at all.
markdown-it-py runs at about 0.5 MB/s on prose and ten times slower on hostile text (`*a` repeated: 1.5 s for
100 KB on the 2-core machine), so the cap bounds a body's cost at a second or two."""
BRACKET_BUDGET = 50_000_000
"""markdown-it-py's link-label scan is quadratic: every `[` may scan to the end of its paragraph (`[` * 10,000
takes over a second). A body whose sum over paragraphs of brackets × length exceeds this is shown plain."""

ALLOWED_SCHEMES = frozenset({"http", "https", "mailto"})
LINK_REL = "nofollow noopener noreferrer"
CODE_CLASS = "code"
"""Class of every `<pre>` holding code; the stylesheet's rules are scoped under it."""
TOKEN_CLASS_PREFIX = "tok-"
"""Prefix of Pygments' token classes (`tok-k`), so they cannot collide with the app's own classes."""
LIGHT_STYLE = "default"
DARK_STYLE = "github-dark"

HIGHLIGHT_SKIPPED = "A code block longer than 50,000 characters is shown without highlighting."
MARKDOWN_SKIPPED = "This body is longer than 100,000 characters, so it is shown as plain text without formatting."
BRACKETS_SKIPPED = "This body has too many square brackets to format quickly, so it is shown as plain text."


@dataclass(frozen=True, slots=True)
class Rendered:
    """A rendered body, and whether a size cap made it plainer than usual."""

    html: Markup
    """Safe HTML for the body."""
    degraded: str | None = None
    """One sentence for the page to show when a cap applied (not highlighted, not formatted), else None."""


def markdown(text: str) -> Markup:
    """A markdown body as safe HTML (escaped plain text when it is over `MARKDOWN_CAP` or bracket-heavy)."""
    return _markdown(_clean(text)).html


def json_block(text: str) -> Markup:
    """A JSON body pretty-printed when that changes nothing it says, highlighted, as safe HTML."""
    return _json(_clean(text)).html


def code(text: str, language: str | None) -> Markup:
    """A code block as safe HTML, highlighted when `language` names a Pygments lexer."""
    return _code(_clean(text), language).html


def render_body(text: str, content_type: str | None) -> Rendered:
    """A message body as safe HTML, chosen by its content type: JSON, plain text, code, or markdown."""
    text = _clean(text)
    kind = _body_kind(content_type)
    if kind == "json":
        return _json(text)
    if kind == "plain":
        return Rendered(_pre(escape(text), "plain"))
    if kind == "markdown":
        return _markdown(text)
    return _code(text, content_type)


@dataclass(frozen=True, slots=True)
class Panel:
    """One labelled part of a structured body (a fill-in-the-middle part, a file, a thought block)."""

    label: str | None
    """What the part is, shown above it; None for plain text between labelled parts."""
    text: str
    """The part's text as the author meant it."""
    as_code: bool
    """Shown as written in a code block (FIM parts, files) rather than as markdown (thoughts, text)."""
    kind: str
    """A class suffix for the part's colour (`fim_prefix`, `file`, `reason` …): letters and `_` only."""


def panels(parts: list[Panel]) -> Rendered:
    """A body made of labelled parts: one panel per part, in order, each rendered safely on its own."""
    html, notes = [], []
    for part in parts:
        rendered = _code(_clean(part.text), None) if part.as_code else _markdown(_clean(part.text))
        label = f'<p class="panel-label">{escape(part.label)}</p>' if part.label else ""
        kind = part.kind if _PANEL_KIND.fullmatch(part.kind) else "text"
        html.append(f'<div class="panel panel-{kind}">{label}{rendered.html}</div>\n')
        if rendered.degraded and rendered.degraded not in notes:
            notes.append(rendered.degraded)
    return Rendered(Markup("".join(html)), " ".join(notes) or None)


_PANEL_KIND = re.compile(r"[a-z_]{1,32}")


@functools.cache
def stylesheet() -> str:
    """Pygments CSS for code: a light style, and a dark one under `prefers-color-scheme: dark`."""
    scope = "." + CODE_CLASS
    light = _style_rules(LIGHT_STYLE, scope)
    dark = _style_rules(DARK_STYLE, scope)
    indented = "\n".join("  " + line for line in dark)
    return "\n".join(light) + "\n@media (prefers-color-scheme: dark) {\n" + indented + "\n}\n"


def _style_rules(style: str, scope: str) -> list[str]:
    # Background and token rules only: Pygments' line-number rules are unscoped (`pre { … }`).
    formatter = HtmlFormatter(style=style, classprefix=TOKEN_CLASS_PREFIX)
    return [*formatter.get_background_style_defs(scope), *formatter.get_token_style_defs(scope)]


# ---- text hygiene ---------------------------------------------------------------------------------------

_UNENCODABLE = re.compile("[\x00\ud800-\udfff]")


def _clean(text: str) -> str:
    """NUL and lone surrogates replaced by U+FFFD: they cannot be sent as UTF-8 or shown safely."""
    return _UNENCODABLE.sub("\ufffd", text)


def _body_kind(content_type: str | None) -> str:
    name = (content_type or "").strip().lower().removeprefix("<|constrain|>")
    if name in ("", "text", "markdown", "md", "text/markdown"):
        return "markdown"
    if name == "json" or name.endswith(("/json", "+json")):
        return "json"
    if name == "text/plain":
        return "plain"
    return "code"


def _pre(body: str, css_class: str, language: str | None = None) -> Markup:
    language_class = f' class="language-{language}"' if language else ""
    return Markup(f'<pre class="{css_class}"><code{language_class}>{body}</code></pre>\n')


# ---- links ----------------------------------------------------------------------------------------------

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


# ---- markdown-it configuration --------------------------------------------------------------------------

def _alignment_as_class(state: StateCore) -> None:
    """Table alignment as `class="align-left"` instead of markdown-it's `style="text-align:left"`."""
    for token in state.tokens:
        if token.type in ("th_open", "td_open") and token.attrs:
            style = str(token.attrs.pop("style", ""))
            alignment = style.removeprefix("text-align:")
            if alignment in ("left", "right", "center"):
                token.attrSet("class", "align-" + alignment)


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
    rendered = _code(token.content, language)
    if rendered.degraded:
        env.setdefault("degraded", []).append(rendered.degraded)
    return rendered.html


def _code_block(self: Any, tokens: list, idx: int, options: Any, env: dict) -> str:
    return _pre(escape(tokens[idx].content), CODE_CLASS)


def _make_markdown() -> MarkdownIt:
    md = MarkdownIt("js-default", {"html": False, "linkify": False, "typographer": False})
    md.validateLink = is_allowed_url  # type: ignore[method-assign]
    md.core.ruler.push("alignment_as_class", _alignment_as_class)
    md.add_render_rule("link_open", _link_open)
    md.add_render_rule("link_close", _link_close)
    md.add_render_rule("image", _image)
    md.add_render_rule("fence", _fence)
    md.add_render_rule("code_block", _code_block)
    return md


_MD = _make_markdown()


def _markdown(text: str) -> Rendered:
    if len(text) > MARKDOWN_CAP:
        return Rendered(_pre(escape(text), "plain"), MARKDOWN_SKIPPED)
    if _bracket_cost(text) > BRACKET_BUDGET:
        return Rendered(_pre(escape(text), "plain"), BRACKETS_SKIPPED)
    env: dict[str, Any] = {}
    html_text = _MD.render(text, env)
    notes = env.get("degraded")
    return Rendered(Markup(html_text), " ".join(dict.fromkeys(notes)) if notes else None)


_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")


def _bracket_cost(text: str) -> int:
    """An upper bound on the work of markdown-it's link-label scans: brackets × length, per paragraph."""
    whole = text.count("[") * len(text)
    if whole <= BRACKET_BUDGET:
        return whole
    return sum(block.count("[") * len(block) for block in _PARAGRAPH_BREAK.split(text))


# ---- code and JSON --------------------------------------------------------------------------------------

_LANGUAGE_NAME = re.compile(r"[a-z0-9_+#.\-]{1,40}")
_FORMATTER = HtmlFormatter(nowrap=True, classprefix=TOKEN_CLASS_PREFIX)


@functools.lru_cache(maxsize=256)
def _lexer(name: str) -> Lexer | None:
    """The Pygments lexer for a language name, or None; cached because a lookup that misses is slow."""
    try:
        return get_lexer_by_name(name, stripnl=False)
    except ClassNotFound:
        return None


def _code(text: str, language: str | None) -> Rendered:
    name = (language or "").strip().lower()
    if not _LANGUAGE_NAME.fullmatch(name):
        return Rendered(_pre(escape(text), CODE_CLASS))
    lexer = _lexer(name)
    if lexer is None:
        return Rendered(_pre(escape(text), CODE_CLASS, name))
    if len(text) > HIGHLIGHT_CAP:
        return Rendered(_pre(escape(text), CODE_CLASS, name), HIGHLIGHT_SKIPPED)
    body = highlight(text, lexer, _FORMATTER)
    if not text.endswith("\n"):
        body = body.removesuffix("\n")  # Pygments ends every text with a newline; show the text as written
    return Rendered(_pre(body, CODE_CLASS, name))


def _json(text: str) -> Rendered:
    return _code(_pretty_json(text), "json")


def _pretty_json(text: str) -> str:
    """JSON indented by two spaces, or the text as written when it is not JSON or reindenting would alter it."""
    try:
        value = json.loads(text, object_pairs_hook=_object_without_duplicates, parse_float=_exact_float,
                           parse_constant=_reject_constant)
        return json.dumps(value, indent=2, ensure_ascii=False)
    except (ValueError, RecursionError):
        return text


def _object_without_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # json.loads keeps the last of duplicate keys; showing one value would hide the other.
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise ValueError("duplicate key")
    return obj


def _exact_float(literal: str) -> float:
    # Re-printing 1.50 or 1e3 or 0.1000000000000000055 would change how the number reads.
    value = float(literal)
    if repr(value) != literal:
        raise ValueError("float would be rewritten")
    return value


def _reject_constant(name: str) -> float:
    raise ValueError(f"{name} is not JSON")
