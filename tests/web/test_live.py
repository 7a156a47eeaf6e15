"""Live uploads over HTTP: `POST /api/transcripts?live=1`, appends and the finish with the manage key, the
page's "live" and "truncated" marks (and its JSON twin's), its live region and event stream, and what each
view's stream may hold."""
from __future__ import annotations

import itertools
import re
from urllib.parse import parse_qs, urlparse

import pytest

from tests.system.hostile.html_checks import page_problems
from tests.web.conftest import HIDDEN_CANARIES, WEATHER, soup, text_of
from viewer.web.views import live as live_view

CUT = b"<|start|>user<|message|>Hi<|end|><|start|>assistant<|channel|>final<|message|>Hel"


@pytest.fixture(autouse=True)
def short_streams(monkeypatch):
    """Event streams that end within a test's patience (they last 15 s in service)."""
    monkeypatch.setattr(live_view, "STREAM_SECONDS", 0.3)
    monkeypatch.setattr(live_view, "POLL_SECONDS", 0.05)


def key_of(created: dict) -> str:
    return parse_qs(urlparse(created["manage_url"]).query)["key"][0]


def start(client, raw: bytes = b"", **query) -> tuple[str, str]:
    """A live upload; returns its id and manage key."""
    response = client.post("/api/transcripts", data=raw, query_string={"live": "1", **query})
    assert response.status_code == 201, response.data
    created = response.get_json()
    return created["id"], key_of(created)


def append(client, id: str, key: str, data: bytes):
    return client.post(f"/api/transcripts/{id}/append", data=data, query_string={"key": key})


def messages_of(raw: bytes) -> list[bytes]:
    """A Harmony transcript cut before each `<|start|>`, as an agent writes it message by message."""
    starts = [match.start() for match in re.finditer(rb"<\|start\|>", raw)] + [len(raw)]
    return [raw[:starts[0]], *(raw[a:b] for a, b in itertools.pairwise(starts))]


def test_appends_grow_a_live_upload_and_finish_closes_it(client):
    id, key = start(client, debug="allow")
    for piece in messages_of(WEATHER.read_bytes()):
        if piece:
            answer = append(client, id, key, piece)
            assert answer.status_code == 200, answer.data
            assert answer.get_json()["live"] == "open"
    assert answer.get_json()["messages"] == 8
    finished = client.post(f"/api/transcripts/{id}/finish", query_string={"key": key})
    assert finished.status_code == 200 and finished.get_json()["live"] == "finished"
    refused = append(client, id, key, b"<|start|>user<|message|>more<|end|>")
    assert refused.status_code == 409 and b"finished" in refused.data
    assert client.get(f"/t/{id}/raw").data == WEATHER.read_bytes()


def test_the_page_marks_an_open_upload_live_and_shows_its_latest_messages(client):
    id, key = start(client, CUT[:34])
    append(client, id, key, CUT[34:])
    page = soup(client.get(f"/t/{id}"))
    assert page.select_one(".doc-meta .badge.live").get_text() == "live"
    region = page.select_one(".live-region")
    assert region["sse-connect"].startswith(f"/t/{id}/events") and region["sse-swap"] == "tail"
    assert "Hel" in region.get_text() and page.select_one(".live-state a")["href"] == f"/t/{id}"
    assert page.find("script", src="/vendor/htmx-ext-sse/sse.min.js") is not None
    assert client.get(f"/t/{id}.json").get_json()["live"] == "open"


def test_a_finished_upload_cut_without_a_stop_is_marked_truncated(client):
    id, key = start(client, CUT)
    client.post(f"/api/transcripts/{id}/finish", query_string={"key": key})
    page = soup(client.get(f"/t/{id}"))
    assert page.select_one(".doc-meta .badge.warn").get_text() == "truncated"
    assert page.select_one(".live-region") is None and page.find("script", src=re.compile("sse")) is None
    assert client.get(f"/t/{id}.json").get_json()["live"] == "truncated"


def test_a_plain_upload_has_no_live_mark(client, upload):
    created = upload()
    assert soup(client.get(f"/t/{created['id']}")).select_one(".badge.live") is None
    assert "live" not in client.get(f"/t/{created['id']}.json").get_json()


