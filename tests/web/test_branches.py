"""Branches of a tree-shaped conversation in the views: the debug view draws a switcher on each message that
starts a branch, each branch has a URL (`?branch=N`, validated) that the switcher's plain links and htmx follow,
a switcher links to the compare page of two branches; the default view shows the app's branch unless the reader
picks another version where the app offered one (tests/web/test_versions.py), and its exports say that other
versions exist."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.web.conftest import soup

SAMPLES = Path(__file__).resolve().parents[2] / "sample_transcripts"
CHATGPT = SAMPLES / "chatgpt-export-branches-tools-memory.json"
CLAUDE_CODE = SAMPLES / "claude-code-1.0-rewind-fork.jsonl"


def _indices(page) -> list[int]:
    return [int(item["data-index"]) for item in page.select("ol.entries > li[data-index]")]


def test_the_debug_view_draws_a_switcher_on_each_message_that_starts_a_branch(client, owned):
    id = owned(CHATGPT.read_bytes())
    page = soup(client.get(f"/t/{id}/c/0?view=debug"))
    switches = {int(nav.find_parent("li")["data-index"]): nav for nav in page.select("nav.branch-switch")}
    assert sorted(switches) == [2, 4, 5, 6]
    assert switches[2].select_one(".branch-kind").get_text() == "edited, 1 / 2"
    assert switches[6].select_one(".branch-kind").get_text() == "regenerated, 2 / 2"
    shown = switches[4].select_one("a[aria-current]")
    assert shown.get_text() == "2" and "branch=4" in shown["href"]


def test_a_branch_link_follows_that_branch_and_leaves_the_others_out(client, owned):
    id = owned(CHATGPT.read_bytes())
    link = soup(client.get(f"/t/{id}/c/0?view=debug")).select_one("li[data-index='2'] nav.branch-switch a[data-branch='1']")
    page = soup(client.get(link["href"].split("#")[0]))
    assert _indices(page) == [0, 1, 2, 3]
    assert "CANARY-EDITED-AWAY" in page.get_text()
    assert page.select_one("li[data-index='2'] nav.branch-switch a[aria-current]").get_text() == "1"
    regenerated = soup(client.get(f"/t/{id}/c/0?view=debug&branch=5"))
    assert _indices(regenerated) == [0, 1, 4, 5]


def test_htmx_swaps_the_transcript_region_for_a_branch(client, owned):
    id = owned(CHATGPT.read_bytes())
    page = soup(client.get(f"/t/{id}/c/0?view=debug"))
    link = page.select_one("li[data-index='5'] nav.branch-switch a[data-branch='1']")
    assert link["hx-target"] == "#transcript" and link["hx-push-url"] == "true"
    fragment = client.get(link["hx-get"], headers={"HX-Request": "true"})
    assert fragment.status_code == 200
    region = soup(fragment)
    assert region.select_one("section#transcript") is not None and region.select_one("html") is None
    assert _indices(region) == [0, 1, 4, 5]


@pytest.mark.parametrize("value", ["x", "-1", "999", "2.0"])
def test_an_unknown_branch_is_a_404(client, owned, value):
    id = owned(CHATGPT.read_bytes())
    assert client.get(f"/t/{id}/c/0?view=debug&branch={value}").status_code == 404


def test_the_default_view_shows_the_apps_branch_and_says_others_exist(client, owned, stranger):
    id = owned(CHATGPT.read_bytes())
    for who in (client, stranger):
        for url in (f"/t/{id}/c/0", f"/t/{id}/c/0.json?branch=2"):
            response = who.get(url)
            assert response.status_code == 200
            assert "CANARY" not in response.get_data(as_text=True), url
        page = soup(who.get(f"/t/{id}/c/0"))
        assert _indices(page) == [4, 6]
        assert "other versions" in page.select_one("#versions-note").get_text()
        assert not page.select("nav.branch-switch")
    assert "other versions" not in soup(client.get(f"/t/{id}/c/1")).select_one("#policy-note").get_text()
    for export in (".md", ".html"):
        assert "other versions" in client.get(f"/t/{id}/c/0{export}").get_data(as_text=True)
    assert client.get(f"/t/{id}/c/0.json").get_json()["other_versions"] is True
    assert "other_versions" not in client.get(f"/t/{id}/c/1.json").get_json()


def test_a_switcher_links_to_the_compare_page_of_two_branches(client, owned, stranger):
    id = owned(CHATGPT.read_bytes())
    link = soup(client.get(f"/t/{id}/c/0?view=debug")).select_one("li[data-index='6'] a.branch-compare")
    response = client.get(link["href"])
    assert response.status_code == 200
    text = soup(response).get_text()
    assert "CANARY-REGENERATED-AWAY" in text and "Day one:" in text
    assert "Version 1 (regenerated)" in text and "Version 2 (shown)" in text
    assert client.get(f"/compare/{id}.0@5/{id}.0@6").status_code == 400  # the default view shows no other branch
    toggle = soup(response).select_one(".toggle")
    assert not [a for a in toggle.select("a") if a.get_text() == "Default view"]  # so the page offers none
    assert stranger.get(link["href"]).status_code == 403


def test_a_claude_code_fork_has_the_same_switcher(client, owned):
    id = owned(CLAUDE_CODE.read_bytes())
    page = soup(client.get(f"/t/{id}?view=debug"))
    assert [nav.select_one(".branch-kind").get_text() for nav in page.select("nav.branch-switch")] == [
        "edited, 1 / 2", "edited, 2 / 2"]
    chosen = soup(client.get(f"/t/{id}?view=debug&branch=3"))
    assert 4 not in _indices(chosen) and 3 in _indices(chosen)


def test_what_the_model_saw_holds_only_the_branch_that_leads_to_the_message(client, owned):
    id = owned(CHATGPT.read_bytes())
    page = soup(client.get(f"/t/{id}/c/0/context/6")).get_text()
    assert "two days, on foot" in page
    assert "CANARY-EDITED-AWAY" not in page and "CANARY-REGENERATED-AWAY" not in page
    earlier = soup(client.get(f"/t/{id}/c/0/context/3")).get_text()
    assert "CANARY-EDITED-AWAY" in earlier and "two days, on foot" not in earlier
