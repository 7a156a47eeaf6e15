"""Sample transcripts stored under their stable ids."""
from __future__ import annotations

from viewer.ingest.core import STORED_VERSION, examine
from viewer.ingest.images import store_analysis_images
from viewer.model.collector import collector_paused
from viewer.store import Store


def store_sample(store: Store, raw: bytes, *, id: str, name: str) -> bool:
    """Store a sample under its stable id unless the same bytes are already there. True if stored."""
    if store.has_same_bytes(id, raw):
        return False
    analysis = examine(raw)
    store_analysis_images(store, analysis)
    with collector_paused:
        return store.replace_sample(raw, analysis.shared, STORED_VERSION, id=id, name=name,
                                    original=analysis.original, secret_kinds=analysis.secret_kinds)
