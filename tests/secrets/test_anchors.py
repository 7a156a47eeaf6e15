"""Each anchor engine (Hyperscan's one pass, and `re` where Hyperscan is not installed) finds every anchor that
Python's `re` finds in the text itself, non-ASCII characters included, and exactly those in ASCII text: the
engines read the text's ASCII view, so their offsets must be the text's."""
from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from detect_secrets.plugins.keyword import DENYLIST
from hypothesis import given, settings, strategies as st

from tests.conftest import missing
from viewer.secrets import anchors
from viewer.secrets.anchors import (DEFAULT_ENGINE, GIVEN, GIVEN_24, GIVEN_40, GIVEN_AFTER, NAME_WORDS, RUN, SHAPES,
                                    ascii_view, find_anchors, using)
from viewer.secrets.assignments import TOKEN_DETECTOR
from viewer.secrets.engines import NAMES

PIECES = ("AKIA", "ASIA", "AC1f", "AIza", "AccountKey=", "SKa1", "SG.", "PRIVATE KEY", "PuTTY-User-Key-File",
          "GR1348941", "eyJ", "xai-", "xoxb-", "sk_live_", "_authToken", "github_pat_", "hf_", "r8_", "ghp_", "gsk_",
          "-us1", "sk-", "sq0csp-", "glpat-", "glagent-", "://", ":", ".", "-", "_", "key", "KEY", "Token", "pass",
          "pw", "Secret", "contraseña", "auth", "\u212aey", "\u017fecret", "to\u212aen", " = ", ": ", '="', "(",
          ".assign", " '", "\t", "\n", " ", "abcdefghij", "0123456789", "é", "ñ", "ı", "\u00a0", "٣", "🙂", "—",
          "x", "?", "api", "API_KEY", "client", "db", "private_key", "PASSWORD", "passwd", "pwd", "Contraseña",
          "contrasena", "pr", "İ", "vate", "Bearer", "BEARER ", "12345678:", "AAH-abcdefghij0123456789abcdefghijk")
TEXTS = st.lists(st.sampled_from(PIECES), max_size=60).map("".join)
WORDS = {**NAME_WORDS, "keyword": tuple((name, 0) for name in DENYLIST)}
"""The names as Python's `re` reads them: detect-secrets' keyword list as it is, `contraseña` too."""


def expected(text: str) -> tuple[dict[str, set[int]], dict[str, set[int]]]:
    """The anchors by Python's `re` on the text itself (overlapping matches too), names case-insensitively with
    `GIVEN` after the letter."""
    shapes = {name: {match.start() + at for expression, at in shapes
                     for match in re.finditer(f"(?=(?:{expression}))", text)}
              for name, shapes in SHAPES.items()}
    names = {letter: {match.start() + at for word, at in words
                      for match in re.finditer(f"(?=(?i:{word}))", text)
                      if GIVEN_AFTER.get(letter, GIVEN).match(text, match.start() + at + 1)}
             for letter, words in WORDS.items()}
    return shapes, names


def found(text: str, engine: str = DEFAULT_ENGINE) -> tuple[dict[str, set[int]], dict[str, set[int]]]:
    if engine == "hyperscan" and DEFAULT_ENGINE != "hyperscan":
        missing("hyperscan is not installed: `pip install -e '.[fast]'` (make setup does)")
    with using(engine):
        shapes, names = find_anchors(text)
    return {name: set(at) for name, at in shapes.items()}, {letter: set(at) for letter, at in names.items()}


@pytest.mark.parametrize("engine", NAMES)
@settings(max_examples=400, deadline=None)
@given(TEXTS)
def test_every_anchor_python_finds_in_the_text_is_found(engine: str, text: str) -> None:
    wanted, got = expected(text), found(text, engine)
    for kind in (0, 1):
        for key, positions in wanted[kind].items():
            assert positions <= got[kind][key], (key, text)


@pytest.mark.parametrize("engine", NAMES)
@settings(max_examples=200, deadline=None)
@given(TEXTS.filter(str.isascii))
def test_in_ascii_text_the_anchors_are_exactly_those_python_finds(engine: str, text: str) -> None:
    assert found(text, engine) == expected(text)


def test_the_ascii_view_keeps_every_offset() -> None:
    text = "naïve 🙂 ſecret \u212aey İı x"
    view = ascii_view(text)
    assert len(view) == len(text)
    assert view == b"na?ve ? secret key ii x"


