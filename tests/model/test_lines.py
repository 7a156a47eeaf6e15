"""Line and column numbers: one index for the parsers, the command line and the store."""
from __future__ import annotations

from viewer.model import LineIndex, Transcript
from viewer.model.lines import line_spans


def test_positions_are_one_based_and_count_characters():
    index = LineIndex("ab\ncdé\n\nx")
    assert [index.position(offset) for offset in (0, 1, 2, 3, 5, 6, 7, 8)] == [
        (1, 1), (1, 2), (1, 3), (2, 1), (2, 3), (2, 4), (3, 1), (4, 1)]


def test_a_carriage_return_ends_its_line_s_text_but_only_a_line_feed_starts_a_line():
    index = LineIndex("a\r\nb\rc")
    assert index.position(1) == (1, 2)
    assert index.position(3) == (2, 1)
    assert index.position(5) == (2, 3)


def test_a_transcript_answers_with_the_same_index():
    source = "one\ntwo\nthree"
    transcript = Transcript(dialect="harmony", source=source)
    assert [transcript.position(offset) for offset in range(len(source))] == [
        LineIndex(source).position(offset) for offset in range(len(source))]


def test_line_spans_give_every_non_blank_line_trimmed_with_its_number():
    text = "  {\"a\": 1}\n\n\t\n[1] \n"
    assert list(line_spans(text)) == [(1, 2, 10), (4, 14, 17)]
