"""The sample transcripts (sample_transcripts/), stored at startup under stable ids derived from their file names.

Idempotent: a sample whose bytes are already stored is left alone, so restarts are cheap and links stay put.
"""
from __future__ import annotations

import logging
import re
from collections import Counter
from pathlib import Path

from viewer.ingest.core import STORED_VERSION, examine, keep_findings
from viewer.ingest.images import store_examined_images
from viewer.model.collector import collector_paused
from viewer.store import Store

log = logging.getLogger(__name__)

MAX_SAMPLE_BYTES = 64 * 1024 * 1024
_NOT_ID = re.compile(r"[^a-z0-9]+")


def sample_id(path: Path) -> str:
    """`harmony-gpt-oss-weather.txt` -> `sample-harmony-gpt-oss-weather`."""
    return _slug(path.stem)


def sample_ids(paths: list[Path]) -> dict[Path, str]:
    """Ids for a folder's samples; two files with the same stem keep their extensions apart."""
    taken = Counter(sample_id(path) for path in paths)
    return {path: sample_id(path) if taken[sample_id(path)] == 1 else _slug(path.name) for path in paths}


def _slug(name: str) -> str:
    return "sample-" + (_NOT_ID.sub("-", name.lower()).strip("-") or "unnamed")


def sample_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(path for path in folder.iterdir()
                  if path.is_file() and not path.name.startswith(".") and path.stat().st_size <= MAX_SAMPLE_BYTES)


def preload(store: Store, folder: Path) -> int:
    """Store every sample not already stored with the same bytes; returns how many were (re)stored."""
    stored = 0
    for path, id in sample_ids(sample_files(folder)).items():
        if store_sample(store, path.read_bytes(), id=id, name=path.name):
            stored += 1
    if stored:
        log.info("preloaded %d sample transcript(s) from %s", stored, folder)
    return stored


def store_sample(store: Store, raw: bytes, *, id: str, name: str) -> bool:
    """Store a sample under its stable id unless the same bytes are already there. True if stored."""
    if store.has_same_bytes(id, raw):
        return False
    examined = examine(raw, choices=store.personal.choices(id))
    store_examined_images(store, examined)
    with collector_paused:
        stored = store.replace_sample(raw, examined.shared, STORED_VERSION, id=id, name=name,
                                      original=examined.original, secret_kinds=examined.secret_kinds)
    if stored:
        keep_findings(store, id, examined)
    return stored
