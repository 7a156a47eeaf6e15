"""Zip archives as bundles: bounded before anything is unpacked, names kept inside the bundle, and every member
that cannot be shown as text named with its reason; a corrupt archive is a diagnostic, never an exception."""
from __future__ import annotations

import io
import stat
import zipfile

import pytest

from tests.parse.helpers import assert_accounted_for, codes
from viewer.bundles import archive, read_bundle
from viewer.bundles.archive import bundle_path, unpack
from viewer.parse import parse


def zipped(members: dict[str, bytes], method=zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as made:
        for name, data in members.items():
            made.writestr(name, data)
    return buffer.getvalue()


def facts(data: bytes) -> dict[str, dict]:
    text, _ = unpack(data)
    return {member.path: member.facts for member in read_bundle(text).members}


@pytest.mark.parametrize(("name", "path"), [("a/b.jsonl", "a/b.jsonl"), ("/etc/passwd", "etc/passwd"),
                                            ("C:\\Users\\ada\\s.jsonl", "Users/ada/s.jsonl"), ("./a//b", "a/b"),
                                            ("../escape.txt", None), ("a/../../b", None)])
def test_a_member_name_is_a_path_inside_the_bundle_or_refused(name, path):
    assert bundle_path(name) == path


def test_a_member_that_climbs_out_is_named_and_not_read():
    found = facts(zipped({"../../etc/cron.d/evil": b"* * * * * rm -rf /", "ok.txt": b"fine"}))
    assert found["ok.txt"] == {}
    assert [value["refused"] for path, value in found.items() if path != "ok.txt"] == [
        "its path climbs out of the archive (`..`)"]


def test_a_zip_bomb_is_refused_before_it_is_unpacked():
    bomb = zipped({"big.txt": b" " * 5_000_000})
    assert len(bomb) < 20_000
    text, diagnostics = unpack(bomb, max_unpacked=1_000_000)
    assert text == "" and [d.code for d in diagnostics] == ["W-ARCHIVE"] and "5,000,000 bytes" in diagnostics[0].message


def test_an_archive_of_too_many_members_is_refused(monkeypatch):
    monkeypatch.setattr(archive, "MAX_MEMBERS", 3)
    transcript = parse(zipped({f"{n}.txt": b"x" for n in range(5)}))
    assert codes(transcript) == ["W-ARCHIVE"] and transcript.messages == ()


@pytest.mark.parametrize("cut", [10, 100, -30])
def test_a_corrupt_archive_is_one_diagnostic(cut):
    data = zipped({"a.jsonl": b'{"role": "user", "content": "hi"}\n' * 20})
    transcript = parse(data[:cut])
    assert codes(transcript) == ["W-ARCHIVE"] and transcript.messages == ()


def test_a_member_whose_bytes_do_not_match_its_checksum_is_named_not_read():
    data = bytearray(zipped({"a.txt": b"hello world"}, zipfile.ZIP_STORED))
    data[data.index(b"hello")] = ord("j")  # the bytes change, the recorded CRC-32 does not
    assert "cannot be unpacked" in facts(bytes(data))["a.txt"]["refused"]


def test_encrypted_members_links_and_archives_inside_are_named_not_read():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as made:
        made.writestr("inner.zip", zipped({"x.txt": b"x"}))
        link = zipfile.ZipInfo("link")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        made.writestr(link, "/etc/passwd")
        locked = zipfile.ZipInfo("locked.txt")
        made.writestr(locked, b"secret")
    data = bytearray(buffer.getvalue())
    for at in _header_offsets(bytes(data), b"locked.txt"):
        data[at] |= 0x1  # the encrypted flag of the member's local and central headers
    found = facts(bytes(data))
    assert found["inner.zip"]["refused"] == "an archive inside the archive is not unpacked"
    assert found["link"]["refused"] == "it is a symbolic link"
    assert found["locked.txt"]["refused"] == "it is encrypted"


def _header_offsets(data: bytes, name: bytes) -> list[int]:
    """Where the general purpose flags of a member's local and central directory headers are."""
    offsets = []
    for signature, flag_at, name_at in ((b"PK\x03\x04", 6, 30), (b"PK\x01\x02", 8, 46)):
        at = data.find(signature)
        while at != -1:
            if data[at + name_at:at + name_at + len(name)] == name:
                offsets.append(at + flag_at)
            at = data.find(signature, at + 1)
    return offsets


def test_binary_and_badly_encoded_members():
    found_text, diagnostics = unpack(zipped({"shot.png": b"\x89PNG\r\n\x1a\n\x00\x00" + bytes(range(256)),
                                             "log.txt": "caf\u00e9 ".encode() * 20 + b"\xff tail"}))
    bundle = read_bundle(found_text)
    assert bundle.members[1].facts == {"bytes": 266, "binary": True}
    assert [d.code for d in diagnostics] == ["W-DECODE-UTF8"]
    assert found_text[diagnostics[0].span[0]] == "\ufffd"


def test_a_database_inside_an_archive_becomes_its_tables(tmp_path):
    import sqlite3
    path = tmp_path / "store.db"
    with sqlite3.connect(path) as made:
        made.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        made.execute("INSERT INTO notes (body) VALUES ('hello')")
    made.close()
    text, _ = unpack(zipped({".crush/crush.db": path.read_bytes()}))
    bundle = read_bundle(text)
    assert [member.path for member in bundle.members] == [".crush/crush.db#sqlite_schema", ".crush/crush.db#notes"]
    assert text[bundle.members[1].span[0]:bundle.members[1].span[1]] == '{"id": 1, "body": "hello"}\n'
    assert_accounted_for(parse(text), text)
