"""Several files as one zip archive: what the upload form does with several files chosen at once, and `viewer
open` with a session's files. The archive is the upload as stored (its raw bytes, downloadable), and is read back
as any other zip (archive.py).

The same files always make the same bytes (deflated, in path order, with one fixed date), so that uploading a
folder twice stores the same bytes.
"""
from __future__ import annotations

import io
import shutil
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

from viewer.bundles.archive import bundle_path

FIXED_TIME = (1980, 1, 1, 0, 0, 0)


def packed(files: Iterable[tuple[str, bytes]]) -> bytes:
    """A zip archive of `(path, bytes)` pairs, each path made a relative `/`-separated one (archive.bundle_path);
    a path that climbs out, or one met again, raises ValueError."""
    buffer = io.BytesIO()
    pack_into(buffer, ((name, io.BytesIO(data)) for name, data in files))
    return buffer.getvalue()


def pack_into(target: BinaryIO, files: Iterable[tuple[str, BinaryIO]]) -> None:
    """`packed`, of files read a block at a time, written to `target` (an upload's spool file)."""
    chosen: dict[str, BinaryIO] = {}
    for name, file in files:
        path = bundle_path(name)
        if path is None:
            raise ValueError(f"the file name {name!r} is not a path inside a folder")
        if path in chosen:
            raise ValueError(f"two files are named {path!r}")
        chosen[path] = file
    with zipfile.ZipFile(target, "w") as archive:
        for path in sorted(chosen):
            info = zipfile.ZipInfo(path, FIXED_TIME)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            with archive.open(info, "w") as member:
                shutil.copyfileobj(chosen[path], member, 1 << 20)


def bundle_name(paths: list[str]) -> str:
    """What an upload of several files is called: the folder they all lie in, else how many they are."""
    tops = {path.replace("\\", "/").strip("/").split("/", 1)[0] for path in paths}
    return f"{tops.pop()}.zip" if len(tops) == 1 and all("/" in p.strip("/") for p in paths) else f"{len(paths)} files.zip"


def folder_files(folder: Path, paths: Iterable[Path]) -> list[tuple[str, bytes]]:
    """Files under `folder` as `(path relative to it, bytes)` pairs."""
    return [(path.relative_to(folder).as_posix(), path.read_bytes()) for path in paths]
