"""Rendering: safe HTML for message bodies (`bodies`, `markdown`, `highlight`) and prompts (`prompts`).

The only producer of `Markup` in the app. It knows nothing of dialects, storage or who may see what: it is
handed only text the policy already let through (`viewer.present.cards` turns stored rows into what a page draws).
"""
from viewer.render.bodies import (MARKDOWN_TYPES, TERMINAL, Panel, code, json_block, markdown, panels, render_body,
                                  terminal)
from viewer.render.highlight import (CODE_CLASS, HIGHLIGHT_CAP, HIGHLIGHT_SKIPPED, TOKEN_CLASS_PREFIX, Rendered, lexer_for,
                                     source_code, stylesheet)
from viewer.render.styles import reading_css
from viewer.render.markdown import BRACKETS_SKIPPED, LINK_REL, MARKDOWN_CAP, MARKDOWN_SKIPPED, is_allowed_url
from viewer.render import workers  # noqa: F401 - hands highlighting to the worker processes (highlight.lexed)

__all__ = ["BRACKETS_SKIPPED", "CODE_CLASS", "MARKDOWN_TYPES", "TERMINAL", "terminal", "HIGHLIGHT_CAP", "HIGHLIGHT_SKIPPED", "LINK_REL", "MARKDOWN_CAP",
           "MARKDOWN_SKIPPED", "TOKEN_CLASS_PREFIX", "Panel", "Rendered", "code", "is_allowed_url", "json_block",
           "lexer_for", "markdown", "panels", "render_body", "source_code", "stylesheet", "reading_css", "stylesheets"]


def stylesheets() -> str:
    """Everything viewer.render's HTML needs: Pygments' rules, then the terminal's, the diffs' and the agents'
    screen lines' (viewer/render/styles.py)."""
    return stylesheet() + reading_css()
