"""Security headers on every response; no inline scripts or styles; htmx configured safely."""
from __future__ import annotations

import json

import pytest

from tests.web.conftest import soup
from viewer.web import CONTENT_SECURITY_POLICY

EXPECTED_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
                "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")


@pytest.fixture
def paths(client, owned):
    id = owned()
    return ["/", f"/t/{id}", f"/t/{id}?view=debug", f"/t/{id}.json", f"/t/{id}/raw", f"/t/{id}/manage",
            "/t/missing", "/static/app.css", "/static/app.js", "/pygments.css", "/vendor/htmx/htmx.min.js"]


def test_every_response_carries_the_strict_csp_and_friends(client, paths):
    for path in paths:
        with client.get(path) as response:
            headers = response.headers
        assert headers["Content-Security-Policy"] == EXPECTED_CSP, path
        assert headers["X-Content-Type-Options"] == "nosniff", path
        assert headers["X-Frame-Options"] == "DENY", path
        assert headers["Referrer-Policy"] == "no-referrer", path


def test_the_policy_has_no_unsafe_inline():
    assert "unsafe" not in " ".join(CONTENT_SECURITY_POLICY.values())


def test_error_responses_carry_the_csp_too(client):
    assert client.post("/api/transcripts", data=b"").headers["Content-Security-Policy"] == EXPECTED_CSP


def test_pages_have_no_inline_script_style_or_event_handlers(client, owned):
    id = owned()
    for path in ("/", f"/t/{id}", f"/t/{id}?view=debug", f"/t/{id}/manage", "/t/missing"):
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
    assert config["includeIndicatorStyles"] is False
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


def test_session_cookie_is_httponly_and_samesite_lax(client, upload):
    client.get(upload()["manage_url"])
    cookie = client.get_cookie("session")
    assert cookie.http_only and cookie.same_site == "Lax"