def test_a_name_counts_only_where_it_is_given_a_value() -> None:
    text = "the key idea; api_key = 'x'; Each token costs; TOKEN: abc; contraseña=1"
    _, names = find_anchors(text)
    assert sorted(names["k"]) == [text.index("key ="), text.index("OKEN") + 1]
    assert names["c"] == [text.index("contraseña")]
    assert sorted(names["keyword"]) == [text.index("api_key"), text.index("contraseña")]


@pytest.mark.parametrize("name", ["prİvate_key", "apı_key", "paſſword", "db_pa\u017f\u017f", "client_\u212aey",
                                  "contraseña"])
def test_a_name_with_letters_that_case_insensitive_patterns_take_for_ascii_ones_is_found(name: str) -> None:
    text = f"naïve: {name} = 'hunter2'"
    assert find_anchors(text)[1]["keyword"] == [text.index(name)]
    assert expected(text)[1]["keyword"] == {text.index(name)}


BACKTRACKING_RUN = r"[\w.-]{0,40}"
BACKTRACKING_GIVEN = rf"""{BACKTRACKING_RUN}["'\]]{{0,2}}[ \t]*(?P<given>[:=!(]|[ \t]["'`])"""
GATES = {GIVEN: BACKTRACKING_GIVEN, GIVEN_24: BACKTRACKING_GIVEN + r"""\s*["'`]?[\w+/-]{24}""",
         GIVEN_40: BACKTRACKING_GIVEN + r"""\s*["'`][0-9a-zA-Z/+]{40}""",
         TOKEN_DETECTOR.gate: TOKEN_DETECTOR.gate.pattern.replace(RUN, BACKTRACKING_RUN, 1)}
"""The gates as they read without the possessive run: the same matches, found more slowly."""
GATE_PIECES = ("key", "x", "a" * 20, ".", "-", "_", ".assign", "(", ":", "=", "!", ":=", "=>", '"', "'",
               "`", "]", " ", "\t", "\n", "Bearer ", "basic ", "ab+/cd" * 4, "0123456789abcdefABCDEF" * 2, "é")


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(GATE_PIECES), max_size=24).map("".join), st.sampled_from(list(GATES)))
def test_a_gate_with_a_possessive_run_matches_where_its_backtracking_form_does(text: str, gate) -> None:
    reference = re.compile(GATES[gate])
    for at in range(len(text) + 1):
        fast, slow = gate.match(text, at), reference.match(text, at)
        assert bool(fast) == bool(slow), (text, at)
        if gate is GIVEN and slow:  # what the keyword detector reads: what gives the value
            assert fast["given"] == slow["given"], (text, at)


def test_an_empty_text_has_no_anchors() -> None:
    shapes, names = find_anchors("")
    assert not any(shapes.values()) and not any(names.values())


def test_threads_scanning_at_once_each_get_their_own_answer() -> None:
    texts = [f"{'filler ' * 20_000}ghp_{number}" for number in range(6)]
    with ThreadPoolExecutor(max_workers=6) as pool:
        answers = list(pool.map(lambda text: find_anchors(text)[0]["GitHub"], texts * 3))
    assert answers == [[len(text) - len(str(number)) - 1] for number, text in enumerate(texts)] * 3


@pytest.mark.parametrize("engine", NAMES)
@settings(max_examples=150, deadline=None)
@given(TEXTS, st.integers(1, 40))
def test_a_text_read_a_slice_at_a_time_has_the_anchors_of_one_view(engine: str, text: str, size: int) -> None:
    if engine == "hyperscan" and DEFAULT_ENGINE != "hyperscan":
        missing("hyperscan is not installed: `pip install -e '.[fast]'` (make setup does)")
    with using(engine):
        whole = find_anchors(text)
        with pytest.MonkeyPatch.context() as patch:  # anchors cut at every place, as a big upload's slices cut them
            patch.setattr(anchors, "SLICE", size)
            sliced = find_anchors(text)
    assert [{key: sorted(at) for key, at in kind.items()} for kind in sliced] == \
        [{key: sorted(at) for key, at in kind.items()} for kind in whole]


def test_every_anchor_fits_in_the_reach_of_a_slice_into_the_next() -> None:
    assert anchors._widest(anchors.EXPRESSIONS) <= anchors.WIDEST


def test_the_keyword_names_are_detect_secrets_own_list() -> None:
    # Written out so that a scan need not import the library; the library's list is what they must stay.
    assert anchors.KEYWORDS == DENYLIST
