"""The Jinja environment our templates are drawn with, set up in one place: the web app configures Flask's own
environment with it, and the HTML export makes a plain one (no Flask, no request: a file is drawn offline)."""
from __future__ import annotations

from functools import cache

from jinja2 import Environment, FileSystemLoader

from viewer.settings.folders import TEMPLATES
from viewer.present import costs
from viewer.present.document import NOTHING_HIDDEN, OTHER_VERSIONS, WHAT_IS_HIDDEN
from viewer.present.wording import CHANNEL_WORDS, ROLE_WORDS, SHOWN_WORDS, human_size
from viewer.render import LINK_REL


def configure(environment: Environment) -> Environment:
    """What every environment drawing our templates needs: blocks without the blank lines they would leave, the
    sentences the pages share with the Markdown export, the words said for a format's terms, the one way sizes are
    written (`|size`), and the `rel` of a link out of a transcript."""
    environment.trim_blocks = True
    environment.lstrip_blocks = True
    environment.globals.update(NOTHING_HIDDEN=NOTHING_HIDDEN, WHAT_IS_HIDDEN=WHAT_IS_HIDDEN,
                               OTHER_VERSIONS=OTHER_VERSIONS, LINK_REL=LINK_REL, CHANNEL_WORDS=CHANNEL_WORDS,
                               ROLE_WORDS=ROLE_WORDS, SHOWN_WORDS=SHOWN_WORDS, costs_rows=costs.rows)
    environment.filters["size"] = human_size
    return environment


@cache
def file_environment() -> Environment:
    """The environment of exported files, which draw the page's own macros with `FileLinks`."""
    return configure(Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=True))
