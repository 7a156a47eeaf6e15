"""What an upload that is an archive or a database must be to be taken in, read from its file before anything is
stored: a zip archive whose central directory opens and whose members are within the bounds (archive.py), a
database whose header SQLite could have written (database.py). Anything deeper (a member that does not unpack, a
page that is corrupt) is found when it is parsed, and said there in a diagnostic."""
from __future__ import annotations

import zipfile
from dataclasses import dataclass
from typing import BinaryIO

from viewer.bundles import archive, database


@dataclass(frozen=True, slots=True)
class Refusal:
    message: str
    too_big: bool = False
    """Refused for its size (the web app answers 413) rather than its form (400)."""


def refusal(file: BinaryIO) -> Refusal | None:
    """Why the upload in `file` (an archive or a database; anything else passes) is refused, or None; the file is
    left at its start."""
    file.seek(0)
    head = file.read(100)
    file.seek(0)
    try:
        if database.is_database(head):
            problem = database.header_problem(head)
            return None if problem is None else Refusal(f"This SQLite database cannot be read: {problem}.")
        if archive.is_archive(head):
            return _archive_refusal(file)
        return None
    finally:
        file.seek(0)


def _archive_refusal(file: BinaryIO) -> Refusal | None:
    try:
        with zipfile.ZipFile(file) as opened:  # reads the central directory only
            infos = opened.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError) as error:
        return Refusal(f"This zip archive cannot be read ({error}): send a whole archive.")
    if len(infos) > archive.MAX_MEMBERS:
        return Refusal(f"This zip archive holds {len(infos):,} files, more than the {archive.MAX_MEMBERS:,} taken.",
                       too_big=True)
    unpacked = sum(info.file_size for info in infos)
    if unpacked > archive.MAX_UNPACKED:
        return Refusal(f"This zip archive would unpack to {unpacked:,} bytes, more than the "
                       f"{archive.MAX_UNPACKED:,} taken.", too_big=True)
    return None
