"""A zip archive as a bundle text (text.py): every member in path order, read with the standard library's
zipfile from the upload's bytes, never written to disk.

Bounded before anything is unpacked: the member count and the sizes the central directory declares (a zip bomb
declares what it would unpack to, and zipfile never inflates a member past its declared size, checking its CRC
at the end). A name is a path inside the bundle only: backslashes read as slashes, a leading slash or drive
dropped; a member whose path climbs out (`..`), a link, an encrypted member, a member compressed in a way
zipfile cannot read, an archive inside the archive and a binary file are named in the bundle with the reason,
not shown. A SQLite database inside becomes its tables (database.py). Nothing is ever executed.
"""
from __future__ import annotations

import io
import stat
import zipfile
import zlib

from viewer.bundles import database
from viewer.bundles.text import Entry, write_bundle
from viewer.model import Diagnostic, make_diagnostic

ZIP_MAGIC = b"PK\x03\x04"
EMPTY_ZIP = b"PK\x05\x06"
MAX_MEMBERS = 100_000
MAX_UNPACKED = 512 * 1024 * 1024
"""Bytes the members may unpack to, together: half the largest upload, eight times a typical one."""
BINARY_SHARE = 0.10
"""A member whose first 8 KiB hold a NUL byte, or more than this share of bytes that are not UTF-8, is binary."""
_SNIFF = 8192


def is_archive(data: bytes) -> bool:
    return data.startswith(ZIP_MAGIC) or data.startswith(EMPTY_ZIP)


def unpack(data: bytes, *, max_unpacked: int = MAX_UNPACKED) -> tuple[str, list[Diagnostic]]:
    """The archive as a bundle text, and what went wrong; never raises. An archive that cannot be opened, or
    that is over a bound, is one W-ARCHIVE error and no text."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            infos = archive.infolist()
            refusal = _over_bounds(infos, max_unpacked)
            if refusal is not None:
                return "", [_refused(refusal)]
            return write_bundle("zip", _entries(archive, infos, max_unpacked))
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, RuntimeError, NotImplementedError, ValueError) as error:
        return "", [_refused(f"The zip archive cannot be read ({error}); nothing of it was shown.")]


def _over_bounds(infos: list[zipfile.ZipInfo], max_unpacked: int) -> str | None:
    if len(infos) > MAX_MEMBERS:
        return f"The archive holds {len(infos):,} members, more than the {MAX_MEMBERS:,} allowed; it was not unpacked."
    unpacked = sum(info.file_size for info in infos)
    if unpacked > max_unpacked:
        return (f"The archive would unpack to {unpacked:,} bytes, more than the {max_unpacked:,} allowed; it was "
                "not unpacked.")
    return None


def _entries(archive: zipfile.ZipFile, infos: list[zipfile.ZipInfo], max_unpacked: int) -> list[Entry]:
    """Every member but folders, in path order; a path met twice is read once."""
    named: dict[str, zipfile.ZipInfo | str] = {}
    for info in infos:
        if info.is_dir():
            continue
        path = bundle_path(info.filename)
        if path is None:
            named.setdefault(f"(outside)/{info.filename}", "its path climbs out of the archive (`..`)")
        elif path in named:
            named[f"{path} (again)"] = "the archive holds a second member of this path"
        else:
            named[path] = info
    entries: list[Entry] = []
    for path in sorted(named):
        found = named[path]
        entries.extend([Entry(path, None, {"refused": found})] if isinstance(found, str)
                       else _member(archive, found, path, max_unpacked))
    return entries


def bundle_path(name: str) -> str | None:
    """A member's name as a path inside the bundle: `/`-separated, relative, without `.` parts; None when it
    climbs out (`..`)."""
    parts = [part for part in name.replace("\\", "/").split("/") if part not in ("", ".")]
    if parts and len(parts[0]) == 2 and parts[0][1] == ":":  # a Windows drive
        parts = parts[1:]
    if ".." in parts or not parts:
        return None
    return "/".join(parts)


def _member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, path: str, max_unpacked: int) -> list[Entry]:
    reason = _not_read(info)
    if reason is not None:
        return [Entry(path, None, {"bytes": info.file_size, "refused": reason})]
    try:
        with archive.open(info) as member:
            data = member.read(info.file_size + 1)  # zipfile stops at the declared size; a longer one is a lie
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, RuntimeError, NotImplementedError, ValueError) as error:
        return [Entry(path, None, {"bytes": info.file_size, "refused": f"it cannot be unpacked ({error})"})]
    if len(data) != info.file_size:
        return [Entry(path, None, {"bytes": info.file_size, "refused": "it does not unpack to its declared size"})]
    return member_entries(path, data, max_unpacked)


def member_entries(path: str, data: bytes, max_chars: int = MAX_UNPACKED) -> list[Entry]:
    """One file's members: its text, the tables of a database, or a note that it is binary or an archive."""
    if database.is_database(data):
        return database.entries(data, path, max_chars=max_chars)
    if is_archive(data):
        return [Entry(path, None, {"bytes": len(data), "refused": "an archive inside the archive is not unpacked"})]
    return [text_entry(path, data)]


def text_entry(path: str, data: bytes) -> Entry:
    """A file's text (a BOM left out), invalid bytes replaced and reported; or a note that it is binary."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        head = data[:_SNIFF]
        if b"\x00" in head or _invalid_share(head) > BINARY_SHARE:
            return Entry(path, None, {"bytes": len(data), "binary": True})
        text = data.decode("utf-8", errors="replace")
        first = len(data[:error.start].decode("utf-8", errors="replace"))
        entry = Entry(path, text.removeprefix("\ufeff"))
        at = max(first - (len(text) - len(entry.content or "")), 0)
        entry.note("W-DECODE-UTF8", f"The file {path} is not valid UTF-8; invalid bytes were replaced with U+FFFD "
                                    "(first one here).", (at, at + 1))
        return entry
    if "\x00" in text[:_SNIFF]:
        return Entry(path, None, {"bytes": len(data), "binary": True})
    return Entry(path, text.removeprefix("\ufeff"))


def _invalid_share(head: bytes) -> float:
    replaced = head.decode("utf-8", errors="replace").count("\ufffd")
    return replaced / max(len(head), 1)


def _not_read(info: zipfile.ZipInfo) -> str | None:
    if info.flag_bits & 0x1:
        return "it is encrypted"
    if stat.S_ISLNK(info.external_attr >> 16):
        return "it is a symbolic link"
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA):
        return f"it is compressed in a way that cannot be read here (method {info.compress_type})"
    return None


def _refused(message: str) -> Diagnostic:
    return make_diagnostic("W-ARCHIVE", (0, 0), message)
