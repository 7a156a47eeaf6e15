"""Exports of what the reader may see: `/t/<id>.md` and `/t/<id>.html` (and a dataset conversation's), as
downloads, streamed, in the view the reader may have (debug only where the JSON twin would allow it), with
nothing the default view hides; the HTML a self-contained file with no script and nothing remote."""
from __future__ import annotations

import gc
import json
import re

import pytest

from tests.web.conftest import HIDDEN_CANARIES, harmony, soup
from tests.web.test_datasets import ARGUMENTS, REASONING, SECRET, _dataset
from viewer.present import html as export_html
from viewer.present.document import CHUNK_CHARS, buffered
from viewer.present.markdown import as_written, fenced

MARKDOWN = "text/markdown; charset=utf-8"
HTML = "text/html; charset=utf-8"
FILE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"


def text(response) -> str:
    return response.get_data(as_text=True)


# ---- downloads ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("extension, mimetype", [("md", MARKDOWN), ("html", HTML)])
def test_each_export_is_a_streamed_download_named_after_the_upload(client, owned, extension, mimetype):
    id = owned(name="Tokyo weather.txt")
    response = client.get(f"/t/{id}.{extension}")
    assert response.status_code == 200 and response.is_streamed
    assert response.headers["Content-Type"] == mimetype
    assert response.headers["Content-Disposition"] == f"attachment; filename=Tokyo-weather.{extension}"
    debug = client.get(f"/t/{id}.{extension}?view=debug")
    assert debug.headers["Content-Disposition"] == f"attachment; filename=Tokyo-weather-debug.{extension}"


def test_a_name_that_would_break_a_header_or_a_path_becomes_a_safe_file_name(client, upload):
    id = upload(name='../../etc/pass"wd\r\nX-Evil: 1.txt')["id"]
    disposition = client.get(f"/t/{id}.md").headers["Content-Disposition"]
    assert re.fullmatch(r"attachment; filename=[A-Za-z0-9._-]+\.md", disposition), disposition
    assert ".." not in disposition and "/" not in disposition


def test_an_unnamed_upload_is_named_after_its_id(client, upload):
    id = upload()["id"]
    assert client.get(f"/t/{id}.html").headers["Content-Disposition"] == f"attachment; filename={id}.html"


# ---- who may have which view -------------------------------------------------------------------------------

@pytest.mark.parametrize("extension", ["md", "html"])
def test_the_default_export_holds_what_the_page_shows_and_nothing_it_hides(stranger, upload, extension):
    body = text(stranger.get(f"/t/{upload()['id']}.{extension}"))
    for canary in HIDDEN_CANARIES:
        assert canary not in body
    assert "What is the weather in Tokyo?" in body and "I will look up the weather." in body
    assert "used get_weather" in body
    assert "of 8 messages are not shown" in body


@pytest.mark.parametrize("extension", ["md", "html"])
def test_the_debug_export_is_refused_with_403_until_the_uploader_allows_it(client, stranger, owned, extension):
    id = owned()
    refused = stranger.get(f"/t/{id}.{extension}?view=debug")
    assert refused.status_code == 403 and "Content-Disposition" not in refused.headers
    assert not any(canary in text(refused) for canary in HIDDEN_CANARIES)
    mine = text(client.get(f"/t/{id}.{extension}?view=debug"))
    assert all(canary in mine for canary in HIDDEN_CANARIES)
    allowed = owned(debug="allow")
    assert stranger.get(f"/t/{allowed}.{extension}?view=debug").status_code == 200


@pytest.mark.parametrize("extension", ["md", "html"])
def test_an_unknown_view_is_a_400(client, upload, extension):
    assert client.get(f"/t/{upload()['id']}.{extension}?view=everything").status_code == 400


# ---- Markdown ----------------------------------------------------------------------------------------------

def test_markdown_has_a_title_role_headings_and_bodies_as_written(stranger, upload):
    body = text(stranger.get(f"/t/{upload(name='weather.txt')['id']}.md"))
    assert body.startswith("# weather.txt\n")
    assert "## #2 · User\n\nWhat is the weather in Tokyo?\n" in body
    assert "## #4 · Assistant\n" in body
    assert "*⚙ used get_weather*" in body
    assert ("## #7 · Assistant\n\nIt is **20 °C** and clear in Tokyo.\n\n```python\nprint(\"umbrella not needed\")\n"
            "```") in body


def test_markdown_debug_headings_carry_the_channel_and_tool_traffic_its_recipients(client, owned):
    body = text(client.get(f"/t/{owned()}.md?view=debug"))
    assert "## #3 · Assistant · analysis\n" in body
    assert "## #5 · Assistant → get_weather · commentary\n" in body
    assert "## #6 · Tool · get_weather · commentary\n" in body
    # A call's arguments pretty, as the debug view shows them.
    assert '```json\n{\n  "location": "Tokyo",\n  "unit": "celsius",\n  "note": "CALL-CANARY-5M"\n}\n```' in body
    assert "rule `analysis`" in body and "pair 1: reply #6" in body


