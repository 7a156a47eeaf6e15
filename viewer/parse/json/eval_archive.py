"""Inspect AI's binary `.eval` log: a zip archive of JSON members (`header.json`, the eval's spec, plan, results
and stats; `samples/<id>_epoch_<n>.json`, one per sample; `summaries.json`, `reductions.json` and `_journal/`,
which repeat what the others hold). Read with the standard library's zipfile, bounded: an archive of too many
members, or whose members would unpack to more than MAX_UNPACKED bytes (a zip bomb), is refused with a
diagnostic before anything is unpacked.

The archive becomes the text every span points into: the JSON log it stands for, its members' text kept as
written, `{"eval_archive": 1, "header": <header.json>, "samples": [<sample>, …]}` (inspect_log.py reads it as
a log). A member that is not UTF-8 is decoded with replacement characters and reported.
"""
from __future__ import annotations

import io
import re
import zipfile
import zlib

from viewer.model import Diagnostic, make_diagnostic

MAGIC = b"PK\x03\x04"
MAX_MEMBERS = 100_000
MAX_UNPACKED = 512 * 1024 * 1024
"""Bytes the members may unpack to, together: eight times the largest upload."""
_SAMPLE = re.compile(r"samples/(.+)_epoch_(\d+)\.json")


def is_archive(data: bytes) -> bool:
    return data.startswith(MAGIC)


def unpack(data: bytes) -> tuple[str, list[Diagnostic]]:
    """The archive as the text of the JSON log it holds, and what went wrong; never raises."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return _log_text(archive)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, RuntimeError, NotImplementedError, ValueError) as error:
        return "", [_refused(f"The zip archive cannot be read ({error}); nothing of it was shown.")]


def _log_text(archive: zipfile.ZipFile) -> tuple[str, list[Diagnostic]]:
    members = archive.infolist()
    if len(members) > MAX_MEMBERS:
        return "", [_refused(f"The archive holds {len(members):,} members, more than the {MAX_MEMBERS:,} an "
                             "Inspect log may; it was not unpacked.")]
    unpacked = sum(member.file_size for member in members)
    if unpacked > MAX_UNPACKED:
        return "", [_refused(f"The archive would unpack to {unpacked:,} bytes, more than the {MAX_UNPACKED:,} "
                             "allowed; it was not unpacked.")]
    names = {member.filename for member in members}
    if "header.json" not in names:
        return "", [_refused("This zip archive has no header.json: it is not an Inspect AI .eval log; nothing of "
                             "it was shown.")]
    samples = sorted((name for name in names if _SAMPLE.fullmatch(name)), key=_sample_order)
    texts, undecodable = [], []
    for name in ["header.json", *samples]:
        raw = archive.read(name)
        try:
            texts.append(raw.decode("utf-8"))
        except UnicodeDecodeError:
            texts.append(raw.decode("utf-8", errors="replace"))
            undecodable.append(name)
    text = '{"eval_archive": 1,\n"header": ' + texts[0] + ',\n"samples": [\n' + ",\n".join(texts[1:]) + "\n]}\n"
    return text, [_not_utf8(text, name) for name in undecodable]


def _sample_order(name: str) -> tuple:
    """Samples by id (numbers in numeric order) then epoch, as Inspect's viewer lists them."""
    found = _SAMPLE.fullmatch(name)
    sample, epoch = found[1], int(found[2])
    return (0, int(sample), "", epoch) if sample.isdigit() else (1, 0, sample, epoch)


def _refused(message: str) -> Diagnostic:
    return make_diagnostic("W-ARCHIVE", (0, 0), message)


def _not_utf8(text: str, name: str) -> Diagnostic:
    return make_diagnostic("W-DECODE-UTF8", (0, min(len(text), 1)),
                           f"The archive member {name} is not valid UTF-8; invalid bytes were replaced with U+FFFD.")
