"""The app's processor of uploads (`viewer.ingest.processor.Processor`), made at startup from the app's
settings, and whether an upload is answered before it is processed."""
from __future__ import annotations

import datetime as dt

from flask import Flask, current_app

from viewer.ingest.processor import Processor


def init_app(app: Flask, *, recover: bool = True) -> None:
    processor = Processor(app.extensions["viewer.store"], int(app.config["PROCESSING_SLOTS"]),
                          max(int(app.config["WINDOW_SIZE"]), 1),
                          lease=dt.timedelta(seconds=float(app.config["PROCESSING_LEASE_SECONDS"])),
                          kept_in=str(app.config["SPOOL_DIR"]) or None)
    app.extensions["viewer.processor"] = processor
    if recover:
        processor.recover()


def get_processor() -> Processor:
    """The current app's processor."""
    return current_app.extensions["viewer.processor"]


def defers(size: int) -> bool:
    """Whether an upload of `size` bytes is answered before it is processed."""
    threshold = int(current_app.config["DEFER_UPLOAD_BYTES"])
    return threshold > 0 and size > threshold


__all__ = ["defers", "get_processor", "init_app"]
