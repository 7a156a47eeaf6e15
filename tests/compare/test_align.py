"""The alignment of two fingerprint lists and the word diff: every item on each side appears once and in
order, equal rows are equal, changed rows share a loose key; linear-ish on long inputs."""
from __future__ import annotations

import random
import time

from viewer.compare import align, word_diff


def check(a, b):
    steps = align(a, b, [x[0] for x in a], [x[0] for x in b])
    assert [s.a for s in steps if s.a is not None] == list(range(len(a)))
    assert [s.b for s in steps if s.b is not None] == list(range(len(b)))
    for step in steps:
        assert step.op in ("same", "changed", "deleted", "inserted")
        if step.op == "same":
            assert a[step.a] == b[step.b]
        if step.op == "changed":
            assert a[step.a][0] == b[step.b][0] and a[step.a] != b[step.b]
    return [step.op for step in steps]


def test_a_changed_message_between_equal_ones_is_one_changed_row():
    assert check([("u", 1), ("a", 2), ("u", 3)], [("u", 1), ("a", 5), ("u", 3)]) == ["same", "changed", "same"]


def test_insertions_and_deletions():
    assert check([("s", 0), ("u", 1), ("a", 2), ("u", 3)], [("u", 1), ("a", 2), ("a", 9), ("u", 3)]) == [
        "deleted", "same", "same", "inserted", "same"]
    assert check([], [("u", 1)]) == ["inserted"] and check([("u", 1)], []) == ["deleted"] and check([], []) == []


def test_random_lists_always_align_consistently():
    rng = random.Random(11)
    for _ in range(3000):
        a = [(rng.choice("ua"), rng.randint(0, 4)) for _ in range(rng.randint(0, 14))]
        b = [(rng.choice("ua"), rng.randint(0, 4)) for _ in range(rng.randint(0, 14))]
        check(a, b)


def test_long_lists_align_in_bounded_time():
    n = 100_000
    rng = random.Random(3)
    cases = {"few changes": ([("u", i) for i in range(n)], [("u", -i if i % 1000 == 7 else i) for i in range(n)]),
             "shuffled": ([("u", i) for i in range(n)], rng.sample([("u", i) for i in range(n)], n)),
             "few distinct": ([("u", rng.randint(0, 3)) for _ in range(n)], [("u", rng.randint(0, 3)) for _ in range(n)])}
    for name, (a, b) in cases.items():
        started = time.perf_counter()
        check(a, b)
        assert time.perf_counter() - started < 10, name


def test_word_diff_marks_the_words_that_changed():
    left, right = word_diff("It is 18 C in Paris.", "It is 21 C in Paris today.")
    assert [(r.op, r.text) for r in left] == [("equal", "It is "), ("delete", "18"), ("equal", " C in Paris.")]
    assert [(r.op, r.text) for r in right] == [("equal", "It is "), ("insert", "21"), ("equal", " C in Paris"),
                                               ("insert", " today"), ("equal", ".")]
    assert word_diff("a" * 30_000, "b") is None


def test_word_diff_of_long_texts_with_few_distinct_words_is_quick():
    rng = random.Random(5)
    words = ["the", "a", "of", "cat"]
    a = " ".join(rng.choice(words) for _ in range(3_000))
    b = " ".join(rng.choice(words) for _ in range(3_000))
    started = time.perf_counter()
    left, right = word_diff(a, b)
    assert time.perf_counter() - started < 2
    assert "".join(r.text for r in left) == a and "".join(r.text for r in right) == b
