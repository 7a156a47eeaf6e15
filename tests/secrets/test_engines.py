"""The secret scan finds the same secrets with either anchor engine (Hyperscan, or Python's `re` where Hyperscan
cannot be installed), on the secrets tests' own inputs, the samples and generated text with planted secrets; and
it works in a process that cannot import Hyperscan."""
from __future__ import annotations

import functools
import json
import random
import subprocess
import sys
from typing import Callable, TypeVar

import pytest
from hypothesis import example, given, settings, strategies as st

from tests.conftest import ROOT, SAMPLES, missing
from tests.secrets.canaries import CONTEXTS, canaries
from tests.secrets.corpus import Corpus, corpus
from tests.secrets.test_anchors import TEXTS
from viewer.parse import parse
from viewer.secrets import scan_text, scan_transcript
from viewer.secrets.anchors import DEFAULT_ENGINE, EXPRESSIONS, ascii_view, find_anchors, using
from viewer.secrets.engines import Engine, build
from viewer.secrets.engines.re_engine import ReEngine

Result = TypeVar("Result")
SAMPLE_FILES = sorted(path for path in SAMPLES.iterdir() if path.is_file())
SEEDS = range(1, 12)
CANARY_TEXTS = [canary.text for seed in SEEDS for canary in canaries(seed)]
IN_CONTEXTS = [context.format(canary.secret) for canary in canaries(1) if canary.free for context in CONTEXTS]
ORDINARY = corpus(megabytes=0.2, seed=3)


def needs_hyperscan() -> None:
    if DEFAULT_ENGINE != "hyperscan":
        missing("hyperscan is not installed: `pip install -e '.[fast]'` (make setup does)")


@functools.cache
def engine(name: str) -> Engine:
    return build(name, EXPRESSIONS)


def both_ways(scan: Callable[[], Result]) -> tuple[Result, Result]:
    """What `scan` returns with Hyperscan's anchors, then with `re`'s."""
    needs_hyperscan()
    with using("hyperscan"):
        fast = scan()
    with using("re"):
        standard = scan()
    return fast, standard


def planted(text: str, secrets: list[str], rng: random.Random) -> str:
    """The text with each secret on a line of its own at a random line end."""
    lines = text.split("\n")
    for secret in secrets:
        lines.insert(rng.randrange(len(lines) + 1), secret)
    return "\n".join(lines)


OVERLAPPING = "12345678:" + "a" * 27 + "87654321:" + "b" * 35
"""Two Telegram anchors, the second starting inside the first (at its 37th character)."""


@settings(max_examples=300, deadline=None)
@given(TEXTS)
@example(OVERLAPPING)
def test_both_engines_find_every_pattern_at_the_same_starts(text: str) -> None:
    needs_hyperscan()
    view = ascii_view(text)
    fast, standard = (engine(name).starts(view) for name in ("hyperscan", "re"))
    assert [set(starts) for starts in fast] == [set(starts) for starts in standard]


@pytest.mark.parametrize("text", [ORDINARY, "\n".join(path.read_bytes().decode("utf-8", "replace") for path in SAMPLE_FILES)],
                         ids=["corpus", "samples"])
def test_both_engines_find_the_same_anchors_in_prose_code_and_the_samples(text: str) -> None:
    fast, standard = both_ways(lambda: find_anchors(text))
    for kind in (0, 1):
        assert {key: sorted(at) for key, at in fast[kind].items()} == \
               {key: sorted(at) for key, at in standard[kind].items()}
    assert any(fast[1].values())  # the names are there to be found


@pytest.mark.parametrize("text", CANARY_TEXTS + IN_CONTEXTS)
def test_a_canary_is_found_alike_with_either_engine(text: str) -> None:
    fast, standard = both_ways(lambda: scan_text(text))
    assert fast == standard and fast


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda path: path.name)
def test_a_sample_with_secrets_planted_in_its_lines_gives_the_same_findings(path) -> None:
    text = planted(path.read_bytes().decode("utf-8", "replace"), [canary.text for canary in canaries(2)], random.Random(5))
    fast, standard = both_ways(lambda: scan_text(text))
    assert fast == standard and len(fast) >= len(canaries(2))


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda path: path.name)
def test_a_sample_transcript_is_scanned_alike_field_by_field(path) -> None:
    transcript = parse(path.read_bytes())
    assert both_ways(lambda: scan_transcript(transcript)) == ([], [])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.sampled_from(CANARY_TEXTS), min_size=1, max_size=6))
