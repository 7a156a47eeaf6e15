"""Safe HTML for message bodies: markdown, JSON and code, returned as `Markup`, chosen by content type; and
structured bodies (fill-in-the-middle parts, files, thought blocks) as labelled panels, each part rendered on
its own."""
from __future__ import annotations

import re
from dataclasses import dataclass

from markupsafe import Markup, escape

from viewer.render.highlight import CODE_CLASS, Rendered, clean, highlighted, pre, pretty_json
from viewer.lexers._common import JSON_STARTS
from viewer.render.markdown import rendered_markdown
from viewer.render.terminal import terminal_html


def markdown(text: str) -> Markup:
    """A markdown body as safe HTML (escaped plain text when it is over `MARKDOWN_CAP` or bracket-heavy)."""
    return rendered_markdown(clean(text)).html


def json_block(text: str) -> Markup:
    """A JSON body pretty-printed when that changes nothing it says, highlighted, as safe HTML."""
    return highlighted(pretty_json(clean(text)), "json").html


def code(text: str, language: str | None) -> Markup:
    """A code block as safe HTML, highlighted when `language` names a Pygments lexer."""
    return highlighted(clean(text), language).html


def render_body(text: str, content_type: str | None) -> Rendered:
    """A message body as safe HTML, chosen by its content type: JSON, plain text, code, or markdown."""
    text = clean(text)
    kind = _body_kind(content_type)
    if kind == "json":
        # A body labelled JSON that does not even start like JSON is prose: shown as written, not as errors.
        if text.lstrip()[:1] not in JSON_STARTS:
            return Rendered(pre(escape(text), CODE_CLASS, "json"))
        return highlighted(pretty_json(text), "json")
    if kind == "plain":
        return Rendered(pre(escape(text), "plain"))
    if kind == "markdown":
        return rendered_markdown(text)
    return highlighted(text, content_type)


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
    language: str | None = None
    """For a part shown as code: its Pygments lexer (`diff`, `json`), or `terminal` for a tool's output as the
    terminal showed it (viewer/render/terminal.py)."""


def panels(parts: list[Panel]) -> Rendered:
    """A body made of labelled parts: one panel per part, in order, each rendered safely on its own."""
    html, notes, transient = [], [], False
    for part in parts:
        rendered = _part(part)
        label = f'<p class="panel-label">{escape(part.label)}</p>' if part.label else ""
        kind = part.kind if _PANEL_KIND.fullmatch(part.kind) else "text"
        html.append(f'<div class="panel panel-{kind}">{label}{rendered.html}</div>\n')
        if rendered.degraded and rendered.degraded not in notes:
            notes.append(rendered.degraded)
        transient = transient or rendered.transient
    return Rendered(Markup("".join(html)), " ".join(notes) or None, transient)


_PANEL_KIND = re.compile(r"[a-z_]{1,32}")


def _part(part: Panel) -> Rendered:
    if not part.as_code:
        return rendered_markdown(clean(part.text))
    if part.language == TERMINAL:
        return terminal(part.text)
    if part.language == "json":
        return highlighted(pretty_json(clean(part.text)), "json", WRAPPED_CLASS)
    return highlighted(clean(part.text), part.language, WRAPPED_CLASS if part.language == "diff" else CODE_CLASS)


TERMINAL = "terminal"
TERMINAL_CLASS = f"{CODE_CLASS} terminal"
"""A tool's output: kept as the terminal laid it out (its lines wrap, never wider than the page)."""
WRAPPED_CLASS = f"{CODE_CLASS} wrapped"
"""Code whose long lines wrap rather than scroll (a call's arguments, a diff)."""


def terminal(text: str) -> Rendered:
    """A tool's output as the terminal showed it: colours and styles as classes, `\r` rewrites applied, other
    control characters shown, its newlines kept."""
    return Rendered(pre(terminal_html(clean(text)), TERMINAL_CLASS))


MARKDOWN_TYPES = frozenset(("", "text", "markdown", "md", "text/markdown"))
"""Content types (lower case, without `<|constrain|>`) of bodies written as Markdown; no content type is one."""


def _body_kind(content_type: str | None) -> str:
    name = (content_type or "").strip().lower().removeprefix("<|constrain|>")
    if name in MARKDOWN_TYPES:
        return "markdown"
    if name == "json" or name.endswith(("/json", "+json")):
        return "json"
    if name == "text/plain":
        return "plain"
    return "code"


