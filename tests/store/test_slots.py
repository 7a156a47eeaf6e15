"""The processing slots every serving process shares (viewer/store/slots.py): at most `limit` taken at once
whoever takes them, a slot given back is free again, and a slot whose holder stopped is taken over by one
taker. On SQLite and PostgreSQL."""
from __future__ import annotations



ALIVE = lambda worker, beat: False  # noqa: E731 - every holder alive
STOPPED = lambda worker, beat: worker == "gone"  # noqa: E731


def test_no_more_slots_are_taken_than_the_limit_whoever_takes_them(store):
    taken = [store.slots.take(worker, 3, ALIVE) for worker in ("a", "b", "a", "c")]
    assert sorted(taken[:3]) == [0, 1, 2] and taken[3] is None
    assert store.slots.take("d", 4, ALIVE) == 3  # a process allowed more takes the slots above


def test_a_slot_given_back_is_free_again_but_only_its_holder_gives_it_back(store):
    assert store.slots.take("a", 1, ALIVE) == 0
    store.slots.give_back(0, "b")
    assert store.slots.take("b", 1, ALIVE) is None
    store.slots.give_back(0, "a")
    assert store.slots.take("b", 1, ALIVE) == 0


def test_a_slot_whose_holder_stopped_is_taken_over_once(store):
    assert store.slots.take("gone", 1, ALIVE) == 0
    assert store.slots.take("b", 1, STOPPED) == 0
    assert store.slots.take("c", 1, STOPPED) is None  # "b" holds it now, and is alive
    assert store.slots.holders()[0][0] == "b"
    store.slots.give_back(0, "gone")  # the stopped process, back after all, no longer holds it
    assert store.slots.holders()[0][0] == "b"


def test_a_heartbeat_renews_only_its_worker_s_slots(store):
    store.slots.take("a", 2, ALIVE), store.slots.take("b", 2, ALIVE)
    before = store.slots.holders()
    store.slots.beat("a")
    after = store.slots.holders()
    moved = {number for number in after if after[number][1] != before[number][1]}
    assert {after[number][0] for number in moved} == {"a"}


def test_a_take_that_raced_another_process_reads_the_slots_again(store, monkeypatch):
    assert store.slots.take("b", 2, ALIVE) == 0
    stale, real = {1: ("b", None)}, store.slots.holders  # read while "b" held slot 1, before it moved to 0
    reads = iter([stale])
    monkeypatch.setattr(store.slots, "holders", lambda: next(reads, None) or real())
    assert store.slots.take("a", 2, ALIVE) == 1  # slot 0 was taken meanwhile, slot 1 given back
