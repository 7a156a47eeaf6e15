"""Comparing two transcripts (`/compare/<a>/<b>`): rows aligned message to message, word diffs of changed
bodies and headers, a summary; the default view compares only what it shows (nothing hidden is drawn or
counted), the debug view needs both uploaders' permission; the "compare with…" form of every transcript page."""
from __future__ import annotations

import json

import pytest

from tests.web.conftest import harmony, soup, text_of

QUESTION = ("user", "", "What is the weather in Paris?")


def call(arguments: str) -> str:
    return (f"<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json"
            f"<|message|>{arguments}<|call|>")


def reply(body: str) -> str:
    return f"<|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>{body}<|end|>"


def summary(page) -> str:
    return " ".join(page.find(attrs={"data-summary": True}).get_text(" ").split())


def rows(page, op: str) -> list:
    return page.select(f".cmp-row.cmp-{op}")


@pytest.fixture
def pair(upload):
    """Uploads two transcripts as a link holder sees them (debug allowed unless told); returns the page's URL."""
    def do(a: bytes, b: bytes, debug_a: str = "allow", debug_b: str = "allow") -> str:
        return f"/compare/{upload(a, debug=debug_a)['id']}/{upload(b, debug=debug_b)['id']}"
    return do


def test_two_runs_of_the_same_prompt_show_the_answers_that_differ_word_by_word(stranger, pair):
    first = harmony(QUESTION, ("assistant", "final", "It is 18 C and sunny in Paris."),
                    ("user", "", "Thanks"), ("assistant", "final", "You are welcome."))
    second = harmony(QUESTION, ("assistant", "final", "It is 21 C and sunny in Paris today."),
                     ("user", "", "Thanks"), ("assistant", "final", "You are welcome."))
    response = stranger.get(pair(first, second))
    assert response.status_code == 200
    page = soup(response)
    assert summary(page).startswith("B against A: 0 added, 0 removed, 1 changed, 3 the same")
    [changed] = rows(page, "changed")
    assert [d.get_text() for d in changed.find_all("del")] == ["18"]
    assert [i.get_text() for i in changed.find_all("ins")] == ["21", " today"]
    assert "It is" in changed.get_text()


def test_identical_transcripts_have_no_differences(stranger, pair):
    body = harmony(QUESTION, ("assistant", "final", "Sunny."))
    page = soup(stranger.get(pair(body, body)))
    assert summary(page) == "No differences: all 2 entries are the same."
    assert not page.select(".cmp-changed, .cmp-deleted, .cmp-inserted")


def test_a_changed_system_prompt_is_no_difference_by_default_but_is_one_in_debug(stranger, pair):
    before = harmony(("system", "", "You are terse."), QUESTION, ("assistant", "final", "Sunny."))
    after = harmony(("system", "", "You are verbose and kind."), QUESTION, ("assistant", "final", "Sunny."))
    url = pair(before, after)
    default = stranger.get(url)
    assert summary(soup(default)) == "No differences: all 2 entries are the same."
    assert "terse" not in text_of(default) and "verbose" not in text_of(default)
    debug = soup(stranger.get(url + "?view=debug"))
    assert summary(debug).startswith("B against A: 0 added, 0 removed, 1 changed")
    [changed] = rows(debug, "changed")
    assert [d.get_text() for d in changed.find_all("del")] == ["terse"]
    assert [i.get_text() for i in changed.find_all("ins")] == ["verbose and kind"]


def test_insertions_and_deletions_are_rows_of_their_own(stranger, pair):
    first = harmony(QUESTION, ("assistant", "final", "Sunny."), ("user", "", "And tomorrow?"),
                    ("assistant", "final", "Rain."))
    second = harmony(("user", "", "Hello there"), QUESTION, ("assistant", "final", "Sunny."),
                     ("assistant", "final", "Rain."))
    page = soup(stranger.get(pair(first, second)))
    assert summary(page).startswith("B against A: 1 added, 1 removed, 0 changed, 3 the same")
    [added] = rows(page, "inserted")
    assert added.select_one(".cmp-empty") is not None and "Hello there" in added.get_text()
    [removed] = rows(page, "deleted")
    assert "And tomorrow?" in removed.get_text()
    order = [row["class"][1] for row in page.select(".cmp-grid > .cmp-row:not(.cmp-heading)")]
    assert order == ["cmp-inserted", "cmp-same", "cmp-same", "cmp-deleted", "cmp-same"]


