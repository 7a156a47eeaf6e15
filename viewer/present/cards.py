"""Python picks the fragment: stored entries of one window become cards, one per thing the page draws.

The default view's cards come from non-hidden rows only (the store never reads hidden rows for it), with runs
of tool markers collapsed by the policy's one projection step (`policy.visible_entries`); the debug view gets one card per message with its header fields,
diagnostics and pairing. Templates draw cards with one macro per `kind` and never decide visibility.
"""
from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass
from typing import Any, Callable, Sequence, cast

from cachetools import LRUCache

from viewer import policy, render
from viewer.images import thumbnail_size
from viewer.model import Media, Message
from viewer.model.words import CHANNELS, DEBUG, PROMPT_ROLES
from viewer.policy.edits import FileEdit
from viewer.policy.screens import generic
from viewer.policy.screens.common import exit_code, json_object
from viewer.present import costs, diffs
from viewer.render import prompts, workers
from viewer.render.jobs import Job
from viewer.settings import LONG_BODY
from viewer.store import Entry, Located

_CACHED_BODY_LIMIT = 100_000
"""Characters; longer bodies are rendered each time rather than kept in memory."""
RENDER_CACHE_BYTES = 32 * 1024 * 1024
"""What the cache of rendered bodies may hold per process, counted as the characters of the HTML kept and of
the body keyed (about a byte each for most text): windows re-read the same bodies often."""

_REMOTE_IMAGE = re.compile(r"\[(?:image|screenshot): (https?://[^\s,\]…]+)[,\]]")
"""An image placeholder's web address (the JSON readers write it first, cut with "…" when too long)."""
ROLE_LABELS = {"system": "System", "developer": "Developer", "user": "User", "assistant": "Assistant",
               "tool": "Tool"}