def test_code_is_fenced_longer_than_any_backtick_run_inside():
    assert fenced("a ```` b", "json") == '`````json\na ```` b\n`````\n\n'
    assert fenced("plain", None) == "```\nplain\n```\n\n"


def test_a_body_that_leaves_a_fence_open_is_closed_so_it_cannot_swallow_the_rest():
    assert as_written("look:\n```python\nprint(1)") == "look:\n```python\nprint(1)\n```\n\n"
    assert as_written("~~~~\ncode\n~~~~\ndone") == "~~~~\ncode\n~~~~\ndone\n\n"
    assert as_written("``` not a fence ` here") == "``` not a fence ` here\n\n"


# ---- HTML ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("view", ["default", "debug"])
def test_the_html_is_one_self_contained_file_without_any_script(client, owned, view):
    page = soup(client.get(f"/t/{owned()}.html?view={view}"))
    assert page.find("meta", attrs={"http-equiv": "Content-Security-Policy"})["content"] == FILE_POLICY
    assert page.find("script") is None and page.find("link") is None and page.find("form") is None
    assert not page.find_all(src=True)
    for tag in page.find_all(True):
        assert not any(name.startswith(("on", "hx-")) for name in tag.attrs), tag.name
        assert tag.name not in ("button", "template", "iframe", "object", "embed")
    css = page.find("style").get_text()
    assert "prefers-color-scheme: dark" in css and ".code .tok-k" in css and "--final" in css


@pytest.mark.parametrize("view", ["default", "debug"])
def test_transcript_content_cannot_inject_markup_into_the_html_file(client, owned, view):
    raw = (b'<|start|>user name="<script>alert(1)</script>"<|message|><img src=x onerror=alert(1)></style>'
           b'<|end|><|start|>assistant<|channel|>final<|message|>[x](javascript:alert(1)) <b onclick="a">b</b> '
           b'id="m-1" href="#m-1"<|end|>')
    page = soup(client.get(f"/t/{owned(raw, name='</title><script>alert(1)</script>')}.html?view={view}"))
    assert page.find("script") is None and page.find("img") is None and page.find("b") is None
    assert not page.find("a", href=lambda href: href and "javascript" in href)
    assert "</title><script>" in page.title.get_text() and "</style>" in page.select_one("#m-0").get_text()
    assert 'id="m-1" href="#m-1"' in page.select_one("#m-1 .body").get_text()


def test_links_between_messages_are_anchors_in_the_file(client, owned):
    page = soup(client.get(f"/t/{owned()}.html?view=debug"))
    links = [a["href"] for a in page.find_all("a", href=True)]
    assert links and all(href.startswith("#m-") for href in links)
    assert all(page.find(id=href[1:]) is not None for href in links)
    assert page.find(id="m-5").find("a", class_="pair-link")["href"] == "#m-6"


def test_the_html_draws_entries_with_the_pages_own_cards(client, owned):
    id = owned()
    exported = soup(client.get(f"/t/{id}.html"))
    page = soup(client.get(f"/t/{id}"))
    drawn = [li["id"] for li in exported.select("ol.entries > li")]
    assert drawn == [li["id"] for li in page.select("ol.entries > li")]
    assert exported.select_one("#m-7 .body").decode_contents() == page.select_one("#m-7 .body").decode_contents()


def test_a_long_body_is_in_the_file_whole(client, make_app):
    app = make_app(LONG_BODY_CHARS=10)
    client = app.test_client()
    raw = harmony(("user", "", "a question well over ten characters"))
    id = client.post("/api/transcripts", data=raw).get_json()["id"]
    page = soup(client.get(f"/t/{id}.html"))
    assert "a question well over ten characters" in page.select_one("#m-0 .body").get_text()


def test_the_stylesheet_refuses_anything_that_could_close_its_element(monkeypatch, tmp_path):
    (tmp_path / "app.css").write_text("a { color: red } </style><script>x</script>")
    monkeypatch.setattr(export_html, "STATIC", tmp_path)
    with pytest.raises(ValueError):
        export_html.stylesheet()


# ---- datasets ----------------------------------------------------------------------------------------------

@pytest.fixture
def dataset_id(owned):
    return owned(_dataset(3), name="support.jsonl")


def test_a_datasets_markdown_holds_every_conversation_in_order(stranger, dataset_id):
    body = text(stranger.get(f"/t/{dataset_id}.md"))
    starts = [body.index(f"## Conversation #{number}\n") for number in range(3)]
    assert starts == sorted(starts)
    for number in range(3):
        assert f"Question {number}" in body and f"Answer {number}" in body
    assert not any(canary in body for canary in (SECRET, REASONING, ARGUMENTS))


