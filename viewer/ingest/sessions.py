"""Big line-oriented uploads (agents' sessions) read and stored a piece at a time, so that memory follows the
piece, not the file: each batch of messages the parser finishes (viewer/parse/streamed.py) has its policy
applied, is scanned for secrets and masked with every secret found so far, has its images stored, and goes to the
store (viewer/store/sessions.py), whose first two windows are readable once stored.

Masking is the one thing a later piece can change in an earlier one: a secret found late may be written, unfound,
in a piece stored before. At the end each piece stored before a secret was found is searched for its spellings;
if one is there, the session is stored again from its start, every piece masked with all the secrets from the
first (`Restart`). A session this path cannot read as the whole parse does (not clean UTF-8, a sub-agent's log
turning out otherwise, a scan that failed) raises `Unstreamable`: the caller parses it whole.
"""
from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO, TypeVar

from viewer.ingest.core import STORED_VERSION
from viewer.ingest.images import drop_unheld, file_payloads, source_reader, store_images
from viewer.ingest.masking import Gathered, mask_secrets
from viewer.model.collector import collector_paused
from viewer.model.cuts import STANDIN
from viewer.parse.pieces import Piece, Unstreamable
from viewer.parse.streamed import SessionBatch, SessionEnd, read_session, streamed_dialect
from viewer.policy import Projection
from viewer.policy.onscreen import OnlineLines
from viewer.secrets.masking import Masker
from viewer.store import Store
from viewer.store.faults import storage_fault
from viewer.policy.personal import Choices
from viewer.store.sessions import Lines, SessionClose, SessionPart

log = logging.getLogger(__name__)
T = TypeVar("T")


class Restart(Exception):
    """A secret found late is written in a piece stored before it was: store the session again, masking every
    piece with `masker` from the start."""

    def __init__(self, masker: Masker) -> None:
        super().__init__("a secret found late is written in an earlier piece")
        self.masker = masker


def streams(spool: BinaryIO, requested_dialect: str = "auto") -> str | None:
    """The dialect a spooled upload is stored a piece at a time as, or None (read whole); the spool is left at its
    start."""
    return streamed_dialect(spool, requested_dialect)


def store_session(store: Store, id: str, spool: BinaryIO, dialect: str, *, window: int = 100,
                  worker: str | None = None) -> bool:
    """Store upload `id` (its record accepted, processing) from its spool, a batch at a time, with the personal
    data found in it for its uploader (as the uploader's choices say: viewer/ingest/masking.py): True when
    stored, False when it is no longer being processed (with `worker`, by that worker). `Unstreamable` when it
    must be parsed whole (what was stored is dropped by whatever stores it then). The images stored for it that
    nothing holds are deleted when it could not be stored."""
    known: Masker | None = None
    choices = store.personal.choices(id)
    while True:
        gathered, images = Gathered(), set[str]()
        try:
            stored = store.processing.store_session(
                id, ahead(_parts(store, spool, dialect, known, choices, gathered, images)), STORED_VERSION,
                window=window, worker=worker)
        except Restart as again:
            log.info("upload %s stored again: a secret found late is written earlier", id)
            known = again.masker
            continue
        except Unstreamable:
            raise  # parsed whole next, which stores the images again or finds them stored
        except Exception as error:
            if storage_fault(error) is None:
                drop_unheld(store, images)
            raise
        if stored:
            store.personal.keep_findings(id, gathered.findings())
        return stored


def ahead(parts: Iterator[T], depth: int = 1) -> Iterator[T]:
    """`parts`, each made by a thread of its own while the one before is used: the next batch is parsed while the
    database stores this one (SQLite and psycopg let go of the interpreter while they work, so the two overlap).
    At most `depth` parts wait; what the thread raises is raised here; stopping early stops the thread."""
    waiting: queue.Queue = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def put(item: tuple) -> bool:
        """Hand `item` over once there is room; False when the parts stopped being used meanwhile."""
        while not stop.is_set():
            try:
                waiting.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def make() -> None:
        try:
            for part in parts:
                if not put((part, None)):
                    return
            put((_DONE, None))
        except BaseException as error:  # noqa: BLE001 - handed over, raised where the parts are used
            put((_DONE, error))

    worker = threading.Thread(target=make, name="session-parts", daemon=True)
    worker.start()
    try:
        while True:
            part, error = waiting.get()
            if error is not None:
                raise error
            if part is _DONE:
                return
            yield part
    finally:
        stop.set()
        worker.join()


_DONE = object()


@dataclass(slots=True)
class _Masking:
    """The secrets found so far, and where the text link holders download stands."""

    masker: Masker | None
    chars: int = 0
    """Characters of the masked text so far."""
    started: bool = False
    """Whether the masked text is being written (from the first piece that masked anything)."""
    kinds: dict[str, int] | None = None
    checked: list[tuple[int, int, int]] | None = None
    """Each piece stored: its bytes in the file and how many spellings were known when it was masked."""
    choices: Choices = Choices()
    """The uploader's choices of personal data and redactions."""
    shared_lines: OnlineLines | None = None
    """The screen's lines as link holders read them, made a batch at a time."""
    original_lines: OnlineLines | None = None
    """… and as written, apart from the first batch that masked anything (None before: the same lines)."""