@dataclass(frozen=True, slots=True)
class Card:
    """One drawable item of a window."""

    kind: str
    """Macro that draws it: `message`, `preamble`, `marker` (default view) or `debug`."""
    index: int
    """Message index it anchors at (`#m-<index>`)."""
    entry: Entry | None = None
    body: render.Rendered | None = None
    marker_text: str = ""
    indices: tuple[int, ...] = ()
    diagnostics: tuple[Located, ...] = ()
    source: render.Rendered | None = None
    """The debug view's highlighted source, when it is short enough to show at once."""
    long_body: int = LONG_BODY
    """Characters above which the body and the source are collapsed rather than rendered."""
    inner: tuple[Card, ...] = ()
    """For a `thread` card: the debug cards of a sub-agent's messages, drawn nested and collapsible."""
    lines: tuple[SaidLine, ...] = ()
    """What the agent's screen showed: a marker's calls, or an interruption after a message shown in full."""

    @property
    def drawn(self) -> Entry:
        """The entry of a card that draws a message (every kind but `marker` and `thread`, which have none)."""
        return cast(Entry, self.entry)

    @property
    def body_size(self) -> int:
        return len(self.drawn.message.content)

    @property
    def body_collapsed(self) -> bool:
        """Whether the page shows the body's size and a link instead of the body."""
        return self.body_size > self.long_body

    @property
    def source_collapsed(self) -> bool:
        return len(self.drawn.source) > self.long_body

    @property
    def label(self) -> str:
        return role_label(self.drawn.message)

    @property
    def tone(self) -> str:
        """Colour class: the channel, or the role for system/developer/user/tool messages."""
        message = self.drawn.message
        if message.role in PROMPT_ROLES:
            return "system"
        if message.role == "user":
            return "user"
        if message.role == "tool":
            return "tool"
        return message.channel if message.channel in CHANNELS else "unknown"

    @property
    def fold(self) -> str | None:
        """What a debug card may be collapsed as, one by one or all at once: `reasoning` (the analysis
        channel), `tool` (calls and replies), or None."""
        message = self.drawn.message
        if message.role == "assistant" and message.channel == "analysis":
            return "reasoning"
        if message.is_call or message.is_reply:
            return "tool"
        return None

    @property
    def pair_state(self) -> str | None:
        """`unanswered` for a call with no reply, `orphan` for a reply to nothing, else None."""
        message = self.drawn.message
        if self.drawn.pair is not None:
            return None
        if message.is_call:
            return "unanswered"
        if message.is_reply:
            return "orphan"
        return None

    @property
    def failed(self) -> bool:
        """A tool call whose line says it failed (or the user declined or stopped it), or a reply the log marks a
        failure or whose command exited with an error."""
        entry = self.entry
        if entry is None:
            return False
        if entry.said is not None and entry.said.kind == "call":
            return entry.said.failed
        message = entry.message
        if not message.is_reply:
            return False
        if any(located.diagnostic.code == "W-TOOL-ERROR" for located in self.diagnostics):
            return True
        return exit_code(message.content) not in (None, 0)

    @property
    def fields(self) -> list[tuple[str, Any]]:
        """The raw header fields the debug view lists, in the order a header is written."""
        message = self.drawn.message
        # An implied channel is only worth listing for the assistant, whose channel decides visibility.
        channel = message.channel if message.channel_explicit else (
            f"{message.channel} (implied)" if message.role == "assistant" else None)
        content_type = message.content_type
        if content_type and message.constrained:
            content_type = f"<|constrain|>{content_type}"
        return [(name, value) for name, value in (
            ("role", message.role), ("name", message.name), ("to", message.recipient), ("channel", channel),
            ("content type", content_type), ("intent", message.intent), ("call_id", message.call_id),
            ("ended by", message.end), ("turn", message.turn),
            ("segments", ", ".join(segment.kind for segment in message.segments) or None),
            *meta_fields(message),
        ) if value is not None]

    @property
    def pictures(self) -> list[Picture]:
        """The images of the message that may be shown (refused ones are named by their placeholder alone)."""
        message = self.entry.message if self.entry is not None else None
        if message is None or not message.media:
            return []
        return [picture(media) for media in message.media if media.refused is None and media.width]

    @property
    def remote_images(self) -> list[str]:
        """The addresses of images the message names by URL (their placeholders say them): links, never loaded."""
        message = self.entry.message if self.entry is not None else None
        if message is None or "://" not in message.content:
            return []
        return [url for url in _REMOTE_IMAGE.findall(message.content) if render.is_allowed_url(url)]

    @property
    def thread(self) -> str | None:
        """For a `thread` card: the sub-agent's id."""
        return self.inner[0].drawn.message.thread if self.inner else None

    @property
    def thread_call(self) -> int | None:
        """For a `thread` card: the index of the call that started the sub-agent, when the log names it."""
        return self.inner[0].drawn.thread_call if self.inner else None

    @property
    def thread_title(self) -> str | None:
        """For a `thread` card: what the log calls the sub-agent's task, when it says."""
        first = self.inner[0].entry if self.inner else None
        return first.thread_title if first is not None else None


@dataclass(frozen=True, slots=True)
class SaidLine:
    """One line of an agent's screen as a card draws it: the call's (or interruption's) message, its `Said`, and
    the plan it put to the user rendered (Markdown, through the workers)."""

    index: int
    said: policy.Said
    text: render.Rendered | None = None


@dataclass(frozen=True, slots=True)
class Picture:
    """A thumbnail a card draws, opening the image full size."""

    sha256: str
    width: int
    """The thumbnail's size, for the `<img>`'s attributes (the page keeps its layout while images load)."""
    height: int
    alt: str


def picture(media: Media) -> Picture:
    width, height = thumbnail_size(media.width, media.height)  # type: ignore[arg-type]  # drawn ones have a size
    kind = (media.type or "image").removeprefix("image/").upper()
    alt = f"Image sha256 {media.sha256[:12]} ({kind}, {media.width:,} × {media.height:,} pixels)"
    return Picture(media.sha256, width, height, alt)


def meta_fields(message: Message) -> list[tuple[str, Any]]:
    """What an agent's log recorded of a message, as the debug view lists it."""
    meta = message.meta
    fields: list[tuple[str, Any]] = []
    if meta is not None:
        usage = meta.usage
        tokens = (f"in {usage.input:,} · out {usage.output:,} · cache read {usage.cache_read:,} · "
                  f"cache write {usage.cache_write:,}") if usage else None
        took = f"{meta.duration_ms / 1000:,.1f} s after its call" if meta.duration_ms is not None else None
        cost = f"${usage.cost:,.4f}" if usage is not None and usage.cost is not None else None
        priced = costs.said(costs.price(usage, meta.model, meta.timestamp)) if usage is not None else None
        fields += [("time", meta.timestamp), ("model", meta.model), ("stop reason", meta.stop_reason),
                   ("tokens", tokens), ("cost", cost), ("price", priced), ("took", took),
                   ("recorded", json.dumps(meta.details, ensure_ascii=False) if meta.details else None)]
    fields += [("follows", f"#{message.parent}" if message.parent is not None else None),
               ("sub-agent", message.thread), ("branch", "aside (the default view follows another)"
                                                 if message.aside else None)]
    return fields


