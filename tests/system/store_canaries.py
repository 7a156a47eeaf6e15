"""Canary transcripts of the agents that keep their sessions in a database, for the leak test
(tests/system/test_leaks.py): a store of one session with a sub-agent, made by tests/harness/stores/canaries.py,
a canary in every place the default view hides that a message holds (reasoning, tool arguments and results,
injected context, a system prompt, a sub-agent's conversation, a part of an unknown type)."""
from __future__ import annotations

from functools import partial

from tests.harness.stores.canaries import BUILDERS, opencode_export

SHOWN = ("SHOWN-QUESTION", "SHOWN-ANSWER", "SHOWN-FOLLOWUP")
KINDS = ("typed", "thinking", "call", "injected", "subagent", "system", "unknown", "answer", "typed")
PLACES = {"goose": KINDS, "opencode": tuple(kind for kind in KINDS if kind != "subagent"),
          **{dialect: tuple(kind for kind in KINDS if kind != "system") for dialect in ("crush", "cursor")}}
"""Crush keeps no system prompt, Cursor none at all: their `system` events put canaries where no message is; an
OpenCode export holds one session, without its sub-agents'."""


NO_MESSAGE = ("metadata", "token", "checkpoint", "title-prompt")
"""Places no message holds (what a tool's result keeps for the screen, a sign-in token, a checkpoint): only in the
source, so the debug JSON cannot show them; the property tests plant canaries there."""


def canary(dialect: str, place: str) -> str:
    return f"kept in the source: {place}" if place in NO_MESSAGE else f"CANARY-{dialect}-{place}-Q7"


def _store_body(dialect: str) -> bytes | str:
    """A store of the dialect; OpenCode's as `opencode export` writes it (a text, which a live upload may append),
    whose database the property tests read."""
    kinds = PLACES[dialect]
    shown = {number: text for number, text in zip((n for n, kind in enumerate(kinds) if kind in ("typed", "answer")),
                                                   SHOWN)}
    build = opencode_export if dialect == "opencode" else BUILDERS[dialect]
    return build(kinds, partial(canary, dialect), shown.get)


STORE_BUILDERS = {dialect: _store_body for dialect in BUILDERS}