def test_a_datasets_html_has_a_section_per_conversation_with_anchors_of_its_own(stranger, dataset_id):
    page = soup(stranger.get(f"/t/{dataset_id}.html"))
    sections = page.select("section.export-section")
    assert [section["id"] for section in sections] == ["c-0", "c-1", "c-2"]
    ids = [li["id"] for li in page.select("ol.entries > li")]
    assert len(ids) == len(set(ids)) and ids[0].startswith("c0-m-")
    assert all(page.find(id=a["href"][1:]) is not None for a in page.find_all("a", href=True))
    assert SECRET not in str(page) and REASONING not in str(page) and ARGUMENTS not in str(page)


@pytest.mark.parametrize("extension", ["md", "html"])
def test_a_conversation_exports_alone_and_its_debug_view_needs_permission(client, stranger, dataset_id, extension):
    response = stranger.get(f"/t/{dataset_id}/c/1.{extension}")
    assert response.headers["Content-Disposition"] == f"attachment; filename=support-conversation-1.{extension}"
    body = text(response)
    assert "Question 1" in body and "Question 0" not in body and SECRET not in body
    assert stranger.get(f"/t/{dataset_id}/c/1.{extension}?view=debug").status_code == 403
    assert f"{SECRET} 1" in text(client.get(f"/t/{dataset_id}/c/1.{extension}?view=debug"))
    assert stranger.get(f"/t/{dataset_id}/c/9.{extension}").status_code == 404


def test_the_dataset_page_and_a_transcript_page_link_their_exports(client, dataset_id, owned):
    links = [a["href"] for a in soup(client.get(f"/t/{dataset_id}")).select(".links a")]
    assert f"/t/{dataset_id}.md" in links and f"/t/{dataset_id}.html" in links
    id = owned()
    debug_links = [a["href"] for a in soup(client.get(f"/t/{id}?view=debug")).select(".links a")]
    assert f"/t/{id}.md?view=debug" in debug_links and f"/t/{id}.html?view=debug" in debug_links
    conversation = [a["href"] for a in soup(client.get(f"/t/{dataset_id}/c/2")).select(".links a")]
    assert f"/t/{dataset_id}/c/2.md" in conversation and f"/t/{dataset_id}/c/2.html" in conversation


# ---- size ----------------------------------------------------------------------------------------------------

def test_markers_collapse_across_the_stores_batches(client, owned, monkeypatch):
    from viewer.store import repository

    call = b"<|start|>assistant to=functions.f<|channel|>commentary json<|message|>{}<|call|>"
    reply = b"<|start|>functions.f to=assistant<|channel|>commentary<|message|>{}<|end|>"
    id = owned(b"<|start|>user<|message|>go<|end|>" + (call + reply) * 3 + b"<|start|>assistant<|channel|>final"
               b"<|message|>done<|end|>")
    monkeypatch.setattr(repository, "BATCH", 2)
    assert text(client.get(f"/t/{id}.md")).count("used f") == 1
    assert len(soup(client.get(f"/t/{id}.html")).select("li.marker")) == 1


def test_each_write_is_made_with_the_collector_paused_and_a_dropped_download_leaves_it_running():
    assert gc.isenabled()
    running: list[bool] = []

    def pieces():
        for number in range(4):
            running.append(gc.isenabled())
            yield str(number) * CHUNK_CHARS

    stream = buffered(pieces())
    assert next(stream) == "0" * CHUNK_CHARS and gc.isenabled()
    assert next(stream) == "1" * CHUNK_CHARS and gc.isenabled()
    stream.close()  # the client went away after two writes
    assert running == [False, False] and gc.isenabled()
    assert "".join(buffered(iter(["a", "b"]))) == "ab" and list(buffered(iter([]))) == [""]


@pytest.mark.sqlite_only
def test_a_50000_message_transcript_exports_without_error(client, owned):
    turns = [harmony(("user", "", f"Question {n}: what about **item {n % 7}**?"),
                     ("assistant", "analysis", f"thinking {n}"),
                     ("assistant", "final", f"Answer {n % 50}: see `code`.")) for n in range(12_500)]
    calls = b"<|start|>assistant to=functions.f<|channel|>commentary json<|message|>{}<|call|>"
    id = owned(b"".join(turn + calls for turn in turns))
    assert json.loads(client.get(f"/t/{id}.json").get_data())["counts"]["messages"] == 50_000
    markdown = client.get(f"/t/{id}.md")
    assert markdown.is_streamed
    body = text(markdown)
    assert body.count(" · User\n") == 12_500 and "Question 12499" in body and "thinking" not in body
    page = client.get(f"/t/{id}.html")
    assert page.is_streamed
    html = text(page)
    assert html.rstrip().endswith("</html>") and html.count('<li class="entry msg') == 25_000
