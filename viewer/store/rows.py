"""Conversions between the model and database rows, both ways.

`*_rows` turn a projection into rows to insert; `record`, `entry` and `located` turn rows back into the read
types of types.py.
"""
from __future__ import annotations

import datetime as dt
import json
from array import array
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Sequence

from viewer.model import Diagnostic, Media, Message, Meta, Segment, Thread, Transcript
from viewer.policy import SHOWN_IN_FULL, Projection, Rule, Said
from viewer.policy.said import Restated
from viewer.policy.personal import split_kinds
from viewer.store.shift import Relocated
from viewer.store.types import Entry, Located, Record

if TYPE_CHECKING:
    from sqlalchemy import Column, Table

# The tables (viewer/store/schema.py, with SQLAlchemy) are imported by the functions that select from them: a
# fresh parse's entries (`entries_in_memory`, the command line's `render`) are built without the database.

MESSAGE_COLUMNS = ("transcript_id", "idx", "vrank", "turn", "kind", "call_id", "span_start", "span_end",
                   "header_start", "header_end", "line", "col", "body_start", "body_end", "content", "source",
                   "segments", "pair", "partner", "agent", "media")
"""The order of the values in `message_rows`' tuples."""
MEDIA_COLUMNS = ("transcript_id", "idx", "number", "sha256", "visible")
"""The order of the values in `media_rows`' tuples."""
KIND_COLUMNS = ("transcript_id", "number", "role", "name", "recipient", "channel", "channel_explicit",
                "content_type", "constrained", "intent", "end", "show_as", "rule", "reason")
DIAGNOSTIC_COLUMNS = ("transcript_id", "seq", "code", "severity", "message", "span_start", "span_end", "line", "col",
                      "message_index")
PAIR_COLUMNS = ("transcript_id", "number", "call", "reply", "by")
ENTRY_NAMES = (*(name for name in MESSAGE_COLUMNS if name not in ("transcript_id", "kind")), *KIND_COLUMNS[2:])
"""The columns `entry` reads, in its order: a message row's, then its kind's (`entry_columns`, the tables' own,
name the same)."""


def message_rows(id: str, projection: Projection, kinds: dict[tuple, int], *, first_rank: int = 0,
                 first_pair: int = 1, said: dict[int, Said] | None = None) -> Iterator[tuple]:
    """`_message_rows`, at the upload's offsets when the parse is of a thin text (viewer/model/cuts.py). A batch of
    a session stored a batch at a time (viewer/store/sessions.py) numbers its default view's ranks from
    `first_rank` and its pairs from `first_pair`, and has its screen's lines given (`said`: what
    `Projection.said` says of the whole session, viewer/policy/onscreen.py's `OnlineLines`)."""
    made = _message_rows(id, projection, kinds, first_rank, first_pair, said)
    relocated = _relocated(projection.transcript)
    return made if relocated is None else map(relocated.message, made)


def _relocated(transcript: Transcript) -> Relocated | None:
    return None if transcript.cuts is None else Relocated.of(transcript.source, transcript.cuts)


