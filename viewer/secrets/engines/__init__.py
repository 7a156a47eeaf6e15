"""Two engines that find where each anchor pattern of `anchors.py` starts in a text's ASCII view, behind one
interface (`interface.py`): Hyperscan (the `fast` extra), every pattern in one pass, and Python's `re`, one search
per pattern, for a machine where Hyperscan cannot be installed (much slower: bench/secret_scan.py measures both).

Both find the same starts. A pattern is an ASCII expression in the syntax both read (PCRE's, as `re` has it),
matched against bytes, case-insensitively if it says so; an engine returns, for each pattern, every offset where
a match of it starts, overlapping ones too. Hyperscan reports matches by their ends, each with its leftmost
start: the same set of starts as long as no two matches of one pattern end at the same place, which holds for
fixed-width patterns and for alternatives that do not end alike (tests/secrets/test_engines.py checks the two
engines against each other, and test_anchors.py both against `re` on the text itself).
"""
from __future__ import annotations

from typing import Sequence

from viewer.secrets.engines.interface import AnchorPattern, Engine

NAMES = ("hyperscan", "re")
"""The engines, fastest first."""


def build(name: str, patterns: Sequence[AnchorPattern]) -> Engine:
    """The engine called `name` for these patterns. ImportError if it cannot be loaded here."""
    if name == "hyperscan":
        from viewer.secrets.engines.hyperscan_engine import HyperscanEngine
        return HyperscanEngine(patterns)
    if name == "re":
        from viewer.secrets.engines.re_engine import ReEngine
        return ReEngine(patterns)
    raise ValueError(f"no anchor engine called {name!r}: there are {', '.join(NAMES)}")


def fastest(patterns: Sequence[AnchorPattern]) -> Engine:
    """Hyperscan if it can be imported, else `re`."""
    try:
        return build("hyperscan", patterns)
    except ImportError:
        return build("re", patterns)


__all__ = ["NAMES", "AnchorPattern", "Engine", "build", "fastest"]