def test_tool_call_arguments_are_diffed_in_debug_and_only_noted_by_default(stranger, pair):
    def run(city: str, temperature: int) -> bytes:
        return (harmony(QUESTION) + (call(json.dumps({"city": city})) + reply(json.dumps({"c": temperature})))
                .encode() + harmony(("assistant", "final", f"It is {temperature} C.")))
    url = pair(run("Paris", 18), run("Lyon", 18))
    debug = soup(stranger.get(url + "?view=debug"))
    assert summary(debug).endswith("1 tool call or reply differs.")
    [changed] = rows(debug, "changed")
    assert [d.get_text() for d in changed.find_all("del")] == ["Paris"]
    assert [i.get_text() for i in changed.find_all("ins")] == ["Lyon"]
    assert "functions.get_weather" in changed.get_text()
    default = stranger.get(url)
    assert summary(soup(default)) == "No differences: all 3 entries are the same."
    assert "Paris" not in text_of(default).replace("What is the weather in Paris?", "")


def test_a_changed_recipient_is_a_changed_header(stranger, pair):
    first = harmony(QUESTION).decode() + call('{"city": "Paris"}')
    second = harmony(QUESTION).decode() + call('{"city": "Paris"}').replace("get_weather", "get_forecast")
    page = soup(stranger.get(pair(first.encode(), second.encode()) + "?view=debug"))
    [changed] = rows(page, "changed")
    fields = changed.select(".cmp-fields dd")
    assert any(d.get_text() == "get_weather" for dd in fields for d in dd.find_all("del"))
    assert any(i.get_text() == "get_forecast" for dd in fields for i in dd.find_all("ins"))


def test_bodies_too_long_to_diff_say_so(stranger, pair):
    long_a, long_b = "word " * 6_000, "term " * 6_000
    page = soup(stranger.get(pair(harmony(QUESTION, ("assistant", "final", long_a)),
                                  harmony(QUESTION, ("assistant", "final", long_b)))))
    [changed] = rows(page, "changed")
    assert "too long to diff" in changed.get_text()
    assert "more characters" in changed.get_text()


def test_debug_is_refused_unless_both_transcripts_allow_it(client, stranger, pair, owned):
    body = harmony(QUESTION, ("assistant", "final", "Sunny."))
    for debug_a, debug_b, status in (("allow", "deny", 403), ("deny", "allow", 403), ("deny", "deny", 403),
                                     ("allow", "allow", 200)):
        url = pair(body, body, debug_a, debug_b)
        assert stranger.get(url + "?view=debug").status_code == status
        assert stranger.get(url).status_code == 200
    mine = f"/compare/{owned(body, debug='deny')}/{owned(body, debug='deny')}?view=debug"
    assert client.get(mine).status_code == 200  # the uploader of both
    assert stranger.get(mine).status_code == 403
    locked = soup(stranger.get(pair(body, body, "allow", "deny")))
    assert locked.select_one("a.locked") is not None
    assert stranger.get(pair(body, body) + "?view=nonsense").status_code == 400


def test_unknown_ids_are_a_404(stranger, upload):
    id = upload()["id"]
    for url in (f"/compare/{id}/AAAAAAAAAAAAAAAAAAAAAA", f"/compare/AAAAAAAAAAAAAAAAAAAAAA/{id}",
                f"/compare/{id}/not..an-id", f"/compare/{id}/{id}.3"):
        assert stranger.get(url).status_code == 404, url


def test_conversations_of_a_dataset_compare_as_id_dot_number(stranger, upload):
    lines = [{"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": answer}]}
             for answer in ("Hello there.", "Hello here.")]
    id = upload("\n".join(json.dumps(line) for line in lines).encode())["id"]
    page = soup(stranger.get(f"/compare/{id}.0/{id}.1"))
    assert [d.get_text() for d in page.find_all("del")] == ["there"]
    assert stranger.get(f"/compare/{id}/{id}.1").status_code == 400  # a whole dataset is not one conversation


