"""Storage: a repository of transcripts and their parse rows (`Store`), the read types it gives back (`types`),
the tables (`schema`), model ↔ row conversions (`rows`) and schema migrations (`migrate`, with Alembic). It never parses: it keeps what
`viewer.ingest` hands it.

The names below are imported when first read (`__getattr__`), each from its own module: the repository brings
SQLAlchemy and Alembic, which the command line's `render` (a fresh parse's rows, `rows.entries_in_memory`) and
the read types need not.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from viewer.model import faces

if TYPE_CHECKING:
    from viewer.store.repository import Store, hash_key
    from viewer.store.types import Entry, Located, Record

_MODULE_OF = {"Store": "repository", "hash_key": "repository", "Entry": "types", "Located": "types",
              "Record": "types"}

__all__ = ["Entry", "Located", "Record", "Store", "hash_key"]


def __getattr__(name: str) -> object:
    """One of `__all__`, from its module, kept here once read; or one of the package's modules, as an attribute
    of the package once imported (`store.raw`)."""
    return faces.attribute(globals(), _MODULE_OF, name)
