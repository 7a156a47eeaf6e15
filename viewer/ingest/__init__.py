"""Uploaded bytes to what the store keeps, and stored transcripts parsed again: the pipeline's conductor.

Parsing happens here and only here for the web app: at upload (`uploads`; live ones in `appending`, big
datasets a piece at a time in `streaming`, big uploads after their answer in `deferred`, run by the serving
processes' `processor`), for the samples (`samples`), and when a transcript stored by another `STORED_VERSION`
is parsed again (`reparsing`). What they share, an upload examined and stored, is `core`; what an upload's bytes
must be to be parsed at all is `binary`'s to say.
"""
from viewer.ingest.appending import CannotBeLive, NotLive, append, store_live_upload
from viewer.ingest.core import DIALECT_CHOICES, STORED_VERSION, contents, examine, project
from viewer.ingest.deferred import Upload, accept, process
from viewer.ingest.masking import Examined, mask_secrets
from viewer.ingest.reparsing import reparse, reparse_stale, up_to_date
from viewer.ingest.samples import store_sample
from viewer.ingest.streaming import store_streamed, streams
from viewer.ingest.uploads import store_spooled, store_upload

__all__ = ["DIALECT_CHOICES", "STORED_VERSION", "CannotBeLive", "Examined", "NotLive", "Upload", "accept", "append",
           "contents", "examine", "mask_secrets", "process", "project", "reparse", "reparse_stale",
           "store_live_upload", "store_sample", "store_spooled", "store_streamed", "store_upload", "streams",
           "up_to_date"]
