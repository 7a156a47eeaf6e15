"""The policy's rule table: which rule decides each message in the default view.

The default view follows OpenChatML 2.2 §4, §5
and §11 (system, developer, analysis and commentary hidden; `intent=preamble` shown) plus Harmony's own
definition of a preamble for raw Harmony transcripts. The last rule fails closed: whatever no rule positively
classifies as user-visible is hidden. `viewer.policy.projection` turns these decisions into what each view draws.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from viewer import formats
from viewer.formats import Preambles
from viewer.model import Message, Transcript
from viewer.model.words import PROMPT_ROLES, ShowAs
from viewer.policy.onscreen import interruptions

POLICY_VERSION = "5"
"""Bump when a rule's predicate, treatment or reason changes: stored decisions are then made again (with the
parse: see `viewer.ingest.STORED_VERSION`). A test of the table's decisions fails until it is bumped."""


@dataclass(frozen=True, slots=True)
class Rule:
    """One row of the policy table."""

    name: str
    """Short, stable name shown in the debug view (`tool-call`)."""
    applies: Callable[[Message, Transcript], bool]
    """Whether the rule decides this message; the first rule that applies wins."""
    show_as: ShowAs
    """`message` (in full), `preamble` (a plan note), `marker` (a content-free note) or `hidden` (nothing)."""
    reason: str
    """One sentence for a person, saying why."""


def _is_assistant(message: Message) -> bool:
    return message.role == "assistant"


def _is_preamble_intent(message: Message, transcript: Transcript) -> bool:
    # A call marked as a preamble is still a call: its arguments are not a plan for the user.
    return (_is_assistant(message) and message.intent == "preamble"
            and message.channel in ("commentary", "final") and not message.is_call)


def _preambles(transcript: Transcript) -> Preambles:
    record = formats.find(transcript.dialect)
    return record.preambles if record is not None else Preambles.MARKED


def _is_harmony_preamble(message: Message, transcript: Transcript) -> bool:
    # HARMONY.md: raw Harmony never marks preambles, and its own docs define one as recipient-less commentary.
    raw_harmony = _preambles(transcript) is Preambles.HARMONY and not transcript.header
    return (raw_harmony and _is_assistant(message) and message.channel == "commentary"
            and message.recipient is None and message.intent is None and not message.is_call)


def _is_interruption(message: Message, transcript: Transcript) -> bool:
    # A line an agent wrote into the user's turn when the user pressed Esc ("[Request interrupted by user]",
    # Codex's <turn_aborted>) is injected, but it records what the user did: the default view says so, in its own
    # words (viewer/policy/onscreen.py), never with the line's text.
    return (message.intent == "context" or message.role in PROMPT_ROLES) and not message.is_call \
        and message.index in _interruptions(transcript)


_deciding = threading.local()
"""The transcript `default_rules` is deciding and its interruptions, found once for all its messages (held only
while it decides: a big transcript must not outlive its upload)."""


def _interruptions(transcript: Transcript) -> frozenset[int]:
    """The messages interruptions stand at (onscreen.interruptions)."""
    known = getattr(_deciding, "known", None)
    if known is not None and known[0] is transcript:
        return known[1]
    return frozenset(interruptions(transcript))


def _has_screen(transcript: Transcript) -> bool:
    record = formats.find(transcript.dialect)
    return record is not None and record.screen is not None


def _is_agent_preamble(message: Message, transcript: Transcript) -> bool:
    # The agent importers put on `commentary` the text the assistant wrote before a tool call in the same response
    # ("Let me look at the tests."): the user saw it as the agent's plan, as Harmony's preambles are.
    return (_preambles(transcript) is Preambles.AGENT and _is_assistant(message) and message.channel == "commentary"
            and message.recipient is None and message.intent is None and not message.is_call)


