"""Pasted images, checked and cleaned: which bytes are a raster image the viewer may show (by their own magic
bytes, never a claimed type), decoded with Pillow under a decompression-bomb limit, and re-encoded without any
metadata for link holders. Pure: bytes in, bytes or a verdict out; it reads nothing else of the viewer."""
from viewer.images.check import MAX_BYTES, MAX_PIXELS, Verdict, inspect
from viewer.images.clean import THUMBNAIL_SIDE, Cleaned, clean, thumbnail_size

__all__ = ["MAX_BYTES", "MAX_PIXELS", "THUMBNAIL_SIDE", "Cleaned", "Verdict", "clean", "inspect", "thumbnail_size"]