def _parts(store: Store, spool: BinaryIO, dialect: str, known: Masker | None, choices: Choices, gathered: Gathered,
           images: set[str]) -> Iterator[SessionPart | SessionClose]:
    masking = _Masking(known, started=known is not None, kinds={}, checked=[], choices=choices,
                       shared_lines=OnlineLines(dialect))
    payloads = file_payloads(spool)
    for item in read_session(spool, dialect):
        if isinstance(item, SessionEnd):
            _check_late_secrets(spool, masking)
            assert masking.shared_lines is not None
            shared = masking.shared_lines.end(item.threads, item.aside)
            parted = masking.original_lines
            original = shared if parted is None else parted.end(item.threads, item.aside)
            changed: Lines = {"shared": shared, "original": original}
            yield SessionClose(dialect, item.header, item.threads, item.notes, item.amendments,
                               masking.kinds or None, changed)
            return
        yield _part(store, item, masking, spool, payloads, gathered, images)


def _part(store: Store, batch: SessionBatch, masking: _Masking, spool: BinaryIO, payloads, gathered: Gathered,
          images: set[str]) -> SessionPart:
    piece = batch.piece
    with collector_paused:
        projection = Projection.of(batch.transcript)
        examined = mask_secrets(projection, masking.choices, known=masking.masker)
    if examined.withheld:
        raise Unstreamable("the scan for secrets failed")
    gathered.add(examined.places, piece.lines)
    written = examined.original or examined.shared
    assert masking.shared_lines is not None
    if examined.original is not None and masking.original_lines is None:
        masking.original_lines = masking.shared_lines.copy()
    with collector_paused:
        said, shared_changed = masking.shared_lines.batch(examined.shared.transcript)
        if masking.original_lines is None:  # nothing masked so far: the lines as written are these
            original_said, original_changed = said, shared_changed
        else:
            original_said, original_changed = masking.original_lines.batch(written.transcript)
    images |= store_images(store, written.transcript, source_reader(written.transcript, payloads))
    assert masking.kinds is not None and masking.checked is not None
    for kind, count in examined.secret_kinds.items():
        masking.kinds[kind] = masking.kinds.get(kind, 0) + count
    if examined.masker is not None:
        masking.masker = examined.masker
    masking.checked.append((piece.at_byte, piece.end_byte,
                            len(masking.masker.placeholders) if masking.masker else 0))
    masked_text = None
    start = masking.chars
    shared_source = examined.shared.transcript.source
    masking.chars += piece.size + len(shared_source) - len(piece.text)
    if examined.original is not None or masking.started:
        before = () if masking.started else _raw_bytes(spool, 0, piece.at_byte)
        masking.started = True
        masked_text = (*before, *_masked_bytes(shared_source, piece, payloads))
    return SessionPart(examined.shared, examined.original, piece.chars, piece.lines, start, batch.first_pair,
                       batch.late_pairs, masked_text, said, original_said,
                       {"shared": shared_changed, "original": original_changed})


def _masked_bytes(text: str, piece: Piece, payloads) -> Iterator[bytes]:
    """A piece's masked text, UTF-8, each stand-in its payload again (images hold no secret)."""
    done = 0
    if piece.cuts is not None:
        for match in STANDIN.finditer(text):
            yield text[done:match.start()].encode("utf-8")
            cut = piece.cuts.of(match)
            yield payloads(cut.at_byte, cut.at_byte + cut.chars)
            done = match.end()
    yield text[done:].encode("utf-8")


def _raw_bytes(spool: BinaryIO, start: int, end: int, step: int = 4 << 20) -> list[bytes]:
    """Bytes `[start, end)` of the spool in chunks of `step` (the file is left where it stood)."""
    at = spool.tell()
    try:
        found = []
        spool.seek(start)
        while start < end:
            found.append(spool.read(min(step, end - start)))
            start += len(found[-1])
            if not found[-1]:
                break
        return found
    finally:
        spool.seek(at)


def _check_late_secrets(spool: BinaryIO, masking: _Masking) -> None:
    """`Restart` when a spelling of a secret found after a piece was stored is written in that piece."""
    masker = masking.masker
    if masker is None or masking.checked is None:
        return
    forms = list(masker.placeholders)
    for start, end, known in masking.checked:
        fresh = forms[known:]
        if not fresh:
            continue
        text = b"".join(_raw_bytes(spool, start, end)).decode("utf-8", errors="replace")
        if any(form in text for form in fresh):
            raise Restart(masker)


__all__ = ["Restart", "store_session", "streams"]