def test_many_rows_come_a_page_at_a_time(stranger, pair):
    first = harmony(*[("user", "", f"Question number {n}") for n in range(230)])
    second = harmony(*[("user", "", f"Question number {n}" + (" again" if n == 220 else "")) for n in range(230)])
    url = pair(first, second)
    page = soup(stranger.get(url))
    assert len(page.select(".cmp-grid .cmp-row:not(.cmp-heading)")) == 200
    later = page.select_one("a[rel=next]")["href"]
    assert "at=200" in later
    assert page.select_one(".cmp-same-run summary") is not None  # identical runs are folded
    following = soup(stranger.get(later))
    assert len(following.select(".cmp-grid .cmp-row:not(.cmp-heading)")) == 30
    assert [i.get_text() for i in following.find_all("ins")] == [" again"]


def test_every_transcript_page_has_a_compare_with_form(stranger, upload):
    id = upload(debug="allow")["id"]
    for view in ("default", "debug"):
        form = soup(stranger.get(f"/t/{id}?view={view}" if view == "debug" else f"/t/{id}")).select_one(
            "form.compare-form")
        assert form["method"] == "get" and form["action"] == f"/t/{id}/compare"
        assert form.select_one("input[name=with]") is not None


@pytest.mark.parametrize("pasted, target", [
    ("{other}", "/compare/{id}/{other}"),
    ("  http://localhost/t/{other}  ", "/compare/{id}/{other}"),
    ("http://localhost/t/{other}?view=debug#m-3", "/compare/{id}/{other}"),
    ("/t/{other}/c/2", "/compare/{id}/{other}.2"),
    ("{other}.4", "/compare/{id}/{other}.4"),
])
def test_the_compare_with_form_reads_a_pasted_link_and_redirects(stranger, upload, pasted, target):
    id, other = upload()["id"], upload()["id"]
    response = stranger.get(f"/t/{id}/compare", query_string={"with": pasted.format(other=other)})
    assert response.status_code == 303
    assert response.headers["Location"] == target.format(id=id, other=other)
    debug = stranger.get(f"/t/{id}/compare", query_string={"with": other, "view": "debug"})
    assert debug.headers["Location"] == f"/compare/{id}/{other}?view=debug"


@pytest.mark.parametrize("pasted", ["https://evil.example/t/AAAAAAAAAAAAAAAAAAAAAA", "", "hello world",
                                    "javascript:alert(1)", "http://localhost/manage", "ftp://localhost/t/x"])
def test_a_link_that_is_not_ours_is_a_400_with_a_reason(stranger, upload, pasted):
    id = upload()["id"]
    response = stranger.get(f"/t/{id}/compare", query_string={"with": pasted})
    assert response.status_code == 400
    assert "not a link to a transcript on this viewer" in response.get_data(as_text=True)


def _canaried(tag: str, answer: str) -> bytes:
    c = lambda place: f"CANARY-{tag}-{place}-TAIL7Q7Q7"  # noqa: E731
    return (f"<|start|>system<|message|>{c('system')}<|end|>"
            f"<|start|>developer<|message|># Instructions\n{c('developer')}<|end|>"
            f"<|start|>user<|message|>SHOWN-QUESTION<|end|>"
            f"<|start|>assistant<|channel|>analysis<|message|>{c('analysis')}<|end|>"
            f"<|start|>assistant<|channel|>commentary intent=status<|message|>{c('commentary')}<|end|>"
            + call(json.dumps({"q": c("arguments")})) + reply(json.dumps({"r": c("reply")})) +
            f"<|start|>assistant<|channel|>final<|message|>{answer}<|return|>").encode()


def test_nothing_hidden_reaches_the_default_compare_page(stranger, pair):
    url = pair(_canaried("A", "SHOWN-ANSWER one"), _canaried("B", "SHOWN-ANSWER two"))
    for headers in ({}, {"HX-Request": "true"}, {"HX-Request": "true", "HX-History-Restore-Request": "true"}):
        for page_url in (url, url + "?at=0", url.replace("/compare/", "/compare/", 1)):
            response = stranger.get(page_url, headers=headers)
            assert response.status_code == 200
            body = response.get_data(as_text=True) + str(response.headers)
            assert "CANARY" not in body and "TAIL7Q7Q7" not in body
            assert "SHOWN-ANSWER" in body
    page = soup(stranger.get(url))
    # Hidden messages are not counted either: the question, the tool note and the answer, one changed.
    assert summary(page).startswith("B against A: 0 added, 0 removed, 1 changed, 2 the same")
    swapped = "/compare/" + "/".join(reversed(url.removeprefix("/compare/").split("/")))
    assert "CANARY" not in stranger.get(swapped).get_data(as_text=True)
