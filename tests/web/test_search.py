"""GET /t/<id>/search (and /t/<id>/c/<k>/search): the page without JavaScript, the htmx fragment, links into
the transcript, marked excerpts, paging, refusals; the default view finds and counts nothing hidden; the debug
view needs the debug permission. Both databases (the app fixtures)."""
from __future__ import annotations

import json

import pytest

from tests.web.conftest import HIDDEN_CANARIES, harmony, soup, text_of
from viewer.web.views.search import excerpt

HTMX = {"HX-Request": "true"}


def hits(response) -> list[tuple[str, str]]:
    """(link, link text) of each result."""
    return [(link["href"], link.get_text(" ", strip=True)) for link in soup(response).select("a.search-hit-link")]


def total(response) -> str:
    return soup(response).select_one("[data-total]")["data-total"]


def test_the_search_page_lists_each_match_with_a_link_into_its_window(client, owned):
    id = owned()
    response = client.get(f"/t/{id}/search?q=tokyo")
    assert response.status_code == 200
    assert hits(response) == [(f"/t/{id}?at=2#m-2", "#2 User"), (f"/t/{id}?at=7#m-7", "#7 Assistant")]
    page = soup(response)
    assert [mark.get_text() for mark in page.select(".search-excerpt mark")] == ["Tokyo", "Tokyo"]
    assert page.select_one("form.search-form input[name=q]")["value"] == "tokyo"
    assert "2 messages match" in page.select_one(".search-summary").get_text()
    assert client.get(hits(response)[0][0]).status_code == 200


def test_without_a_query_the_page_is_the_form(client, owned):
    page = soup(client.get(f"/t/{owned()}/search"))
    assert page.select_one("form.search-form input[name=q]")["value"] == ""
    assert not page.select("a.search-hit-link")


def test_htmx_gets_the_results_alone(client, owned):
    response = client.get(f"/t/{owned()}/search?q=tokyo", headers=HTMX)
    body = response.get_data(as_text=True)
    assert "<html" not in body and body.lstrip().startswith("<div class=\"search-body\"")
    assert len(hits(response)) == 2 and "HX-Request" in response.headers["Vary"]


@pytest.mark.parametrize("query, reason", [("", "word"), ("   ", "word"), ("x" * 501, "500")])
def test_an_empty_or_overlong_query_is_a_clear_400(client, owned, query, reason):
    response = client.get(f"/t/{owned()}/search", query_string={"q": query})
    assert response.status_code == 400 and reason in soup(response).select_one(".lead").get_text()
    as_json = client.get(f"/t/{owned()}/search", query_string={"q": query}, headers={"Accept": "application/json"})
    assert as_json.status_code == 400


@pytest.mark.parametrize("view", ["default", "debug"])
def test_query_syntax_is_matched_literally_and_never_errors(client, owned, view):
    id = owned(harmony(("user", "", "Tokyo AND Paris, NEAR the coast: x*y - z \"quoted\"")))
    for query in ['"', '"tokyo', "*", "x*", "-", "-paris", "NEAR", "NEAR(tokyo paris)", "AND", "OR", ":", "user:x",
                  "shown:tokyo", "hidden:x", "(", "^", "'", "\\", "&", "|", "!", "<->", "tokyo:*", "%", "\x00x"]:
        response = client.get(f"/t/{id}/search", query_string={"q": query, "view": view})
        assert response.status_code == 200, query
    assert total(client.get(f"/t/{id}/search", query_string={"q": "near and", "view": view})) == "1"
    assert total(client.get(f"/t/{id}/search", query_string={"q": '"x y"', "view": view})) == "1"
    assert total(client.get(f"/t/{id}/search", query_string={"q": "-paris", "view": view})) == "1"
    nothing = client.get(f"/t/{id}/search", query_string={"q": "*** -", "view": view})
    assert total(nothing) == "0" and "Nothing to search for" in nothing.get_data(as_text=True)


def test_the_default_view_finds_and_counts_no_hidden_text(stranger, owned):
    id = owned()
    for canary in HIDDEN_CANARIES:
        for query in (canary.lower(), canary.split("-")[0].lower(), f'"{canary.lower()}"'):
            for headers in ({}, HTMX):
                response = stranger.get(f"/t/{id}/search", query_string={"q": query}, headers=headers)
                assert response.status_code == 200 and total(response) == "0", query
                assert not hits(response) and canary not in response.get_data(as_text=True)
    for word in ("chatgpt", "celsius", "location", "briefly", "sky"):
        assert total(stranger.get(f"/t/{id}/search?q={word}")) == "0", word


