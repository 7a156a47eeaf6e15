"""A transcript's pages: default and debug views, htmx partials, the JSON twin, raw bytes."""
from __future__ import annotations

import pytest

from tests.web.conftest import HIDDEN_CANARIES, WEATHER, soup, text_of
from viewer.store import Store, raw as raw_bytes


def entries(response):
    return soup(response).select("ol.entries > li.entry")


def test_default_view_shows_user_preamble_marker_and_final(client, upload):
    id = upload()["id"]
    response = client.get(f"/t/{id}")
    assert response.status_code == 200
    kinds = [(entry["class"][1], entry["id"]) for entry in entries(response)]
    assert kinds == [("msg", "m-2"), ("preamble", "m-4"), ("marker", "m-5"), ("msg", "m-7")]
    final = soup(response).find(id="m-7")
    assert final.find("strong").get_text() == "20 °C"  # markdown rendered
    assert final.select_one("pre.code span")  # code highlighted by Pygments


def test_default_view_has_no_hidden_content_in_the_html(client, upload):
    page = text_of(client.get(f"/t/{upload()['id']}"))
    for canary in HIDDEN_CANARIES:
        assert canary not in page


def test_tool_use_is_a_content_free_marker(client, upload):
    marker = soup(client.get(f"/t/{upload()['id']}")).find("li", class_="marker")
    assert marker.get_text(" ", strip=True).endswith("used get_weather")
    assert marker.find(id="m-6") is not None  # the collapsed reply keeps its anchor


def test_page_says_how_many_messages_the_policy_hid(client, upload):
    page = soup(client.get(f"/t/{upload()['id']}"))
    assert page.find("dd", attrs={"data-count": "hidden"}).get_text() == "3"
    assert page.find("dd", attrs={"data-count": "messages"}).get_text() == "8"
    assert page.find(class_="policy-note").find("strong").get_text() == "3"


def test_every_message_has_a_deep_link(client, upload):
    id = upload()["id"]
    for entry in soup(client.get(f"/t/{id}")).select("li.msg, li.preamble"):
        assert entry.find("a", class_="anchor")["href"] == f"/t/{id}?at={entry['data-index']}#{entry['id']}"


def test_rendered_content_containers_carry_hx_disable(client, owned):
    id = owned()
    for view in ("default", "debug"):
        page = soup(client.get(f"/t/{id}?view={view}"))
        assert page.select("ol.entries") and all(ol.has_attr("hx-disable") for ol in page.select("ol.entries"))
        assert all(body.has_attr("hx-disable") for body in page.select(".body"))


def test_debug_view_shows_everything_with_fields_rules_and_sources(client, owned):
    id = owned()
    response = client.get(f"/t/{id}?view=debug")
    page = text_of(response)
    for canary in HIDDEN_CANARIES:
        assert canary in page
    analysis = soup(response).find(id="m-3")
    assert "tone-analysis" in analysis["class"]
    assert analysis.find(class_="rule-name").get_text() == "analysis"
    assert "<|channel|>analysis" in analysis.find("details", class_="source").find("pre").get_text()
    call = soup(response).find(id="m-5")
    fields = {dt.get_text(): dd.get_text() for dt, dd in zip(call.select("dt"), call.select("dd"))}
    assert fields["to"] == "functions.get_weather" and fields["ended by"] == "call"
    assert fields["content type"] == "<|constrain|>json"


def test_debug_view_pairs_call_and_reply(client, owned):
    page = soup(client.get(f"/t/{owned()}?view=debug"))
    call, reply = page.find(id="m-5"), page.find(id="m-6")
    assert call["data-pair"] == reply["data-pair"] == "1"
    assert call.find("a", class_="pair-link")["href"].endswith("at=6#m-6")
    assert reply.find("a", class_="pair-link")["href"].endswith("at=5#m-5")


def test_tool_call_json_is_pretty_printed_and_highlighted(client, owned):
    body = soup(client.get(f"/t/{owned()}?view=debug")).find(id="m-5").find(class_="body")
    code = body.find("pre")
    assert '\n  "location": "Tokyo"' in code.get_text()
    assert code.find("span")


