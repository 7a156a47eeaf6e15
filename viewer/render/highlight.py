"""Code and JSON as safe HTML: Pygments with CSS classes (never `style=`), a size cap past which code is shown
escaped but not highlighted, and the stylesheet for both colour schemes. Also the pieces every renderer shares:
`Rendered`, `clean` and `pre`.

Pygments never runs in the server's own process: a lexer chosen by the transcript may backtrack for hours on a
few dozen characters, and no thread can be stopped inside `re`. In a worker process (viewer/render/worker.py,
`inside.ACTIVE`) a block is lexed under a deadline that stops it; anywhere else it is sent to one
(viewer/render/workers.py). A block that runs out of time is shown escaped with a note."""
from __future__ import annotations

import functools
import importlib
import json
import re
from dataclasses import dataclass
from typing import Any, Callable

from markupsafe import Markup, escape
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

from viewer.render import clock, inside

HIGHLIGHT_CAP = 50_000
"""Characters; a code block longer than this is shown escaped but not highlighted. Pygments has no time limit,
and its Python lexer manages about 0.1 MB/s on the 2-core machine."""
CODE_CLASS = "code"
"""Class of every `<pre>` holding code; the stylesheet's rules are scoped under it."""
TOKEN_CLASS_PREFIX = "tok-"
"""Prefix of Pygments' token classes (`tok-k`), so they cannot collide with the app's own classes."""
LIGHT_STYLE = "default"
LIGHT_CONTRAST = (".tok-gi { color: #006e00 }",)
"""Where the light style's colour reads below WCAG AA's 4.5:1 on a code block's grey (a diff's inserted lines,
#008400, reach 4.39): a darker shade of the same colour."""
DARK_STYLE = "github-dark"

HIGHLIGHT_SKIPPED = "A code block longer than 50,000 characters is shown without highlighting."
HIGHLIGHT_SLOW = "A code block took too long to highlight, so it is shown without highlighting."
ANSWER_SLOW = "This page ran out of time to highlight and format, so some of it is shown plain."
SKIP_NOTES = {inside.Skip.SLOW: HIGHLIGHT_SLOW, inside.Skip.SHORT: ANSWER_SLOW}


@dataclass(frozen=True, slots=True)
class Rendered:
    """A rendered body, and whether a size cap made it plainer than usual."""

    html: Markup
    """Safe HTML for the body."""
    degraded: str | None = None
    """One sentence for the page to show when a cap applied (not highlighted, not formatted), else None."""
    transient: bool = False
    """Made plainer only because its answer ran out of time, not by anything in the text: not to be cached."""


_UNENCODABLE = re.compile("[\x00\ud800-\udfff]")


def clean(text: str) -> str:
    """NUL and lone surrogates replaced by U+FFFD: they cannot be sent as UTF-8 or shown safely."""
    return _UNENCODABLE.sub("\ufffd", text)


def pre(body: str, css_class: str, language: str | None = None) -> Markup:
    language_class = f' class="language-{language}"' if language else ""
    return Markup(f'<pre class="{css_class}"><code{language_class}>{body}</code></pre>\n')


@functools.cache
def stylesheet() -> str:
    """Pygments CSS for code: a light style, and a dark one under `prefers-color-scheme: dark`."""
    scope = "." + CODE_CLASS
    light = [*_style_rules(LIGHT_STYLE, scope), *(f"{scope} {rule}" for rule in LIGHT_CONTRAST)]
    dark = _style_rules(DARK_STYLE, scope)
    indented = "\n".join("  " + line for line in dark)
    return "\n".join(light) + "\n@media (prefers-color-scheme: dark) {\n" + indented + "\n}\n"


def _style_rules(style: str, scope: str) -> list[str]:
    # Background and token rules only: Pygments' line-number rules are unscoped (`pre { … }`).
    formatter = HtmlFormatter(style=style, classprefix=TOKEN_CLASS_PREFIX)
    return [*formatter.get_background_style_defs(scope), *formatter.get_token_style_defs(scope)]


