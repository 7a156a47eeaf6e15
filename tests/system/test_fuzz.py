"""Property tests: the upload API never fails with a 5xx, and parse + policy + render never raise or emit markup
outside the allowlist. Example counts are fixed and small so CI stays fast; bench/fuzz.py runs the long version.
"""
from __future__ import annotations

from typing import Iterator

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.harness import fuzz as fuzz_harness
from tests.system.hostile.html_checks import page_problems
from viewer import render
from viewer.formats import NAMES as DIALECTS
from viewer.web import create_app

UPLOAD_LIMIT = 8192
WEB = settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
PIPELINE = settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])

pieces = st.sampled_from(fuzz_harness.CONTROL_TOKENS + fuzz_harness.WORDS) | st.text(max_size=12)
transcript_text = st.lists(pieces, max_size=60).map("".join)
transcript_bytes = (st.binary(max_size=600)
                    | transcript_text.map(lambda text: text.encode("utf-8", "surrogatepass"))
                    | st.sampled_from(fuzz_harness.seeds()))
content_types = st.sampled_from([
    None, "application/octet-stream", "text/plain", "text/plain; charset=utf-16", "application/json",
    "application/x-www-form-urlencoded", "multipart/form-data", "multipart/form-data; boundary=x",
    "text/html", "application/json; charset=latin-1"]) | st.text(st.characters(min_codepoint=32, max_codepoint=126),
                                                               max_size=30)
query_values = st.text(max_size=20) | st.sampled_from(["auto", *DIALECTS])


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    database = tmp_path_factory.mktemp("fuzz") / "viewer.sqlite3"
    yield create_app({"DATABASE": str(database), "SECRET_KEY": "fuzz", "TESTING": True, "PRELOAD_SAMPLES": False,
                      "MAX_UPLOAD_BYTES": UPLOAD_LIMIT, "WINDOW_SIZE": 5, "LIMITS": False})


@WEB
@given(body=transcript_bytes | st.binary(min_size=UPLOAD_LIMIT - 10, max_size=UPLOAD_LIMIT + 10),
       content_type=content_types, dialect=st.none() | query_values, name=st.none() | st.text(max_size=40),
       debug=st.sampled_from([None, "allow", "deny", "maybe"]))
def test_upload_api_never_fails_and_every_upload_renders(app, body, content_type, dialect, name, debug):
    client = app.test_client()
    query = {key: value for key, value in (("dialect", dialect), ("name", name), ("debug", debug))
             if value is not None}
    headers = {"Content-Type": content_type} if content_type is not None else {}
    response = client.post("/api/transcripts", data=body, query_string=query, headers=headers)
    assert response.status_code < 500, response.get_data(as_text=True)
    if response.status_code != 201:
        assert response.status_code in (400, 413, 415), response.status_code
        assert response.get_json()["error"]["status"] == response.status_code
        return
    created = response.get_json()
    assert client.get(created["manage_url"]).status_code == 303
    id = created["id"]
    for query in ("", "?view=debug"):
        page = client.get(f"/t/{id}{query}")
        assert page.status_code == 200, query
        assert page_problems(page.get_data(as_text=True), id) == []
        assert client.get(f"/t/{id}{query}", headers={"HX-Request": "true"}).status_code == 200
        assert client.get(f"/t/{id}.json{query}").status_code == 200
        assert client.get(f"/t/{id}/window?start=5{query.replace('?', '&')}",
                          headers={"HX-Request": "true"}).status_code == 200
    raw = client.get(f"/t/{id}/raw")
    assert raw.status_code == 200 and raw.data == body


@pytest.mark.parametrize("name", ["a\nb.txt", "\r", "x\r\nSet-Cookie: a=b", "tab\tname", "nul\x00.txt"])
def test_the_raw_download_survives_control_characters_in_the_name(app, name):
    """Found by the property above: the name becomes the download's file name in a header."""
    client = app.test_client()
    created = client.post("/api/transcripts", data=b"<|start|>user<|message|>hi<|end|>",
                          query_string={"name": name, "debug": "allow"}).get_json()
    raw = client.get(f"/t/{created['id']}/raw")
    assert raw.status_code == 200 and raw.data == b"<|start|>user<|message|>hi<|end|>"
    assert "\n" not in raw.headers["Content-Disposition"] and "\r" not in raw.headers["Content-Disposition"]


@PIPELINE
@given(data=transcript_bytes, dialect=st.sampled_from(["auto", *DIALECTS]))
def test_parse_policy_and_render_never_raise_and_stay_inert(data, dialect):
    assert fuzz_harness.run_pipeline(data, dialect) == []


@PIPELINE
@given(text=transcript_text | st.text(max_size=300), content_type=st.none() | query_values)
def test_rendered_bodies_hold_only_allowlisted_markup(text, content_type):
    html = str(render.render_body(text, content_type).html)
    assert page_problems(f'<div class="body">{html}</div>', "x") == []


@PIPELINE
@given(seed=st.integers(0, 2**32 - 1))
def test_mutations_are_deterministic_and_bounded(seed):
    first = list(fuzz_harness.inputs(5, seed))
    assert first == list(fuzz_harness.inputs(5, seed))
    assert all(len(data) <= fuzz_harness.MAX_INPUT for data in first)


def test_the_fuzz_driver_reports_and_saves(tmp_path):
    report = fuzz_harness.fuzz(count=200, seed=7, max_seconds=60, out=tmp_path)
    summary = report.summary()
    assert summary["inputs"] == 200 and summary["crashes"] == 0 and summary["unsafe_html"] == 0
    assert summary["inputs_per_second"] > 0
    saved = list(tmp_path.glob("slowest-*.bin"))
    assert len(saved) == 1 and saved[0].with_suffix(".txt").exists()


def test_the_fuzz_driver_saves_a_reproducer_for_a_crash(tmp_path, monkeypatch):
    def explode(data, dialect="auto"):
        if b"<|start|>" in data:
            raise RecursionError("planted")
        return []

    monkeypatch.setattr(fuzz_harness, "run_pipeline", explode)
    report = fuzz_harness.fuzz(count=100, seed=3, max_seconds=60, out=tmp_path)
    assert report.crashes and sum(report.crashes.values()) > 0
    crash = next(tmp_path.glob("crash-*.bin"))
    assert b"<|start|>" in crash.read_bytes()
    assert "RecursionError: planted" in crash.with_suffix(".txt").read_text()
