"""Security headers per route; no inline scripts or styles; htmx configured safely; cross-site posts refused;
malformed ids never reach the store; the manage key stays out of logs and shared pages; the default view
gives away no source positions; the inline jump form."""
from __future__ import annotations

import http.client
import io
import json
import logging
import re
import runpy
import threading
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import parse_qs, urlsplit

import pytest
from bs4 import BeautifulSoup
from werkzeug.serving import make_server

from tests.conftest import ROOT
from tests.system.hostile.html_checks import page_problems
from tests.web.conftest import WEATHER, harmony, soup
from viewer.ingest import samples
from viewer.web import access
from viewer.web.security import CONTENT_SECURITY_POLICY, RedactKeys

EXPECTED_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
                "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")


NOT_STORED = "private, no-store"
HTML = "text/html; charset=utf-8"
JSON = "application/json"
HTMX = {"HX-Request": "true"}
MARKDOWN = "text/markdown; charset=utf-8"

# name, method, path ({id}: an owned transcript; {shown}: a message its default view shows), request headers,
# then the answer's status, Cache-Control and Content-Type. Every row also gets the same CSP, nosniff, DENY,
# no-referrer and noindex.
ROUTES = [
    ("home", "GET", "/", {}, 200, None, HTML),
    ("form upload", "POST", "/transcripts", {}, 303, NOT_STORED, HTML),
    ("refused form upload", "POST", "/transcripts", {"Origin": "http://evil.example"}, 403, NOT_STORED, HTML),
    ("page", "GET", "/t/{id}", {}, 200, NOT_STORED, HTML),
    ("debug page", "GET", "/t/{id}?view=debug", {}, 200, NOT_STORED, HTML),
    ("htmx fragment", "GET", "/t/{id}", HTMX, 200, NOT_STORED, HTML),
    ("window", "GET", "/t/{id}/window?start=0", HTMX, 200, NOT_STORED, HTML),
    ("window without htmx", "GET", "/t/{id}/window?start=0", {}, 303, NOT_STORED, HTML),
    ("message body", "GET", "/t/{id}/messages/{shown}", {}, 200, NOT_STORED, HTML),
    ("message body fragment", "GET", "/t/{id}/messages/{shown}", HTMX, 200, NOT_STORED, HTML),
    ("search", "GET", "/t/{id}/search?q=weather", {}, 200, NOT_STORED, HTML),
    ("search fragment", "GET", "/t/{id}/search?q=weather", HTMX, 200, NOT_STORED, HTML),
    ("debug search", "GET", "/t/{id}/search?q=weather&view=debug", {}, 200, NOT_STORED, HTML),
    ("search form", "GET", "/t/{id}/search", {}, 200, NOT_STORED, HTML),
    ("empty search", "GET", "/t/{id}/search?q=", {}, 400, NOT_STORED, HTML),
    ("jump form", "GET", "/t/{id}/jump", {}, 200, NOT_STORED, HTML),
    ("jump", "GET", "/t/{id}/jump?at=1", {}, 303, NOT_STORED, HTML),
    ("json", "GET", "/t/{id}.json", {}, 200, NOT_STORED, JSON),
    ("debug json", "GET", "/t/{id}.json?view=debug", {}, 200, NOT_STORED, JSON),
    ("markdown export", "GET", "/t/{id}.md", {}, 200, NOT_STORED, MARKDOWN),
    ("debug markdown export", "GET", "/t/{id}.md?view=debug", {}, 200, NOT_STORED, MARKDOWN),
    ("html export", "GET", "/t/{id}.html", {}, 200, NOT_STORED, HTML),
    ("debug html export", "GET", "/t/{id}.html?view=debug", {}, 200, NOT_STORED, HTML),
    ("refused markdown export", "GET", "/t/{id}.md?view=nonsense", {}, 400, NOT_STORED, HTML),
    ("raw", "GET", "/t/{id}/raw", {}, 200, NOT_STORED, "text/plain; charset=utf-8"),
    ("manage", "GET", "/t/{id}/manage", {}, 200, NOT_STORED, HTML),
    ("manage action", "POST", "/t/{id}/manage", {}, 400, NOT_STORED, HTML),
    ("personal data choice", "POST", "/t/{id}/manage/personal", {}, 400, NOT_STORED, HTML),
    ("redaction page", "GET", "/t/{id}/manage/redact?at=2", {}, 200, NOT_STORED, HTML),
    ("redaction", "POST", "/t/{id}/manage/redact", {}, 400, NOT_STORED, HTML),
    ("personal data listing", "GET", "/api/transcripts/{id}/personal", {}, 200, NOT_STORED, JSON),
    ("api redaction without a body", "POST", "/api/transcripts/{id}/redactions", {}, 400, NOT_STORED, JSON),
    ("manage link confirmed", "POST", "/t/{id}/manage/adopt", {}, 400, NOT_STORED, HTML),
    ("missing transcript", "GET", "/t/missing", {}, 404, NOT_STORED, HTML),
    ("missing json", "GET", "/t/missing.json", {}, 404, NOT_STORED, JSON),
    ("missing markdown", "GET", "/t/missing.md", {}, 404, NOT_STORED, HTML),
    ("missing html export", "GET", "/t/missing.html", {}, 404, NOT_STORED, HTML),
    ("compare", "GET", "/compare/{id}/{id}", {}, 200, NOT_STORED, HTML),
    ("debug compare", "GET", "/compare/{id}/{id}?view=debug", {}, 200, NOT_STORED, HTML),
    ("compare as htmx asks", "GET", "/compare/{id}/{id}", HTMX, 200, NOT_STORED, HTML),
    ("missing compare", "GET", "/compare/{id}/missing", {}, 404, NOT_STORED, HTML),
    ("compare with", "GET", "/t/{id}/compare?with={id}", {}, 303, NOT_STORED, HTML),
    ("compare with a foreign link", "GET", "/t/{id}/compare?with=https://evil.example/t/{id}", {}, 400, NOT_STORED,
     HTML),
    ("what the model saw", "GET", "/t/{id}/context/7", {}, 200, NOT_STORED, HTML),
    ("what the model saw of a user message", "GET", "/t/{id}/context/2", {}, 404, NOT_STORED, HTML),
    ("missing what the model saw", "GET", "/t/missing/context/1", {}, 404, NOT_STORED, HTML),
    ("api upload", "POST", "/api/transcripts", {}, 201, NOT_STORED, JSON),
    ("stylesheet", "GET", "/static/app.css", {}, 200, "no-cache", "text/css; charset=utf-8"),
    ("pygments", "GET", "/pygments.css", {}, 200, "max-age=3600, public", "text/css; charset=utf-8"),
    ("htmx", "GET", "/vendor/htmx/htmx.min.js", {}, 200, "public, max-age=3600", "text/javascript; charset=utf-8"),
    ("htmx sse extension", "GET", "/vendor/htmx-ext-sse/sse.min.js", {}, 200, "public, max-age=3600",
     "text/javascript; charset=utf-8"),
    ("event stream", "GET", "/t/{id}/events", {}, 200, NOT_STORED, "text/event-stream; charset=utf-8"),
    ("debug event stream", "GET", "/t/{id}/events?view=debug", {}, 200, NOT_STORED,
     "text/event-stream; charset=utf-8"),
    ("missing event stream", "GET", "/t/missing/events", {}, 404, NOT_STORED, HTML),
    ("progress stream", "GET", "/t/{id}/progress", {}, 200, NOT_STORED, "text/event-stream; charset=utf-8"),
    ("missing progress stream", "GET", "/t/missing/progress", {}, 404, NOT_STORED, HTML),
    ("live upload", "POST", "/api/transcripts?live=1", {}, 201, NOT_STORED, JSON),
    ("append without the key", "POST", "/api/transcripts/{id}/append", {}, 403, NOT_STORED, JSON),
    ("finish without the key", "POST", "/api/transcripts/{id}/finish", {}, 403, NOT_STORED, JSON),
]


