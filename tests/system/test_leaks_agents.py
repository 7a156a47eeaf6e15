"""A Hypothesis property per agent importer, through the web app: sessions of any mix of events, with a canary
in every part the policy hides (reasoning, signatures, tool arguments and results, injected context, sub-agents,
system and summary lines, unknown lines), uploaded; no default-view answer (page, fragments, deep links,
windows, JSON twin, Markdown and HTML exports, search) holds a canary, to the uploader or to a link holder."""
from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings, strategies as st

from tests.parse.agents.test_agent_canaries import CLAUDE_KINDS, CODEX_KINDS, _claude_line, _codex_line
from tests.parse.agents.test_trajectory_canaries import (
    ATIF_KINDS, MINI_KINDS, OPENHANDS_KINDS, SPECSTORY_KINDS, SWE_AGENT_KINDS, atif_trajectory, mini_swe_agent_run,
    openhands_conversation, specstory_export, swe_agent_run)
from tests.system.test_leaks import assert_no_canary, default_view_responses, upload
from viewer.web import create_app

QUERIES = ["canary-q7", "canary", '"canary-q7"']
EXAMPLES = settings(max_examples=15, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
"""Each example uploads a session and asks for a few dozen pages: fewer examples than the parser's properties."""


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    database = tmp_path_factory.mktemp("agent-leaks") / "viewer.sqlite3"
    yield create_app({"DATABASE": str(database), "SECRET_KEY": "leaks", "TESTING": True, "LIMITS": False,
                      "PRELOAD_SAMPLES": False, "WINDOW_SIZE": 2})


def _session(make, kinds: list[str]) -> bytes:
    lines = [line for number, kind in enumerate(["typed", *kinds]) for line in make(kind, number)]
    return "".join(json.dumps(line) + "\n" for line in lines).encode()


def _check(app: Flask, raw: bytes, dialect: str) -> None:
    uploader, stranger = app.test_client(), app.test_client()
    id = upload(uploader, raw, debug="allow")["id"]
    assert uploader.get(f"/t/{id}.json").get_json()["dialect"] == dialect
    for who, client in (("uploader", uploader), ("stranger", stranger)):
        for where, response in default_view_responses(client, id, QUERIES):
            assert_no_canary(dialect, f"{who}: {where}", response)


@EXAMPLES
@given(st.lists(st.sampled_from(CLAUDE_KINDS), min_size=1, max_size=8))
def test_no_default_view_answer_of_a_claude_code_session_holds_a_hidden_part(app, kinds):
    _check(app, _session(_claude_line, kinds), "claude-code")


@EXAMPLES
@given(st.lists(st.sampled_from(CODEX_KINDS), min_size=1, max_size=8))
def test_no_default_view_answer_of_a_codex_rollout_holds_a_hidden_part(app, kinds):
    _check(app, _session(_codex_line, kinds), "codex")


TRAJECTORIES = {"openhands": (OPENHANDS_KINDS, openhands_conversation), "swe-agent": (SWE_AGENT_KINDS, swe_agent_run),
                "mini-swe-agent": (MINI_KINDS, mini_swe_agent_run), "atif": (ATIF_KINDS, atif_trajectory),
                "specstory": (SPECSTORY_KINDS, specstory_export)}
"""The agents that write a document or an export, each with the parts its random sessions are made of."""
FEW_EXAMPLES = settings(max_examples=4, deadline=None,
                        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
"""Through the web app, a few sessions each: tests/parse/agents/test_trajectory_canaries.py tries many more on the
parser's exports."""


@pytest.mark.parametrize("dialect", TRAJECTORIES)
@FEW_EXAMPLES
@given(data=st.data())
def test_no_default_view_answer_of_an_agent_s_trajectory_holds_a_hidden_part(app, dialect, data):
    names, make = TRAJECTORIES[dialect]
    _check(app, make(data.draw(st.lists(st.sampled_from(names), min_size=1, max_size=6))).encode(), dialect)
