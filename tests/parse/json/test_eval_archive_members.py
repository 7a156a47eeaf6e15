"""eval_archive reads a member's bytes straight from the archive to exactly what zipfile reads, and leaves to
zipfile any member it cannot (then zipfile reads or refuses it as before), however the archive was written and
whatever bytes of it were spoiled."""
from __future__ import annotations

import io
import zipfile

from hypothesis import given, settings, strategies as st

from viewer.parse.json import eval_archive

NAMES = st.sampled_from(["header.json", "samples/1_epoch_1.json", "samples/é_epoch_2.json", "x/y.json"])


def _read(archive: zipfile.ZipFile, info: zipfile.ZipInfo):
    try:
        return archive.read(info)
    except Exception as error:  # noqa: BLE001 - whatever zipfile says
        return type(error)


@settings(max_examples=300, deadline=None)
@given(members=st.dictionaries(NAMES, st.binary(max_size=300) | st.text(max_size=200).map(str.encode),
                               min_size=1, max_size=3),
       method=st.sampled_from([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED]),
       spoil=st.none() | st.tuples(st.integers(0, 2000), st.integers(0, 255)))
def test_a_member_reads_as_zipfile_reads_it(members, method, spoil):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as written:
        for name, content in members.items():
            written.writestr(name, content)
    data = bytearray(buffer.getvalue())
    if spoil is not None and spoil[0] < len(data):
        data[spoil[0]] = spoil[1]
    data = bytes(data)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, NotImplementedError, ValueError, OSError, EOFError, RuntimeError):
        return  # refused before any member is read (eval_archive.unpack catches the same)
    with archive:
        for info in archive.infolist():
            fast = eval_archive._member_bytes(data, info)
            if fast is not None:
                assert fast == _read(archive, info)
            elif spoil is None:
                assert info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)