@pytest.mark.parametrize("name, method, path, headers, status, cache, content_type", ROUTES,
                         ids=[row[0] for row in ROUTES])
def test_each_route_sends_exactly_these_headers(client, owned, name, method, path, headers, status, cache,
                                                content_type):
    id = owned()
    url = path.format(id=id, shown=client.get(f"/t/{id}.json").get_json()["messages"][0]["index"])
    body = {"api upload": WEATHER.read_bytes(), "live upload": WEATHER.read_bytes(),
            "form upload": {"text": WEATHER.read_text()}}.get(name)
    with client.open(url, method=method, headers=headers, data=body) as response:
        got = response.headers
        assert response.status_code == status
    assert got["Content-Security-Policy"] == EXPECTED_CSP
    assert got["X-Content-Type-Options"] == "nosniff"
    assert got["X-Frame-Options"] == "DENY"
    assert got["Referrer-Policy"] == "no-referrer"
    assert got["X-Robots-Tag"] == "noindex"
    assert got.get("Cache-Control") == cache
    assert got["Content-Type"] == content_type


def test_the_raw_download_is_an_attachment_named_after_the_upload(client):
    response = client.post("/transcripts", data={"file": (io.BytesIO(WEATHER.read_bytes()), "weather.txt")},
                           content_type="multipart/form-data")
    raw = client.get(response.headers["Location"] + "/raw")
    assert raw.headers["Content-Disposition"] == "attachment; filename=weather.txt"
    assert raw.data == WEATHER.read_bytes()


