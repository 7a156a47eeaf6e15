"""The uploader redacts a message, or a passage chosen in its text, for link holders: masked as a secret is, in
every answer (pages, twins, exports, search, raw download), the page saying that something was redacted and
where; the uploader keeps reading it and undoes it. And an archive or a database reaches link holders only as its
masked text, never as its bytes."""
from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

from tests.web.conftest import soup
from tests.web.test_leaks_secrets import leaked, link_holder_answers
from tests.web.test_personal_data import csrf_of, search_total

SAMPLES = Path(__file__).resolve().parents[2] / "sample_transcripts"
SECRET_PLAN = "the merger with Northwind closes on Friday"
CONVERSATION = {"messages": [
    {"role": "user", "content": f"Between us: {SECRET_PLAN}. Draft the announcement."},
    {"role": "assistant", "content": "Here is a draft for Acme Widgets: the Zephyr project ships in spring."},
    {"role": "user", "content": "Thanks, that reads well."}]}


def test_a_passage_and_a_message_redacted_on_the_manage_page_reach_no_link_holder(client, stranger, owned):
    id = owned(json.dumps(CONVERSATION).encode(), debug="allow")
    page = client.get(f"/t/{id}/manage/redact?at=0")
    assert page.status_code == 200 and SECRET_PLAN in page.get_data(as_text=True)
    csrf = csrf_of(client, f"/t/{id}/manage/redact?at=0")
    posted = client.post(f"/t/{id}/manage/redact", data={"csrf": csrf, "at": "0", "text": SECRET_PLAN,
                                                         "action": "redact-passage"})
    assert posted.status_code == 303
    assert client.post(f"/t/{id}/manage/redact", data={"csrf": csrf, "at": "1", "action": "redact-message"}
                       ).status_code == 303
    for url, body in link_holder_answers(client, stranger, id):
        assert not leaked(SECRET_PLAN, body) and "Zephyr" not in body, url
    for query in ("Northwind", "merger", "Zephyr", "Acme"):
        assert search_total(stranger, id, query) == "0" and search_total(stranger, id, query, "debug") == "0"
    shown = stranger.get(f"/t/{id}").get_data(as_text=True)
    assert "Between us: [redacted]. Draft the announcement." in shown and "Thanks, that reads well." in shown
    note = soup(stranger.get(f"/t/{id}")).select_one("[data-redacted-count]")
    assert note["data-redacted-count"] == "2" and "redacted by the uploader" in note.get_text()
    diagnostics = stranger.get(f"/t/{id}.json?view=debug").get_json()["diagnostics"]
    assert {d["message_index"] for d in diagnostics if d["code"] == "W-REDACTED"} == {0, 1}
    assert SECRET_PLAN in client.get(f"/t/{id}?view=debug").get_data(as_text=True)  # the uploader reads it
    assert client.get(f"/t/{id}/raw").data == json.dumps(CONVERSATION).encode()
    undo = [item["data-redaction"] for item in soup(client.get(f"/t/{id}/manage")).select("[data-redaction]")]
    assert len(undo) == 2
    for number in undo:
        client.post(f"/t/{id}/manage/personal", data={"csrf": csrf, "action": "undo-redaction", "redaction": number})
    assert SECRET_PLAN in stranger.get(f"/t/{id}").get_data(as_text=True)
    assert search_total(stranger, id, "Zephyr") == "1"


def test_redactions_through_the_api_need_the_manage_key(client, stranger, upload):
    created = upload(json.dumps(CONVERSATION).encode())
    id, key = created["id"], created["manage_url"].split("key=")[1]
    assert stranger.post(f"/api/transcripts/{id}/redactions", json={"message": 1}).status_code == 403
    made = stranger.post(f"/api/transcripts/{id}/redactions?key={key}", json={"message": 1, "text": "Zephyr"})
    assert made.status_code == 201 and made.get_json()["redactions"][0]["text"] == "Zephyr"
    assert "Zephyr" not in stranger.get(f"/t/{id}.md").get_data(as_text=True)
    assert stranger.post(f"/api/transcripts/{id}/redactions?key={key}",
                         json={"message": 1, "text": "not in it"}).status_code == 400
    assert stranger.post(f"/api/transcripts/{id}/redactions?key={key}", json={"message": 99}).status_code == 404
    assert stranger.post(f"/api/transcripts/{id}/redactions?key={key}", json=[1]).status_code == 400
    number = made.get_json()["number"]
    assert stranger.delete(f"/api/transcripts/{id}/redactions/{number}?key={key}").status_code == 200
    assert "Zephyr" in stranger.get(f"/t/{id}.md").get_data(as_text=True)
    assert stranger.delete(f"/api/transcripts/{id}/redactions/{number}?key={key}").status_code == 404


def test_a_redacted_word_is_masked_as_a_whole_word_only(client, stranger, owned):
    raw = json.dumps({"messages": [{"role": "user", "content": "Ann wrote the Annual report."},
                                   {"role": "assistant", "content": "Ann did well."}]}).encode()
    id = owned(raw)
    csrf = csrf_of(client, f"/t/{id}/manage/redact?at=0")
    client.post(f"/t/{id}/manage/redact", data={"csrf": csrf, "at": "0", "text": "Ann", "action": "redact-passage"})
    twin = stranger.get(f"/t/{id}.json").get_json()
    assert [message["content"] for message in twin["messages"]] == ["[redacted] wrote the Annual report.",
                                                                     "[redacted] did well."]


def _archive() -> bytes:
    session = json.dumps(CONVERSATION)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("chat.json", session)
    return buffer.getvalue()


def test_an_archive_or_a_database_reaches_link_holders_as_its_text_never_its_bytes(client, stranger, owned):
    for raw in (_archive(), (SAMPLES / "goose-1.51-sessions-subagent.db").read_bytes()):
        id = owned(raw, debug="allow")
        assert client.get(f"/t/{id}/raw").data == raw  # the uploader's exact bytes
        shared = stranger.get(f"/t/{id}/raw")
        assert shared.status_code == 200 and shared.data != raw
        assert shared.data.startswith(b'{"bundle": 1') and b"\x00" not in shared.data
        assert ".txt" in shared.headers["Content-Disposition"]


def test_a_redaction_holds_under_the_new_link_after_the_old_one_is_revoked(client, stranger, owned):
    id = owned(json.dumps(CONVERSATION).encode(), debug="allow")
    csrf = csrf_of(client, f"/t/{id}/manage/redact?at=0")
    client.post(f"/t/{id}/manage/redact", data={"csrf": csrf, "at": "0", "text": SECRET_PLAN,
                                                "action": "redact-passage"})
    revoked = client.post(f"/t/{id}/manage", data={"csrf": csrf_of(client, f"/t/{id}/manage"), "action": "revoke"})
    assert revoked.status_code == 303
    new = revoked.headers["Location"].split("/t/")[1].split("/")[0]
    assert new != id and stranger.get(f"/t/{id}").status_code == 410
    for url, body in link_holder_answers(client, stranger, new):
        assert not leaked(SECRET_PLAN, body), url
    assert search_total(stranger, new, "Northwind") == "0"
    assert SECRET_PLAN in client.get(f"/t/{new}?view=debug").get_data(as_text=True)  # the uploader reads it
