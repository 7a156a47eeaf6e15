"""Every hostile payload in every field of every dialect: the pages stay inert.

For each (dialect, payload) transcript the uploader opens the default and debug views (full page, htmx
fragment and every next window) and both JSON twins. The HTML may hold only allowlisted elements and
attributes, no event handler, style or htmx attribute from content, only http/https/mailto/relative links,
and template syntax stays text.
"""
from __future__ import annotations

import json
import re
from urllib.parse import quote

import pytest
from bs4 import BeautifulSoup
from flask.testing import FlaskClient

from tests.system.hostile.conftest import printable, upload_owned
from tests.system.hostile.corpus import DIALECTS, build, load_payloads
from tests.system.hostile.html_checks import page_problems, url_allowed

PAYLOADS = load_payloads()
WINDOW_LIMIT = 20
"""Next windows followed per view at most (the corpus transcripts need about four)."""
TEMPLATE_RESULTS = ("49", "7777777", "<Config", "<Request", "looploop", "__subclasses__()[")


def test_the_corpus_is_large_enough():
    assert len(PAYLOADS) >= 60
    assert len({payload.text for payload in PAYLOADS}) == len(PAYLOADS), "a payload is listed twice"


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize("payload", PAYLOADS, ids=lambda payload: payload.id)
def test_hostile_payload_stays_inert_in_every_view(uploader: FlaskClient, dialect, payload):
    id = upload_owned(uploader, build(payload.text, dialect), name=printable(payload.text))
    for query in ("", "?view=debug"):
        response = uploader.get(f"/t/{id}{query}")
        _assert_inert(response, id, payload, f"page{query}")
        twin = uploader.get(f"/t/{id}.json{query}")
        assert twin.status_code == 200 and twin.mimetype == "application/json"
        assert twin.headers["X-Content-Type-Options"] == "nosniff"
        json.loads(twin.get_data(as_text=True))
    manage = uploader.get(f"/t/{id}/manage")
    assert manage.status_code == 200
    assert page_problems(manage.get_data(as_text=True), id, form=True) == []


WINDOWED_PAYLOADS = [payload for payload in PAYLOADS if payload.number % 4 == 0]


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize("payload", WINDOWED_PAYLOADS, ids=lambda payload: payload.id)
def test_hostile_payload_stays_inert_in_fragments_and_windows(windowed_app, dialect, payload):
    """The htmx fragment and every next window (windows of four entries), for a quarter of the payloads."""
    client = windowed_app.test_client()
    id = upload_owned(client, build(payload.text, dialect))
    for query in ("", "?view=debug"):
        fragment = client.get(f"/t/{id}{query}", headers={"HX-Request": "true"})
        _assert_inert(fragment, id, payload, f"fragment{query}")
        for where, response in _next_windows(client, fragment, id).items():
            _assert_inert(response, id, payload, where)


def _assert_inert(response, id: str, payload, where: str) -> None:
    assert response.status_code == 200, where
    assert response.mimetype == "text/html", where
    html = response.get_data(as_text=True)
    assert page_problems(html, id) == [], where
    if "7*7" in payload.text:
        _assert_template_stays_text(html, where)


def _next_windows(client: FlaskClient, fragment, id: str) -> dict:
    """Follow the 'Next messages' links of a view the way htmx does, as far as they go (bounded)."""
    windows = {}
    html = fragment.get_data(as_text=True)
    for number in range(WINDOW_LIMIT):
        more = BeautifulSoup(html, "html.parser").select_one("a.more.next")
        if more is None:
            assert number > 0, "the corpus transcript fits one window; the window test tests nothing"
            return windows
        response = client.get(more["hx-get"], headers={"HX-Request": "true"})
        windows[f"next window {number + 1} ({more['hx-get']})"] = response
        html = response.get_data(as_text=True)
    pytest.fail(f"more than {WINDOW_LIMIT} windows")


def _assert_template_stays_text(html: str, where: str) -> None:
    page = BeautifulSoup(html, "html.parser")
    bodies = " ".join(region.get_text() for region in page.select("div.body, pre.source-text, dl.fields"))
    for result in TEMPLATE_RESULTS:
        assert result not in bodies, (where, result)


