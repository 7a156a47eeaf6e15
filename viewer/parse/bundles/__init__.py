"""Reading a bundle text (viewer/bundles: several files as one upload) with the readers of single files.

A reader of one file is given the bundle text with every other member blanked out (`blanked`: the same length,
spaces where the other files stand, line breaks kept), so that its spans point into the bundle text as they are;
then `finished` gives the transcript the bundle text as its source, its frame lines (kinds `bundle` and
`member`), and a W-BUNDLE-MEMBER note for each file it did not read. A bundle no dialect claims by its members'
names is read as its first text file (`first_member`); an agent's bundle reader chooses its own members.
"""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable

from msgspec.structs import replace as replace_fields

from viewer.bundles import Bundle, Member
from viewer.model import Diagnostic, Message, Segment, Span, Transcript, make_diagnostic

_NOT_NEWLINE = re.compile(r"[^\n]")
TITLE_CHARS = 120
"""A session's title in a dataset's index is cut here: a label, not a message."""


def blanked(text: str, keep: Iterable[Span]) -> str:
    """The text with everything outside the `keep` spans made spaces (line breaks kept, so lines keep their
    numbers): a single file's reader reads the files it is given, where they stand."""
    parts, at = [], 0
    for start, end in sorted(keep):
        if start > at:
            parts.append(_NOT_NEWLINE.sub(" ", text[at:start]))
        parts.append(text[max(start, at):end])
        at = max(at, end)
    parts.append(_NOT_NEWLINE.sub(" ", text[at:]))
    return "".join(parts)


def first_member(text: str, bundle: Bundle, dialect: str, read: Callable[[str], Transcript],
                 unpacking: Iterable[Diagnostic] = ()) -> Transcript:
    """A bundle (`text`, read as `bundle`) that no record claims by its members' names: its first text file that
    reads as `dialect` (else its first text file) read alone by `read`, the others named; `unpacking`: what the
    unpacking said, which `read` reports with the file it reads."""
    from viewer.parse.detect import detect  # detect imports the registry's readers' names only; no cycle at import

    readable = [member for member in bundle.members if member.readable and not member.is_schema]
    chosen = next((member for member in readable if detect(text[member.span[0]:member.span[1]]) == dialect),
                  readable[0] if readable else None)
    if chosen is None:
        return finished(Transcript(dialect=dialect, source=text, diagnostics=tuple(unpacking)), text, bundle, read=())
    view = blanked(text, [chosen.span])
    return finished(read(view), text, bundle, read=(chosen,), view=view)


def finished(transcript: Transcript, text: str, bundle: Bundle, *, read: Iterable[Member],
             understood: Iterable[Member] = (), view: str | None = None) -> Transcript:
    """The transcript of a bundle: its source the bundle text (`view` is the blanked text its reader read), the
    bundle's frame lines and the `understood` members (read for what they say of the others, no message) as its
    frame, a note naming each member neither read nor understood, and a last line cut short in a file that does
    not end with a line break said to be cut short."""
    read, understood = tuple(read), tuple(understood)
    if view is not None:
        transcript = rehomed(transcript, view, text)
    taken = {member.path for member in (*read, *understood)}
    notes = [_unread(member) for member in bundle.members if member.path not in taken]
    frame = [*bundle.frame, *(Segment.of("json", text[m.span[0]:m.span[1]], m.span) for m in understood
                              if text[m.span[0]:m.span[1]].strip())]
    diagnostics = [*_cut_short(transcript.diagnostics, read, text), *bundle.problems, *notes]
    conversations = tuple(dataclasses.replace(conversation, diagnostics=tuple(
        _cut_short(conversation.diagnostics, read, text))) for conversation in transcript.conversations)
    return dataclasses.replace(transcript, source=text, conversations=conversations,
                               frame=tuple(sorted((*transcript.frame, *frame), key=lambda s: s.span)),
                               diagnostics=tuple(sorted(diagnostics, key=lambda d: d.span)))


def titled(session: Transcript) -> Transcript:
    """A session of a dataset of sessions, titled in its index by the first thing the user typed (not a slash
    command), unless its reader titled it, and dated by its first message's time."""
    typed = next((message for message in session.messages if message.role == "user" and message.intent is None
                  and message.thread is None and message.content.strip()
                  and not message.content.lstrip().startswith("/")), None)
    header = dict(session.header)
    if typed is not None:
        header.setdefault("title", " ".join(typed.content.split())[:TITLE_CHARS])
    stamped = next((message.meta.timestamp for message in session.messages
                    if message.meta is not None and message.meta.timestamp), None)
    if stamped:
        header.setdefault("created", stamped)
    return dataclasses.replace(session, header=header)


def _unread(member: Member) -> Diagnostic:
    facts = member.facts
    if facts.get("refused"):
        said = f"The file {member.path} was not read: {facts['refused']}."
    elif facts.get("binary"):
        said = f"The file {member.path} is binary ({facts.get('bytes', 0):,} bytes); it was not read."
    elif "#" in member.path:
        database, _, name = member.path.rpartition("#")
        said = f"The table {name} of the database{' ' + database if database else ''} is not one this format's " \
               "reader reads; it is kept in the source."
    else:
        said = f"The file {member.path} is not one this format's reader reads; it is kept in the source."
    return make_diagnostic("W-BUNDLE-MEMBER", member.span if member.span[1] > member.span[0] else member.frame, said)


def _cut_short(diagnostics: Iterable[Diagnostic], read: tuple[Member, ...], text: str) -> list[Diagnostic]:
    """A file's last line that breaks off where the file ends without a line break was cut short while it was
    written (the single-file readers see a line break after it: the bundle's own)."""
    ends = {len(text[:m.span[1]].rstrip()): m for m in read if not text[m.span[0]:m.span[1]].endswith("\n")}
    said = []
    for diagnostic in diagnostics:
        member = ends.get(diagnostic.span[1]) if diagnostic.code == "W-JSON-SYNTAX" else None
        if member is not None:
            diagnostic = make_diagnostic(
                "E-STREAM-TRUNCATED", diagnostic.span,
                f"The last line of {member.path} breaks off mid-JSON: the file was cut short while it was written; "
                "what follows it is missing.", diagnostic.message_index)
        said.append(diagnostic)
    return said


def rehomed(transcript: Transcript, view: str, text: str) -> Transcript:
    """The transcript with every body that was left in `view` (the blanked text) left in `text` instead, at the
    same place (they are equal there)."""
    messages = tuple(_rehomed_message(message, view, text) for message in transcript.messages)
    conversations = tuple(rehomed(conversation, view, text) for conversation in transcript.conversations)
    frame = tuple(_rehomed_segment(segment, view, text) for segment in transcript.frame)
    return dataclasses.replace(transcript, source=text, messages=messages, conversations=conversations, frame=frame)


def _rehomed_message(message: Message, view: str, text: str) -> Message:
    segments = tuple(_rehomed_segment(segment, view, text) for segment in message.segments)
    moved = any(new is not old for new, old in zip(segments, message.segments))
    if message.source is not view and not moved:
        return message
    return replace_fields(message, source=text if message.source is view else message.source, segments=segments)


def _rehomed_segment(segment: Segment, view: str, text: str) -> Segment:
    return replace_fields(segment, source=text) if segment.source is view else segment


__all__ = ["TITLE_CHARS", "blanked", "finished", "first_member", "rehomed", "titled"]
