"""Lexers that are slow on purpose, for the tests of bounded highlighting: registered by alias with the worker
pool (`workers.POOL.use_lexers`), never through Pygments' plugins."""
from __future__ import annotations

import signal
from typing import Iterator

from pygments.lexer import Lexer, RegexLexer
from pygments.token import Keyword, Text, _TokenType

EXPONENTIAL = "exponential-test"
DEAF = "deaf-test"
LEXERS = {EXPONENTIAL: "tests.render.slow_lexers:ExponentialLexer", DEAF: "tests.render.slow_lexers:DeafLexer"}


class ExponentialLexer(RegexLexer):
    """`(a|a)*b` tried at a run of `a` with no `b`: every split of the run is tried, 2**n steps."""

    name = "Exponential (test)"
    aliases = [EXPONENTIAL]
    tokens = {"root": [(r"(?:a|a)*b", Keyword), (r"(?s).", Text)]}


class DeafLexer(Lexer):
    """Deaf to the worker's own deadline when its text says `hang` (signals blocked, then a busy loop): only the
    server's kill stops it. Otherwise the text as one token."""

    name = "Deaf (test)"
    aliases = [DEAF]

    def get_tokens_unprocessed(self, text: str) -> Iterator[tuple[int, _TokenType, str]]:
        if "hang" in text:
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
            while True:
                pass
        yield 0, Text, text
