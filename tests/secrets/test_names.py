"""A pattern of names is found where `finditer` finds it: trying it only where a listed first word is misses no
name and finds no other, names that overlap or touch included."""
from __future__ import annotations

from hypothesis import example, given, settings, strategies as st

from viewer.secrets.assignments import TOKEN_NAMES
from viewer.secrets.names import Names

PIECES = ("api", "auth", "orization", "service", "account", "private", "client", "key", "pass", "word", "wd", "pwd",
          "secret", "token", "bearer", "access", "signing", "encryption", "master", "license", "subscription",
          "scription", "_", "-", ".", " ", "x", "e", "k", "=", "\n", "ñ")
TEXTS = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


@settings(max_examples=1000, deadline=None)
@given(TEXTS)
@example("bearer_token secret_key subscription_key authorization apikey api-key passwd")
@example("secret_key_pass_pwd")
def test_token_ish_names_start_where_finditer_finds_them(text: str) -> None:
    assert TOKEN_NAMES.starts(text) == [match.start() for match in TOKEN_NAMES.pattern.finditer(text)]


def test_a_name_starting_with_a_word_not_listed_would_be_missed() -> None:
    """What the property above guards: the words listed are all the words names start with."""
    fewer = Names(TOKEN_NAMES.pattern, tuple(word for word in TOKEN_NAMES.firsts if word != "subscription"))
    assert TOKEN_NAMES.starts("subscription_key") == [0]
    assert fewer.starts("subscription_key") == []