@pytest.mark.parametrize("dialect", DIALECTS)
def test_template_syntax_is_shown_as_written(uploader: FlaskClient, dialect):
    id = upload_owned(uploader, build("{{7*7}} and {% if 1 %}yes{% endif %}", dialect))
    for view in ("default", "debug"):
        page = BeautifulSoup(uploader.get(f"/t/{id}?view={view}").get_data(as_text=True), "html.parser")
        text = " ".join(region.get_text() for region in page.select("div.body"))
        assert "{{7*7}} and {% if 1 %}yes{% endif %}" in text, view


def test_payload_in_a_body_reaches_the_page_as_text(uploader: FlaskClient):
    """The corpus would prove nothing if bodies were dropped: a visible body shows the payload's characters."""
    id = upload_owned(uploader, build('<img src=x onerror="alert(1)">', "harmony"))
    page = BeautifulSoup(uploader.get(f"/t/{id}").get_data(as_text=True), "html.parser")
    assert any('<img src=x onerror="alert(1)">' in body.get_text() for body in page.select("div.body"))
    assert page.find("img") is None


HOSTILE_QUERY_VALUES = [payload for payload in PAYLOADS if payload.number % 5 == 0]


@pytest.mark.parametrize("payload", HOSTILE_QUERY_VALUES, ids=lambda payload: payload.id)
def test_error_pages_stay_inert_for_hostile_urls(uploader: FlaskClient, stranger: FlaskClient, payload):
    id = upload_owned(uploader, build("hello", "harmony"))
    value = quote(printable(payload.text).replace("\x00", ""), safe="")
    urls = [f"/t/{value}", f"/t/{value}.json", f"/t/{value}/raw", f"/t/{id}?at={value}", f"/t/{id}?view={value}",
            f"/t/{id}/window?start={value}", f"/t/{id}/window?start=0&direction={value}",
            f"/t/{id}/manage?key={value}", f"/{value}"]
    for url in urls:
        for client in (uploader, stranger):
            response = client.get(url, headers={"Accept": "text/html"})
            assert response.status_code < 500, url
            if response.mimetype == "text/html":
                assert page_problems(response.get_data(as_text=True), id) == [], url


# ---- the checker itself must catch what it is there to catch ----------------------------------------------

@pytest.mark.parametrize("bad", [
    '<div class="body"><img src=x></div>',
    '<p onclick="x">a</p>',
    '<p style="color:red">a</p>',
    '<div class="body"><p hx-get="/evil">a</p></div>',
    '<p data-hx-get="/">a</p>',
    '<a href="javascript:alert(1)">a</a>',
    '<a href="java\tscript:alert(1)">a</a>',
    '<a href=" JAVASCRIPT:alert(1)">a</a>',
    '<a href="vbscript:x">a</a>',
    '<a href="data:text/html,x">a</a>',
    '<script>alert(1)</script>',
    '<script src="http://evil.example/x.js"></script>',
    '<meta http-equiv="refresh" content="0;url=http://evil.example/">',
    '<a hx-get="/t/other">a</a>',
    '<!-- a comment -->',
    '<svg><a>x</a></svg>',
    '<div class="body"><button type="button">x</button></div>',
    '<template class="copy-source"><a hx-get="/evil">x</a></template>',
    '<button type="reset">x</button>',
])
def test_the_checker_reports_unsafe_markup(bad):
    assert page_problems(f"<!doctype html><html><body>{bad}</body></html>", "abc") != []


def test_the_checker_accepts_a_real_page(uploader: FlaskClient):
    id = upload_owned(uploader, build("**bold** [link](https://example.com) `code`", "harmony"))
    for view in ("default", "debug"):
        html = uploader.get(f"/t/{id}?view={view}").get_data(as_text=True)
        assert page_problems(html, id) == []
        assert re.search(r'<a href="https://example.com" rel="nofollow noopener noreferrer">link</a>', html)


@pytest.mark.parametrize("url, allowed", [
    ("https://example.com", True), ("http://x", True), ("mailto:a@b", True), ("/t/x?view=debug", True),
    ("#m-1", True), ("relative/path:with-colon", True), ("javascript:alert(1)", False),
    ("\x01javascript:x", False), ("java\nscript:x", False), ("data:x", False), ("x:y", False),
])
def test_url_check(url, allowed):
    assert url_allowed(url) is allowed
