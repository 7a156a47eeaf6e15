"""Two people on one server never see each other's lists or search results: a second owner, a link holder
(whose share link gives no owner rights) and an anonymous client each get nothing of the first owner's list,
search or deleted transcripts, and cannot act on them. Both databases (the app fixtures)."""
from __future__ import annotations

import re

import pytest

from tests.web.conftest import harmony, soup
from tests.web.test_yours import act, csrf, form_upload, groups, listed

CANARY = "OWNERONECANARY"


@pytest.fixture
def first(client) -> list[str]:
    """The first owner's two uploads, one with its debug view open to link holders."""
    ids = [form_upload(client, harmony(("user", "", f"{CANARY} question"), ("assistant", "analysis", "thinking"))),
           form_upload(client, harmony(("developer", "", f"{CANARY} rules")), allow_debug="on")]
    return ids


@pytest.fixture
def second_owner(app):
    """Another browser with an upload of its own."""
    other = app.test_client()
    form_upload(other, harmony(("user", "", "second owner's own question")))
    return other


@pytest.fixture
def link_holder(app, first):
    """A browser that opened both share links (and so holds them)."""
    holder = app.test_client()
    for id in first:
        assert holder.get(f"/t/{id}").status_code == 200
    return holder


@pytest.fixture
def anonymous(app):
    return app.test_client()


OTHERS = ("second_owner", "link_holder", "anonymous")


def _page_without_tokens(response) -> str:
    """A page with its CSRF token blanked: the one thing that differs between two empty lists."""
    return re.sub(r'name="csrf" value="[^"]*"', 'name="csrf" value=""', response.get_data(as_text=True))


@pytest.mark.parametrize("who", OTHERS)
def test_others_list_none_of_the_first_owners_transcripts(request, client, first, who):
    other = request.getfixturevalue(who)
    assert not set(listed(other)) & set(first)
    assert set(listed(client)) == set(first)


@pytest.mark.parametrize("who", OTHERS)
def test_others_search_finds_nothing_of_the_first_owners(request, first, who):
    other = request.getfixturevalue(who)
    for view in ("default", "debug"):
        response = other.get("/transcripts/search", query_string={"q": CANARY, "view": view})
        assert response.status_code == 200 and groups(response) == []
        assert soup(response).select(".search-hit") == []


def test_an_empty_list_looks_the_same_with_or_without_an_owner_key(app, link_holder, anonymous):
    # The link holder opened pages (and may hold cookies); neither can tell whether the first owner has a list.
    assert _page_without_tokens(link_holder.get("/transcripts")) == _page_without_tokens(anonymous.get("/transcripts"))


@pytest.mark.parametrize("who", OTHERS)
def test_others_cannot_act_on_the_first_owners_transcripts(request, client, first, who):
    other = request.getfixturevalue(who)
    for action in ("delete", "allow-debug", "set-expiry"):
        response = act(other, action, first[0], confirm="yes", expires="1d")
        assert response.status_code == 403
    # The same answer for an id that does not exist: a refusal tells nothing about whose an id is.
    assert act(other, "delete", "A" * 22, confirm="yes").status_code == 403
    assert set(listed(client)) == set(first)
    assert other.get(f"/t/{first[0]}?view=debug").status_code == 403


def test_a_share_link_gives_no_owner_rights(link_holder, first):
    assert link_holder.get(f"/t/{first[0]}/manage").status_code == 403
    assert link_holder.get(f"/t/{first[1]}?view=debug").status_code == 200  # the debug view it was allowed
    assert listed(link_holder) == []


def test_one_foreign_id_in_a_selection_refuses_the_whole_action(client, second_owner, first):
    theirs = listed(second_owner)[0]
    assert act(client, "delete", first[0], theirs, confirm="yes").status_code == 403
    assert set(listed(client)) == set(first) and listed(second_owner) == [theirs]


def test_a_deleted_transcript_is_gone_for_everyone(client, first, link_holder, second_owner):
    act(client, "delete", first[0], confirm="yes")
    for reader in (client, link_holder, second_owner):
        assert reader.get(f"/t/{first[0]}").status_code == 410
        assert reader.get(f"/t/{first[0]}/raw").status_code == 410
        found = groups(reader.get("/transcripts/search", query_string={"q": "question", "view": "debug"}))
        assert first[0] not in found and first[0] not in listed(reader)
    assert groups(client.get("/transcripts/search", query_string={"q": CANARY, "view": "debug"})) == [first[1]]


def test_the_second_owner_sees_only_their_own(client, second_owner, first):
    theirs = listed(second_owner)
    assert len(theirs) == 1 and theirs[0] not in first
    assert groups(second_owner.get("/transcripts/search?q=question")) == theirs
    assert groups(client.get("/transcripts/search?q=question")) == [first[0]]
    assert csrf(second_owner)  # the page works for them; only its content differs