def test_the_policy_has_no_unsafe_inline():
    assert "unsafe" not in " ".join(CONTENT_SECURITY_POLICY.values())


def test_error_responses_carry_the_csp_too(client):
    assert client.post("/api/transcripts", data=b"").headers["Content-Security-Policy"] == EXPECTED_CSP


def test_pages_have_no_inline_script_style_or_event_handlers(client, owned):
    id = owned()
    for path in ("/", f"/t/{id}", f"/t/{id}?view=debug", f"/t/{id}/manage", "/t/missing", f"/t/{id}/search?q=tokyo",
                 f"/compare/{id}/{id}?view=debug", f"/t/{id}/context/7"):
        page = soup(client.get(path))
        assert all(script.has_attr("src") and not script.get_text().strip() for script in page.find_all("script"))
        assert page.find("style") is None
        for tag in page.find_all(True):
            assert "style" not in tag.attrs, (path, tag.name)
            assert not any(name.startswith("on") for name in tag.attrs), (path, tag.name)


def test_htmx_is_configured_safely_and_served_from_node_modules(client):
    page = soup(client.get("/"))
    config = json.loads(page.find("meta", attrs={"name": "htmx-config"})["content"])
    assert config["allowEval"] is False and config["allowScriptTags"] is False
    assert config["selfRequestsOnly"] is True and config["historyCacheSize"] == 0
    assert config["includeIndicatorStyles"] is False and "style" not in config["attributesToSettle"]
    with client.get(page.find("script", src=lambda src: "htmx" in src)["src"]) as script:
        assert script.status_code == 200 and b"htmx" in script.data[:2000]


def test_htmx_route_serves_only_its_own_files(client):
    assert client.get("/vendor/htmx/package.json").status_code == 404


def test_missing_node_modules_gives_a_clear_404(make_app, tmp_path):
    client = make_app(NODE_MODULES=str(tmp_path / "none")).test_client()
    response = client.get("/vendor/htmx/htmx.min.js")
    assert response.status_code == 404 and b"npm ci" in response.data


def test_pygments_stylesheet_has_light_and_dark_rules(client):
    css = client.get("/pygments.css")
    assert css.mimetype == "text/css" and b"prefers-color-scheme: dark" in css.data


def test_transcript_content_cannot_inject_markup(client, owned):
    raw = (b'<|start|>user name="<script>alert(1)</script>"<|message|><img src=x onerror=alert(1)>'
           b'<|end|><|start|>assistant<|channel|>final<|message|>[x](javascript:alert(1)) <b onclick="a">b</b><|end|>')
    for view in ("default", "debug"):
        page = soup(client.get(f"/t/{owned(raw)}?view={view}"))
        assert page.find("img") is None and page.find("b") is None
        assert all(script.has_attr("src") for script in page.find_all("script"))
        assert not page.find("a", href=lambda href: href and "javascript" in href)


def test_owner_and_session_cookies_are_httponly_and_samesite_lax(client, upload):
    created = upload()
    client.get(created["manage_url"])
    client.get(f"/t/{created['id']}/manage")  # the manage page's form: a CSRF token in the session
    for name in ("owner", "session"):
        cookie = client.get_cookie(name)
        assert cookie.http_only and cookie.same_site == "Lax"


# ---- cross-site posts ------------------------------------------------------------------------------------

OWN_ORIGIN = "http://localhost"  # the test client's scheme and host
REFUSED = [
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
    {"Sec-Fetch-Site": "cross-site", "Origin": OWN_ORIGIN},
    {"Origin": "http://evil.example"},
    {"Origin": "null"},
    {"Origin": "https://localhost"},
    {"Origin": "http://localhost:8080"},
]
ALLOWED = [
    {},
    {"Sec-Fetch-Site": "same-origin"},
    {"Sec-Fetch-Site": "none"},
    {"Sec-Fetch-Site": "same-origin", "Origin": OWN_ORIGIN},
    {"Origin": OWN_ORIGIN},
    {"Sec-Fetch-Site": "same-origin", "Origin": "http://evil.example"},  # the browser's own word comes first
]