def _message_rows(id: str, projection: Projection, kinds: dict[tuple, int], first_rank: int = 0,
                  first_pair: int = 1, said: dict[int, Said] | None = None) -> Iterator[tuple]:
    """One tuple per message in `MESSAGE_COLUMNS` order, numbering each distinct kind (header fields and
    rule) in `kinds` as it goes. Plain tuples, few columns and no per-row dictionaries, because this and the
    database's per-column work are most of the cost of storing a big upload."""
    transcript = projection.transcript
    source = transcript.source
    count, rfind, startswith = source.count, source.rfind, source.startswith
    pairs = transcript.pairs
    pair_of = pair_numbers(transcript)
    first_index = transcript.messages[0].index if transcript.messages else 0
    no_partner = (None, None)
    thread_calls = {thread.id: thread for thread in transcript.threads}
    if said is None:
        said = projection.said()
    # Lines are counted from the previous message's start (messages come in source order; a nested one, which
    # starts before, asks the transcript's line table), cheaper than a search per message. Counting starts at
    # the first message: a dataset's conversation starts deep into the file, whose line table it shares.
    counted = transcript.messages[0].span[0] if transcript.messages else 0
    line, column = transcript.position(counted) if counted else (1, 1)
    line_start = counted - column + 1
    body_start: int | None
    body_end: int | None
    for message, rule, rank in zip(transcript.messages, projection.rules, projection.ranks()):
        key = (message.role, message.name, message.recipient, message.channel, message.channel_explicit,
               message.content_type, message.constrained, message.intent, message.end, rule.name)
        kind = kinds.get(key)
        if kind is None:
            kind = kinds[key] = len(kinds)
        start, end = message.span
        if start >= counted:
            newlines = count("\n", counted, start)
            if newlines:
                line += newlines
                line_start = rfind("\n", counted, start) + 1
            counted = start
            position = line, start - line_start + 1
        else:
            position = transcript.position(start)
        header = message.header
        if message.body is None and message.source is source and start <= message.body_at \
                and message.body_at + message.body_length <= end:  # left in this row's source by the parser
            body_start = message.body_at
            body_end = body_start + message.body_length
            content = None
        else:
            content = message.content
            body_start = header[1] if header else start
            body_end = body_start + len(content)
            if start <= body_start and body_end <= end and startswith(content, body_start):
                content = None  # a slice of this row's source: read from there
            else:
                body_start = body_end = None
                content = bound(content)
        partner = no_partner
        if pair_of and (number := pair_of[message.index - first_index]):
            pair = pairs[number - 1]
            partner = number + first_pair - 1, pair.reply if pair.call == message.index else pair.call
        if rank is not None:
            rank += first_rank
        yield (id, message.index, rank, message.turn, kind, message.call_id, start, end,
               header[0] if header else None, header[1] if header else None, *position, body_start, body_end,
               content, source[start:end], segments_json(message), *partner,
               agent_json(message, thread_calls, said.get(message.index) if rank is not None else None),
               media_json(message))


def pair_numbers(transcript: Transcript) -> array:
    """Each message's pair (its number from 1 in `transcript.pairs`; 0 for none), by message index counted from
    the first message's: 4 bytes a message, where a dict of the paired messages took 60 MB for 256 MB of Harmony,
    resident while all its rows are stored. Empty when the transcript pairs nothing. A batch of a session (its
    first message's index is not 0) may hold pairs whose call is in an earlier batch: only the reply is here."""
    numbers = array("i")
    if transcript.pairs:
        first = transcript.messages[0].index if transcript.messages else 0
        size = 1 + max(max(message.index for message in transcript.messages),
                       max(max(pair.call, pair.reply) for pair in transcript.pairs)) - first
        numbers.frombytes(bytes(numbers.itemsize * size))
        for number, pair in enumerate(transcript.pairs, start=1):
            if pair.call >= first:
                numbers[pair.call - first] = number
            numbers[pair.reply - first] = number
    return numbers


def unmasked_rows(id: str, masked: Projection, original: Projection, kinds: dict[tuple, int], *,
                  first_rank: int = 0, first_pair: int = 1, said: dict[int, Said] | None = None) -> Iterator[tuple]:
    """The rows of `original` (the parse as written) whose text differs from `masked` (the same parse with its
    secrets masked), numbering their kinds in `kinds` with the masked rows'."""
    masked_source, source = masked.transcript.source, original.transcript.source
    changed = {shown.index for shown, written in zip(masked.transcript.messages, original.transcript.messages)
               if _texts(shown, masked_source) != _texts(written, source)}
    if changed:
        yield from (row for row in message_rows(id, original, kinds, first_rank=first_rank, first_pair=first_pair,
                                                said=said) if row[1] in changed)


def _texts(message: Message, source: str) -> tuple:
    """Everything of a message that a reader sees as text."""
    return (source[message.span[0]:message.span[1]], message.content, message.role, message.name, message.recipient,
            message.channel, message.content_type, message.intent, message.call_id,
            tuple(segment.text for segment in message.segments))


def search_rows(key: int, projection: Projection) -> Iterator[tuple]:
    """The search index's rows of a transcript whose first key is `key`: `(key, shown, hidden, header)` with
    the values SQLite's view `message_search_source` (migration 0007) gives for its stored rows, exactly."""
    for message, rule in zip(projection.transcript.messages, projection.rules):
        # A body left in the source is read as a copy of its own already, which lives only for this row.
        body = message.content if message.body is None else bound(message.body)
        header = " ".join((message.role, message.name or "", message.recipient or "", message.channel,
                           message.content_type or "", message.call_id or ""))
        shown = rule.show_as in SHOWN_IN_FULL
        yield key + message.index, body if shown else None, None if shown else body, header


