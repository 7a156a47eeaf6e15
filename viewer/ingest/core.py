"""What every way into the store shares: the versions a stored parse is made by, an upload examined (parsed,
projected through the policy, scanned for secrets and masked for link holders), what is parsed of a spooled
upload, and an examined upload stored with its images.

Parsing happens in `viewer.ingest` and only there for the web app: at upload, for the samples, and when a
transcript stored by another `STORED_VERSION` is parsed again.
"""
from __future__ import annotations

import logging
import tempfile
from contextlib import contextmanager
from typing import BinaryIO, Iterator

from viewer.ingest.images import PayloadBytes, drop_unheld, store_examined_images
from viewer import bundles
from viewer.ingest.masking import Examined, mask_secrets
from viewer.model import Transcript
from viewer.model.diagnostics import make_diagnostic
from viewer.formats import NAMES as DIALECTS
from viewer.parse import PARSER_VERSION, parse
from viewer.model.collector import collector_paused
from viewer.parse.decode import decode, decode_file
from viewer.parse.thinning import Thinned, thin
from viewer.policy import POLICY_VERSION, Projection
from viewer.store import Record, Store
from viewer.policy.personal import Choices

DIALECT_CHOICES = ("auto", *DIALECTS)
SECRETS_VERSION = "4"
"""Raised when the scanner or the masking changes what link holders read (3: personal data, redactions, and a
bundle's text for its bytes; 4: what a log recorded beside a message's text, masked too)."""
STORED_VERSION = f"{PARSER_VERSION}+policy-{POLICY_VERSION}+secrets-{SECRETS_VERSION}"
"""What a stored parse was made by: the parser's version, the policy's and the masking's, since rows keep the
parse, each message's default-view decision and the secrets masked. A transcript stored by another is parsed
again."""

log = logging.getLogger(__name__)


def project(raw: str | bytes | Thinned, dialect: str = "auto") -> Projection:
    """Parse and apply the policy. Never raises on user input: a parser bug becomes a diagnostic. A thinned
    session (its image payloads cut out) is read as it was thinned."""
    try:
        with collector_paused:  # the policy's decisions too: see viewer/model/collector.py
            return Projection.of(raw.parse() if isinstance(raw, Thinned) else parse(raw, dialect))
    except Exception as error:  # noqa: BLE001 - an upload must not fail because the parser has a bug
        log.exception("parser failed on an upload")
        return Projection(_unparsed(raw, dialect, error), ())


def examine(raw: str | bytes | Thinned, dialect: str = "auto", choices: Choices = Choices()) -> Examined:
    """Parse, apply the policy, scan for secrets and personal data and mask them, with the uploader's redactions,
    for link holders (as the upload's `choices` say). An archive or a database is downloaded by link holders as
    its text, masked, never as its bytes: a database's free pages may hold deleted rows, and an archive's
    compressed members cannot be masked."""
    return mask_secrets(project(raw, dialect), choices, as_text=is_bundle(raw))


def is_bundle(raw: str | bytes | Thinned) -> bool:
    """Whether an upload is read as the text of what it holds: a zip archive (a bundle of files, an Inspect AI
    log) or a SQLite database."""
    return isinstance(raw, bytes) and (bundles.is_archive(raw) or bundles.is_database(raw))


def keep_findings(store: Store, id: str, examined: Examined) -> None:
    """Keep the personal data an upload's parse found, for its uploader's manage page."""
    store.personal.keep_findings(id, examined.personal)


def _unparsed(raw: str | bytes | Thinned, dialect: str, error: Exception) -> Transcript:
    text, _ = decode(raw.text if isinstance(raw, Thinned) else raw)
    failure = make_diagnostic("W-PARSER-FAILED", (0, len(text)),
                              f"The parser failed on this input ({type(error).__name__}); "
                              "the raw text is kept and nothing is shown.")
    return Transcript(dialect=dialect if dialect in DIALECTS else "unknown", source=text, diagnostics=(failure,),
                      cuts=raw.cuts if isinstance(raw, Thinned) else None)


def contents(spool: BinaryIO, dialect: str = "auto") -> str | bytes | Thinned:
    """What is parsed of a spooled upload: a big agent session thinned (its image payloads cut out, read a line
    at a time); else its text when it decodes cleanly (the bytes are not held meanwhile), else its bytes, whose
    defects the parse reports."""
    thinned = thin(spool, dialect)
    if thinned is not None:
        return thinned
    text = decode_file(spool)
    if text is not None:
        return text
    spool.seek(0)
    return spool.read()


@contextmanager
def raw_spool(store: Store, id: str, folder: str | None = None) -> Iterator[BinaryIO]:
    """A stored upload's raw bytes copied to a temporary file (in `folder`, else the system's temporary folder)
    a chunk at a time (never joined in memory), at its start."""
    with tempfile.TemporaryFile(dir=folder) as spool:
        for chunk in store.raw_stream(id) or ():
            spool.write(chunk)
        spool.seek(0)
        yield spool


def store_examined(store: Store, raw: bytes | BinaryIO, examined: Examined, *, id: str, requested_dialect: str,
            payloads: PayloadBytes | None = None, **fields) -> Record:
    """Store an examined upload (its images first, then its rows) in one transaction. If the rows cannot be stored
    (a full disk), the images stored for them that nothing else holds are deleted: nothing is left half-stored."""
    images = store_examined_images(store, examined, payloads)
    try:
        with collector_paused:  # the rows are made from objects that all live on; see viewer/model/collector.py
            record = store.add(raw, examined.shared, STORED_VERSION, id=id, requested_dialect=requested_dialect,
                               original=examined.original, secret_kinds=examined.secret_kinds, **fields)
    except BaseException:
        drop_unheld(store, images)
        raise
    keep_findings(store, id, examined)
    return record