def header_panel(header: dict[str, Any]) -> Any:
    """The debug view's panel of what the file says of the whole transcript (a request's tools, a response's model
    and usage, an eval's scores, the members no reader understood), as highlighted JSON; None when it says
    nothing."""
    if not header:
        return None
    return render.json_block(json.dumps(header, ensure_ascii=False, indent=2, default=str))


def default_cards(entries: list[Entry], *, with_bodies: bool = True, long_body: int = LONG_BODY) -> list[Card]:
    """Cards of the default view from its non-hidden entries (bodies unrendered for the JSON twin; long bodies
    left unrendered, collapsed)."""
    return shown_cards(policy.visible_entries(entries), with_bodies=with_bodies, long_body=long_body)


def shown_cards(items: Sequence[Entry | policy.Marker], *, with_bodies: bool = True,
                long_body: int = LONG_BODY) -> list[Card]:
    """The cards of the items the default view draws, their bodies (and the plans their lines put to the user)
    rendered in one batch."""
    jobs = [shown_body_job(item) if with_bodies and not isinstance(item, policy.Marker)
            and len(item.message.content) <= long_body else None for item in items]
    lines = [said_of(item) for item in items]
    texts = [Job("body", said.text[:TEXT_CHARS], None) if with_bodies and said.text else None
             for found in lines for _, said in found]
    done = iter(rendered([job for job in (*jobs, *texts) if job is not None]))
    drawn = [next(done) if job is not None else None for job in jobs]
    shown_texts = iter([next(done) if job is not None else None for job in texts])
    return [_default_card(item, body_of, tuple(SaidLine(index, said, next(shown_texts)) for index, said in found),
                          long_body)
            for item, body_of, found in zip(items, drawn, lines)]


TEXT_CHARS = 20_000
"""A plan put to the user is drawn up to this many characters."""


def said_of(item: Entry | policy.Marker) -> tuple[tuple[int, policy.Said], ...]:
    """The screen's lines an item of the default view carries."""
    if isinstance(item, policy.Marker):
        return item.lines
    return ((item.index, item.said),) if item.said is not None else ()


def _default_card(item: Entry | policy.Marker, drawn: render.Rendered | None, lines: tuple[SaidLine, ...],
                  long_body: int) -> Card:
    """The card of one item the default view draws: a shown entry (its body `drawn`, if rendered), or a marker
    standing for tool traffic (each call's line as the agent's screen showed it, when it has a screen)."""
    if isinstance(item, policy.Marker):
        return Card(kind="marker", index=item.indices[0], marker_text=item.text, indices=item.indices, lines=lines)
    return Card(kind=item.show_as, index=item.index, entry=item, body=drawn, long_body=long_body, lines=lines)


def debug_cards(entries: list[Entry], diagnostics: list[Located], *, long_body: int = LONG_BODY,
                source_language: str | None = None) -> list[Card]:
    """One card per message with its diagnostics and its source highlighted as `source_language` (long bodies
    and sources collapsed); the window's bodies and sources are rendered in one batch."""
    attached: dict[int | None, list[Located]] = {}
    for located in diagnostics:
        attached.setdefault(located.diagnostic.message_index, []).append(located)
    bodies = [body_job(entry) if len(entry.message.content) <= long_body else None for entry in entries]
    sources = [Job("source", entry.source, source_language) if len(entry.source) <= long_body else None
               for entry in entries]
    done = iter(rendered([job for job in (*bodies, *sources) if job is not None]))
    drawn = {id(job): next(done) for job in (*bodies, *sources) if job is not None}
    return threaded([Card(kind=DEBUG, index=entry.message.index, entry=entry,
                          body=drawn[id(body_of)] if body_of is not None else None, long_body=long_body,
                          source=drawn[id(source)] if source is not None else None,
                          diagnostics=tuple(attached.get(entry.message.index, ())))
                     for entry, body_of, source in zip(entries, bodies, sources)])


