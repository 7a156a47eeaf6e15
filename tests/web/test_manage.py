"""The manage link: the uploader switches debug access and deletes; nobody else can."""
from __future__ import annotations

from tests.web.conftest import soup


def manage_form(client, id):
    page = soup(client.get(f"/t/{id}/manage"))
    return page, page.find("input", attrs={"name": "csrf"})["value"]


def test_manage_link_sets_the_owner_cookie_and_drops_the_key_from_the_url(client, upload):
    created = upload()
    response = client.get(created["manage_url"])
    assert response.status_code == 303
    assert response.headers["Location"] == f"/t/{created['id']}/manage"
    cookie = response.headers.get("Set-Cookie", "")
    assert cookie.startswith("owner=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert client.get(response.headers["Location"]).status_code == 200


def test_a_wrong_key_is_403(client, upload):
    id = upload()["id"]
    assert client.get(f"/t/{id}/manage?key=guess").status_code == 403


def test_the_manage_page_is_403_without_the_key(stranger, upload):
    assert stranger.get(f"/t/{upload()['id']}/manage").status_code == 403


def test_owner_allows_and_then_denies_debug_access(client, stranger, owned):
    id = owned()
    _, csrf = manage_form(client, id)
    assert client.post(f"/t/{id}/manage", data={"csrf": csrf, "action": "allow-debug"}).status_code == 303
    assert stranger.get(f"/t/{id}?view=debug").status_code == 200
    page, csrf = manage_form(client, id)
    assert page.find(attrs={"data-debug-state": True})["data-debug-state"] == "allowed"
    client.post(f"/t/{id}/manage", data={"csrf": csrf, "action": "deny-debug"})
    assert stranger.get(f"/t/{id}?view=debug").status_code == 403


def test_owner_deletes_and_the_link_answers_410(client, stranger, owned):
    id = owned()
    _, csrf = manage_form(client, id)
    response = client.post(f"/t/{id}/manage", data={"csrf": csrf, "action": "delete", "confirm": "yes"})
    assert response.status_code == 303 and response.headers["Location"] == "/"
    for path in (f"/t/{id}", f"/t/{id}.json", f"/t/{id}/raw"):
        assert stranger.get(path).status_code == 410
    assert client.get(f"/t/{id}/manage").status_code == 410


def test_delete_needs_the_confirmation_box(client, owned):
    id = owned()
    _, csrf = manage_form(client, id)
    assert client.post(f"/t/{id}/manage", data={"csrf": csrf, "action": "delete"}).status_code == 400
    assert client.get(f"/t/{id}").status_code == 200


def test_manage_actions_need_the_csrf_token(client, owned):
    id = owned()
    manage_form(client, id)
    assert client.post(f"/t/{id}/manage", data={"action": "allow-debug"}).status_code == 400


def test_strangers_cannot_post_manage_actions(stranger, upload):
    id = upload()["id"]
    assert stranger.post(f"/t/{id}/manage", data={"action": "delete", "confirm": "yes"}).status_code == 403


def test_unknown_action_is_400(client, owned):
    id = owned()
    _, csrf = manage_form(client, id)
    assert client.post(f"/t/{id}/manage", data={"csrf": csrf, "action": "explode"}).status_code == 400


def test_the_owner_sees_a_manage_link_and_strangers_do_not(client, stranger, owned):
    id = owned()
    assert soup(client.get(f"/t/{id}")).find("a", string="Share settings and manage")
    assert soup(stranger.get(f"/t/{id}")).find("a", string="Share settings and manage") is None


def test_ownership_survives_a_restart(make_app, upload, client):
    created = upload()
    client.get(created["manage_url"])
    cookie = client.get_cookie("owner")
    restarted = make_app().test_client()
    restarted.set_cookie("owner", cookie.value)
    assert restarted.get(f"/t/{created['id']}?view=debug").status_code == 200
