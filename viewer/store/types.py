"""What the store gives back: frozen read types, made from rows by rows.py. Readers (the present stage, the web
app) need only these, never the rows or the tables."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

import msgspec

from viewer.model import Diagnostic, Message
from viewer.model.words import DEBUG, ShowAs, View
from viewer.policy.projection import marker_tool
from viewer.policy.said import Said


@dataclass(frozen=True, slots=True)
class Record:
    """A stored transcript's metadata and counts (no raw bytes, no messages)."""

    id: str
    name: str | None
    dialect: str
    requested_dialect: str
    created_at: dt.datetime
    debug_allowed: bool
    manage_hash: str | None
    is_sample: bool
    parser_version: str
    header: dict[str, Any]
    tools: dict[str, Any]
    """The tools the transcript declares: name → JSON schema of the parameters."""
    size: int
    message_count: int
    visible_count: int
    hidden_count: int
    diagnostic_count: int
    error_count: int
    pair_count: int
    deleted: bool
    expires_at: dt.datetime | None
    parent_id: str | None
    """For a conversation of a dataset: the dataset's id (its share link, manage key and permissions)."""
    conversation: int | None
    """For a conversation of a dataset: its number, from 0."""
    conversation_count: int | None
    """For a dataset: how many conversations it holds; None for a single conversation."""
    snippet: str | None
    """For a conversation of a dataset: the start of its first user message that the default view shows."""
    secret_kinds: dict[str, int]
    """Secrets found in the upload, masked for link holders: kind → how many (for a conversation, its
    dataset's)."""
    secrets_unmasked: bool
    """Whether the uploader lets link holders of the debug view read the secrets."""

    @property
    def secret_count(self) -> int:
        return sum(self.secret_kinds.values())
    live: str | None = None
    """"open" while an agent appends to it, then "finished" or "truncated"; None if it was never live."""
    state: str | None = None
    """"processing" from the moment its raw bytes are stored until its parse rows are, "failed" when they could
    not be; None when it is readable (viewer/store/processing.py)."""
    personal_kinds: dict[str, int] = field(default_factory=dict)
    """Personal data masked for link holders, by kind (`email`, `card` …, `redacted` for the uploader's
    redactions): how many distinct values of each (viewer/store/personal.py)."""

    @property
    def personal_count(self) -> int:
        return sum(self.personal_kinds.values())

    @property
    def masked_count(self) -> int:
        """Everything link holders read a placeholder for: secrets, personal data, redactions."""
        return self.secret_count + self.personal_count

    @property
    def ready(self) -> bool:
        """Whether its parse is stored, so that its views can be read."""
        return self.state is None

    @property
    def is_dataset(self) -> bool:
        return self.conversation_count is not None

    @property
    def owner_id(self) -> str:
        """The upload whose share link, manage key and permissions cover this record."""
        return self.parent_id or self.id

    def expired(self, now: dt.datetime) -> bool:
        return self.expires_at is not None and self.expires_at <= now


class Entry(msgspec.Struct, frozen=True, gc=False):
    """A stored message with the default view's decision and its place in the source. A Struct, as `Message` is
    (viewer/model/message.py): a big transcript's exports read hundreds of thousands."""

    message: Message
    show_as: ShowAs
    """The default view's treatment: `message` `preamble` `marker` `hidden`."""
    rank: int | None
    """Position among the default view's entries; None when the default view hides it."""
    rule: str
    reason: str
    pair: int | None
    """Pair number shared by a call and its reply."""
    partner: int | None
    """Index of the other half of the pair."""
    line: int
    column: int
    source: str
    """The exact source text of the message."""
    thread_call: int | None = None
    """For a message of a sub-agent's thread: the index of the call that started the thread, when known."""
    thread_title: str | None = None
    """For a message of a sub-agent's thread: what the log calls the thread's task, when it says."""
    said: Said | None = None
    """What the agent's screen showed of it (a tool call's line, an interruption), decided at upload; None for a
    message the default view hides and for every message of a dialect with no screen."""

    @property
    def index(self) -> int:
        return self.message.index

    def position(self, view: View) -> int:
        """Where the entry stands in a view's windows: its index in the debug view, its rank in the default."""
        return self.message.index if view == DEBUG else self.rank  # type: ignore[return-value]  # shown: ranked

    @property
    def tool(self) -> str | None:
        """For the default view's markers: the tool called or replying, the one thing a marker may say."""
        return marker_tool(self.message, self.show_as)


@dataclass(frozen=True, slots=True)
class Located:
    """A diagnostic with its 1-based line and column."""

    diagnostic: Diagnostic
    line: int
    column: int
