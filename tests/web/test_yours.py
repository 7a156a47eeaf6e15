"""Your transcripts (GET /transcripts and its actions, GET /transcripts/search): what the owner key's browser
lists, how uploads get into the list (upload, manage link, a tool's key, the old session list), what the
actions do, and the search across the list. Both databases (the app fixtures). What others get: test_yours_isolation.py."""
from __future__ import annotations

import datetime as dt

import pytest

from tests.web.conftest import WEATHER, harmony, soup
from viewer.web import ownership
from viewer.web.views import yours

TOOL_KEY = "tool-key-" + "x" * 40


def listed(client, **query) -> list[str]:
    """The ids the list shows, in order."""
    return [row["data-id"] for row in soup(client.get("/transcripts", query_string=query)).select("tr[data-id]")]


def form_upload(client, raw: bytes = None, **fields) -> str:
    response = client.post("/transcripts", data={"text": (raw or WEATHER.read_bytes()).decode(), **fields},
                           content_type="application/x-www-form-urlencoded")
    assert response.status_code == 303
    return response.headers["Location"].rsplit("/", 1)[1]


def csrf(client) -> str:
    return soup(client.get("/transcripts")).find("input", attrs={"name": "csrf"})["value"]


def act(client, action: str, *ids: str, **fields):
    return client.post("/transcripts/actions", data={"csrf": csrf(client), "action": action, "id": list(ids),
                                                     **fields})


def groups(response) -> list[str]:
    """The ids of the uploads the search results group, in order."""
    return [group["data-id"] for group in soup(response).select("li.across-group")]


def test_an_upload_by_form_is_listed_with_its_facts_and_actions(client):
    id = form_upload(client, harmony(("user", "", "hello"), ("assistant", "final", "hi")), allow_debug="on",
                     expires="7d")
    page = soup(client.get("/transcripts"))
    row = page.select_one(f"tr[data-id='{id}']")
    cells = [cell.get_text(" ", strip=True) for cell in row.find_all("td")]
    assert cells[1].startswith("Pasted transcript") and cells[2] == "harmony" and cells[4] == "2"
    assert row.select_one("[data-secret-count]")["data-secret-count"] == "0"
    assert row.select_one("[data-debug-state]")["data-debug-state"] == "allowed"
    assert row.select_one("[data-expiry]")["data-expiry"] != "never"
    assert row.select_one("button.copy-value")["data-copy"] == f"http://localhost/t/{id}"
    assert {button["value"] for button in row.select("button[name=action]")} == {"set-expiry", "deny-debug", "delete"}


def test_the_list_is_newest_first_and_windowed(client, monkeypatch):
    monkeypatch.setattr(yours, "PAGE_SIZE", 2)
    ids = [form_upload(client) for _ in range(3)]
    assert listed(client) == ids[::-1][:2]
    assert listed(client, start=2) == ids[:1]
    pager = soup(client.get("/transcripts")).select_one("nav.pager")
    assert "1–2 of 3" in pager.get_text() and pager.find("a", string="Older")["href"] == "/transcripts?start=2"


def test_a_manage_link_adopts_its_transcript_into_a_second_browsers_list(app, client, upload):
    created = upload()
    other = app.test_client()
    assert listed(other) == []
    assert other.get(created["manage_url"]).status_code == 303
    assert listed(other) == [created["id"]]
    assert client.get(created["manage_url"]).status_code == 303  # the first browser too: both list it
    assert listed(client) == [created["id"]]


def test_api_uploads_with_an_owner_key_are_listed_once_a_browser_takes_that_key(app, client):
    tool = app.test_client()
    body = tool.post("/api/transcripts", data=WEATHER.read_bytes(), headers={ownership.HEADER: TOOL_KEY}).get_json()
    assert body["listed"] is True and listed(tool) == []  # the tool's key is in no cookie
    mine = form_upload(client)
    response = client.post("/transcripts/key", data={"csrf": csrf(client), "owner_key": TOOL_KEY})
    assert response.status_code == 303
    assert set(listed(client)) == {mine, body["id"]}  # the browser's own uploads joined the tool's list
    assert client.get_cookie("owner").value.startswith(TOOL_KEY + ".")  # signed by this server
    assert client.get(f"/t/{body['id']}?view=debug").status_code == 200  # owner rights come with the list