def bound(text: str) -> str:
    """`text` as handed to the database: a copy when it is not ASCII. Binding a str caches its UTF-8 form inside
    it for as long as it lives (CPython's PyUnicode_AsUTF8AndSize: sqlite3 and psycopg both call it), and a
    message's content lives as long as its parse: 67 MB more at the end of storing 256 MB of Harmony, a fifth of
    whose messages hold a dash or an accent. A copy made for the call takes its cache with it."""
    return text if text.isascii() else "".join(("", text))


def kind_rows(id: str, kinds: dict[tuple, int], rules: Iterable[Rule]) -> Iterator[tuple]:
    """The kinds `message_rows` numbered, in `KIND_COLUMNS` order."""
    by_name = {rule.name: rule for rule in rules}
    for (*fields, name), number in kinds.items():
        rule = by_name[name]
        yield (id, number, *fields, rule.show_as, rule.name, rule.reason)


def agent_json(message: Message, thread_calls: dict[str, Thread], said: Said | None = None) -> str | None:
    """What an agent's log records of a message, and what its screen showed of it (`said`, decided at upload by
    the policy), as the `agent` column keeps it; None when there is nothing (every message of other dialects)."""
    if message.meta is None and message.thread is None and message.parent is None and not message.aside \
            and said is None:
        return None
    data: dict[str, Any] = {}
    if said is not None:
        data["said"] = said.to_json()
    if message.thread is not None:
        data["thread"] = message.thread
        thread = thread_calls.get(message.thread)
        data["thread_call"] = thread.call if thread is not None else None
        if thread is not None and thread.title:
            data["thread_title"] = thread.title
    if message.parent is not None:
        data["parent"] = message.parent
    if message.meta is not None:
        data["meta"] = message.meta.to_json()
    if message.aside:
        data["aside"] = True
    return json.dumps(data, ensure_ascii=False)


def with_said(stored: str | None, said: Said | Restated) -> str | None:
    """A row's `agent` column as stored, its screen's line now `said` (where `agent_json` puts it: first), or the
    line it holds with its sub-agent named again (as stored when it holds none)."""
    data = json.loads(stored) if stored else {}
    if isinstance(said, Restated):
        if not isinstance(data.get("said"), dict):
            return stored
        said = said.of(Said.from_json(data["said"]))
    return json.dumps({"said": said.to_json(), **{key: value for key, value in data.items() if key != "said"}},
                      ensure_ascii=False)


def agent_links(stored: str) -> dict[str, Any]:
    """The `agent` column of a row as stored (its parent and whether it is aside, among the rest)."""
    data = json.loads(stored)
    return data if isinstance(data, dict) else {}


def _agent(stored: str | None) -> dict[str, Any]:
    if stored is None:
        return _NO_AGENT
    data = json.loads(stored)
    if "meta" in data:
        data["meta"] = Meta.from_json(data["meta"])
    if "said" in data:
        data["said"] = Said.from_json(data["said"])
    return data


_NO_AGENT: dict[str, Any] = {}


def media_json(message: Message) -> str | None:
    """A message's image references as the `media` column keeps them; None when it has none (most)."""
    if not message.media:
        return None
    return json.dumps([media.to_json() for media in message.media], ensure_ascii=False)


def _media(stored: str | None) -> tuple[Media, ...]:
    return () if stored is None else tuple(Media.from_json(item) for item in json.loads(stored))


def media_rows(id: str, projection: Projection) -> Iterator[tuple]:
    """Which message holds which image that may be shown (refused ones have no blob), and whether the default
    view shows that message in full: the media route's access check."""
    for message, rule in zip(projection.transcript.messages, projection.rules):
        if message.media:
            visible = rule.show_as in SHOWN_IN_FULL
            yield from ((id, message.index, number, media.sha256, visible)
                        for number, media in enumerate(message.media) if media.refused is None)


def segments_json(message: Message) -> str:
    if not message.segments:  # most messages; json.dumps is a third of the row-building time
        return "[]"
    return json.dumps([segment.to_json() for segment in message.segments], ensure_ascii=False)


def diagnostic_rows(id: str, transcript: Transcript) -> Iterator[tuple]:
    made = _diagnostic_rows(id, transcript)
    relocated = _relocated(transcript)
    return made if relocated is None else map(relocated.diagnostic, made)


