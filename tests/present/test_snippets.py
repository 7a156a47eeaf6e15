"""Search excerpts read as plain text: what a reader sees on the card, without Markdown's marks or a terminal's
codes, and nothing of the words lost."""
from __future__ import annotations

import pytest

from viewer.present.snippets import plain_text


@pytest.mark.parametrize("written, read", [
    ("# A heading\n\nSome **bold**, *slanted* and __strong__ words.", "A heading Some bold, slanted and strong words."),
    ("See [the docs](https://example.com/x) and ![a chart](chart.png).", "See the docs and a chart."),
    ("```python\nprint('interrupted')\n```", "print('interrupted')"),
    ("- one\n- [x] two\n3. three\n> quoted", "one two three quoted"),
    ("| name | size |\n|---|---:|\n| a.txt | 12 |", "name · size a.txt · 12"),
    ("\x1b[31mFAILED\x1b[0m tests/test_dates.py \x1b]0;title\x07done", "FAILED tests/test_dates.py done"),
    ("snake_case_name and 2*3*4 and `code`", "snake_case_name and 2*3*4 and code"),
    ("ls | grep x", "ls | grep x"),
    ("a\x00b\tc\r\nd", "a b c d"),
])
def test_a_body_reads_as_the_words_on_the_card(written, read):
    assert plain_text(written) == read


def test_long_hostile_input_is_read_in_linear_time():
    plain_text("[" * 50_000 + "*_" * 50_000 + "\x1b[" * 50_000 + "|" * 50_000)
