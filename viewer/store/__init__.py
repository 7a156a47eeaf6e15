"""Storage: a repository of transcripts and their parse rows (`Store`), the read types it gives back (`types`),
the tables (`schema`), model ↔ row conversions (`rows`) and schema migrations (`migrate`, with Alembic). It never parses: it keeps what
`viewer.ingest` hands it.

The names below are imported when first read (`__getattr__`), each from its own module: the repository brings
SQLAlchemy and Alembic, which the command line's `render` (a fresh parse's rows, `rows.entries_in_memory`) and
the read types need not.
"""
from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from viewer.store.repository import Store, hash_key
    from viewer.store.types import Entry, Located, Record

_MODULE_OF = {"Store": "repository", "hash_key": "repository", "Entry": "types", "Located": "types",
              "Record": "types"}

__all__ = ["Entry", "Located", "Record", "Store", "hash_key"]


def __getattr__(name: str) -> object:
    """One of `__all__`, from its module, kept here once read; or one of the package's modules, as an attribute
    of the package once imported (`store.raw`)."""
    if name in _MODULE_OF:
        value = getattr(import_module(f"{__name__}.{_MODULE_OF[name]}"), name)
    elif not name.startswith("__") and name.isidentifier():
        try:
            value = import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value
