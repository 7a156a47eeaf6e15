"""The one projection step: a transcript and the rule table → what each view may show.

Every consumer of a view goes through here. The store numbers the default view's entries with
`Projection.ranks`; pages, the JSON twin, tests and benchmarks collapse tool markers with `visible_entries`
(over stored rows or in-memory decisions alike); `default_json` and `debug_json` are the only ways a message
becomes JSON for a view. The default view's JSON never holds a hidden message, nor a shown message's place in
the source: the gaps between spans would give the length of each hidden one.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from viewer.model import Message, Transcript
from viewer.model.words import DEBUG, DEFAULT, VIEWS, ShowAs, View
from viewer.policy.onscreen import said_lines
from viewer.policy.rules import Rule, default_rules
from viewer.policy.said import Said

SHOWN_IN_FULL: tuple[ShowAs, ...] = ("message", "preamble")
"""The default view's treatments that show a body; markers and hidden messages never do. The store's search
index is written from the same definition."""


class Shown(Protocol):
    """What `visible_entries` reads of an item: a `Decision`, or a stored row (`viewer.store.Entry`)."""

    @property
    def index(self) -> int: ...

    @property
    def show_as(self) -> ShowAs: ...

    @property
    def tool(self) -> str | None: ...

    @property
    def said(self) -> Said | None: ...


T = TypeVar("T", bound=Shown)


@dataclass(frozen=True, slots=True)
class Projection:
    """A transcript with the default view's rule for each message, in message order."""

    transcript: Transcript
    rules: tuple[Rule, ...]
    conversations: tuple[Projection, ...] = ()
    """For a dataset: each conversation's projection (the dataset itself has no messages)."""

    @classmethod
    def of(cls, transcript: Transcript) -> Projection:
        return cls(transcript, default_rules(transcript), tuple(map(cls.of, transcript.conversations)))

    def first_visible_user_message(self) -> Message | None:
        """What a dataset's index may quote of a conversation: its first user message the default view shows
        in full, never a hidden one."""
        for message, rule in zip(self.transcript.messages, self.rules):
            if message.role == "user" and rule.show_as in SHOWN_IN_FULL:
                return message
        return None

    @property
    def hidden_count(self) -> int:
        return sum(1 for rule in self.rules if rule.show_as == "hidden")

    def ranks(self) -> Iterator[int | None]:
        """Each message's position among the default view's entries; None for a message it hides."""
        rank = 0
        for rule in self.rules:
            if rule.show_as == "hidden":
                yield None
            else:
                yield rank
                rank += 1

    def decisions(self, view: View = DEFAULT) -> tuple[Decision, ...]:
        """One decision per message, in order, for the `default` or the `debug` view."""
        if view not in VIEWS:
            raise ValueError(f"unknown view {view!r}; choose one of {', '.join(VIEWS)}")
        said = self.said()
        return tuple(_decide(message, rule, view, said.get(message.index))
                     for message, rule in zip(self.transcript.messages, self.rules))

    def said(self) -> dict[int, Said]:
        """What the agent's own screen showed of each tool call and interruption, by message index (made afresh
        from this projection's transcript: the masked one's lines are masked)."""
        return said_lines(self.transcript)


@dataclass(frozen=True, slots=True)
class Decision:
    """How one message is shown in a view, and which rule of the default view decides it."""

    index: int
    """The message's index in the transcript."""
    show_as: ShowAs
    """How this view shows the message: `message`, `preamble`, `marker` or `hidden`."""
    rule: str
    """Name of the rule that decides the message in the default view."""
    reason: str
    """That rule's reason, for a person."""
    default_show_as: ShowAs
    """How the default view shows the message (equal to `show_as` there; what the debug view explains)."""
    tool: str | None = None
    """For markers only: the tool called or replying, the one thing a marker may say."""
    said: Said | None = None
    """What the agent's screen showed of it (a tool call's line, an interruption), decided at upload."""


@dataclass(frozen=True, slots=True)
class Marker:
    """One note standing for consecutive tool calls and replies in the default view: their tools' names, or, for
    an agent's session, each call's line as its screen showed it."""

    indices: tuple[int, ...]
    """The messages the note stands for."""
    tools: tuple[str, ...]
    """Their tool names, each once, in order of first use."""
    lines: tuple[tuple[int, Said], ...] = ()
    """Each call's (or interruption's) line with its message's index, in order."""

    @property
    def text(self) -> str:
        """The note as a person reads it: `used get_weather, browser.search` (an agent's calls are drawn by their
        `lines`; this stays their content-free summary, which comparisons align by). A note of no call (an
        interruption) is its line's words."""
        if not self.tools and self.lines and all(said.kind == "interruption" for _, said in self.lines):
            return self.words
        return "used " + (", ".join(_short_tool_name(tool) for tool in self.tools) or "a tool")

    @property
    def words(self) -> str:
        """The lines in words, or the note where there are none."""
        return "; ".join(said.words for _, said in self.lines) if self.lines else self.text