_LANGUAGE_NAME = re.compile(r"[a-z0-9_+#.\-]{1,40}")
_FORMATTER = HtmlFormatter(nowrap=True, classprefix=TOKEN_CLASS_PREFIX)


_EXTRA_LEXERS: dict[str, str] = {}
"""Lexers by alias beside Pygments' own and its plugins', as "module:Class" (a test's lexer)."""


@functools.lru_cache(maxsize=256)
def lexer_for(name: str) -> Lexer | None:
    """The Pygments lexer for a language name, or None; cached because a lookup that misses is slow. Set up
    whole, never cut by a worker's deadline: a lexer's first use compiles its regexes (a tenth of a second for
    some), from no transcript text."""
    with clock.held():
        return _new_lexer(name)


def _new_lexer(name: str) -> Lexer | None:
    extra = _EXTRA_LEXERS.get(name)
    if extra is not None:
        module, _, cls = extra.partition(":")
        return getattr(importlib.import_module(module), cls)(stripnl=False)
    try:
        return get_lexer_by_name(name, stripnl=False)
    except ClassNotFound:
        return None


def use_lexers(extra: dict[str, str]) -> None:
    """Lexers by alias ("module:Class") to find beside Pygments' own, in this process."""
    _EXTRA_LEXERS.clear()
    _EXTRA_LEXERS.update(extra)
    lexer_for.cache_clear()


def extra_lexers() -> dict[str, str]:
    return dict(_EXTRA_LEXERS)


Lexing = Callable[[str, str], "str | inside.Skip"]
_by_worker: list[Lexing] = []
"""How the server has a worker lex a block: set by viewer/render/workers.py when it is imported (the package
imports it), so that this module, which the workers' jobs use, does not import it back."""


def lex_by_worker(lexing: Lexing) -> None:
    _by_worker[:] = [lexing]


def lexed(text: str, name: str) -> str | inside.Skip:
    """Pygments' HTML for `text` with the lexer called `name` (which must exist), or why it was not made: here
    under a deadline in a worker, else by a worker."""
    if not inside.ACTIVE:
        return _by_worker[0](text, name)
    lexer = lexer_for(name)
    assert lexer is not None, name
    return inside.lex(name, text, lambda: highlight(text, lexer, _FORMATTER))


def highlighted(text: str, language: str | None, css_class: str = CODE_CLASS) -> Rendered:
    """A code block, highlighted when `language` names a Pygments lexer and the text is under the cap."""
    name = (language or "").strip().lower()
    if not _LANGUAGE_NAME.fullmatch(name):
        return Rendered(pre(escape(text), css_class))
    lexer = lexer_for(name)
    if lexer is None:
        return Rendered(pre(escape(text), css_class, name))
    if len(text) > HIGHLIGHT_CAP:
        return Rendered(pre(escape(text), css_class, name), HIGHLIGHT_SKIPPED)
    body = lexed(text, name)
    if isinstance(body, inside.Skip):
        return Rendered(pre(escape(text), css_class, name), SKIP_NOTES[body], transient=body is inside.Skip.SHORT)
    if not text.endswith("\n"):
        body = body.removesuffix("\n")  # Pygments ends every text with a newline; show the text as written
    return Rendered(pre(body, css_class, name))


def highlighted_spans(text: str, language: str) -> Markup:
    """`text` highlighted as `language` without a box of its own, for code inside a larger block of text;
    escaped plain text when no lexer has that name, the text is over the cap or it takes too long."""
    if lexer_for(language) is None or len(text) > HIGHLIGHT_CAP:
        return escape(text)
    body = lexed(text, language)
    if isinstance(body, inside.Skip):
        return escape(text)
    return Markup(body if text.endswith("\n") else body.removesuffix("\n"))


SOURCE_CLASS = f"{CODE_CLASS} source-text"


def source_code(text: str, language: str | None) -> Rendered:
    """A message's exact source, highlighted by our own lexers (`viewer.lexers`: control tokens, roles,
    header attributes, channels) when `language` names one."""
    return highlighted(clean(text), language, SOURCE_CLASS)


def pretty_json(text: str) -> str:
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