def threaded(cards: list[Card]) -> list[Card]:
    """Debug cards with each run of a sub-agent's messages gathered into one `thread` card, drawn nested under
    the call before it and collapsible (a window that starts inside a run gathers the rest of it)."""
    gathered: list[Card] = []
    run: list[Card] = []
    for card in cards:
        thread = card.drawn.message.thread
        if run and thread != run[0].drawn.message.thread:
            gathered.append(_thread_card(run))
            run = []
        if thread is None:
            gathered.append(card)
        else:
            run.append(card)
    if run:
        gathered.append(_thread_card(run))
    return gathered


def _thread_card(run: list[Card]) -> Card:
    return Card(kind="thread", index=run[0].index, inner=tuple(run))


PANEL_LABELS = {"fim_prefix": "Prefix · before the cursor", "fim_middle": "Middle · the infill",
                "fim_suffix": "Suffix · after the cursor", "reflect": "Reflection", "introspect": "Introspection",
                "reason": "Reasoning"}
CODE_PANELS = ("fim_prefix", "fim_middle", "fim_suffix", "file")
SKIPPED_SEGMENTS = ("flag",)
PANEL_KINDS = frozenset(("file", "reflect", "introspect", "reason", *CODE_PANELS))
"""Segments that make a body a set of labelled panels."""


def role_label(message: Message) -> str:
    """What a message's heading calls it: its role, and the tool it calls or replies from."""
    role = ROLE_LABELS.get(message.role, message.role)
    if message.role == "tool" and message.name:
        return f"{role} · {_tool_name(message.name)}"
    if message.is_call and message.recipient:
        return f"{role} → {_tool_name(message.recipient)}"
    return role


def _tool_name(tool: str) -> str:
    """A tool's name as the reader knows it: without `functions.`, the namespace every user-defined tool is in
    (the full name stays in the debug view's details)."""
    return tool.removeprefix("functions.") or tool


def panel_parts(message: Message) -> list[render.Panel]:
    """A body with fill-in-the-middle parts, files or thought blocks as labelled panels; [] for other bodies.

    Each part is shown on its own, so a FIM prefix is never run through markdown together with its suffix."""
    if PANEL_KINDS.isdisjoint(segment.kind for segment in message.segments):
        return []
    parts: list[render.Panel] = []
    files = 0
    label: str | None
    for segment in message.segments:
        if segment.kind in SKIPPED_SEGMENTS or (segment.kind not in CODE_PANELS and not segment.text.strip()):
            continue
        if segment.kind == "file":
            files += 1
            label = f"File {files}"
        elif segment.kind == "fim_middle" and not segment.text:
            label = "Middle · the cursor, to be filled"
        else:
            label = PANEL_LABELS.get(segment.kind)
        parts.append(render.Panel(label, segment.text, segment.kind in CODE_PANELS, segment.kind))
    return parts


def body(entry: Entry) -> render.Rendered:
    """A message body as safe HTML: labelled panels for structured bodies, JSON for JSON bodies and tool-call
    arguments, else by content type."""
    return rendered([body_job(entry)])[0]


def shown_body_job(entry: Entry) -> Job:
    """How the default view renders a body: as `body_job` does, with the placeholder of each image it draws
    (`[image: image/png, 1,518 bytes, sha256 …]`) taken out, since the picture itself is drawn (its hash and size
    are the debug view's)."""
    job = body_job(entry)
    drawn = [media.sha256[:12] for media in entry.message.media if media.refused is None and media.width]
    if not drawn or job.kind != "body" or not isinstance(job.payload, str):
        return job
    text = _PLACEHOLDER.sub(lambda found: "" if found.group(1) in drawn else found.group(0), job.payload)
    return Job("body", text.strip(), job.language)


_PLACEHOLDER = re.compile(r"\[image: [^\]\n]*?sha256 ([0-9a-f]{12})\]")