def _form_upload(client, headers):
    return client.post("/transcripts", data={"text": WEATHER.read_text()}, headers=headers)


def _api_upload(client, headers):
    return client.post("/api/transcripts", data=WEATHER.read_bytes(), headers=headers)


@pytest.mark.parametrize("headers", REFUSED, ids=str)
def test_a_cross_site_form_upload_is_refused_with_a_reason(client, headers):
    response = _form_upload(client, headers)
    assert response.status_code == 403
    error = soup(response).find(class_="error")
    assert error["data-status"] == "403" and "another" in error.get_text() and "debug view" not in error.get_text()


@pytest.mark.parametrize("headers", REFUSED, ids=str)
def test_a_cross_site_api_upload_is_refused_with_the_json_envelope(client, headers):
    response = _api_upload(client, headers)
    assert response.status_code == 403
    error = response.get_json()["error"]
    assert error["status"] == 403 and "came from another" in error["message"]


@pytest.mark.parametrize("headers", ALLOWED, ids=str)
def test_same_origin_and_header_less_uploads_are_accepted(client, headers):
    assert _form_upload(client, headers).status_code == 303
    assert _api_upload(client, headers).status_code == 201


def _manage_post(client, id, headers):
    csrf = soup(client.get(f"/t/{id}/manage")).find("input", attrs={"name": "csrf"})["value"]
    return client.post(f"/t/{id}/manage", data={"csrf": csrf, "action": "allow-debug"}, headers=headers)


@pytest.mark.parametrize("headers", REFUSED, ids=str)
def test_a_cross_site_manage_action_is_refused_and_changes_nothing(client, stranger, owned, headers):
    id = owned()
    response = _manage_post(client, id, headers)
    assert response.status_code == 403 and "came from another" in soup(response).find(class_="error").get_text()
    assert stranger.get(f"/t/{id}?view=debug").status_code == 403


@pytest.mark.parametrize("headers", ALLOWED, ids=str)
def test_a_same_origin_manage_action_goes_through(client, stranger, owned, headers):
    id = owned()
    assert _manage_post(client, id, headers).status_code == 303
    assert stranger.get(f"/t/{id}?view=debug").status_code == 200


# ---- malformed ids ---------------------------------------------------------------------------------------

class UntouchableStore:
    """Stands in for the store: any use of it fails the test (the app turns the error into a 500)."""

    def __getattr__(self, name):
        raise AssertionError(f"the store was asked for {name}")


BAD_IDS = ["a" * 23, "a" * 21, "sample-" + "a" * 300, "..", "a..b", "%00", "a%00" + "a" * 18, "%C3%A9" * 22,
           "caf%C3%A9", "a%20b", "a" * 10 + "%20" + "a" * 11, "sample-Upper", "sample-", "%2E%2E", "x" * 5000]


@pytest.fixture
def untouchable(app):
    app.extensions["viewer.store"] = UntouchableStore()
    return app.test_client()


@pytest.mark.parametrize("bad", BAD_IDS)
@pytest.mark.parametrize("route", ["/t/{}", "/t/{}.json", "/t/{}.md", "/t/{}.html", "/t/{}/raw", "/t/{}/manage",
                                   "/t/{}/window", "/t/{}/jump", "/t/{}/messages/0", "/t/{}/compare?with=x",
                                   "/compare/{}/" + "a" * 22, "/compare/" + "a" * 22 + "/{}", "/t/{}/context/1",
                                   "/t/{}/c/0/context/1", "/t/{}/events", "/t/{}/media/" + "0" * 64,
                                   "/t/{}/progress"])
def test_a_malformed_id_is_a_404_without_asking_the_store(untouchable, route, bad):
    response = untouchable.get(route.format(bad))
    assert response.status_code == 404
    assert b"Traceback" not in response.data


@pytest.mark.parametrize("bad", BAD_IDS[:5])
def test_a_manage_post_with_a_malformed_id_is_a_404_without_asking_the_store(untouchable, bad):
    assert untouchable.post(f"/t/{bad}/manage", data={"action": "delete"}).status_code == 404


@pytest.mark.parametrize("good", ["a" * 22, "Ab-_" * 5 + "z9", "sample-harmony-gpt-oss-weather"])
def test_a_well_formed_id_does_reach_the_store(untouchable, good):
    # The control for the tests above: the untouchable store does fail a request that gets to it.
    assert untouchable.get(f"/t/{good}").status_code == 500