def test_the_event_stream_sends_the_live_region_and_ends_when_finished(client):
    id, key = start(client, CUT)
    stream = client.get(f"/t/{id}/events").get_data(as_text=True)
    assert stream.startswith("retry: ") and "event: tail\ndata: " in stream and "Hel" in stream
    assert "event: end" not in stream  # still open: the answer ends, and the browser reconnects
    client.post(f"/api/transcripts/{id}/finish", query_string={"key": key})
    ended = client.get(f"/t/{id}/events")
    assert ended.mimetype == "text/event-stream" and "event: end" in ended.get_data(as_text=True)


def test_appending_needs_the_manage_key(client):
    id, _ = start(client, CUT)
    assert append(client, id, "wrong", b"lo").status_code == 403
    assert client.post(f"/api/transcripts/{id}/finish").status_code == 403


def test_a_plain_upload_takes_no_appends(client, upload):
    created = upload()
    refused = append(client, created["id"], key_of(created), b"<|start|>user<|message|>more<|end|>")
    assert refused.status_code == 409 and b"live=1" in refused.data


def test_an_append_over_the_upload_limit_is_refused(make_app):
    client = make_app(MAX_UPLOAD_BYTES=200).test_client()
    id, key = start(client, CUT)
    assert append(client, id, key, b"x" * 201).status_code == 413
    assert append(client, id, key, b"x" * 150).status_code == 413  # the transcript would pass the limit
    assert append(client, id, key, b"lo<|end|>").status_code == 200


def test_a_dataset_cannot_be_live(client):
    rows = b'{"messages": [{"role": "user", "content": "a"}]}\n{"messages": [{"role": "user", "content": "b"}]}\n'
    refused = client.post("/api/transcripts", data=rows, query_string={"live": "1"})
    assert refused.status_code == 422 and b"dataset" in refused.data


def test_bad_requests_get_clear_4xx(client):
    id, key = start(client, CUT)
    assert client.post("/api/transcripts", data=CUT, query_string={"live": "yes"}).status_code == 400
    assert append(client, id, key, b"").status_code == 400
    assert append(client, "nosuchid0000", key, b"x").status_code == 404
    assert client.get(f"/t/{id}/events?start=-5").status_code == 200


def test_the_default_view_of_a_live_page_its_stream_and_json_hold_nothing_hidden(client, stranger):
    id, key = start(client, debug="allow")
    for piece in messages_of(WEATHER.read_bytes()):
        if piece:
            append(client, id, key, piece)
            answers = (stranger.get(f"/t/{id}"), stranger.get(f"/t/{id}/events"), stranger.get(f"/t/{id}.json"))
            for answer in answers:
                held = answer.get_data(as_text=True) + (text_of(answer) if answer.mimetype == "text/html" else "")
                assert not any(canary in held for canary in HIDDEN_CANARIES)
    debug = stranger.get(f"/t/{id}/events?view=debug").get_data(as_text=True)
    assert "ANALYSIS-CANARY-9X" in debug  # the canaries are there to find, for a view allowed to show them


def test_a_stranger_without_debug_access_gets_no_debug_stream(client, stranger):
    id, _ = start(client, WEATHER.read_bytes())
    refused = stranger.get(f"/t/{id}/events?view=debug")
    assert refused.status_code == 403
    assert not any(canary in refused.get_data(as_text=True) for canary in HIDDEN_CANARIES)


@pytest.mark.parametrize("view", ["default", "debug"])
def test_the_live_page_and_its_events_hold_only_allowlisted_markup(client, view):
    id, _ = start(client, WEATHER.read_bytes()[:700], debug="allow")
    assert page_problems(client.get(f"/t/{id}?view={view}").get_data(as_text=True), id) == []
    stream = client.get(f"/t/{id}/events?view={view}").get_data(as_text=True)
    fragment = "\n".join(line.removeprefix("data: ") for line in stream.splitlines() if line.startswith("data: "))
    assert 'hx-swap-oob="true"' in fragment and page_problems(fragment, id) == []


def test_every_line_of_an_event_is_data_whatever_ends_it():
    """A carriage return in a body would otherwise end the event's data early and start a field of its own."""
    assert (live_view.sse_event("tail", "a\rb\r\nc\nevent: x")
            == "event: tail\ndata: a\ndata: b\ndata: c\ndata: event: x\n\n")
