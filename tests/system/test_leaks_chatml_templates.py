"""No hidden part of a ChatML transcript written by a real chat template reaches the default view.

Hypothesis builds transcripts in the shapes Qwen3, QwQ, DeepSeek-R1, Hermes and Qwen2.5 templates write
(tests/parse/chatml/template_shapes.py: think closed, empty, unclosed at a cut, opened in the prompt; tool calls
one, many, in one block, broken; tool responses in tool and user turns; `<tools>` in the system prompt;
misplaced blocks), with a unique canary in every part the policy hides. Each is uploaded through the app and
its default view fetched as a page, as the htmx fragment, as the JSON twin and as the Markdown and HTML exports:
no canary may appear in any of them (headers included), and every shown word must.
"""
from __future__ import annotations

import re
from typing import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings

from tests.parse.chatml.template_shapes import template_transcripts
from viewer.web import create_app


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    database = tmp_path_factory.mktemp("chatml-leaks") / "viewer.sqlite3"
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


@settings(max_examples=60, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(text=template_transcripts())
def test_no_canary_of_a_template_transcript_reaches_the_default_view(app: Flask, text: str):
    client = app.test_client()
    response = client.post("/api/transcripts", data=text.encode())
    assert response.status_code == 201, response.get_data(as_text=True)
    id = response.get_json()["id"]
    shown_words = set(re.findall(r"SHOWN\d+", text))
    for where, view in _default_views(client, id):
        assert view.status_code == 200, where
        body = _text(view)
        assert "CANARY" not in body, (where, re.findall(r"CANARY\d+Q", body))
        assert shown_words <= set(re.findall(r"SHOWN\d+", body)), where
