"""No hidden part of a JSON transcript in the shapes real producers write reaches the default view.

Hypothesis builds Anthropic Messages conversations, OpenAI Responses API responses and requests, ShareGPT
records and OpenAI chat exports with `<think>` left in the content (tests/parse/json/shapes.py), with a unique
canary in every part the policy hides: thinking and its signature, redacted thinking, reasoning text, summaries
and encrypted reasoning, tool inputs and outputs, system prompts and instructions, unknown block, part, item and
speaker types, `<think>` in the content, and the base64 data of images and documents. Each is uploaded through
the app and its default view fetched as a page, as the htmx fragment, as the JSON twin and as the Markdown and
HTML exports: no canary may appear in any of them (headers included), and every shown word must.
"""
from __future__ import annotations

import re
from typing import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings, strategies as st

from tests.parse.json.shapes import SHAPES
from viewer.web import create_app


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    database = tmp_path_factory.mktemp("json-shape-leaks") / "viewer.sqlite3"
    yield create_app({"DATABASE": str(database), "SECRET_KEY": "x", "PRELOAD_SAMPLES": False, "TESTING": True,
                      "LIMITS": False})


def _default_views(client: FlaskClient, id: str) -> Iterator[tuple[str, object]]:
    yield "page", client.get(f"/t/{id}")
    yield "fragment", client.get(f"/t/{id}", headers={"HX-Request": "true"})
    yield "json twin", client.get(f"/t/{id}.json")
    yield "markdown export", client.get(f"/t/{id}.md")
    yield "html export", client.get(f"/t/{id}.html")


def _text(response) -> str:
    return response.get_data(as_text=True) + "\n" + "\n".join(f"{k}: {v}" for k, v in response.headers.items())


@pytest.mark.parametrize("shape", sorted(SHAPES))
@settings(max_examples=15, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_no_canary_of_a_json_shape_reaches_the_default_view(app: Flask, shape: str, data: st.DataObject):
    text = data.draw(SHAPES[shape]())
    client = app.test_client()
    response = client.post("/api/transcripts", data=text.encode())
    assert response.status_code == 201, response.get_data(as_text=True)
    created = response.get_json()
    shown_words = set(re.findall(r"SHOWN\d+", text))
    for where, view in _default_views(client, created["id"]):
        assert view.status_code == 200, where
        body = _text(view)
        assert "CANARY" not in body, (where, re.findall(r"CANARY\d+Q", body))
        assert shown_words <= set(re.findall(r"SHOWN\d+", body)), where
    # The uploader's debug view does show hidden parts, so their absence above means something.
    assert client.get(created["manage_url"]).status_code == 303
    assert "CANARY" in client.get(f"/t/{created['id']}.json?view=debug").get_data(as_text=True)

