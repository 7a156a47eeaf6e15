"""A download's `Content-Disposition`: the file's name as RFC 6266 says to write it. A header value is Latin-1 at
most, and gunicorn refuses any character outside it (its own 500, `InvalidResponseHeader`; the development
server hung the client), so a name in Chinese, Japanese or with an emoji is sent twice: as RFC 5987's
`filename*=UTF-8''…` (percent-encoded UTF-8, which every current browser prefers) and as a plain ASCII
`filename=` for the clients that read only that one."""
from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote

from werkzeug.http import dump_options_header

_NOT_PLAIN = re.compile(r"[^A-Za-z0-9._ ()+-]+")
"""What the ASCII name keeps: letters, digits and a few marks no system or header reads specially."""
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def attachment(name: str, fallback_stem: str) -> str:
    """The header's value for a download named `name` (its folder and control characters dropped); an ASCII
    name whose stem says nothing (`.txt` of `会話.txt`) takes `fallback_stem` instead."""
    name = _CONTROL.sub("", name.replace("\\", "/").rsplit("/", 1)[-1]).strip()
    plain = _plain(name, fallback_stem)
    options = {"filename": plain}
    if plain != name:
        options["filename*"] = "UTF-8''" + quote(name, safe="")
    return dump_options_header("attachment", options)


def _plain(name: str, fallback_stem: str) -> str:
    """`name` in ASCII: accents dropped (é → e, by compatibility decomposition), everything else a dash."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    stem, dot, extension = _NOT_PLAIN.sub("-", ascii_name).rpartition(".")
    if not dot:
        stem, extension = extension, ""
    stem = stem.strip(" .-")
    extension = extension.strip(" -")
    return (stem or fallback_stem) + (f".{extension}" if extension else "")


__all__ = ["attachment"]
