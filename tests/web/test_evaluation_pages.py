"""An evaluation log's own view: its index opens with the task, the model and each scorer's metrics (accuracy as a
percentage), and lists each sample's target and score said in words; a sample's page shows the same. The answer a
scorer read and the grader's explanation are the debug view's: the index's and the sample's."""
from __future__ import annotations

from tests.conftest import SAMPLES
from tests.web.conftest import soup, text_of

EVAL = SAMPLES / "inspect-arithmetic.eval"
GRADED = SAMPLES / "json-inspect-log-model-graded.json"


def test_the_index_of_an_evaluation_says_what_was_evaluated_and_how_each_sample_scored(client, stranger, owned):
    id = owned(EVAL.read_bytes())
    for who in (client, stranger):
        page = soup(who.get(f"/t/{id}"))
        summary = page.select_one("section.evaluation")
        assert "Evaluation: arithmetic_tools" in summary.h2.get_text()
        facts = {div.dt.get_text(): div.dd.get_text() for div in summary.select(".evaluation-facts > div")}
        assert facts["Model"] == "anthropic/claude-sonnet-4-0" and facts["Samples"] == "3"
        assert " ".join(summary.select_one(".evaluation-scores").get_text().split()) == "match accuracy 66.7% stderr 0.333"
        rows = [[cell.get_text(" ", strip=True) for cell in row.select("td.sample-id, td.sample-target, td.sample-scores")]
                for row in page.select("table.samples-table tbody tr")]
        assert rows == [["1", "7006652", "C correct"], ["2", "2", "I incorrect"], ["3", "42", "C correct"]]
        assert page.select_one(".totals dt").get_text() == "samples"
    assert "Expected 2, got 4" not in text_of(stranger.get(f"/t/{id}"))  # the grader's words: debug view only
    assert "Expected 2, got 4" not in text_of(client.get(f"/t/{id}"))


def test_the_debug_view_of_the_index_says_what_each_scorer_read_and_why(client, stranger, owned):
    id = owned(EVAL.read_bytes())
    page = soup(client.get(f"/t/{id}?view=debug"))
    why = page.select("table.samples-table tbody tr")[1].select_one("details.score-why")
    assert why.summary.get_text() == "Why match gave I"
    assert "Answer read: 4" in why.get_text(" ", strip=True) and "Expected 2, got 4." in why.get_text()
    assert page.select_one(".toggle a[aria-current]").get_text() == "Debug view"
    assert stranger.get(f"/t/{id}?view=debug").status_code == 403
    assert soup(client.get(f"/t/{id}?view=debug")).select_one("a.more.next") is None


def test_a_sample_s_page_shows_its_target_and_score_and_in_the_debug_view_the_grader_s_explanation(client, owned):
    id = owned(GRADED.read_bytes())
    page = soup(client.get(f"/t/{id}"))
    card = page.select_one("section.sample-card")
    facts = {div.dt.get_text(): div.dd.get_text(" ", strip=True) for div in card.select(".evaluation-facts > div")}
    assert facts == {"Sample": "1", "Target": "25%; 100 DKK", "Score": "model_graded_fact C correct"}
    assert "Graded by" in page.select_one("section.evaluation").get_text()
    assert "CANARY-SCORER-IN01" not in text_of(client.get(f"/t/{id}"))
    assert "debug view" in card.select_one(".sample-more").get_text()
    debug = soup(client.get(f"/t/{id}?view=debug")).select_one("section.sample-card")
    assert "CANARY-SCORER-IN01" in debug.select_one("pre.explanation").get_text()


def test_a_sample_of_a_log_opens_with_its_score(client, owned):
    id = owned(EVAL.read_bytes())
    card = soup(client.get(f"/t/{id}/c/1")).select_one("section.sample-card")
    assert " ".join(card.get_text(" ", strip=True).split()).startswith("Sample 2 Target 2 Score match I incorrect")