def test_the_debug_view_finds_everything_headers_included(client, owned):
    id = owned()
    for canary in HIDDEN_CANARIES:
        assert total(client.get(f"/t/{id}/search?q={canary}&view=debug")) == "1", canary
    response = client.get(f"/t/{id}/search?q=functions.get_weather&view=debug")  # the recipient, the reply's role
    assert [href for href, _ in hits(response)] == [f"/t/{id}?at={n}&view=debug#m-{n}" for n in (5, 6)]
    header = soup(response).select_one(".search-header")
    assert "to=functions.get_weather" in header.get_text() and header.select("mark")
    assert total(client.get(f"/t/{id}/search?q=functions.get_weather")) == "0"


def test_the_debug_views_search_needs_the_debug_permission(client, stranger, upload):
    created = upload()
    id = created["id"]
    response = stranger.get(f"/t/{id}/search?q=canary&view=debug")
    assert response.status_code == 403 and "CANARY" not in response.get_data(as_text=True)
    assert stranger.get(f"/t/{id}/search?q=canary&view=debug", headers=HTMX).status_code == 403
    assert stranger.get(f"/t/{id}/search?q=canary&view=nonsense").status_code == 400
    allowed = upload(debug="allow")["id"]
    assert total(stranger.get(f"/t/{allowed}/search?q=system-canary-7q&view=debug")) == "1"


def _dataset(count: int) -> bytes:
    return "".join(json.dumps({"messages": [
        {"role": "system", "content": "SECRET-PROMPT-DS"},
        {"role": "user", "content": f"Question {number} about tides"},
        {"role": "assistant", "content": f"Answer {number}"}]}) + "\n" for number in range(count)).encode()


def test_a_datasets_search_spans_its_conversations_and_links_to_them(client, owned):
    id = owned(_dataset(4))
    response = client.get(f"/t/{id}/search?q=tides")
    assert hits(response) == [(f"/t/{id}/c/{k}?at=1#m-1", f"Conversation #{k} · #1 User") for k in range(4)]
    assert client.get(hits(response)[2][0]).status_code == 200
    assert total(client.get(f"/t/{id}/search?q=secret")) == "0"
    assert total(client.get(f"/t/{id}/search?q=secret-prompt-ds&view=debug")) == "4"
    one = client.get(f"/t/{id}/c/2/search?q=tides")
    assert [href for href, _ in hits(one)] == [f"/t/{id}/c/2?at=1#m-1"]


def test_results_are_paged(client, owned):
    id = owned(harmony(*[("user", "", f"needle number {n}") for n in range(120)]))
    first = soup(client.get(f"/t/{id}/search?q=needle"))
    assert len(first.select(".search-hit")) == 50 and first.select_one("[data-total]")["data-total"] == "120"
    more = first.select_one(".search-pager a")
    assert more.get_text() == "More results" and more["hx-get"] == more["href"] == f"/t/{id}/search?q=needle&offset=50"
    last = client.get(f"/t/{id}/search?q=needle&offset=100", headers=HTMX)
    assert [href for href, _ in hits(last)][0] == f"/t/{id}?at=100#m-100" and len(hits(last)) == 20
    assert [a.get_text() for a in soup(last).select(".search-pager a")] == ["Earlier results"]


def test_a_query_matching_over_a_thousand_says_so(client, owned):
    id = owned(harmony(*[("user", "", "same") for _ in range(1003)]))
    page = soup(client.get(f"/t/{id}/search?q=same"))
    assert "1,000+" in page.select_one(".search-summary").get_text()


def test_the_transcript_and_dataset_pages_carry_the_htmx_search_form(client, owned):
    for id in (owned(), owned(_dataset(2))):
        page = soup(client.get(f"/t/{id}"))
        form = page.select_one("form.search-form")
        assert form["action"] == form["hx-get"] == f"/t/{id}/search"
        assert form["hx-target"] == "#search-results" and form["hx-push-url"] == "false"
        results = page.select_one("#search-results")
        assert results is not None and results.find_parent(attrs={"hx-disable": True}) is None
    debug = soup(client.get(f"/t/{owned()}?view=debug")).select_one("form.search-form input[name=view]")
    assert debug["value"] == "debug"