def test_generated_and_sample_ids_are_well_formed():
    assert all(access.id_is_valid(access.new_id()) for _ in range(200))
    assert access.id_is_valid(samples.sample_id(Path("chatml-0.1-fim.txt")))


# ---- the manage key stays out of logs and shared pages ---------------------------------------------------

def test_the_log_filter_redacts_the_key_in_a_request_line():
    record = logging.LogRecord("werkzeug", logging.INFO, __file__, 1, '%s - - [%s] "%s" %s -',
                               ("127.0.0.1", "now", "GET /t/abc/manage?key=SECRET-KEY&x=1 HTTP/1.1", "303"), None)
    assert RedactKeys().filter(record)
    assert record.getMessage() == '127.0.0.1 - - [now] "GET /t/abc/manage?key=[redacted]&x=1 HTTP/1.1" 303 -'


def test_the_log_filter_leaves_other_lines_alone():
    record = logging.LogRecord("werkzeug", logging.INFO, __file__, 1, '"%s" %s', ("GET /t/abc?at=3 HTTP/1.1", 200),
                               None)
    RedactKeys().filter(record)
    assert record.getMessage() == '"GET /t/abc?at=3 HTTP/1.1" 200'


def test_the_development_server_logs_no_manage_key(app, upload, caplog):
    manage_url = upload()["manage_url"]
    key = parse_qs(urlsplit(manage_url).query)["key"][0]
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        with caplog.at_level(logging.INFO, logger="werkzeug"):
            connection = http.client.HTTPConnection("127.0.0.1", httpd.server_port, timeout=10)
            connection.request("GET", urlsplit(manage_url)._replace(scheme="", netloc="").geturl())
            assert connection.getresponse().status == 303
            connection.close()
    finally:
        httpd.shutdown()
        thread.join(timeout=10)
    assert "/manage?key=[redacted]" in caplog.text
    assert key not in caplog.text


def test_shared_pages_and_their_json_never_hold_the_key(client, stranger, upload):
    created = upload(debug="allow")
    key = parse_qs(urlsplit(created["manage_url"]).query)["key"][0]
    assert client.get(created["manage_url"]).status_code == 303  # the uploader now owns it
    id = created["id"]
    for reader in (client, stranger):
        for path in (f"/t/{id}", f"/t/{id}?view=debug", f"/t/{id}.json", f"/t/{id}.json?view=debug"):
            response = reader.get(path)
            assert response.status_code == 200, path
            assert key not in response.get_data(as_text=True) and key not in str(response.headers), path
    assert key not in client.get(f"/t/{id}/manage").get_data(as_text=True)


def test_after_a_form_upload_only_the_first_page_shows_the_key(client, stranger):
    location = client.post("/transcripts", data={"text": WEATHER.read_text()}).headers["Location"]
    banner = soup(client.get(location)).select_one("#manage-url")["value"]
    key = parse_qs(urlsplit(banner).query)["key"][0]
    for reader in (client, stranger):
        for path in (location, location + ".json"):
            assert key not in reader.get(path).get_data(as_text=True), path
    assert key not in client.get(location + "?view=debug").get_data(as_text=True)


def test_gunicorn_logs_paths_without_their_query_string():
    config = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    line_format = config["access_log_format"]
    assert "%(U)s" in line_format and "%(r)s" not in line_format and "%(q)s" not in line_format
    line = line_format % _gunicorn_atoms(line_format, "/t/abc/manage", "key=SECRET-KEY")
    assert "/t/abc/manage" in line and "SECRET-KEY" not in line


def _gunicorn_atoms(line_format, path, query):
    """gunicorn's own atoms for a request, so the format is checked as gunicorn fills it in."""
    from gunicorn.config import Config
    from gunicorn.glogging import Logger

    config = Config()
    config.set("access_log_format", line_format)
    request = SimpleNamespace(headers=[("HOST", "localhost")], method="GET", path=path, query=query,
                              uri=f"{path}?{query}", version=(1, 1))
    response = SimpleNamespace(status="303 See Other", sent=0, headers=[])
    environ = {"REMOTE_ADDR": "127.0.0.1", "REQUEST_METHOD": "GET", "RAW_URI": f"{path}?{query}",
               "PATH_INFO": path, "QUERY_STRING": query, "SERVER_PROTOCOL": "HTTP/1.1"}
    return Logger(config).atoms(response, request, environ, timedelta(seconds=0.01))


