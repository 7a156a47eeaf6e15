"""A dataset is one upload with one share link: an index of its conversations, and each conversation with its
own default and debug views, JSON twin, deep links and neighbours. Hidden text reaches none of them."""
from __future__ import annotations

import json

import pytest

from tests.web.conftest import soup

SECRET = "SYSTEM-CANARY-DS1"
REASONING = "REASONING-CANARY-DS2"
ARGUMENTS = "ARGUMENTS-CANARY-DS3"


def _conversation(number: int) -> dict:
    return {"messages": [
        {"role": "system", "content": f"{SECRET} {number}"},
        {"role": "user", "content": f"Question {number}"},
        {"role": "assistant", "reasoning_content": REASONING, "content": None, "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "lookup", "arguments": json.dumps({"q": ARGUMENTS})}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "found"},
        {"role": "assistant", "content": f"Answer {number}"}]}


def _dataset(count: int) -> bytes:
    return "".join(json.dumps(_conversation(number)) + "\n" for number in range(count)).encode()


@pytest.fixture
def dataset_id(owned):
    return owned(_dataset(5))


def test_the_share_link_opens_an_index_of_the_conversations(client, dataset_id):
    page = soup(client.get(f"/t/{dataset_id}"))
    rows = page.select("table.conversations tbody tr")
    assert len(rows) == 5
    assert [row.select_one(".snippet").get_text(strip=True) for row in rows] == [f"Question {n}" for n in range(5)]
    assert rows[3].select_one("a")["href"] == f"/t/{dataset_id}/c/3"
    assert page.select_one('[data-count="conversations"]').get_text() == "5"


def test_a_conversation_has_its_own_default_view_with_neighbours(client, dataset_id):
    page = soup(client.get(f"/t/{dataset_id}/c/2"))
    text = page.get_text()
    assert "Question 2" in text and "Answer 2" in text and "Question 1" not in text
    assert page.select_one('a[rel="prev"]')["href"] == f"/t/{dataset_id}/c/1"
    assert page.select_one('a[rel="next"]')["href"] == f"/t/{dataset_id}/c/3"


def test_the_debug_view_of_a_conversation_shows_everything_to_the_uploader(client, dataset_id):
    text = client.get(f"/t/{dataset_id}/c/2?view=debug").get_data(as_text=True)
    assert f"{SECRET} 2" in text and REASONING in text and ARGUMENTS in text


def test_link_holders_get_the_debug_view_of_a_conversation_only_when_allowed(stranger, dataset_id, client):
    assert stranger.get(f"/t/{dataset_id}/c/2?view=debug").status_code == 403
    assert stranger.get(f"/t/{dataset_id}/c/2").status_code == 200


@pytest.mark.parametrize("path", ["", "/c/0", "/c/4", ".json", "/c/0.json", "/c/3/window?start=0",
                                  "/c/1/jump?at=1"])
def test_no_default_view_response_of_a_dataset_holds_hidden_text(stranger, dataset_id, path):
    response = stranger.get(f"/t/{dataset_id}{path}", headers={"HX-Request": "true"} if "window" in path else {})
    assert response.status_code in (200, 303)
    body = response.get_data(as_text=True)
    assert SECRET not in body and REASONING not in body and ARGUMENTS not in body


def test_the_index_quotes_no_hidden_message_when_a_conversation_has_no_visible_question(client, owned):
    hidden_only = {"messages": [{"role": "system", "content": SECRET},
                                {"role": "assistant", "content": "hello"}]}
    id = owned((json.dumps(hidden_only) + "\n" + json.dumps(_conversation(1)) + "\n").encode())
    row = soup(client.get(f"/t/{id}")).select("table.conversations tbody tr")[0]
    assert SECRET not in row.get_text() and "no user message shown" in row.get_text()


def test_the_json_twin_of_a_dataset_is_its_index(stranger, dataset_id):
    data = stranger.get(f"/t/{dataset_id}.json").get_json()
    assert data["schema"] == "openchatml-viewer/4" and data["counts"]["conversations"] == 5
    assert [c["snippet"] for c in data["conversations"]] == [f"Question {n}" for n in range(5)]


def test_the_json_twin_of_a_conversation_is_in_the_single_transcript_form(stranger, dataset_id):
    data = stranger.get(f"/t/{dataset_id}/c/3.json").get_json()
    assert data["schema"] == "openchatml-viewer/3" and data["conversation"] == 3 and data["id"] == dataset_id
    assert [m.get("content") for m in data["messages"] if m["show_as"] == "message"] == ["Question 3", "Answer 3"]


@pytest.mark.parametrize("path", ["/c/5", "/c/99999999", "/c/5.json"])
def test_a_conversation_number_past_the_end_is_404(stranger, dataset_id, path):
    assert stranger.get(f"/t/{dataset_id}{path}").status_code == 404


def test_a_single_transcript_has_no_conversations(stranger, owned):
    assert stranger.get(f"/t/{owned()}/c/0").status_code == 404


def test_the_index_is_windowed_and_deep_links_to_a_window(make_app):
    app = make_app(WINDOW_SIZE=3)
    client = app.test_client()
    id = client.post("/api/transcripts", data=_dataset(8)).get_json()["id"]
    page = soup(client.get(f"/t/{id}?at=7"))
    assert [row["id"] for row in page.select("table.conversations tbody tr")] == ["c-6", "c-7"]
    assert page.select_one("a.more.earlier")["href"] == f"/t/{id}?at=3"
    assert page.select_one("a.more.next") is None


def test_deleting_a_dataset_deletes_every_conversation(client, app, dataset_id):
    store = app.extensions["viewer.store"]
    store.delete(dataset_id)
    assert client.get(f"/t/{dataset_id}/c/1").status_code == 410
    assert store.conversations(dataset_id, 0, 10) == [] and store.message_row_count(f"{dataset_id}.1") == 0


def test_an_inspect_log_s_index_shows_each_sample_s_id_target_and_score(client, owned):
    samples = [{"id": f"s{number}", "epoch": 1, "input": "q", "target": str(number),
                "messages": [{"role": "user", "content": f"Question {number}"},
                             {"role": "assistant", "content": "4"}],
                "scores": {"match": {"value": "C" if number == 4 else "I", "answer": "4"}}} for number in (4, 5)]
    log = json.dumps({"version": 2, "status": "success", "eval": {"task": "t"}, "samples": samples}, indent=2)
    id = owned(log.encode())
    page = soup(client.get(f"/t/{id}"))
    rows = [[cell.get_text(" ", strip=True) for cell in row.select("td.sample-id, td.sample-target, td.sample-scores")]
            for row in page.select("table.conversations tbody tr")]
    assert rows == [["s4", "4", "C correct"], ["s5", "5", "I incorrect"]]
    twin = client.get(f"/t/{id}.json").get_json()
    assert [c["sample"] for c in twin["conversations"]] == [
        {"id": "s4", "epoch": 1, "target": "4", "scores": {"match": "C"}},
        {"id": "s5", "epoch": 1, "target": "5", "scores": {"match": "I"}}]


def test_a_sample_s_target_of_any_json_type_is_shown_not_refused(client, owned):
    samples = [{"id": number, "epoch": 2, "input": "q", "target": target, "scores": {"m": 0.5},
                "messages": [{"role": "user", "content": "Q"}]}
               for number, target in enumerate((["a", "b"], None, 7, {"k": "v"}))]
    log = json.dumps({"version": 2, "status": "success", "eval": {"task": "t"}, "samples": samples})
    id = owned(log.encode())
    response = client.get(f"/t/{id}")
    assert response.status_code == 200
    rows = [[cell.get_text(" ", strip=True) for cell in row.select("td.sample-id, td.sample-target, td.sample-scores")]
            for row in soup(response).select("table.conversations tbody tr")]
    assert rows == [["0 (epoch 2)", "a, b", "0.5"], ["1 (epoch 2)", "", "0.5"], ["2 (epoch 2)", "7", "0.5"],
                    ["3 (epoch 2)", '{"k": "v"}', "0.5"]]
    assert [c["sample"]["target"] for c in client.get(f"/t/{id}.json").get_json()["conversations"]] == [
        ["a", "b"], None, 7, {"k": "v"}]


def test_the_index_of_several_traces_names_each_conversation_by_its_trace(client, owned):
    spans = [{"traceId": trace, "spanId": trace, "startTimeUnixNano": "1", "attributes": [
        {"key": "gen_ai.input.messages", "value": {"stringValue": json.dumps(
            [{"role": "user", "parts": [{"type": "text", "content": f"Hello from {trace}"}]}])}}]}
        for trace in ("aa11", "bb22")]
    id = owned(json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": spans}]}]}).encode())
    page = soup(client.get(f"/t/{id}"))
    assert [code.get_text() for code in page.select("table.conversations code.record-label")] == ["aa11", "bb22"]
    twin = client.get(f"/t/{id}.json").get_json()
    assert [(c["trace_id"], c["snippet"]) for c in twin["conversations"]] == [
        ("aa11", "Hello from aa11"), ("bb22", "Hello from bb22")]