@pytest.mark.parametrize("key", ["short", "x" * 129, "has spaces in it but is long enough to pass...."])
def test_a_malformed_owner_key_is_a_400(client, key):
    response = client.post("/api/transcripts", data=WEATHER.read_bytes(), headers={ownership.HEADER: key})
    assert response.status_code == 400 and ownership.HEADER in response.get_json()["error"]["message"]
    assert client.post("/transcripts/key", data={"csrf": csrf(client), "owner_key": key}).status_code == 400


def test_the_old_session_list_is_adopted_under_a_new_owner_key_once(client, upload):
    ids = [upload()["id"], upload()["id"]]
    with client.session_transaction() as session:  # what a browser carried before owner keys
        session[ownership.LEGACY_LIST] = [*ids, "no-such-id-at-all-000000"]
    home = client.get("/")  # cacheable: it sets no cookie, so it migrates nothing
    assert "Set-Cookie" not in home.headers and client.get_cookie("owner") is None
    assert set(listed(client)) == set(ids)
    assert client.get_cookie("owner") is not None
    with client.session_transaction() as session:
        assert ownership.LEGACY_LIST not in session
    assert client.get(f"/t/{ids[0]}?view=debug").status_code == 200


def test_debug_access_is_switched_for_one_and_for_a_selection(client, stranger):
    ids = [form_upload(client) for _ in range(2)]
    assert act(client, "allow-debug", ids[0]).status_code == 303
    assert [stranger.get(f"/t/{id}?view=debug").status_code for id in ids] == [200, 403]
    act(client, "allow-debug", *ids)
    assert [stranger.get(f"/t/{id}?view=debug").status_code for id in ids] == [200, 200]
    act(client, "deny-debug", *ids)
    assert [stranger.get(f"/t/{id}?view=debug").status_code for id in ids] == [403, 403]


def test_the_expiry_is_set_for_a_selection(client, app):
    ids = [form_upload(client) for _ in range(2)]
    act(client, "set-expiry", *ids, expires="1d")
    tomorrow = dt.datetime.now(dt.timezone.utc) + dt.timedelta(days=1)
    for id in ids:
        assert abs(app.extensions["viewer.store"].get(id).expires_at - tomorrow) < dt.timedelta(minutes=1)
    act(client, "set-expiry", ids[0], expires="never")
    assert app.extensions["viewer.store"].get(ids[0]).expires_at is None


def test_deleting_asks_first_then_is_immediate_everywhere(client, stranger):
    keep, *gone = [form_upload(client) for _ in range(3)]
    confirm = act(client, "delete", *gone)
    assert confirm.status_code == 200 and "Delete 2 transcripts?" in confirm.get_data(as_text=True)
    assert stranger.get(f"/t/{gone[0]}").status_code == 200  # not yet
    form = soup(confirm).select_one("form.danger-zone")
    data = {field["name"]: field["value"] for field in form.find_all("input") if field["name"] != "id"}
    response = client.post(form["action"], data={**data, "id": [field["value"] for field in
                                                               form.find_all("input", attrs={"name": "id"})]})
    assert response.status_code == 303
    for id in gone:
        for path in (f"/t/{id}", f"/t/{id}.json", f"/t/{id}/raw", f"/t/{id}/search?q=tokyo", f"/t/{id}.md"):
            assert stranger.get(path).status_code == 410, path
            assert client.get(path).status_code == 410, path
    assert listed(client) == [keep]
    assert groups(client.get("/transcripts/search?q=tokyo")) == [keep]


