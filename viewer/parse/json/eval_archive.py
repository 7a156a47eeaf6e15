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
import struct
import zipfile
import zlib

from viewer.model import Diagnostic, Span, make_diagnostic

MAGIC = b"PK\x03\x04"
_NOT_READ = 0x1 | 0x20 | 0x40
"""General purpose flags of a member zipfile reads otherwise or refuses: encrypted, patched, strongly encrypted."""
_UTF8 = 0x800
"""The general purpose flag of a local header whose name is written in UTF-8 (else in code page 437)."""
MAX_MEMBERS = 100_000
MAX_UNPACKED = 512 * 1024 * 1024
"""Bytes the members may unpack to, together: eight times the largest upload."""
_SAMPLE = re.compile(r"samples/(.+)_epoch_(\d+)\.json")


def is_archive(data: bytes) -> bool:
    return data.startswith(MAGIC)


def is_eval_log(data: bytes) -> bool:
    """Whether a zip archive is an Inspect AI log (it holds `header.json`), read from its central directory alone;
    any other archive is a bundle of files (viewer/bundles)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return any(member.filename == "header.json" for member in archive.infolist())
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        return False


def unpack(data: bytes) -> tuple[str, list[Diagnostic]]:
    """The archive as the text of the JSON log it holds, and what went wrong; never raises."""
    text, diagnostics, _ = unpack_members(data)
    return text, diagnostics


def unpack_members(data: bytes) -> tuple[str, list[Diagnostic], list[Span]]:
    """`unpack`, and where each member's text lies in it (`header.json` first, then the samples in order; none
    when the archive was refused), so that the log's samples need not be looked for by reading it whole
    (inspect_log.member_sample_spans)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return _log_text(archive, data)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, RuntimeError, NotImplementedError, ValueError) as error:
        return "", [_refused(f"The zip archive cannot be read ({error}); nothing of it was shown.")], []


def _log_text(archive: zipfile.ZipFile, data: bytes) -> tuple[str, list[Diagnostic], list[Span]]:
    members = archive.infolist()
    if len(members) > MAX_MEMBERS:
        return "", [_refused(f"The archive holds {len(members):,} members, more than the {MAX_MEMBERS:,} an "
                             "Inspect log may; it was not unpacked.")], []
    unpacked = sum(member.file_size for member in members)
    if unpacked > MAX_UNPACKED:
        return "", [_refused(f"The archive would unpack to {unpacked:,} bytes, more than the {MAX_UNPACKED:,} "
                             "allowed; it was not unpacked.")], []
    names = {member.filename for member in members}
    if "header.json" not in names:
        return "", [_refused("This zip archive has no header.json: it is not an Inspect AI .eval log; nothing of "
                             "it was shown.")], []
    found = (_SAMPLE.fullmatch(name) for name in names)
    samples = [sample[0] for sample in sorted((sample for sample in found if sample), key=_sample_order)]
    texts, undecodable = [], []
    infos = {member.filename: member for member in members}
    for name in ["header.json", *samples]:
        raw = _member_bytes(data, infos[name])
        if raw is None:
            raw = archive.read(name)
        try:
            texts.append(raw.decode("utf-8"))
        except UnicodeDecodeError:
            texts.append(raw.decode("utf-8", errors="replace"))
            undecodable.append(name)
    text = _HEAD + texts[0] + _BEFORE_SAMPLES + _BETWEEN_SAMPLES.join(texts[1:]) + _TAIL
    return text, [_not_utf8(text, name) for name in undecodable], _member_spans(texts)


_HEAD, _BEFORE_SAMPLES, _BETWEEN_SAMPLES, _TAIL = ('{"eval_archive": 1,\n"header": ', ',\n"samples": [\n', ",\n",
                                                   "\n]}\n")
"""The log text around the members' texts (the module docstring shows it)."""


def _member_spans(texts: list[str]) -> list[Span]:
    """Where each of `texts` lies in the log text _log_text joins them into."""
    spans, at = [], len(_HEAD)
    for number, text in enumerate(texts):
        spans.append((at, at + len(text)))
        at += len(text) + len(_BEFORE_SAMPLES if number == 0 else _BETWEEN_SAMPLES)
    return spans


def _member_bytes(data: bytes, member: zipfile.ZipInfo) -> bytes | None:
    """A stored or deflated member's bytes, inflated straight from the archive's bytes (zipfile's reader costs
    more than inflating a small sample); None for anything else, or anything amiss (a local header that does not
    match, a size or checksum that is wrong): then zipfile reads it, and refuses it as it does."""
    start = member.header_offset
    if member.flag_bits & _NOT_READ or member.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED) \
            or data[start:start + 4] != MAGIC or len(data) < start + 30:
        return None
    flags, = struct.unpack_from("<H", data, start + 6)
    name_length, extra_length = struct.unpack_from("<HH", data, start + 26)
    try:  # the local header's name, decoded as zipfile decodes it, is the member's
        name = data[start + 30:start + 30 + name_length].decode("utf-8" if flags & _UTF8 else "cp437")
    except UnicodeDecodeError:
        return None
    if name != member.orig_filename:
        return None
    begin = start + 30 + name_length + extra_length
    packed = data[begin:begin + member.compress_size]
    if member.compress_type == zipfile.ZIP_STORED:
        unpacked = packed
    else:
        inflater = zlib.decompressobj(-zlib.MAX_WBITS)
        try:
            unpacked = inflater.decompress(packed, member.file_size + 1)  # never more than the member's size
        except zlib.error:
            return None
        if not inflater.eof:
            return None
    if len(unpacked) != member.file_size or zlib.crc32(unpacked) != member.CRC:
        return None
    return unpacked


def _sample_order(found: re.Match[str]) -> tuple:
    """Samples by id (numbers in numeric order) then epoch, as Inspect's viewer lists them."""
    sample, epoch = found[1], int(found[2])
    return (0, int(sample), "", epoch) if sample.isdigit() else (1, 0, sample, epoch)


def _refused(message: str) -> Diagnostic:
    return make_diagnostic("W-ARCHIVE", (0, 0), message)


def _not_utf8(text: str, name: str) -> Diagnostic:
    return make_diagnostic("W-DECODE-UTF8", (0, min(len(text), 1)),
                           f"The archive member {name} is not valid UTF-8; invalid bytes were replaced with U+FFFD.")
