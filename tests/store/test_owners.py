"""Owners and the search across an owner's uploads (viewer/store/owners.py, viewer/store/owner_search.py): which uploads
a list may hold, its order and windows, deletion, the search keys' blocks, and the grouped search with its
windows, caps and views. Both databases (the `store` fixture)."""
from __future__ import annotations

import datetime as dt

import pytest

from tests.store.test_search import SYNTAX
from tests.web.conftest import harmony
from viewer import ingest
from viewer.store import Store, hash_key, owner_search, summaries
from viewer.store.search import parse_query

ALICE, BOB = hash_key("alice-key"), hash_key("bob-key")


def put(store: Store, number: int, *messages: tuple[str, str, str], owner: str | None = ALICE) -> str:
    """Upload `number` (ids sort in upload order) with a manage key, in `owner`'s list."""
    id = f"upload{number:016d}"
    ingest.store_upload(store, harmony(*messages or [("user", "", f"tides number {number}")]), id=id,
                        manage_hash=hash_key(f"manage-{number}"))
    if owner is not None:
        store.owners.add(owner, [id])
    return id


def search(store: Store, query: str, owner: str = ALICE, view: str = "default", **window) -> owner_search.OwnerResults:
    return store.owner_search.find(store.owners.blocks(owner), parse_query(query), view, **window)


def test_a_list_holds_live_uploads_with_a_manage_key_newest_first(store):
    ids = [put(store, n) for n in range(3)]
    ingest.store_sample(store, harmony(("user", "", "sample")), id="sample-one", name="one")
    assert store.owners.add(ALICE, ["sample-one", "no-such-upload", ids[0]]) == 1  # a sample has no manage key
    assert [record.id for record in store.owners.window(ALICE, 0, 10)] == ids[::-1]
    assert [record.id for record in store.owners.window(ALICE, 1, 1)] == [ids[1]]
    assert store.owners.count(ALICE) == 3 and store.owners.count(BOB) == 0
    assert store.owners.owned(ALICE, [ids[0], "sample-one"]) == {ids[0]}


def test_an_upload_may_be_in_several_lists(store):
    id = put(store, 0)
    store.owners.add(BOB, [id])
    assert store.owners.holds(ALICE, id) and store.owners.holds(BOB, id)


def test_deleting_an_upload_takes_it_out_of_every_list(store):
    id = put(store, 0)
    store.owners.add(BOB, [id])
    store.delete(id)
    assert not store.owners.holds(ALICE, id) and not store.owners.holds(BOB, id)
    assert store.owners.add(ALICE, [id]) == 0  # a tombstone cannot be adopted again


def test_an_expired_upload_leaves_the_list_before_it_is_pruned(store):
    ids = [put(store, n) for n in range(2)]
    store.set_expiry(ids[0], dt.datetime.now(dt.timezone.utc) - dt.timedelta(seconds=1))
    assert [record.id for record in store.owners.window(ALICE, 0, 10)] == [ids[1]]
    # Its search keys stay until it is pruned (the web app drops it with its record); then they go.
    assert sorted(store.owners.blocks(ALICE).values()) == ids
    store.prune()
    assert list(store.owners.blocks(ALICE).values()) == [ids[1]]


def test_a_dataset_is_one_upload_and_one_block(store):
    raw = "".join('{"messages": [{"role": "user", "content": "tides %d"}]}\n' % n for n in range(3)).encode()
    ingest.store_upload(store, raw, id="dataset0000000000000000", manage_hash="m")
    conversation = summaries.conversation_id("dataset0000000000000000", 1)
    assert store.get(conversation) is not None
    assert store.owners.add(ALICE, ["dataset0000000000000000", conversation]) == 1  # not a conversation alone
    assert store.owners.count(ALICE) == 1
    assert list(store.owners.blocks(ALICE).values()) == ["dataset0000000000000000"]
    found = search(store, "tides")
    assert [(hit.conversation, hit.index) for hit in found.groups[0].hits] == [(0, 0), (1, 0), (2, 0)]


def test_merging_puts_one_lists_uploads_in_another(store):
    mine, theirs = put(store, 0), put(store, 1, owner=BOB)
    store.owners.merge(ALICE, BOB)
    assert store.owners.owned(BOB, [mine, theirs]) == {mine, theirs}


def test_the_search_groups_by_upload_newest_first_in_reading_order(store):
    old = put(store, 0, ("user", "", "tides"), ("assistant", "final", "no tides"), ("user", "", "tides!"))
    put(store, 1, ("user", "", "nothing"))
    new = put(store, 2)
    found = search(store, "tides", per_group=2)
    assert [group.upload_id for group in found.groups] == [new, old]
    assert [hit.index for hit in found.groups[1].hits] == [0, 1] and found.groups[1].count == 3
    assert found.next_before is None


@pytest.mark.parametrize("probes", [0, 1, 3, 32])
def test_the_search_is_windowed_by_upload(store, monkeypatch, probes):
    monkeypatch.setattr(owner_search, "PROBES", probes)  # the newest blocks probed one by one, the older ones scanned
    ids = [put(store, n) for n in range(5)]
    first = search(store, "tides", groups=2)
    assert [group.upload_id for group in first.groups] == ids[4:2:-1]
    second = search(store, "tides", groups=2, before=first.next_before)
    third = search(store, "tides", groups=2, before=second.next_before)
    assert [group.upload_id for group in second.groups] == ids[2:0:-1]
    assert [group.upload_id for group in third.groups] == ids[:1] and third.next_before is None


def test_a_groups_count_is_capped(store, monkeypatch):
    monkeypatch.setattr(owner_search, "GROUP_COUNT_CAP", 3)
    put(store, 0, *[("user", "", "same")] * 5)
    group = search(store, "same").groups[0]
    assert (group.count, group.more) == (3, True)


@pytest.mark.parametrize("probes", [0, 32])
def test_the_search_reads_only_the_owners_uploads(store, monkeypatch, probes):
    monkeypatch.setattr(owner_search, "PROBES", probes)
    alices = put(store, 0, ("user", "", "alice writes tides"))
    bobs = put(store, 1, ("user", "", "bob writes tides"), owner=BOB)
    put(store, 2, ("user", "", "alice again"))
    assert [group.upload_id for group in search(store, "tides").groups] == [alices]
    assert [group.upload_id for group in search(store, "tides", owner=BOB).groups] == [bobs]
    assert search(store, "bob").groups == ()
    assert search(store, "tides", owner=hash_key("nobody")).groups == ()


def test_the_default_view_finds_no_hidden_text_and_the_debug_view_does(store):
    id = put(store, 0, ("developer", "", "HIDDENCANARY"), ("assistant", "analysis", "HIDDENCANARY thinking"),
             ("user", "", "shown"))
    assert search(store, "HIDDENCANARY").groups == ()
    debug = search(store, "HIDDENCANARY", view="debug")
    assert debug.groups[0].upload_id == id and [hit.index for hit in debug.groups[0].hits] == [0, 1]


@pytest.mark.parametrize("query", SYNTAX)
def test_query_syntax_never_errors_across_uploads(store, query):
    put(store, 0)
    for view in ("default", "debug"):
        try:
            parsed = parse_query(query)
        except ValueError:
            continue
        store.owner_search.find(store.owners.blocks(ALICE), parsed, view)


def test_a_window_before_an_absurd_block_is_the_first(store):
    id = put(store, 0)
    assert [group.upload_id for group in search(store, "tides", before=2**80).groups] == [id]
    assert search(store, "tides", before=0).groups == ()
