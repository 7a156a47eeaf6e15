"""Patterns typed as always matching: they match at every position, and one that can fail is refused."""
from __future__ import annotations

import re

import pytest

from viewer.parse.patterns import always_matching


def test_a_run_that_may_be_empty_matches_at_every_position_and_is_the_compiled_pattern():
    blanks = always_matching(r"[ \t]*")
    text = "a  b"
    assert [blanks.match(text, at).end() for at in range(len(text) + 1)] == [0, 3, 3, 3, 4]
    assert blanks is re.compile(r"[ \t]*")  # the same object: nothing stands between a reader and `re`


@pytest.mark.parametrize("pattern", [r"\s+", r"\S", r"[ \t]*,"])
def test_a_pattern_that_can_fail_is_refused(pattern):
    with pytest.raises(ValueError, match="may be None"):
        always_matching(pattern)