def test_unanswered_call_is_marked(client, owned):
    raw = (b"<|start|>user<|message|>hi<|end|><|start|>assistant<|channel|>commentary to=functions.f "
           b"<|constrain|>json<|message|>{}<|call|><|start|>assistant<|channel|>final<|message|>done<|end|>")
    call = soup(client.get(f"/t/{owned(raw)}?view=debug")).find(id="m-1")
    assert "pair-unanswered" in call["class"]
    assert call.find(class_="badge").get_text() == "unanswered call"
    assert call.find(class_="diag").find("code").get_text() == "W-UNANSWERED-CALL"


def test_diagnostics_show_inline_with_code_and_line_column(client, owned):
    raw = b"<|start|>user<|message|>hi<|end|>\nstray words\n<|start|>assistant<|channel|>final<|message|>ok<|end|>"
    page = soup(client.get(f"/t/{owned(raw)}?view=debug"))
    panel = page.find("details", class_="diagnostics-panel")
    first = panel.find("li", class_="diag")
    assert first.find("code").get_text() == "W-STRAY-TEXT"
    assert first.find(class_="pos").get_text() == "2:1"


def test_debug_view_is_403_with_advice_for_link_holders_when_not_allowed(stranger, upload):
    response = stranger.get(f"/t/{upload()['id']}?view=debug")
    assert response.status_code == 403
    assert "manage link" in soup(response).find(class_="hint").get_text()


def test_debug_toggle_is_an_htmx_upgraded_link(client, owned):
    id = owned()
    link = soup(client.get(f"/t/{id}")).find("nav", class_="toolbar").find("a", string="Debug view")
    assert link["href"] == f"/t/{id}?view=debug"
    assert link["hx-get"] == link["href"] and link["hx-target"] == "#transcript"
    assert link["hx-push-url"] == "true"


def test_htmx_request_gets_only_the_transcript_region(client, owned):
    id = owned()
    response = client.get(f"/t/{id}?view=debug", headers={"HX-Request": "true"})
    page = soup(response)
    assert page.find("html") is None and page.find("section", id="transcript")
    assert "HX-Request" in response.headers["Vary"]


def test_history_restore_and_direct_loads_get_the_full_page(client, owned):
    id = owned()
    restore = client.get(f"/t/{id}?view=debug", headers={"HX-Request": "true", "HX-History-Restore-Request": "true"})
    assert soup(restore).find("html") is not None
    assert soup(client.get(f"/t/{id}?view=debug")).find("html") is not None


