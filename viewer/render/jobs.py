"""What a highlighting worker is asked to do: render one body, source, prompt or code block by its kind, and
what the server shows instead when it cannot in time (the text escaped, with a note)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Union

from markupsafe import Markup, escape

from viewer.render import bodies, highlight, inside, prompts
from viewer.render.bodies import Panel
from viewer.render.highlight import CODE_CLASS, SOURCE_CLASS, Rendered, clean, pre

Payload = Union[str, tuple[Panel, ...]]


@dataclass(frozen=True, slots=True)
class Job:
    """One thing to render: `kind` names the renderer (`KINDS`), `payload` is its text (or a structured body's
    panels), `language` its content type, source lexer or, for `lex`, the Pygments lexer."""

    kind: str
    payload: Payload
    language: str | None = None

    @property
    def size(self) -> int:
        if isinstance(self.payload, str):
            return len(self.payload)
        return sum(len(part.text) for part in self.payload)

    @property
    def key(self) -> inside.SlowKey:
        """What the job is remembered by when it is slow. A `lex` job is a code block, keyed as blocks inside
        bodies are, so a block found slow in one body is skipped in any other."""
        if self.kind == "lex":
            return inside.slow_key(self.language or "", str(self.payload))
        text = self.payload if isinstance(self.payload, str) else "\x00".join(
            f"{part.label}\x00{part.kind}\x00{part.as_code}\x00{part.language}\x00{part.text}"
            for part in self.payload)
        return inside.slow_key(f"{self.kind}:{self.language or ''}", text)


Result = tuple[Union[str, None], Union[str, None]]
"""A job's HTML (None: a `lex` job's block was not highlighted) and the note the page shows beside it."""


def _body(payload: Payload, language: str | None) -> Result:
    return _pair(bodies.render_body(str(payload), language))


def _source(payload: Payload, language: str | None) -> Result:
    return _pair(highlight.source_code(str(payload), language))


def _prompt(payload: Payload, _language: str | None) -> Result:
    return _pair(prompts.prompt(str(payload)))


def _panels(payload: Payload, _language: str | None) -> Result:
    return _pair(bodies.panels(list(payload) if isinstance(payload, tuple) else []))


def _json(payload: Payload, _language: str | None) -> Result:
    return str(bodies.json_block(str(payload))), None


def _terminal(payload: Payload, _language: str | None) -> Result:
    return _pair(bodies.terminal(str(payload)))


def _lex(payload: Payload, language: str | None) -> Result:
    body = highlight.lexed(str(payload), language or "")
    if isinstance(body, inside.Skip):
        return None, highlight.SKIP_NOTES[body]
    return body, None


def _pair(rendered: Rendered) -> Result:
    return str(rendered.html), rendered.degraded


KINDS: dict[str, Callable[[Payload, Union[str, None]], Result]] = {
    "body": _body, "source": _source, "prompt": _prompt, "panels": _panels, "json": _json, "lex": _lex,
    "terminal": _terminal}
"""Each job kind's renderer, as the worker runs it."""


def plain(job: Job, note: str | None, transient: bool = False) -> Rendered:
    """What is shown when a job could not be rendered in time: its text escaped, as written."""
    payload = job.payload
    if job.kind == "panels" and isinstance(payload, tuple):
        html = Markup("").join(
            Markup('<div class="panel panel-text">{}</div>\n').format(pre(escape(clean(part.text)), "plain"))
            for part in payload)
        return Rendered(html, note, transient)
    css_class = {"source": SOURCE_CLASS, "json": CODE_CLASS, "lex": CODE_CLASS, "prompt": "plain prompt-text",
                 "terminal": "plain"}
    return Rendered(pre(escape(clean(str(payload))), css_class.get(job.kind, "plain")), note, transient)