def test_actions_need_the_forms_token_and_the_sites_own_page(client):
    id = form_upload(client)
    assert client.post("/transcripts/actions", data={"action": "allow-debug", "id": id}).status_code == 400
    cross = client.post("/transcripts/actions", data={"csrf": csrf(client), "action": "allow-debug", "id": id},
                        headers={"Origin": "http://evil.example"})
    assert cross.status_code == 403
    assert act(client, "explode", id).status_code == 400
    assert act(client, "allow-debug").status_code == 400  # nothing ticked
    assert soup(client.get("/transcripts")).select_one("[data-debug-state]")["data-debug-state"] == "denied"


def test_search_groups_matches_by_transcript_newest_first_with_links_into_them(client):
    first = form_upload(client, harmony(("user", "", "tides at Brest"), ("assistant", "final", "high tides")))
    form_upload(client, harmony(("user", "", "nothing here")))
    last = form_upload(client, harmony(("user", "", "tides again")))
    response = client.get("/transcripts/search?q=tides")
    assert response.status_code == 200 and groups(response) == [last, first]
    group = soup(response).select_one(f"li.across-group[data-id='{first}']")
    assert [link["href"] for link in group.select("a.search-hit-link")] == [f"/t/{first}?at=0#m-0",
                                                                              f"/t/{first}?at=1#m-1"]
    assert "2 matches" in group.h2.get_text()


def test_search_across_is_windowed_by_transcript(client, monkeypatch):
    monkeypatch.setattr(yours, "GROUPS", 2)
    ids = [form_upload(client) for _ in range(3)]
    first = client.get("/transcripts/search?q=tokyo")
    assert groups(first) == ids[::-1][:2]
    older = soup(first).find("a", string="Older transcripts")["href"]
    assert groups(client.get(older)) == ids[:1]


def test_search_across_shows_the_first_matches_and_links_to_all(client, monkeypatch):
    id = form_upload(client, harmony(*[("user", "", f"needle {n}") for n in range(5)]))
    group = soup(client.get("/transcripts/search?q=needle")).select_one("li.across-group")
    assert len(group.select("li.search-hit")) == yours.PER_GROUP and "5 matches" in group.h2.get_text()
    assert group.select_one("p.group-more a")["href"] == f"/t/{id}/search?q=needle"


def test_the_owner_searches_hidden_messages_only_when_asked(client):
    id = form_upload(client, harmony(("developer", "", "DEVCANARY rules"), ("user", "", "hello")))
    assert groups(client.get("/transcripts/search?q=DEVCANARY")) == []
    debug = client.get("/transcripts/search?q=DEVCANARY&view=debug")
    assert groups(debug) == [id]
    assert soup(debug).select_one("a.search-hit-link")["href"] == f"/t/{id}?at=0&view=debug#m-0"


def test_a_datasets_matches_are_one_group_linking_to_its_conversations(client):
    raw = "".join('{"messages": [{"role": "user", "content": "tides %d"}]}\n' % n for n in range(3)).encode()
    id = form_upload(client, raw)
    response = client.get("/transcripts/search?q=tides")
    assert groups(response) == [id]
    assert [link["href"] for link in soup(response).select("a.search-hit-link")] == [
        f"/t/{id}/c/{k}?at=0#m-0" for k in range(3)]


def test_expired_transcripts_leave_the_list_and_the_search(client, app):
    id = form_upload(client)
    app.extensions["viewer.store"].set_expiry(id, dt.datetime.now(dt.timezone.utc) - dt.timedelta(seconds=1))
    assert listed(client) == [] and groups(client.get("/transcripts/search?q=tokyo")) == []


@pytest.mark.parametrize("query, status", [("", 400), ("x" * 501, 400), ("tokyo", 200)])
def test_search_across_refuses_an_empty_or_overlong_query(client, query, status):
    form_upload(client)
    assert client.get("/transcripts/search", query_string={"q": query}).status_code == status
