"""Uploaded bytes to what the store keeps, and stored transcripts parsed again: the pipeline's conductor.

Parsing happens here and only here for the web app: at upload (`uploads`; live ones in `appending`, big
datasets a piece at a time in `streaming`, big uploads after their answer in `deferred`), for the samples
(`samples`), and when a transcript stored by another `STORED_VERSION` is parsed again (`reparsing`). What
they share, an upload examined and stored, is `core`.
"""
from viewer.ingest.appending import CannotBeLive, NotLive, append, store_live_upload
from viewer.ingest.core import DIALECT_CHOICES, STORED_VERSION, analyse, contents, examine
from viewer.ingest.deferred import Upload, accept, process
from viewer.ingest.masking import Analysis, mask_secrets
from viewer.ingest.reparsing import current, reparse, reparse_stale
from viewer.ingest.samples import store_sample
from viewer.ingest.streaming import store_streamed, streams
from viewer.ingest.uploads import store_spooled, store_upload

__all__ = ["DIALECT_CHOICES", "STORED_VERSION", "Analysis", "CannotBeLive", "NotLive", "Upload", "accept", "analyse",
           "append", "contents", "current", "examine", "process", "mask_secrets", "reparse", "reparse_stale",
           "store_live_upload", "store_sample", "store_spooled", "store_streamed", "store_upload", "streams"]