def _diagnostic_rows(id: str, transcript: Transcript) -> Iterator[tuple]:
    for seq, diagnostic in enumerate(transcript.diagnostics):
        line, column = transcript.position(diagnostic.span[0])
        yield (id, seq, diagnostic.code, diagnostic.severity, diagnostic.message, diagnostic.span[0],
               diagnostic.span[1], line, column, diagnostic.message_index)


def pair_rows(id: str, transcript: Transcript, first: int = 1) -> Iterator[tuple]:
    for number, pair in enumerate(transcript.pairs, start=first):
        yield (id, number, pair.call, pair.reply, pair.by)


def record_columns() -> list[Column]:
    from viewer.store.schema import transcripts

    return [column for column in transcripts.c if column.name not in ("raw", "masked_raw")]


def record(row: Any) -> Record:
    data = row._asdict()
    deleted_at = data.pop("deleted_at")
    data.pop("sha256")
    data.pop("claimed_at")
    for name in ("created_at", "expires_at"):
        if data[name] is not None and data[name].tzinfo is None:  # SQLite returns naive datetimes
            data[name] = data[name].replace(tzinfo=dt.timezone.utc)
    secret_kinds, personal_kinds = split_kinds(json.loads(data["secret_kinds"] or "{}"))
    return Record(**{**data, "header": json.loads(data["header"] or "{}"), "tools": json.loads(data["tools"] or "{}"),
                     "secret_kinds": secret_kinds, "personal_kinds": personal_kinds, "deleted": deleted_at is not None})


def entry_columns(table: Table | None = None) -> list[Column]:
    """What `entry` reads: a message row with its kind (select them from `table`, messages or
    unmasked_messages, joined to message_kinds), named as `ENTRY_NAMES` names them."""
    from viewer.store.schema import message_kinds, messages

    table = messages if table is None else table
    return [*(column for column in table.c if column.name not in ("transcript_id", "kind")),
            *(column for column in message_kinds.c if column.name not in ("transcript_id", "number"))]


def entry(row: Sequence[Any]) -> Entry:
    """The entry of a row of `entry_columns()`, read by position: a row's attributes by name cost a third of
    reading a big transcript's JSON twin."""
    (index, rank, turn, call_id, span_start, span_end, header_start, header_end, line, column, body_start, body_end,
     content, source, segments, pair, partner, agent, media, role, name, recipient, channel, channel_explicit,
     content_type, constrained, intent, end, show_as, rule, reason) = row
    if content is None:
        content = source[body_start - span_start:body_end - span_start]
    logged = _agent(agent)
    message = Message(index, turn, role, content, span_start, span_end, name, recipient, channel, channel_explicit,
                      content_type, constrained, intent, call_id, end, _segments(segments), header_start, header_end,
                      logged.get("thread"), logged.get("parent"), logged.get("meta"), logged.get("aside", False),
                      _media(media))
    return Entry(message, show_as, rank, rule, reason, pair, partner, line, column, source, logged.get("thread_call"),
                 logged.get("thread_title"), logged.get("said"))


def _segments(stored: str) -> tuple[Segment, ...]:
    if stored == "[]":  # most messages: no JSON to read
        return ()
    return tuple(Segment.of(s["kind"], s["text"], tuple(s["span"])) for s in json.loads(stored))


def located(row: Any) -> Located:
    diagnostic = Diagnostic(code=row.code, severity=row.severity, message=row.message,
                            span=(row.span_start, row.span_end), message_index=row.message_index)
    return Located(diagnostic=diagnostic, line=row.line, column=row.col)


def entries_in_memory(projection: Projection) -> list[Entry]:
    """The entries the store would give back for a projection, built by the same row functions without a
    database: for tests and the fuzz harness, so that they exercise the stored path rather than a copy of it."""
    kinds: dict[tuple, int] = {}
    message_tuples = list(message_rows("", projection, kinds))
    kind_fields = {row[1]: dict(zip(KIND_COLUMNS[2:], row[2:])) for row in kind_rows("", kinds, projection.rules)}
    names = ENTRY_NAMES
    return [entry([{**kind_fields[values[4]], **dict(zip(MESSAGE_COLUMNS, values))}[name] for name in names])
            for values in message_tuples]