def test_searching_a_deleted_or_missing_transcript_is_410_or_404(client, owned, app):
    id = owned()
    app.extensions["viewer.store"].delete(id)
    assert client.get(f"/t/{id}/search?q=tokyo").status_code == 410
    assert client.get("/t/missing/search?q=tokyo").status_code == 404
    assert client.get(f"/t/{id}/c/0/search?q=tokyo").status_code == 410


def test_excerpts_mark_whole_words_around_the_first_match():
    text = "word " * 40 + "The Weather in Zürich is fine; get_weather said so.\n\n" + "tail " * 100
    pieces = excerpt(text, ("weather", "zurich", "get_weather"))
    assert pieces[0] == ("…", False) and pieces[-1] == ("…", False)
    assert [piece for piece, marked in pieces if marked] == ["Weather", "Zürich", "get_weather"]
    assert "\n" not in "".join(piece for piece, _ in pieces)
    assert excerpt("weathering", ("weather",)) == [("weathering", False)]  # whole words only
    assert excerpt("a get weather b", ("get_weather",))[1] == ("get weather", True)  # as the index splits words
    assert excerpt("Short one.", ("absent",)) == [("Short one.", False)]


def test_excerpts_are_escaped(client, owned):
    id = owned(harmony(("user", "", "<script>alert(1)</script> <b>bold</b> findme")))
    page = soup(client.get(f"/t/{id}/search?q=findme"))
    assert page.find("script", src=False) is None and page.find("b") is None
    assert "<script>alert(1)</script>" in text_of(client.get(f"/t/{id}/search?q=findme"))


def test_a_word_typed_alone_finds_the_words_it_begins_and_marks_them_whole(client, owned):
    id = owned(harmony(("user", "", "The run was interrupted at noon."), ("user", "", "An interruption, again.")))
    response = client.get(f"/t/{id}/search?q=interrupt")
    assert [text for _, text in hits(response)] == ["#0 User", "#1 User"]
    marked = [mark.get_text() for mark in soup(response).select(".search-excerpt mark")]
    assert marked == ["interrupted", "interruption"]
    assert total(client.get(f'/t/{id}/search?q="interrupt"')) == "0"  # quoted: the word itself


def test_excerpts_read_as_plain_text_without_markdown_or_terminal_codes(client, owned):
    body = "## Result\\n\\n**Tests** `failed`: \\u001b[31mFAILED\\u001b[0m in [the log](https://example.com/log)."
    id = owned(json.dumps([{"role": "user", "content": "Why?"},
                           {"role": "assistant", "content": json.loads(f'"{body}"')}]).encode())
    excerpt_text = soup(client.get(f"/t/{id}/search?q=failed")).select(".search-excerpt")[0].get_text()
    assert excerpt_text == "Result Tests failed: FAILED in the log."


def test_the_debug_view_shows_a_results_header_only_when_it_matched(client, owned):
    id = owned()
    page = soup(client.get(f"/t/{id}/search?q=tokyo&view=debug"))
    assert page.select(".search-hit") and not page.select(".search-header")
    by_header = soup(client.get(f"/t/{id}/search?q=get_weather&view=debug"))
    assert {mark.get_text() for mark in by_header.select(".search-header mark")} == {"get_weather"}


def test_a_search_of_the_default_view_offers_the_hidden_messages_to_whoever_may_read_them(client, stranger, owned,
                                                                                            upload):
    id = owned()
    hint = soup(client.get(f"/t/{id}/search?q=canary", headers=HTMX)).select_one(".search-hint")
    assert "were not searched" in hint.get_text()
    assert hint.a["href"] == f"/t/{id}/search?q=canary&view=debug"
    assert soup(client.get(f"/t/{id}/search?q=canary&view=debug")).select_one(".search-hint") is None
    assert soup(stranger.get(f"/t/{id}/search?q=canary")).select_one(".search-hint") is None  # may not read them
    found = soup(client.get(f"/t/{id}/search?q=tokyo")).select_one(".search-hint")
    assert "were not searched" not in found.get_text() and found.a.get_text() == "Search hidden messages too"
