"""An evaluation log read as one: the log's task, model and metrics, each sample's target and scores said in words
(Inspect's C, I, P and N), the grader's explanation for the debug view alone."""
from __future__ import annotations

import math

from viewer.present.evaluation import evaluation_of, sample_of, score_words

LOG = {"inspect_log": {"status": "success", "eval": {
    "task": "dk_vat", "model": "anthropic/claude-sonnet-4-5", "dataset": {"name": "vat", "samples": 4},
    "config": {"epochs": 2}, "model_roles": {"grader": {"model": "openai/gpt-4o-mini"}}},
    "results": {"total_samples": 8, "completed_samples": 7, "scores": [
        {"name": "model_graded_fact", "metrics": {"accuracy": {"name": "accuracy", "value": 0.6667},
                                                  "stderr": {"name": "stderr", "value": 0.3333}}},
        {"name": "exact", "metrics": {"mean": {"name": "mean", "value": 2.5}}}]}}}


def test_the_log_says_what_was_evaluated_and_how_it_scored():
    found = evaluation_of(LOG)
    assert (found.task, found.model, found.grader, found.dataset) == (
        "dk_vat", "anthropic/claude-sonnet-4-5", "openai/gpt-4o-mini", "vat")
    assert (found.samples, found.completed, found.epochs, found.status) == (8, 7, 2, "success")
    assert [(s.name, [(m.name, m.value) for m in s.metrics]) for s in found.scorers] == [
        ("model_graded_fact", [("accuracy", "66.7%"), ("stderr", "0.333")]), ("exact", [("mean", "2.5")])]


def test_a_transcript_that_is_no_evaluation_has_none():
    assert evaluation_of({}) is None and evaluation_of({"inspect_log": "x"}) is None
    assert sample_of({"title": "Lisbon"}, debug=True) is None


def test_a_header_of_odd_shapes_is_read_without_error():
    odd = {"inspect_log": {"eval": [], "results": {"scores": [1, {"metrics": [{"name": "accuracy", "value": "x"}]}]}}}
    found = evaluation_of(odd)
    assert found.task is None and [s.metrics for s in found.scorers] == [()]
    assert sample_of({"inspect_sample": {"scores": {"s": [1]}, "target": ["a", "b"]}}, debug=True).target == "a, b"


def test_inspect_s_letters_are_said_in_words():
    assert [score_words(value)[:2] for value in ("C", "I", "P", "N")] == [
        ("C", "correct"), ("I", "incorrect"), ("P", "partly correct"), ("N", "no answer")]
    assert score_words(0.5) == ("0.5", None, None) and score_words(True) == ("true", None, None)
    assert score_words(math.nan)[0] == "none" and score_words("yes") == ("yes", None, None)


def test_the_grader_s_explanation_is_the_debug_view_s_alone():
    header = {"inspect_sample": {"id": 3, "epoch": 2, "target": "42", "scores": {"match": {
        "value": "I", "answer": "41", "explanation": "Expected 42, got 41."}}}}
    shown = sample_of(header, debug=False)
    assert (shown.id, shown.epoch, shown.target) == ("3", 2, "42")
    assert [(s.scorer, s.value, s.words, s.tone, s.answer, s.explanation) for s in shown.scores] == [
        ("match", "I", "incorrect", "bad", None, None)]
    debug = sample_of(header, debug=True).scores[0]
    assert (debug.answer, debug.explanation) == ("41", "Expected 42, got 41.")
