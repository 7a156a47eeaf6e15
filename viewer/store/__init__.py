"""Storage: a repository of transcripts and their parse rows (`Store`), the read types it gives back (`types`),
the tables (`schema`), model ↔ row conversions (`rows`) and schema migrations (`migrate`, with Alembic). It never parses: it keeps what
`viewer.ingest` hands it."""
from viewer.store.repository import Store, hash_key
from viewer.store.types import Entry, Located, Record

__all__ = ["Entry", "Located", "Record", "Store", "hash_key"]