def test_generated_text_with_planted_secrets_gives_the_same_findings(seed: int, secrets: list[str]) -> None:
    writer = Corpus(seed)
    text = planted("\n".join(writer.block() for _ in range(8)), secrets, random.Random(seed))
    fast, standard = both_ways(lambda: scan_text(text))
    assert fast == standard and fast


def test_overlapping_matches_of_one_pattern_are_each_found() -> None:
    shapes, _ = find_anchors(OVERLAPPING)
    with using("re"):
        assert sorted(find_anchors(OVERLAPPING)[0]["Telegram"]) == sorted(shapes["Telegram"]) == [8, 44]


def test_the_engine_chosen_in_a_block_is_given_back_after_it() -> None:
    needs_hyperscan()
    text = f"{CANARY_TEXTS[0]}\nand some prose about a key: here"
    outside = find_anchors(text)
    with using("re"):
        with using("hyperscan"):
            assert find_anchors(text) == outside
        assert {key: sorted(at) for key, at in find_anchors(text)[0].items()} == \
               {key: sorted(at) for key, at in outside[0].items()}
    assert find_anchors(text) == outside


def test_an_unknown_engine_is_refused() -> None:
    with pytest.raises(ValueError, match="no anchor engine called 'pcre'"):
        with using("pcre"):
            pass


def test_the_re_engine_refuses_a_caseless_pattern_that_lowercasing_would_change() -> None:
    with pytest.raises(ValueError, match="escaped letter"):
        ReEngine([(r"key\S", True)])
    assert ReEngine([(r"key\S", False)]).starts(b"key! KEY!") == [[0]]


BLOCKED = """
import json, sys
sys.modules["hyperscan"] = None  # `import hyperscan` raises ImportError, as where it is not installed
from viewer.secrets import scan_text
from viewer.secrets.anchors import DEFAULT_ENGINE
texts = json.loads(sys.stdin.read())
print(json.dumps([DEFAULT_ENGINE, [[[finding.start, finding.end, finding.kind, finding.preview]
                                     for finding in scan_text(text)] for text in texts]]))
"""


def test_the_scan_works_and_finds_the_same_secrets_where_hyperscan_cannot_be_imported() -> None:
    texts = CANARY_TEXTS[:60] + [planted(ORDINARY[:20_000], CANARY_TEXTS[:5], random.Random(1))]
    result = subprocess.run([sys.executable, "-c", BLOCKED], input=json.dumps(texts), cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    engine, findings = json.loads(result.stdout)
    assert engine == "re"
    assert findings == [[[finding.start, finding.end, finding.kind, finding.preview] for finding in scan_text(text)]
                        for text in texts]  # as this process finds them, with Hyperscan where it has it
    assert all(findings[:60])


BLOCKED_PERSONAL = """
import json, sys
sys.modules["hyperscan"] = None  # as where Hyperscan is not installed
from viewer.secrets.personal.scan import scan_personal
texts = json.loads(sys.stdin.read())
print(json.dumps([[[finding.start, finding.end, finding.kind] for finding in scan_personal(text)] for text in texts]))
"""


def test_personal_data_is_found_alike_where_hyperscan_cannot_be_imported() -> None:
    from tests.secrets.test_personal import FOUND, NEAR_MISSES
    from viewer.secrets.personal.scan import scan_personal

    texts = [text for _, text, _ in FOUND] + NEAR_MISSES + [ORDINARY[:20_000] + "\n".join(text for _, text, _ in FOUND)]
    result = subprocess.run([sys.executable, "-c", BLOCKED_PERSONAL], input=json.dumps(texts), cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == [[[finding.start, finding.end, finding.kind] for finding in scan_personal(text)]
                                         for text in texts]
