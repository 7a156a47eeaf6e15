"""Four defects of the share routes a review found, each checked as it was found: a planted owner key, a manage
link adopting on another site's GET or HEAD, a secret in the upload's name. (Names in other scripts on the raw
download: here through the app, and through gunicorn in tests/system/test_download_names.py.)"""
from __future__ import annotations

import io

import pytest
from itsdangerous import Signer

from tests.web.conftest import WEATHER, soup, text_of
from viewer.web import ownership

PLANTED = "planted-by-a-sibling-subdomain-" + "k" * 20
TOKEN = "ghp_" + "aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6"


def listed(client) -> list[str]:
    return [row["data-id"] for row in soup(client.get("/transcripts")).select("tr[data-id]")]


def form_upload(client, name: str = "weather.txt") -> str:
    response = client.post("/transcripts", data={"file": (io.BytesIO(WEATHER.read_bytes()), name)},
                           content_type="multipart/form-data")
    assert response.status_code == 303, response.data
    return response.headers["Location"].rsplit("/", 1)[1]


# ---- owner keys the server never issued -------------------------------------------------------------------

def test_a_planted_owner_key_is_not_trusted_and_uploads_are_not_filed_under_it(app):
    victim, attacker = app.test_client(), app.test_client()
    for browser in (victim, attacker):
        browser.set_cookie(ownership.COOKIE, PLANTED)
    id = form_upload(victim)
    assert listed(attacker) == []  # the planted key lists nothing of the victim's
    assert attacker.get(f"/t/{id}/raw").status_code == 403
    assert listed(victim) == [id]  # the victim's browser got a key of the server's own, signed
    issued = victim.get_cookie(ownership.COOKIE).value
    assert issued != PLANTED and Signer("test", salt=ownership.SIGNING_SALT).validate(issued)


def test_a_signed_key_from_the_server_still_works_after_a_restart(make_app, app):
    browser = app.test_client()
    id = form_upload(browser)
    restarted = make_app().test_client()
    restarted.set_cookie(ownership.COOKIE, browser.get_cookie(ownership.COOKIE).value)
    assert listed(restarted) == [id]


def test_a_key_signed_with_another_secret_is_not_trusted(make_app):
    browser = make_app(SECRET_KEY="another").test_client()
    id = form_upload(browser)
    elsewhere = make_app().test_client()  # SECRET_KEY "test"
    elsewhere.set_cookie(ownership.COOKIE, browser.get_cookie(ownership.COOKIE).value)
    assert id not in listed(elsewhere)


def test_over_https_the_key_lives_in_a_host_only_secure_cookie_and_a_plain_one_is_ignored(make_app):
    app = make_app(SECURE_COOKIES=True)
    browser = app.test_client()
    uploaded = browser.post("/transcripts", data={"text": WEATHER.read_text()},
                            content_type="application/x-www-form-urlencoded")
    set_cookie = next(value for value in uploaded.headers.getlist("Set-Cookie") if value.startswith("__Host-"))
    attributes = {part.strip().split("=")[0].lower() for part in set_cookie.split(";")[1:]}
    assert {"secure", "httponly", "path"} <= attributes and "domain" not in attributes and "Path=/;" in set_cookie
    assert listed(browser) == [uploaded.headers["Location"].rsplit("/", 1)[1]]
    assert browser.get_cookie(ownership.COOKIE) is None
    # A cookie named `owner` (which a sibling or plain HTTP can set) means nothing on this server, even signed.
    other = app.test_client()
    other.set_cookie(ownership.COOKIE, browser.get_cookie(ownership.SECURE_COOKIE).value)
    assert listed(other) == []


def test_a_tools_own_key_is_taken_on_only_through_this_sites_form(app, client):
    key = "tool-key-" + "t" * 40
    created = client.post("/api/transcripts", data=WEATHER.read_bytes(), headers={ownership.HEADER: key}).get_json()
    assert created["listed"] is True and listed(client) == []  # naming a key sets no cookie
    csrf = soup(client.get("/transcripts")).find("input", attrs={"name": "csrf"})["value"]
    assert client.post("/transcripts/key", data={"csrf": csrf, "owner_key": key}).status_code == 303
    assert listed(client) == [created["id"]]


# ---- manage links opened by another site ------------------------------------------------------------------

