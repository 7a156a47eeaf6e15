"""Personal data found in an upload reaches no link holder: the issue's support transcript (an e-mail address, a UK
and a US phone number, a card, a US SSN and an IBAN, in the user's words, a tool's arguments and result and the
final answer) and every kind planted in every field of every format. Link holders read placeholders with the
words around them; the uploader reads everything, lists the findings on the manage page, releases a value or
shows a kind; a server may turn detection off."""
from __future__ import annotations

import json
import re

import pytest
from bs4 import BeautifulSoup
from flask.testing import FlaskClient

from tests.web.conftest import FIXTURES, soup
from tests.web.test_leaks_secrets import FORMATS, leaked, link_holder_answers

SUPPORT = FIXTURES / "personal-data-support.json"
VALUES = {"email": "maria.lopez@fastmail.com", "uk phone": "07700 900123", "card": "4539 1488 0343 6467",
          "ssn": "536-22-8726", "iban": "GB82 WEST 1234 5698 7654 32", "us phone": "+1 415-555-0132"}
"""The six values of the issue's transcript."""
PLANTED = ["maria.lopez@fastmail.com", "+44 20 7946 0958", "(415) 555-0132", "4539148803436467",
           "DE89370400440532013000", "078-51-1234", "AB 12 34 56 C", "81.2.69.160", "2001:4860:4860::8844",
           "DNI 48213957T", "RCCMNL83S18D969H"]
"""One of each kind, planted in every field of every format (a DNI is told by its name before it: eight digits
and a letter are too common alone)."""


def search_total(reader: FlaskClient, id: str, query: str, view: str = "default") -> str:
    page = BeautifulSoup(reader.get(f"/t/{id}/search", query_string={"q": query, "view": view})
                         .get_data(as_text=True), "html.parser")
    return page.select_one("[data-total]")["data-total"]


