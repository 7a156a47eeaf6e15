"""Request bodies to spool files: an upload is written to a temporary file in `SPOOL_DIR` as it arrives, a block
at a time, never whole into memory, and the size limit is enforced while it streams (413). The upload form's file
goes to the same folder: `SpoolingRequest` hands Werkzeug's form parser a spool file for every file part.

A spool file is anonymous: the operating system removes it when it is closed, or when the process dies, so a
crash leaves nothing behind. On Linux it is made so that it can still be given a name (`O_TMPFILE` without
`O_EXCL`): an upload answered before its bytes are stored keeps its spool under its own name until they are
(viewer/ingest/kept.py).
"""
from __future__ import annotations

import errno
import os
import tempfile
from functools import cached_property
from typing import BinaryIO, cast

from flask import Request, abort, current_app, request
from werkzeug.exceptions import HTTPException

from viewer.bundles import pack

BLOCK = 1 << 20
"""Bytes read from the request and written to the spool at a time."""
PASTE_LIMIT = 64 << 20
"""The most pasted text the form takes: a form field is held in memory (a bigger text is chosen as a file)."""


class NoRoom(HTTPException):
    """The disk under the spool folder is full (Werkzeug names no error for 507)."""

    code = 507
    description = ("The server's disk is full: nothing of this upload was stored. What is stored can still be read; "
                   "try again later, or send a smaller upload.")


def spool_folder() -> str | None:
    """Where spool files go: the `SPOOL_DIR` setting, or the system's temporary folder when it is empty."""
    return str(current_app.config["SPOOL_DIR"]) or None


def new_spool() -> BinaryIO:
    """A new spool file, closed (and so removed) with the request at the latest."""
    spool = _anonymous(spool_folder())
    if isinstance(request, SpoolingRequest):
        request.spools.append(spool)
    return spool


def _anonymous(folder: str | None) -> BinaryIO:
    """An anonymous file in `folder` (the system's temporary folder when None) that a link can name later;
    `tempfile.TemporaryFile` (which cannot be named) where the system makes no such file."""
    if hasattr(os, "O_TMPFILE"):
        try:
            return open(os.open(folder or tempfile.gettempdir(), os.O_TMPFILE | os.O_RDWR, 0o600), "w+b")
        except OSError:
            pass
    return cast(BinaryIO, tempfile.TemporaryFile(dir=folder))


def spooled_body() -> BinaryIO:
    """The request's body in a spool file, positioned at its start (413 as soon as it passes the limit)."""
    limit = int(current_app.config["MAX_UPLOAD_BYTES"])
    spool = new_spool()
    size = 0
    # `request.stream` refuses a declared Content-Length over the limit before anything is read, and stops a
    # chunked body at it; the count here says the same for any server that hands the body over unchecked.
    while block := request.stream.read(BLOCK):
        size += len(block)
        if size > limit:
            abort(413)
        _write(spool, block)
    spool.seek(0)
    return spool


def _write(spool: BinaryIO, block: bytes) -> None:
    try:
        spool.write(block)
    except OSError as error:
        if error.errno not in (errno.ENOSPC, errno.EDQUOT):
            raise
        raise NoRoom() from error


def spooled_files(files: list[tuple[str, BinaryIO]]) -> tuple[BinaryIO, str]:
    """Several uploaded files (each a spool file, named by the path the browser gave) as one zip archive in a new
    spool file (viewer/bundles/pack.py), and its name; 400 for names that are no path inside a folder."""
    target = new_spool()
    try:
        pack.pack_into(cast(BinaryIO, _FormSpool(target)), files)  # it writes, as the zip file asks
    except ValueError as error:
        abort(400, f"These files cannot be uploaded together: {error}.")
    if target.tell() > int(current_app.config["MAX_UPLOAD_BYTES"]):
        abort(413)
    target.seek(0)
    return target, pack.bundle_name([name for name, _ in files])


def spooled_text(text: str) -> BinaryIO:
    """Pasted text (a form field, bounded by MAX_FORM_MEMORY_SIZE) as a spool file, so that every upload is one."""
    spool = new_spool()
    _write(spool, text.encode("utf-8"))
    spool.seek(0)
    return spool


class SpoolingRequest(Request):
    """Flask's request, with every uploaded file of a form written to a spool file (Werkzeug keeps files under
    500 KB in memory and puts larger ones in the system's temporary folder), and every spool file of the request
    closed with it, whatever answer it got."""

    @cached_property
    def spools(self) -> list[BinaryIO]:
        return []

    def close(self) -> None:
        super().close()
        for spool in self.spools:
            spool.close()

    def _get_file_stream(self, total_content_length: int | None, content_type: str | None,
                         filename: str | None = None, content_length: int | None = None) -> BinaryIO:
        return cast(BinaryIO, _FormSpool(new_spool()))  # a file in all but `write`


class _FormSpool:
    """A spool file as Werkzeug's form parser writes it: a full disk is `NoRoom`, as for a request body."""

    def __init__(self, file: BinaryIO) -> None:
        self._file = file

    def write(self, data: bytes) -> int:
        _write(self._file, data)
        return len(data)

    def __getattr__(self, name: str):
        return getattr(self._file, name)


def size_of(spool: BinaryIO) -> int:
    """The spool's size in bytes; the file stays where it was."""
    here = spool.tell()
    size = spool.seek(0, 2)
    spool.seek(here)
    return size


def head(spool: BinaryIO, size: int) -> bytes:
    """The spool's first `size` bytes; the file is left at its start."""
    spool.seek(0)
    data = spool.read(size)
    spool.seek(0)
    return data


def is_blank(spool: BinaryIO, *, whitespace_counts: bool) -> bool:
    """Whether the spool is empty (or, with `whitespace_counts`, white space alone), read a block at a time until
    a byte says otherwise; the file is left at its start."""
    spool.seek(0)
    try:
        while block := spool.read(BLOCK):
            if not whitespace_counts or block.strip():
                return False
        return True
    finally:
        spool.seek(0)


__all__ = ["PASTE_LIMIT", "NoRoom", "SpoolingRequest", "head", "is_blank", "new_spool", "size_of", "spooled_body",
           "spooled_files", "spooled_text"]