def _decide(message: Message, rule: Rule, view: View, said: Said | None = None) -> Decision:
    return Decision(message.index, "message" if view == DEBUG else rule.show_as, rule.name, rule.reason,
                    rule.show_as, marker_tool(message, rule.show_as), said if rule.show_as != "hidden" else None)


def marker_tool(message: Message, show_as: ShowAs) -> str | None:
    """The one thing a marker may say of a message: the tool a call goes to. A reply's tool name is not used:
    some formats take it from the reply's own (hidden) content, which a hostile tool could fill with text."""
    return message.recipient if show_as == "marker" and message.is_call else None


def visible_entries(items: Iterable[T]) -> tuple[T | Marker, ...]:
    """What a view draws, in order: shown messages and preambles, with runs of markers collapsed into one.

    Hidden messages are dropped and do not break a run, so "call, hidden analysis, reply" is one note.
    """
    return tuple(iter_visible_entries(items))


def iter_visible_entries(items: Iterable[T]) -> Iterator[T | Marker]:
    """`visible_entries` one at a time over any number of items: a run of markers is held back until it
    ends, so it collapses exactly as on a whole list."""
    run: _Run | None = None
    for item in items:
        if item.show_as == "hidden":
            continue
        if item.show_as == "marker":
            run = run or _Run()
            run.add(item)
            continue
        if run is not None:
            yield run.marker()
            run = None
        yield item
    if run is not None:
        yield run.marker()


class _Run:
    """A run of markers as it grows: a marker made afresh for each item of a run copied the run each time, which
    made an agent's 40,000 consecutive tool messages take seconds."""

    def __init__(self) -> None:
        self.indices: list[int] = []
        self.tools: dict[str, None] = {}
        self.lines: list[tuple[int, Said]] = []

    def add(self, item: Shown) -> None:
        self.indices.append(item.index)
        if item.tool:
            self.tools[item.tool] = None
        said = item.said
        if said is not None:
            self.lines.append((item.index, said))

    def marker(self) -> Marker:
        return Marker(tuple(self.indices), tuple(self.tools), tuple(self.lines))


def _short_tool_name(tool: str) -> str:
    # `functions.` is the namespace of every user-defined tool; built-ins (`browser.search`) keep theirs.
    return tool.removeprefix("functions.") or tool


def marker_json(marker: Marker) -> dict[str, Any]:
    """A collapsed run of tool traffic as the default view's JSON: the note, the indices and each call's line as
    the agent's screen showed it, nothing else."""
    data: dict[str, Any] = {"index": marker.indices[0], "show_as": "marker", "text": marker.text,
                            "indices": list(marker.indices)}
    if marker.lines:
        data["lines"] = [{"index": index, **said.shown_json()} for index, said in marker.lines]
    return data


def default_json(message: Message, show_as: ShowAs, said: Said | None = None) -> dict[str, Any]:
    """A message the default view shows in full, as its JSON: without its span or its segments' and images'
    spans, and of
    what the log recorded about it only its time (its parent, thread and branch would point at hidden messages;
    model and usage are the debug view's)."""
    if show_as not in SHOWN_IN_FULL:
        raise ValueError(f"the default view shows no body for {show_as!r}")
    data = message.to_json()
    del data["span"]
    for key in ("thread", "parent", "aside"):
        data.pop(key, None)
    meta = message.meta
    if "meta" in data and meta is not None:  # a message's JSON has `meta` when it has one
        data["meta"] = {"timestamp": meta.timestamp} if meta.timestamp else {}
    if "segments" in data:
        data["segments"] = [{"kind": segment["kind"], "text": segment["text"]} for segment in data["segments"]]
    if "media" in data:
        data["media"] = [{key: value for key, value in media.items() if key != "span"} for media in data["media"]]
    data["show_as"] = show_as
    if said is not None:  # an interruption right after a message shown in full
        data["said"] = said.shown_json()
    return data


def debug_json(message: Message, *, show_as: ShowAs, rule: str, reason: str, pair: int | None) -> dict[str, Any]:
    """Any message as the debug view's JSON: everything, with how the default view treats it (`show_as`, by
    `rule`, for `reason`) and its pair number."""
    data = message.to_json()
    data["default_view"] = {"show_as": show_as, "rule": rule, "reason": reason}
    data["pair"] = pair
    return data