def test_json_twin_of_default_view_has_no_hidden_content(stranger, upload):
    response = stranger.get(f"/t/{upload()['id']}.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    body = response.get_json()
    assert body["view"] == "default" and body["counts"]["hidden"] == 3
    assert [entry["show_as"] for entry in body["messages"]] == ["message", "preamble", "marker", "message"]
    for canary in HIDDEN_CANARIES:
        assert canary not in response.get_data(as_text=True)


def test_json_twin_of_debug_view_is_the_full_model(client, owned):
    body = client.get(f"/t/{owned()}.json?view=debug").get_json()
    assert body["schema"] == "openchatml-viewer/3"
    assert len(body["messages"]) == 8
    assert body["messages"][3]["default_view"]["rule"] == "analysis"
    assert body["pairs"] == [{"call": 5, "reply": 6, "by": "name"}]


def test_json_twin_of_debug_view_is_403_for_link_holders_when_not_allowed(stranger, upload):
    response = stranger.get(f"/t/{upload()['id']}.json?view=debug")
    assert response.status_code == 403 and response.get_json()["error"]["status"] == 403


def test_raw_is_the_exact_upload_as_a_text_download(client, owned):
    raw = b"\xef\xbb\xbf<|start|>user<|message|>caf\xc3\xa9\r\n<|end|>\xff"
    response = client.get(f"/t/{owned(raw)}/raw")
    assert response.status_code == 200 and response.data == raw
    assert response.mimetype == "text/plain"
    assert response.headers["Content-Disposition"].startswith("attachment")


def test_raw_is_streamed_a_chunk_at_a_time_byte_exact(client, owned, monkeypatch):
    monkeypatch.setattr(raw_bytes, "CHUNK", 64)  # a 1 GiB upload is 256 chunks of 4 MiB; this one is several of 64
    raw = WEATHER.read_bytes() + "\n« é »\r\n".encode()
    id = owned(raw)
    monkeypatch.setattr(Store, "raw", lambda *args: pytest.fail("the raw bytes were read whole"))
    response = client.get(f"/t/{id}/raw")
    assert response.is_streamed and response.status_code == 200
    assert b"".join(response.iter_encoded()) == raw


def test_raw_is_403_for_link_holders_when_debug_is_not_allowed(stranger, upload):
    assert stranger.get(f"/t/{upload()['id']}/raw").status_code == 403


@pytest.mark.parametrize("path, status", [
    ("/t/nope", 404), ("/t/nope.json", 404), ("/t/nope/raw", 404), ("/t/nope/manage", 404),
    ("/nowhere", 404),
])
def test_unknown_links_answer_404(client, path, status):
    assert client.get(path).status_code == status


@pytest.mark.parametrize("query", ["view=secret", "at=abc", "at=1e9"])
def test_bad_query_parameters_answer_400(client, upload, query):
    assert client.get(f"/t/{upload()['id']}?{query}").status_code == 400


@pytest.mark.parametrize("at", ["-5", "999999"])
def test_out_of_range_deep_links_still_open_the_page(client, upload, at):
    assert client.get(f"/t/{upload()['id']}?at={at}").status_code == 200


def test_wrong_method_answers_405_with_allow(client):
    response = client.delete("/")
    assert response.status_code == 405 and "GET" in response.headers["Allow"]


def test_json_clients_get_the_json_error_envelope(client):
    response = client.get("/t/nope", headers={"Accept": "application/json"})
    assert response.get_json() == {"error": {"status": 404, "title": "Not Found",
                                             "message": "No transcript has this link."}}


@pytest.mark.parametrize("query", [
    "at=99999999999999999999999999", "at=%00", "view=%00", "view=debug%00", "at=", "at=+3", "at=%E2%80%8B",
])
def test_hostile_query_strings_never_get_a_500(client, owned, query):
    id = owned()
    for path in (f"/t/{id}", f"/t/{id}.json", f"/t/{id}/window"):
        assert client.get(f"{path}?{query}").status_code < 500, (path, query)
    assert client.get(f"/t/{id}/window?start=99999999999999999999999", headers={"HX-Request": "true"}).status_code == 200


@pytest.mark.parametrize("path", ["/t/%00", "/t/..%2F..%2Fetc", "/t/" + "a" * 5000, "/t/%F0%9F%98%80.json",
                                  "/t/x/raw?x=%ff"])
def test_hostile_paths_never_get_a_500(client, path):
    assert client.get(path).status_code in (404, 400)


def test_a_transcript_stored_by_an_older_parser_is_reparsed_on_open(app, client, upload):
    from sqlalchemy import text

    id = upload()["id"]
    store = app.extensions["viewer.store"]
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE transcripts SET parser_version = 'old', message_count = 0"))
        conn.execute(text("DELETE FROM messages"))
    page = soup(client.get(f"/t/{id}"))
    assert page.find("dd", attrs={"data-count": "messages"}).get_text() == "8"
    assert store.get(id).parser_version != "old"


def test_an_unexpected_failure_is_a_500_page_without_details(app, client, monkeypatch):
    def broken(self, id):
        raise RuntimeError("SECRET-INTERNALS")

    monkeypatch.setattr(type(app.extensions["viewer.store"]), "get", broken)
    response = client.get("/t/" + "a" * 22)  # a well-formed id, so that the store is asked
    assert response.status_code == 500
    assert soup(response).find(class_="error")["data-status"] == "500"
    assert b"SECRET-INTERNALS" not in response.data
