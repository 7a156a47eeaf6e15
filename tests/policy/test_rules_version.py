"""POLICY_VERSION moves with the rule table: stored decisions are made again only when it is bumped.

The guard is a digest of the table's decisions on a fixed grid of every combination of the fields the rules
read (role, channel, intent, recipient, end, thread, aside; the dialect, raw Harmony or not), so adding samples
never moves it, and any change to what a rule decides does."""
from __future__ import annotations

import hashlib
import itertools
import json

from viewer import policy
from viewer.model import Message, Transcript, make_diagnostic

DIGESTS = {"1": "bb1c148df8656b6c98469ea8f078002bfc65c9c2bbc50382ea98fea6803e12d2",
           "2": "180575040e1338eb2855a70bf673e73e02b47e4b742eee03f71cef1765b6de58",
           "3": "78a1233b64fbbaf3ae9da9c19409c85f97958f77c2edb50b3a1a1a14b72d18ae",
           "4": "e8097c88d7f4897c45c22b6a8bae3187cf91b3c7408c0fe4ca96c408efb3b4ab",
           "5": "7159dae38a7fbf33852c2a92c62bcecdfb9d05fdc3e541803a3ea7470cc074dc"}
"""Each POLICY_VERSION with the digest of its decisions on the grid. A change to the rules changes the digest:
bump POLICY_VERSION and add a line (the failure message prints the digest); never edit a line."""

ROLES = ("system", "developer", "user", "assistant", "tool", "moderator")
CHANNELS = ("analysis", "commentary", "final", "unclassified")
INTENTS = (None, "preamble", "status", "debug", "summary", "chosen", "rejected", "context")
RECIPIENTS = (None, "functions.f", "browser.search", "assistant", "user", "all")
ENDS = ("end", "call", "return", "eof")
TRANSCRIPTS = (("harmony", {}, False), ("openchatml", {"version": "2.2"}, False), ("chatml", {}, False),
               ("json", {}, False), ("claude-code", {}, False), ("claude-code", {}, True))
"""Each dialect, its header, and whether the log records an interruption at every message (since version 5)."""
THREADS = (None, "a1")
ASIDE = (False, True)


def _grid_decisions() -> list[list]:
    rows = []
    for dialect, header, interrupted in TRANSCRIPTS:
        messages = tuple(Message.drafted(index=index, turn=index, role=role, content="", span=(0, 0), channel=channel,
                                         intent=intent, recipient=recipient, end=end, thread=thread, aside=aside)
                         for index, (role, channel, intent, recipient, end, thread, aside) in enumerate(
                             itertools.product(ROLES, CHANNELS, INTENTS, RECIPIENTS, ENDS, THREADS, ASIDE)))
        noted = tuple(make_diagnostic("W-SESSION-INTERRUPTED", (0, 0), "Interrupted.", message.index)
                      for message in messages) if interrupted else ()
        transcript = Transcript(dialect=dialect, source="", messages=messages, header=header, diagnostics=noted)
        rows += [[dialect, rule.name, rule.show_as, rule.reason] for rule in policy.default_rules(transcript)]
    return rows


def test_the_policy_version_is_bumped_when_its_decisions_change():
    digest = hashlib.sha256(json.dumps(_grid_decisions()).encode()).hexdigest()
    assert DIGESTS.get(policy.POLICY_VERSION) == digest, (
        f"the policy's decisions changed: bump POLICY_VERSION and add its digest {digest} to DIGESTS in {__file__}")


def test_the_grid_reaches_every_rule():
    assert {row[1] for row in _grid_decisions()} == {rule.name for rule in policy.RULES}
