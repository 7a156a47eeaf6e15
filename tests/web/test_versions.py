"""Versions where the app showed them: the default view of a chat app's conversation draws "‹ 1/2 ›" at each fork the
app offered (an edited question, a regenerated answer), follows the version a reader picks (`?branch=N`, kept
across views and in the URL), and shows of it only what the policy shows on any branch: a hidden message of the
version picked (its reasoning) stays hidden. An agent's rewind had no switcher: its default view takes no choice.
The exports, the JSON twin and the search keep the app's versions."""
from __future__ import annotations

import copy
import json

import pytest

from tests.web.conftest import soup, text_of
from tests.web.test_branches import CHATGPT, CLAUDE_CODE

THOUGHTS_ID = "b1a2c3d4-0010-4000-8000-000000000010"


def _export_with_hidden_reasoning_on_another_version() -> bytes:
    """The sample's first conversation, with the reasoning ChatGPT keeps before an answer (a `thoughts` message)
    put before the regenerated answer the app no longer showed."""
    conversation = copy.deepcopy(json.loads(CHATGPT.read_text(encoding="utf-8"))[0])
    mapping = conversation["mapping"]
    asked, away = "b1a2c3d4-0006-4000-8000-000000000006", "b1a2c3d4-0007-4000-8000-000000000007"
    mapping[THOUGHTS_ID] = {"id": THOUGHTS_ID, "message": {
        "id": THOUGHTS_ID, "author": {"role": "assistant", "name": None, "metadata": {}}, "create_time": 1731400063.0,
        "update_time": None, "content": {"content_type": "thoughts", "thoughts": [
            {"summary": "Planning", "content": "CANARY-THOUGHTS-AWAY two days are enough", "chunks": [],
             "finished": True}], "source_analysis_msg_id": "d0d0d0d0-0000-4000-8000-000000000001"},
        "status": "finished_successfully", "end_turn": None, "weight": 1.0,
        "metadata": {"model_slug": "o3", "reasoning_status": "is_reasoning"}, "recipient": "all", "channel": None},
        "parent": asked, "children": [away]}
    mapping[asked]["children"] = [THOUGHTS_ID, "b1a2c3d4-0009-4000-8000-000000000009"]
    mapping[away]["parent"] = THOUGHTS_ID
    return json.dumps([conversation]).encode()


@pytest.fixture
def export(owned) -> str:
    """The conversation's page: #4 the question (edited from #2), #5 the hidden reasoning and #6 the answer of
    the regenerated version, #7 the answer the app showed."""
    return f"/t/{owned(_export_with_hidden_reasoning_on_another_version())}/c/0"


def _indices(page) -> list[int]:
    return [int(item["data-index"]) for item in page.select("ol.entries > li[data-index]")]


def _versions(page) -> dict[int, tuple[str, list[str]]]:
    """Each message's switcher: its "n/m" and where its steps lead."""
    return {int(nav.find_parent("li")["data-index"]): (nav.select_one(".version-count").get_text(),
                                                        [a["href"] for a in nav.select("a.version-step")])
            for nav in page.select("nav.versions")}


def test_the_default_view_draws_a_switcher_at_each_fork_the_app_offered(client, export):
    page = soup(client.get(export))
    assert _indices(page) == [4, 7]
    versions = _versions(page)
    assert versions[4] == ("2/2", [f"{export}?branch=2&at=2#m-2"])
    assert versions[7] == ("2/2", [f"{export}?branch=5&at=5#m-5"])  # on the answer: its version begins hidden
    step = page.select_one("li[data-index='4'] a.version-step")
    assert step["hx-target"] == "#transcript" and step["hx-push-url"] == "true" and step["data-land"] == "m-2"
    assert step["aria-label"] == "Version 1 of 2"
    assert "the app showed this one" in page.select_one("li[data-index='4'] nav.versions").get_text()
    assert len({nav["aria-label"] for nav in page.select("nav.versions")}) == 2  # each landmark named apart


def test_a_version_picked_shows_what_the_user_saw_of_it_and_nothing_hidden(client, stranger, export):
    for who in (client, stranger):
        for headers in ({}, {"HX-Request": "true"}):
            response = who.get(f"{export}?branch=5&at=5", headers=headers)
            assert response.status_code == 200
            page = soup(response)
            assert _indices(page) == [4, 6]
            assert "CANARY-REGENERATED-AWAY" in page.get_text()
            assert "CANARY-THOUGHTS-AWAY" not in text_of(response)  # reasoning is hidden on every version
            assert "CANARY-EDITED-AWAY" not in text_of(response)
    page = soup(client.get(f"{export}?branch=5"))
    assert _versions(page)[6] == ("1/2", [f"{export}?branch=7&at=7#m-7"])
    assert "a version the app did not show" in page.select_one("#versions-note").get_text()
    edited = soup(client.get(f"{export}?branch=2"))
    assert _indices(edited) == [2, 3] and "CANARY-EDITED-AWAY" in edited.get_text()
    assert _versions(edited)[2] == ("1/2", [f"{export}?branch=4&at=4#m-4"])


def test_the_choice_is_kept_across_views_and_windows(client, export):
    page = soup(client.get(f"{export}?branch=2"))
    toggle = {a.get_text(): a["href"] for a in page.select(".toggle a")}
    assert toggle == {"Default view": f"{export}?branch=2", "Debug view": f"{export}?view=debug&branch=2"}
    debug = soup(client.get(f"{export}?view=debug&branch=2"))
    assert {a.get_text(): a["href"] for a in debug.select(".toggle a")}["Default view"] == f"{export}?branch=2"
    window = client.get(f"{export}/window?start=0&direction=next&branch=2", headers={"HX-Request": "true"})
    assert _indices(soup(window)) == [2, 3]


def test_the_exports_the_json_twin_and_the_search_keep_the_apps_versions(client, export):
    for url in (f"{export}.json?branch=5", f"{export}.md?branch=5", f"{export}.html?branch=5",
                f"{export}/search?q=Alfama&branch=5"):
        assert "CANARY" not in client.get(url).get_data(as_text=True), url


@pytest.mark.parametrize("value", ["x", "-1", "999"])
def test_an_unknown_version_is_a_404(client, export, value):
    assert client.get(f"{export}?branch={value}").status_code == 404


def test_an_agents_rewind_had_no_switcher_so_its_default_view_takes_no_choice(client, owned):
    id = owned(CLAUDE_CODE.read_bytes())
    page = soup(client.get(f"/t/{id}?branch=3"))
    assert not page.select("nav.versions") and not page.select("#versions-note")
    assert _indices(page) == _indices(soup(client.get(f"/t/{id}")))
    assert "other versions" in page.select_one("#policy-note").get_text()
    assert {a.get_text(): a["href"] for a in soup(client.get(f"/t/{id}?view=debug&branch=3")).select(
        ".toggle a")}["Default view"] == f"/t/{id}"


def test_compare_names_the_two_versions(client, export):
    page = soup(client.get(f"/compare/{export.split('/')[2]}.0@2/{export.split('/')[2]}.0@4?view=debug"))
    heading = [cell.get_text() for cell in page.select(".cmp-heading .cmp-cell")]
    assert heading[0].startswith("A · Version 1 (edited)") and heading[1].startswith("B · Version 2 (shown)")
    answers = soup(client.get(f"/compare/{export.split('/')[2]}.0@6/{export.split('/')[2]}.0@7?view=debug"))
    assert [cell.get_text() for cell in answers.select(".cmp-heading .cmp-cell")][0].startswith(
        "A · Version 1 (regenerated)")