CROSS_SITE = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}
TYPED = {"Sec-Fetch-Site": "none", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document", "Sec-Fetch-User": "?1"}


@pytest.mark.parametrize("method, headers", [("GET", CROSS_SITE), ("GET", {**TYPED, "Sec-Fetch-Site": "same-site"}),
                                             ("HEAD", TYPED), ("HEAD", {}),
                                             ("GET", {**TYPED, "Sec-Purpose": "prefetch"})],
                         ids=["cross-site GET", "sibling GET", "HEAD", "HEAD from a tool", "prefetch"])
def test_a_manage_link_opened_by_another_site_adopts_nothing(app, method, headers):
    attacker, victim = app.test_client(), app.test_client()
    created = attacker.post("/api/transcripts", data=WEATHER.read_bytes()).get_json()
    response = victim.open(created["manage_url"], method=method, headers=headers)
    assert response.status_code == 200 and victim.get_cookie(ownership.COOKIE) is None
    assert listed(victim) == []


def test_a_manage_link_opened_by_another_site_asks_and_the_confirming_post_adopts(app):
    uploader, other = app.test_client(), app.test_client()
    created = uploader.post("/api/transcripts", data=WEATHER.read_bytes()).get_json()
    page = other.get(created["manage_url"], headers=CROSS_SITE)
    form = soup(page).find("form", attrs={"action": f"/t/{created['id']}/manage/adopt"})
    fields = {field["name"]: field["value"] for field in form.find_all("input")}
    confirmed = other.post(form["action"], data=fields, headers={"Sec-Fetch-Site": "same-origin"})
    assert confirmed.status_code == 303 and listed(other) == [created["id"]]


def test_the_confirming_post_needs_the_key_and_a_form_of_this_site(app):
    uploader, other = app.test_client(), app.test_client()
    created = uploader.post("/api/transcripts", data=WEATHER.read_bytes()).get_json()
    page = other.get(created["manage_url"], headers=CROSS_SITE)
    fields = {field["name"]: field["value"] for field in soup(page).find("form").find_all("input")}
    adopt = f"/t/{created['id']}/manage/adopt"
    assert other.post(adopt, data={**fields, "key": "wrong" * 9}).status_code == 403
    assert other.post(adopt, data={**fields, "csrf": "stale"}).status_code == 400
    assert other.post(adopt, data=fields, headers={"Sec-Fetch-Site": "cross-site"}).status_code == 403
    assert listed(other) == []


@pytest.mark.parametrize("headers", [TYPED, {**TYPED, "Sec-Fetch-Site": "same-origin"}, {}],
                         ids=["address bar", "this site's page", "a tool"])
def test_a_manage_link_opened_by_the_user_adopts_at_once(app, headers):
    uploader, other = app.test_client(), app.test_client()
    created = uploader.post("/api/transcripts", data=WEATHER.read_bytes()).get_json()
    assert other.get(created["manage_url"], headers=headers).status_code == 303
    assert listed(other) == [created["id"]]


# ---- a secret in the upload's name ------------------------------------------------------------------------

def test_a_secret_in_the_uploads_name_is_masked_everywhere_the_name_is_shown(client, stranger):
    name = f"debug-{TOKEN}.txt"
    created = client.post("/api/transcripts", data=WEATHER.read_bytes(),
                          query_string={"name": name, "debug": "allow"}).get_json()
    id = created["id"]
    assert client.get(created["manage_url"]).status_code == 303
    answers = [stranger.get(f"/t/{id}"), stranger.get(f"/t/{id}?view=debug"), stranger.get(f"/t/{id}.json"),
               stranger.get(f"/t/{id}.md"), stranger.get(f"/t/{id}.html"), stranger.get(f"/t/{id}/raw"),
               client.get(f"/t/{id}/raw"), client.get(f"/t/{id}/manage"), client.get("/transcripts")]
    for answer in answers:
        assert answer.status_code == 200
        assert TOKEN not in answer.get_data(as_text=True) and TOKEN not in str(answer.headers)
    assert "[secret: GitHub token]" in text_of(answers[0])


def test_a_secret_in_a_form_uploads_file_name_is_masked(client):
    id = form_upload(client, name=f"{TOKEN}.log")
    page = client.get(f"/t/{id}")
    assert TOKEN not in page.get_data(as_text=True)
    assert TOKEN not in client.get(f"/t/{id}/raw").headers["Content-Disposition"]
