"""Images made in the tests with Pillow: with metadata to strip, and the hostile kinds an upload may carry."""
from __future__ import annotations

import io
import zlib

from PIL import Image, PngImagePlugin

GPS_IFD = 0x8825


def photo_with_gps(size=(64, 48)) -> bytes:
    """A JPEG whose EXIF holds a camera, a time and a GPS position, and a comment."""
    exif = Image.Exif()
    exif[0x010F] = "SecretCam"
    exif[0x0132] = "2025:09:14 09:00:00"
    exif.get_ifd(GPS_IFD).update({1: "N", 2: (59.0, 54.0, 42.0), 3: "E", 4: (10.0, 45.0, 7.0)})
    out = io.BytesIO()
    Image.new("RGB", size, (30, 120, 200)).save(out, "JPEG", exif=exif.tobytes(), comment=b"taken at home")
    return out.getvalue()


def png_with_text(size=(50, 40)) -> bytes:
    """A PNG with a tEXt chunk and an iTXt chunk (where XMP lives)."""
    info = PngImagePlugin.PngInfo()
    info.add_text("Comment", "private note: the password is hunter2")
    info.add_itxt("XML:com.adobe.xmp", "<x:xmpmeta>GPS 59.9N</x:xmpmeta>")
    out = io.BytesIO()
    Image.new("RGBA", size, (200, 10, 10, 128)).save(out, "PNG", pnginfo=info)
    return out.getvalue()


def plain(format: str = "PNG", size=(20, 10)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (0, 128, 0)).save(out, format)
    return out.getvalue()


def bomb(side: int = 10_000) -> bytes:
    """A PNG of side × side pixels: a few kilobytes that would take hundreds of megabytes to decode."""
    out = io.BytesIO()
    Image.new("1", (side, side)).save(out, "PNG")
    return out.getvalue()


def png_with_bad_pixels(size=(64, 64)) -> bytes:
    """A PNG whole by its structure (every chunk's checksum right) whose compressed pixels do not decode."""
    data = bytearray(plain("PNG", size))
    at = data.index(b"IDAT")
    length = int.from_bytes(data[at - 4:at], "big")
    data[at + 4:at + 4 + length] = b"\x78\x9c" + b"\xff" * (length - 2)  # a zlib header, then no valid stream
    data[at + 4 + length:at + 8 + length] = zlib.crc32(bytes(data[at:at + 4 + length])).to_bytes(4, "big")
    return bytes(data)