def test_the_readme_runs_gunicorn_with_its_config():
    readme = (ROOT / "README.md").read_text()
    assert re.search(r"gunicorn -c gunicorn\.conf\.py .*'viewer\.web:create_app\(\)'", readme)


# ---- the default view gives away no positions ------------------------------------------------------------

POSITION_KEYS = {"span", "line", "column", "header", "offset", "start", "end_offset"}


def _keys(value):
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


def test_the_default_json_has_no_source_positions_but_the_debug_json_does(client, owned):
    id = owned(harmony(("system", "", "a long hidden system prompt " * 20), ("user", "", "Hi"),
                       ("assistant", "final", "Hello")))
    default = client.get(f"/t/{id}.json").get_json()
    assert [message["content"] for message in default["messages"]] == ["Hi", "Hello"]
    assert not POSITION_KEYS & set(_keys(default["messages"])), set(_keys(default["messages"]))
    debug = client.get(f"/t/{id}.json?view=debug").get_json()
    assert all(len(message["span"]) == 2 for message in debug["messages"])


def test_default_json_segments_keep_their_text_but_lose_their_spans(client, owned):
    raw = (b"<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n<|reflect|>\nthink\n<|/reflect|>\n"
           b"Answer<|im_end|>\n")
    id = owned(raw, dialect="chatml")
    messages = client.get(f"/t/{id}.json").get_json()["messages"]
    segments = [segment for message in messages for segment in message.get("segments", [])]
    assert segments and all(set(segment) == {"kind", "text"} for segment in segments)
    assert not POSITION_KEYS & set(_keys(messages))


def test_the_default_page_carries_no_offsets_or_lengths(stranger, owned):
    id = owned(harmony(("system", "", "a long hidden system prompt " * 20), ("user", "", "Hi"),
                       ("assistant", "final", "Hello")))
    for headers in ({}, HTMX):
        page = soup(stranger.get(f"/t/{id}", headers=headers))
        data = {name for tag in page.find_all(True) for name in tag.attrs if name.startswith("data-")}
        assert data <= {"data-view", "data-index", "data-count", "data-select-on-focus"}, data
        assert not page.select(".pos, .source, .source-text")
        assert "bytes" not in page.get_text()  # the upload's size, less what is shown, sizes the hidden part


def test_the_uploader_still_sees_the_size(client, owned):
    id = owned()
    assert f"{WEATHER.stat().st_size:,} bytes" in soup(client.get(f"/t/{id}")).find(class_="doc-meta").get_text()


# ---- the inline jump form --------------------------------------------------------------------------------

@pytest.fixture
def long_client(make_app):
    return make_app(WINDOW_SIZE=2).test_client()


def _long_upload(client):
    raw = harmony(*[("user", "", f"question {n}") for n in range(12)])
    response = client.post("/transcripts", data={"text": raw.decode(), "allow_debug": "on"})
    return response.headers["Location"].rsplit("/", 1)[-1]


@pytest.mark.parametrize("view", ["default", "debug"])
def test_a_long_transcript_page_has_a_plain_get_jump_form(long_client, view):
    id = _long_upload(long_client)
    page = long_client.get(f"/t/{id}?view={view}").get_data(as_text=True)
    form = BeautifulSoup(page, "html.parser").select_one("nav.jump-nav form")
    assert form["method"] == "get" and form["action"] == f"/t/{id}/jump"
    number = form.find("input", attrs={"name": "at"})
    assert number["type"] == "number" and number["min"] == "0" and number["max"] == "11"
    assert form.find("button")["type"] == "submit"
    hidden = form.find("input", type="hidden")
    assert (hidden["name"], hidden["value"]) == ("view", "debug") if view == "debug" else hidden is None
    assert page_problems(page, id) == []
    assert long_client.get(f"/t/{id}/jump", query_string={"at": "7"}).status_code == 303


@pytest.mark.parametrize("form", [
    '<form method="get" action="/t/other/jump"><input type="number" name="at"></form>',
    '<form method="post" action="/t/abc/jump"><button type="submit">Go</button></form>',
    '<form action="/t/abc/jump"></form>',
    '<form method="get" action="/t/abc/jump"><button type="button">Go</button></form>',
    '<form method="get" action="/t/abc/jump"><input type="password" name="at"></form>',
    '<div class="body"><form method="get" action="/t/abc/jump"></form></div>',
])
def test_the_checker_refuses_any_other_form(form):
    assert page_problems(f"<!doctype html><html><body>{form}</body></html>", "abc") != []