def csrf_of(client: FlaskClient, url: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', client.get(url).get_data(as_text=True))[1]


def value_parts(value: str) -> list[str]:
    """What a search could find a value by: itself, and its runs of letters and digits of four or more (but a
    card's last four digits, which its placeholder shows, as a receipt does)."""
    return [value, *(part for part in re.findall(r"[A-Za-z0-9.@]{4,}", value) if part not in ("WEST", "6467"))]


def test_the_issues_transcript_gives_link_holders_none_of_its_six_values(client, stranger, owned):
    id = owned(SUPPORT.read_bytes(), debug="allow")
    for url, body in link_holder_answers(client, stranger, id):
        for kind, value in VALUES.items():
            assert not leaked(value, body), (kind, url)
    for value in VALUES.values():
        for query in value_parts(value):
            for view in ("default", "debug"):
                assert search_total(stranger, id, query, view) == "0", (query, view)
    page = stranger.get(f"/t/{id}").get_data(as_text=True)
    assert "My e-mail is [email] and you can call me on [phone]. I paid with my card [card …6467]" in page
    assert "found your account under [email] and sent the refund to [IBAN]; it arrives" in page
    result = stranger.get(f"/t/{id}.json?view=debug").get_json()
    reply = next(message for message in result["messages"] if message["role"] == "tool")["content"]
    assert "[US SSN]" in reply and "[IBAN]" in reply and "[phone]" in reply and "Maria Lopez" in reply
    assert search_total(stranger, id, "refund") != "0"  # the words around them are still found


def test_the_uploader_reads_every_value_and_the_manage_page_lists_six_findings(client, stranger, owned):
    id = owned(SUPPORT.read_bytes(), debug="allow")
    debug = client.get(f"/t/{id}?view=debug").get_data(as_text=True)
    assert all(value in debug for value in VALUES.values())
    assert client.get(f"/t/{id}/raw").data == SUPPORT.read_bytes()
    manage = soup(client.get(f"/t/{id}/manage"))
    rows = manage.select("[data-finding]")
    assert len(rows) == 6 and manage.select_one("[data-personal-count]")["data-personal-count"] == "6"
    assert {row["data-kind"] for row in rows} == {"email", "phone", "card", "us-ssn", "iban"}
    assert all(value in manage.get_text() for value in VALUES.values())
    listing = client.get(f"/api/transcripts/{id}/personal").get_json()
    assert sorted(found["value"] for found in listing["findings"]) == sorted(VALUES.values())
    assert next(found for found in listing["findings"] if found["kind"] == "email")["places"] == 3
    assert stranger.get(f"/t/{id}/manage").status_code == 403
    assert stranger.get(f"/api/transcripts/{id}/personal").status_code == 403


@pytest.mark.parametrize("format", FORMATS)
def test_personal_data_of_every_kind_in_every_field_reaches_no_link_holder(client, stranger, owned, format):
    text = "\n".join(f"Reach {value} today." for value in PLANTED)
    id = owned(FORMATS[format](text, []).encode(), debug="allow")
    twin = f"/t/{id}/c/0.json?view=debug" if format == "dataset" else f"/t/{id}.json?view=debug"
    shown = stranger.get(twin).get_data(as_text=True)
    for placeholder in ("[email]", "[phone]", "[card \\u20260000]", "[IBAN]", "[US SSN]", "[UK NI number]",
                        "[IP address]", "[DNI]", "[codice fiscale]"):
        assert placeholder.replace("0000", "6467") in shown or placeholder == "[card \\u20260000]", placeholder
    assert "[card \\u20266467]" in shown
    for url, body in link_holder_answers(client, stranger, id):
        for value in PLANTED:
            assert not leaked(value, body), (value, format, url)
    for value in PLANTED:
        assert search_total(stranger, id, value, "debug") == "0", (value, format)


def test_a_released_value_and_a_shown_kind_reach_link_holders_and_can_be_masked_again(client, stranger, owned):
    id = owned(SUPPORT.read_bytes(), debug="allow")
    csrf = csrf_of(client, f"/t/{id}/manage")
    email = next(row for row in soup(client.get(f"/t/{id}/manage")).select("[data-finding]")
                 if row["data-kind"] == "email")["data-finding"]
    posted = client.post(f"/t/{id}/manage/personal", data={"csrf": csrf, "action": "release", "finding": email})
    assert posted.status_code == 303
    assert VALUES["email"] in stranger.get(f"/t/{id}").get_data(as_text=True)
    assert search_total(stranger, id, VALUES["email"]) != "0"
    assert not leaked(VALUES["card"], stranger.get(f"/t/{id}/raw").get_data(as_text=True))
    assert client.post(f"/t/{id}/manage/personal", data={"csrf": csrf, "action": "show-kind", "kind": "phone"}
                       ).status_code == 303
    page = stranger.get(f"/t/{id}").get_data(as_text=True)
    assert VALUES["uk phone"] in page and "[card …6467]" in page
    manage = soup(client.get(f"/t/{id}/manage"))
    assert {row["data-kind"]: row["data-state"] for row in manage.select("[data-finding]")}["phone"] == "shown"
    client.post(f"/t/{id}/manage/personal", data={"csrf": csrf, "action": "mask", "finding": email})
    client.post(f"/t/{id}/manage/personal", data={"csrf": csrf, "action": "mask-kind", "kind": "phone"})
    for url, body in link_holder_answers(client, stranger, id):
        assert not leaked(VALUES["email"], body) and not leaked(VALUES["uk phone"], body), url


def test_a_link_holder_allowed_the_secrets_still_reads_personal_data_masked(client, stranger, owned):
    token = "ghp_" + "8x" * 18
    raw = json.dumps({"messages": [{"role": "user", "content": f"token {token} and mail maria.lopez@fastmail.com"},
                                   {"role": "assistant", "content": "noted"}]}).encode()
    id = owned(raw, debug="allow")
    csrf = csrf_of(client, f"/t/{id}/manage")
    client.post(f"/t/{id}/manage", data={"csrf": csrf, "action": "unmask-secrets"})
    for url, body in link_holder_answers(client, stranger, id):
        assert not leaked("maria.lopez@fastmail.com", body), url


def test_a_server_may_turn_detection_off(make_app):
    app = make_app(PERSONAL_DATA=False)
    uploader, stranger = app.test_client(), app.test_client()
    created = uploader.post("/api/transcripts", data=SUPPORT.read_bytes()).get_json()
    assert VALUES["card"] in stranger.get(f"/t/{created['id']}").get_data(as_text=True)
    uploader.get(created["manage_url"])
    assert soup(uploader.get(f"/t/{created['id']}/manage")).select_one("[data-personal-detection=off]")
