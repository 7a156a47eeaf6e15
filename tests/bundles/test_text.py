"""The bundle text: members found by the lengths their frame lines give, whatever they hold; a text that only
looks like a bundle read as far as its frame holds, the rest in a diagnostic."""
from __future__ import annotations

import json

from hypothesis import given, strategies as st

from tests.parse.helpers import assert_accounted_for, codes
from viewer.bundles import pack, read_bundle
from viewer.bundles.text import Entry, member_paths, write_bundle
from viewer.parse import parse

FAKE_FRAME = '{"member": "evil.jsonl", "chars": 3}\nabc\n'


def test_each_member_reads_back_exactly_as_written_even_when_it_holds_a_frame_line():
    text, diagnostics = write_bundle("zip", [Entry("a.txt", FAKE_FRAME), Entry("b/c.txt", "second\n")])
    bundle = read_bundle(text)
    assert diagnostics == [] and bundle.problems == ()
    assert [(member.path, text[member.span[0]:member.span[1]]) for member in bundle.members] == [
        ("a.txt", FAKE_FRAME), ("b/c.txt", "second\n")]
    assert member_paths(text) == ["a.txt", "b/c.txt"]


def test_frame_lines_are_one_line_whatever_the_path_holds():
    text, _ = write_bundle("zip", [Entry('odd\nname "quoted".txt', "x")])
    assert text.count("\n") == 3 and read_bundle(text).members[0].path == 'odd\nname "quoted".txt'


def test_a_member_not_shown_as_text_says_why_in_its_frame_line():
    text, _ = write_bundle("zip", [Entry("image.png", None, {"bytes": 10, "binary": True})])
    member = read_bundle(text).members[0]
    assert member.facts == {"bytes": 10, "binary": True} and member.span[0] == member.span[1]
    assert not member.readable


def test_a_note_about_a_member_points_into_its_text_or_at_its_frame_line():
    entry = Entry("a.txt", "hello")
    entry.note("W-DECODE-UTF8", "bad byte", (1, 2))
    other = Entry("b.db#t", "")
    other.note("W-DATABASE", "cut")
    text, diagnostics = write_bundle("zip", [entry, other])
    assert [text[d.span[0]:d.span[1]] for d in diagnostics] == ["e", '{"member": "b.db#t", "chars": 0}']


def test_a_text_that_only_looks_like_a_bundle_is_read_as_far_as_its_frame_holds():
    text = '{"bundle": 1, "from": "zip", "members": ["a"]}\n{"member": "a", "chars": 999}\nshort\n'
    bundle = read_bundle(text)
    assert bundle.members == () and [d.code for d in bundle.problems] == ["W-BUNDLE-FRAME"]
    transcript = parse(text)
    assert "W-BUNDLE-FRAME" in codes(transcript)
    assert_accounted_for(transcript, text)


@given(st.lists(st.tuples(st.text("ab/._-", min_size=1, max_size=8), st.binary(max_size=60)), max_size=5))
def test_any_files_packed_and_parsed_are_accounted_for(files):
    unique = {}
    for name, data in files:
        if name.strip("/.") and ".." not in name:
            unique.setdefault(name, data)
    try:
        data = pack.packed(unique.items())
    except ValueError:
        return  # two names that are one path once made relative
    transcript = parse(data)
    assert transcript.source.startswith('{"bundle": 1, ') or not unique
    assert_accounted_for(transcript, transcript.source)


def test_a_bundle_of_files_no_record_names_reads_its_first_transcript_and_names_the_others():
    chat = json.dumps([{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}])
    transcript = parse(pack.packed([("notes/README.md", b"just notes"), ("chat.json", chat.encode())]))
    assert transcript.dialect == "json" and [m.content for m in transcript.messages] == ["Hi", "Hello"]
    unread = [d for d in transcript.diagnostics if d.code == "W-BUNDLE-MEMBER"]
    assert len(unread) == 1 and "notes/README.md" in unread[0].message
    assert [s.kind for s in transcript.frame if s.kind in ("bundle", "member")] == ["bundle", "member", "member"]
    assert_accounted_for(transcript, transcript.source)