def body_job(entry: Entry) -> Job:
    """How a message body is rendered (viewer/render/jobs.py): as panels, a prompt, JSON, a tool's traffic as a
    terminal and an editor show it, or by content type."""
    message = entry.message
    parts = panel_parts(message)
    if parts:
        return Job("panels", tuple(parts))
    tool = tool_job(message)
    if tool is not None:
        return tool
    content_type = message.content_type
    if message.role in PROMPT_ROLES and content_type is None:
        return Job("prompt", message.content)
    # Tool traffic is usually JSON even when no content type says so; render_body keeps non-JSON as written.
    if (message.is_call or message.is_reply) and content_type is None \
            and message.content.lstrip().startswith(("{", "[")):
        content_type = "json"
    return Job("body", message.content, content_type)


def tool_job(message: Message) -> Job | None:
    """A tool call or reply as a terminal and an editor show it: an edit as a diff under its file's path, then the
    arguments as JSON (pretty, wrapped); a reply's output as the terminal showed it (a JSON reply's output text
    apart from the rest of it). None for any other message, or one whose producer typed its body."""
    if message.content_type not in (None, "json") or not (message.is_call or message.is_reply):
        return None
    if message.is_call:
        return _call_job(message)
    content = message.content
    value = json_object(content)
    printed = next((key for key in OUTPUT_KEYS if isinstance(value.get(key), str) and "\n" in value[key]), None)
    if printed is not None:
        rest = {key: item for key, item in value.items() if key != printed}
        parts = [render.Panel("Output", value[printed], True, "output", render.TERMINAL)]
        if rest:
            parts.append(render.Panel(None, json.dumps(rest, ensure_ascii=False), True, "arguments", "json"))
        return Job("panels", tuple(parts))
    if content.lstrip()[:1] in ("{", "["):
        return None  # JSON, shown as JSON
    return Job("terminal", content)


OUTPUT_KEYS = ("output", "stdout", "aggregated_output", "stderr", "content", "result")
"""Members of a JSON reply that hold what a command printed."""
DID = {"create": "Wrote", "edit": "Edited", "delete": "Deleted"}


def _call_job(message: Message) -> Job | None:
    made = generic.edits(policy.Exchange(message, None))
    changed = [edit for edit in made if edit.action != "read"]
    if not changed:  # arguments alone: pretty and wrapped, never wider than the page
        if not message.content.lstrip().startswith("{"):
            return None
        return Job("panels", (render.Panel(None, message.content, True, "arguments", "json"),))
    parts = [render.Panel(f"{DID[edit.action]} {edit.path}", _call_diff(edit), True, "diff", "diff")
             for edit in changed]
    if message.content.lstrip().startswith("{"):
        parts.append(render.Panel("Arguments", message.content, True, "arguments", "json"))
    return Job("panels", tuple(parts))


def _call_diff(edit: FileEdit) -> str:
    applied = diffs.apply(edit, None)
    return applied.diff or ("(an empty file)" if edit.action == "create" else "(the file is deleted)")


def _cost(item: render.Rendered) -> int:
    return len(item.html) + 100  # the 100: a small body's key, tuple and entry overhead


def _key_cost(job: Job) -> int:
    return job.size


_CACHE: LRUCache = LRUCache(maxsize=RENDER_CACHE_BYTES, getsizeof=lambda item: _key_cost(item[0]) + _cost(item[1]))
_CACHE_LOCK = threading.Lock()  # cachetools' caches are not thread-safe, and gunicorn runs threads


def rendered(jobs: list[Job]) -> list[render.Rendered]:
    """Each job rendered, remembered in a cache bounded in bytes (rendering is the expensive step); those not
    cached are rendered together, in one round trip to a highlighting worker (viewer/render/workers.py). Texts
    over `_CACHED_BODY_LIMIT`, and what was made plainer only for want of time, are not kept."""
    found: list[render.Rendered | None] = [None] * len(jobs)
    with _CACHE_LOCK:
        for position, job in enumerate(jobs):
            cached = _CACHE.get(job) if job.size <= _CACHED_BODY_LIMIT else None
            found[position] = cached[1] if cached is not None else None
    missing = [position for position, item in enumerate(found) if item is None]
    if missing:
        made = workers.render([jobs[position] for position in missing])
        with _CACHE_LOCK:
            for position, item in zip(missing, made):
                found[position] = item
                job = jobs[position]
                if job.size <= _CACHED_BODY_LIMIT and not item.transient:
                    _CACHE[job] = (job, item)
    return [item for item in found if item is not None]
