"""An upload answered before its bytes are stored (its link comes back as soon as its body is spooled) keeps its
spool file past its request under a name of its own in the spool folder, `upload-<id>`, until the thread that
processes it has stored the bytes: a server killed meanwhile finds them there when it, or another process of the
same host, takes the upload over. The spool file is anonymous; it gets the name by a link (Linux), so naming it
costs nothing whatever its size. Where that is not possible, `keep` says so and the caller stores the bytes in
the request, as before.
"""
from __future__ import annotations

import os
import tempfile
from typing import BinaryIO

PREFIX = "upload-"


def path_of(folder: str | None, id: str) -> str:
    return os.path.join(folder or tempfile.gettempdir(), f"{PREFIX}{id}")


def keep(spool: BinaryIO, folder: str | None, id: str) -> bool:
    """Give `spool` (an anonymous file, made linkable: viewer/web/spool.py) the name of upload `id` in `folder`;
    False when it cannot be named."""
    try:
        spool.flush()
        descriptors = os.open("/proc/self/fd", os.O_RDONLY)
    except (OSError, AttributeError, ValueError):
        return False
    try:
        # linkat(…, AT_SYMLINK_FOLLOW) on the descriptor's entry: os.link calls it (rather than link(), which does
        # not follow the entry to the file) only when it is given a directory's descriptor.
        os.link(str(spool.fileno()), path_of(folder, id), src_dir_fd=descriptors, follow_symlinks=True)
    except (OSError, ValueError):
        return False
    finally:
        os.close(descriptors)
    return True


def found(folder: str | None, id: str) -> BinaryIO | None:
    """Upload `id`'s kept bytes, at their start; None when there are none (another host's, or stored already)."""
    try:
        return open(path_of(folder, id), "rb")
    except OSError:
        return None


def forget(folder: str | None, id: str) -> None:
    """Drop the name of upload `id`'s kept bytes (stored now): the file goes once no handle holds it."""
    try:
        os.unlink(path_of(folder, id))
    except FileNotFoundError:
        pass


__all__ = ["forget", "found", "keep", "path_of"]
