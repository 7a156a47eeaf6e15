"""Uploaded bytes to what the store keeps, and stored transcripts parsed again: the pipeline's conductor.

Parsing happens here and only here for the web app: at upload (`uploads`; live ones in `appending`, big
datasets a piece at a time in `streaming`, big uploads after their answer in `deferred`, run by the serving
processes' `processor`), for the samples (`samples`), and when a transcript stored by another `STORED_VERSION`
is parsed again (`reparsing`). What they share, an upload examined and stored, is `core`; what an upload's bytes
must be to be parsed at all is `binary`'s to say.

The names below are imported when first read (`__getattr__`), each from its own module: most of them store, and
the command line's `render` masks a parse (`masking`) without the database, its library or its migrations.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from viewer.model import faces

if TYPE_CHECKING:
    from viewer.ingest.appending import CannotBeLive, NotLive, append, store_live_upload
    from viewer.ingest.core import DIALECT_CHOICES, STORED_VERSION, contents, examine, project
    from viewer.ingest.deferred import Upload, accept, process
    from viewer.ingest.masking import Examined, mask_secrets
    from viewer.ingest.reparsing import reparse, reparse_stale, up_to_date
    from viewer.ingest.samples import store_sample
    from viewer.ingest.streaming import store_streamed, streams
    from viewer.ingest.uploads import store_spooled, store_upload

_MODULES = {
    "appending": ("CannotBeLive", "NotLive", "append", "store_live_upload"),
    "core": ("DIALECT_CHOICES", "STORED_VERSION", "contents", "examine", "project"),
    "deferred": ("Upload", "accept", "process"),
    "masking": ("Examined", "mask_secrets"),
    "reparsing": ("reparse", "reparse_stale", "up_to_date"),
    "samples": ("store_sample",),
    "streaming": ("store_streamed", "streams"),
    "uploads": ("store_spooled", "store_upload"),
}
_MODULE_OF = {name: module for module, names in _MODULES.items() for name in names}

__all__ = sorted(_MODULE_OF)


def __getattr__(name: str) -> object:
    """One of `__all__`, from its module, kept here once read; or one of the package's modules, as an attribute
    of the package once imported (`ingest.core`, as when this face imported every module)."""
    return faces.attribute(globals(), _MODULE_OF, name)
