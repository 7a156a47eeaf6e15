"""An Inspect AI archive's samples are found from where its members lie in the unpacked text
(inspect_log.member_sample_spans) exactly where reading the whole log finds them (inspect_log.sample_spans),
whatever its members hold: samples, other objects, broken JSON, JSON that only `json` reads, blanks around them."""
from __future__ import annotations

import io
import zipfile

from hypothesis import given, settings, strategies as st

from viewer.parse.datasets import conversation_spans
from viewer.parse.decode import decode_members

SAMPLE = '{"id": 1, "epoch": 1, "target": "t", "messages": [{"role": "user", "content": "q"}]}'
MEMBER = st.sampled_from([
    SAMPLE, SAMPLE, SAMPLE, "\n " + SAMPLE + " \t\r\n", '{"id": "é", "epoch": 2, "target": ["a"], "messages": []}',
    '{"id": 1, "epoch": 1, "target": NaN, "messages": []}',  # `json` reads it, msgspec refuses it
    '{"id": 1, "epoch": 1, "target": "\\ud800", "messages": []}',
    '{"id": 1, "epoch": 1, "messages": []}', '{"messages": 1, "epoch": 1, "target": "t"}',
    '{"id": 1, "epoch": 1, "target": "t", "messages": [], "messages": 2}', '{"id": 1, "epoch": 1, "target": ',
    "null", "[]", "", " ", '"text"', SAMPLE + " x", "\ufeff" + SAMPLE])
HEADER = st.sampled_from(['{"version": 2, "eval": {"task": "t"}}', ' {"status": "started"} ', "null", "[1]", "{",
                          ""])


def _archive(header: str, samples: list[str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as written:
        written.writestr("header.json", header)
        for number, sample in enumerate(samples):
            written.writestr(f"samples/{number + 1}_epoch_1.json", sample)
    return buffer.getvalue()


@settings(max_examples=300, deadline=None)
@given(header=HEADER, samples=st.lists(MEMBER, max_size=4))
def test_an_archive_s_samples_are_where_reading_the_whole_log_finds_them(header, samples):
    text, _, members = decode_members(_archive(header, samples))
    assert len(members) == len(samples) + 1
    assert conversation_spans(text, members) == conversation_spans(text)


def test_the_samples_of_a_well_made_archive_are_found_from_its_members():
    text, _, members = decode_members(_archive('{"version": 2}', [SAMPLE, " " + SAMPLE + "\n"]))
    spans = conversation_spans(text, members)
    assert [text[start:end] for start, end in spans] == [SAMPLE, SAMPLE]
