"""What an agent's own screen showed of a tool call, decided once at upload: one line (the tool and its main
argument) and its outcome in a few words, never the call's full arguments nor its output.

A `Said` is made by the agent's screen module (its record's `screen` in viewer/formats/registry.py) from an
`Exchange`: the call, its reply, and what the log says of them. The store keeps it with the call's row, and every
answer of the default view (page, JSON twin, exports) reads it there. An interruption the log records is a `Said`
too, of kind `interruption`, kept with the message it follows.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal, get_args

from viewer.model import Message, Thread

Status = Literal["done", "failed", "interrupted", "rejected", "waiting"]
"""How a call ended, as its outcome says: `done`, `failed` (the tool or the command failed), `interrupted` (the
user stopped it), `rejected` (the user declined it), `waiting` (no reply in the log)."""
STATUSES: tuple[Status, ...] = get_args(Status)

Kind = Literal["call", "interruption", "question", "plan", "list"]
"""What the line stands for: a tool call, the user's interruption, questions put to the user and their answers,
a plan put to the user for approval and their decision, or a list the agent kept (its todos, its plan's
steps)."""
KINDS: tuple[Kind, ...] = get_args(Kind)

TARGET_CHARS = 80
"""A main argument is cut to this many characters (and to its first line), as the agents' screens cut it."""
ITEM_CHARS = 200
"""A line under the call (an answer, a todo) is cut to this many characters."""
ITEMS = 20
"""Lines under a call at most; the rest are counted."""
TEXT_CHARS = 20_000
"""A plan put to the user is shown whole up to this many characters."""


@dataclass(frozen=True, slots=True)
class Said:
    """One line of an agent's screen: `Bash(npx vitest run)` and `1 failed, 12 passed`."""

    tool: str
    """The tool as the screen names it (`Update`, `Ran`, `Search`), or the line's words for a note."""
    target: str = ""
    """Its main argument, cut: a file's path, a command, an address, a query; "" when it has none."""
    outcome: str = ""
    """The outcome in a few words of the agent's own, with numbers read from the reply, never its text."""
    status: Status = "done"
    kind: Kind = "call"
    items: tuple[str, ...] = ()
    """Lines under it: each question and its answer, each todo, each file a patch changed, the user's words."""
    text: str | None = None
    """Markdown shown under it: the plan the user was asked to approve."""
    thread: str | None = None
    """The sub-agent the call started (`Transcript.threads`), whose task `target` names."""
    thread_at: int | None = None
    """The index of the sub-agent's first message (the debug view links the call to it)."""
    bare: bool = False
    """The screen writes the tool and its argument side by side (`Ran pytest -q`), not `Bash(pytest -q)`."""

    @property
    def line(self) -> str:
        """The call's line as a person reads it: `Bash(npx vitest run)`."""
        if not self.target:
            return self.tool
        return f"{self.tool} {self.target}" if self.bare else f"{self.tool}({self.target})"

    def but(self, **changes: Any) -> Said:
        """A copy with some fields changed."""
        return replace(self, **changes)

    @property
    def failed(self) -> bool:
        return self.status in ("failed", "rejected", "interrupted")

    @property
    def words(self) -> str:
        """The whole line in words, for a note of text alone (Markdown, the JSON twin's `text`)."""
        return f"{self.line} → {self.outcome}" if self.outcome else self.line

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"tool": self.tool, "target": self.target, "outcome": self.outcome,
                                "status": self.status, "kind": self.kind}
        if self.items:
            data["items"] = list(self.items)
        if self.text is not None:
            data["text"] = self.text
        if self.thread is not None:
            data["thread"] = self.thread
            data["thread_at"] = self.thread_at
        if self.bare:
            data["bare"] = True
        return data

    def shown_json(self) -> dict[str, Any]:
        """What the default view's JSON says of it: its words, without the sub-agent it links to (whose
        conversation that view hides)."""
        data = self.to_json()
        data.pop("thread", None)
        data.pop("thread_at", None)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Said:
        status = data.get("status")
        kind = data.get("kind")
        return cls(tool=str(data.get("tool", "")), target=str(data.get("target", "")),
                   outcome=str(data.get("outcome", "")),
                   status=status if status in STATUSES else "done",
                   kind=kind if kind in KINDS else "call",
                   items=tuple(str(item) for item in data.get("items", ())), text=data.get("text"),
                   thread=data.get("thread"), thread_at=data.get("thread_at"), bare=data.get("bare") is True)


@dataclass(frozen=True, slots=True)
class Restated:
    """A change to a call's line stored before, in some of its fields (the sub-agent it names, named again; how it
    ended, once an interruption says so): the line otherwise as stored, which whoever stored it reads back, so that
    a session read a piece at a time need not keep every call's line."""

    changes: tuple[tuple[str, Any], ...]

    def of(self, stored: Said) -> Said:
        return stored.but(**dict(self.changes))

    def but(self, **more: Any) -> Restated:
        return Restated(tuple({**dict(self.changes), **more}.items()))


@dataclass(frozen=True, slots=True)
class Exchange:
    """A tool call and what the log says of it: what an agent's screen module words."""

    call: Message
    reply: Message | None
    """Its reply, when the log pairs one."""
    failed: bool = False
    """The log marks the reply a failure (`is_error`, a failed status: W-TOOL-ERROR on the reply)."""
    interrupted: bool = False
    """The log records that the user interrupted the agent while the call ran or right after it."""
    recorded: str = ""
    """The reply's exact source text: a Claude Code line keeps its tool's structured result (`toolUseResult`)
    beside the reply, which the screen reads numbers from (lines read, tool uses)."""
    cwd: str | None = None
    """The session's working folder, which screens show paths relative to."""
    thread: Thread | None = None
    """The sub-agent this call started, when the log says."""

    @property
    def output(self) -> str:
        return self.reply.content if self.reply is not None else ""


def cut(text: str, limit: int = TARGET_CHARS) -> str:
    """A main argument as a screen shows it: its first non-blank line, cut to `limit` characters with `…` (and
    `…` when more lines follow)."""
    lines = [line.strip() for line in text.strip().splitlines()]
    first = next((line for line in lines if line), "")
    more = len([line for line in lines if line]) > 1
    if len(first) > limit:
        return first[:limit - 1].rstrip() + "…"
    return first + (" …" if more else "")


def bounded(items: list[str]) -> tuple[str, ...]:
    """Lines under a call: each cut, at most `ITEMS`, the rest counted."""
    shown = [cut(item, ITEM_CHARS) for item in items[:ITEMS]]
    if len(items) > ITEMS:
        shown.append(f"… {len(items) - ITEMS:,} more")
    return tuple(shown)