RULES: tuple[Rule, ...] = (
    Rule("rejected-answer", lambda m, t: m.intent == "rejected", "hidden",
         "The rejected answer of a preference pair is not the conversation's answer; the debug view shows it."),
    Rule("sub-agent", lambda m, t: m.thread is not None, "hidden",
         "A sub-agent's conversation belongs to the tool call that started it, which the default view marks."),
    Rule("other-branch", lambda m, t: m.aside, "hidden",
         "The conversation went another way here (a rewind, an edited question or a regenerated answer); the view "
         "follows the branch the app showed, or the one that ends at the last message."),
    Rule("interruption", _is_interruption, "marker",
         "The user interrupted the agent here (Esc, or declining a tool): the default view says so in the agent's "
         "own words, without the text the agent wrote for it."),
    Rule("injected-context", lambda m, t: m.intent == "context", "hidden",
         "Text an agent wrote into the user's turn (command output, reminders, environment and instruction "
         "blocks, summaries) is not what the user typed."),
    Rule("system-prompt", lambda m, t: m.role in PROMPT_ROLES, "hidden",
         "System and developer instructions are hidden from end users (OpenChatML 2.2 §4)."),
    Rule("user", lambda m, t: m.role == "user", "message",
         "The user's own messages are always shown."),
    Rule("preamble-intent", _is_preamble_intent, "preamble",
         "The assistant marked this message intent=preamble, a plan meant for the user (OpenChatML 2.2 §5)."),
    Rule("harmony-preamble", _is_harmony_preamble, "preamble",
         "In a raw Harmony transcript, commentary with no recipient is a preamble meant for the user."),
    Rule("agent-preamble", _is_agent_preamble, "preamble",
         "In an agent's session, text the assistant wrote right before a tool call in the same response is its "
         "plan, shown as a preamble."),
    Rule("agent-tool-call", lambda m, t: m.is_call and _has_screen(t), "marker",
         "An agent's tool call is shown as its own screen showed it: the tool, its main argument (a file, a "
         "command, an address, a query) and its outcome in a few words; its full arguments and output stay hidden."),
    Rule("tool-call", lambda m, t: m.is_call, "marker",
         "Tool calls are shown only as a note naming the tool; their arguments stay hidden."),
    Rule("tool-reply", lambda m, t: m.is_reply, "marker",
         "Tool replies are shown only as a note naming the tool; their content stays hidden."),
    Rule("status-debug", lambda m, t: m.intent in ("status", "debug"), "hidden",
         "Messages marked intent=status or intent=debug are not meant for the user."),
    Rule("commentary", lambda m, t: _is_assistant(m) and m.channel == "commentary", "hidden",
         "Commentary is hidden from end users unless marked as a preamble (OpenChatML 2.2 §5)."),
    Rule("analysis", lambda m, t: m.channel == "analysis", "hidden",
         "Analysis is the model's reasoning and is never shown to end users (OpenChatML 2.2 §5)."),
    Rule("final", lambda m, t: _is_assistant(m) and m.channel == "final", "message",
         "The assistant's final answer is what the user is meant to see."),
    # Fail closed: an unknown role or channel is never shown by default.
    Rule("unknown", lambda m, t: True, "hidden",
         "The role or channel is not one the policy knows, so it is hidden to be safe."),
)

RULES_BY_NAME: dict[str, Rule] = {rule.name: rule for rule in RULES}


def rule_for(message: Message, transcript: Transcript) -> Rule:
    """The first rule of the table that applies to the message (the `unknown` rule always does)."""
    return next(rule for rule in RULES if rule.applies(message, transcript))


def rule_on_branch(message: Message, transcript: Transcript) -> Rule:
    """The rule of a message when the reader follows the branch it lies on (the default view's version switcher,
    where the app showed one): the table as if that branch were the one the app showed. Only `other-branch`
    reads whether a message is aside, so whatever else hides a message (reasoning, prompts, tool traffic, a
    sub-agent, injected context, an unknown role) still hides it on any branch."""
    return rule_for(message.changed(aside=False) if message.aside else message, transcript)


def default_rules(transcript: Transcript) -> tuple[Rule, ...]:
    """`rule_for` of every message, asked once per distinct combination of the fields the rules read.

    The rules read a message's header fields, whether it is in a sub-agent's thread or aside (`_decided_by`),
    the dialect and whether the transcript has a header (`_is_harmony_preamble`), never its body or place, so
    messages with equal keys get the same rule; the few messages an interruption stands at (`_is_interruption`)
    ask the table each.
    Asking the whole table for each message took a large share of a big transcript's parse; this costs a
    dictionary lookup. The answers are kept across transcripts (bounded), so the conversations of a dataset, a few
    messages each, ask the table once between them rather than a few times each."""
    # A tuple made from a generator, not from a list: the list and its copy, 16 bytes a message, were both held
    # at the end of a parse, its highest point in memory.
    _deciding.known = (transcript, frozenset(interruptions(transcript)))
    try:
        return tuple(_rules(transcript, _KNOWN, (transcript.dialect, bool(transcript.header))))
    finally:
        _deciding.known = None


def _rules(transcript: Transcript, known: dict[tuple, Rule], read: tuple) -> Iterator[Rule]:
    points = _interruptions(transcript)
    for message in transcript.messages:
        if points and message.index in points:  # a few messages: asked of the table each
            yield rule_for(message, transcript)
            continue
        key = (*read, *_decided_by(message))
        rule = known.get(key)
        if rule is None:
            if len(known) >= _KNOWN_SIZE:
                known.clear()
            rule = known[key] = rule_for(message, transcript)
        yield rule


_KNOWN: dict[tuple, Rule] = {}
_KNOWN_SIZE = 4096


def _decided_by(message: Message) -> tuple:
    # Every field a rule's predicate reads (`is_call` and `is_reply` read role, recipient and end).
    return (message.role, message.channel, message.intent, message.recipient, message.end, message.thread is None,
            message.aside)
