"""An evaluation log read as an evaluation (an Inspect AI log: its header facts, which the importer keeps under
`inspect_log` for the log and `inspect_sample` for each sample): what was evaluated, how it scored overall, and
each sample's target and scores, each value said in words.

What a link holder of the default view reads: the task, the model, the dataset, the scorers' metrics, each
sample's target and score. What only the debug view adds: the answer a scorer extracted and the grader's
explanation (a grader's output, which the policy hides as it hides the grader's prompt)."""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

LOG_KEY = "inspect_log"
SAMPLE_KEY = "inspect_sample"

SCORE_WORDS = {"C": "correct", "I": "incorrect", "P": "partly correct", "N": "no answer"}
"""Inspect's own score values (inspect_ai.scorer: CORRECT, INCORRECT, PARTIAL, NOANSWER), which its metrics count
as 1, 0, 0.5 and 0."""
SCORE_TONES = {"C": "good", "I": "bad", "P": "partial", "N": "none"}
PERCENT_METRICS = ("accuracy", "mean")
"""Metrics of values between 0 and 1 shown as a percentage when they are."""


@dataclass(frozen=True, slots=True)
class Metric:
    name: str
    value: str
    """As a reader reads it: "66.7%" for an accuracy, "0.333" for a standard error."""


@dataclass(frozen=True, slots=True)
class ScorerResult:
    name: str
    metrics: tuple[Metric, ...]


@dataclass(frozen=True, slots=True)
class Evaluation:
    """What the log says of the whole evaluation."""

    task: str | None
    model: str | None
    grader: str | None
    """The model of the `grader` role, when a model graded the answers."""
    dataset: str | None
    samples: int | None
    completed: int | None
    epochs: int | None
    status: str | None
    scorers: tuple[ScorerResult, ...]


@dataclass(frozen=True, slots=True)
class Scored:
    """One scorer's score of one sample."""

    scorer: str
    value: str
    """The value as the log writes it (`C`, `0.5`, `true`)."""
    words: str | None
    """What the value means, for Inspect's letters ("correct"); None for a number or text that says itself."""
    tone: str | None
    """`good`, `bad`, `partial` or `none` for Inspect's letters (the badge's colour; the words say it too)."""
    answer: str | None = None
    """The answer the scorer extracted (debug view only)."""
    explanation: str | None = None
    """The grader's explanation (debug view only)."""


@dataclass(frozen=True, slots=True)
class Sample:
    """One sample: its id and epoch, its target, its scores."""

    id: str | None
    epoch: int | None
    target: str | None
    scores: tuple[Scored, ...]


def evaluation_of(header: dict[str, Any]) -> Evaluation | None:
    """The evaluation a log's header describes; None for a transcript that is no evaluation log."""
    log = _mapping(header.get(LOG_KEY))
    if log is None:
        return None
    spec, results = _mapping(log.get("eval")) or {}, _mapping(log.get("results")) or {}
    dataset, config = _mapping(spec.get("dataset")) or {}, _mapping(spec.get("config")) or {}
    grader = _mapping((_mapping(spec.get("model_roles")) or {}).get("grader")) or {}
    scorers = tuple(ScorerResult(_text(score.get("name")) or "score", _metrics(score.get("metrics")))
                    for score in _list(results.get("scores")) if isinstance(score, dict))
    return Evaluation(task=_text(spec.get("task")), model=_text(spec.get("model")), grader=_text(grader.get("model")),
                      dataset=_text(dataset.get("name")), samples=_int(results.get("total_samples"))
                      or _int(dataset.get("samples")), completed=_int(results.get("completed_samples")),
                      epochs=_int(config.get("epochs")), status=_text(log.get("status")), scorers=scorers)


def sample_of(header: dict[str, Any], *, debug: bool) -> Sample | None:
    """A sample's id, target and scores from its header; with `debug`, each score's extracted answer and the
    grader's explanation too. None for a transcript that is no sample."""
    sample = _mapping(header.get(SAMPLE_KEY))
    if sample is None:
        return None
    scores = _mapping(sample.get("scores")) or {}
    return Sample(id=_text(sample.get("id")), epoch=_int(sample.get("epoch")), target=_target(sample.get("target")),
                  scores=tuple(_scored(name, score, debug) for name, score in scores.items()))


def score_words(value: Any) -> tuple[str, str | None, str | None]:
    """A score's value as written, what it means in words, and its tone."""
    if isinstance(value, bool):
        return ("true" if value else "false"), None, None
    if isinstance(value, str):
        return value, SCORE_WORDS.get(value), SCORE_TONES.get(value)
    if isinstance(value, (int, float)):
        return _number(value), None, None
    return _text(value) or "", None, None


def _scored(name: str, score: Any, debug: bool) -> Scored:
    fields = score if isinstance(score, dict) else {"value": score}
    value, words, tone = score_words(fields.get("value"))
    return Scored(scorer=str(name), value=value, words=words, tone=tone,
                  answer=_text(fields.get("answer")) if debug else None,
                  explanation=_text(fields.get("explanation")) if debug else None)


def _metrics(value: Any) -> tuple[Metric, ...]:
    """A scorer's metrics as the log writes them: a mapping of name to `{"name", "value"}` (or a list of them)."""
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    found = []
    for metric in items:
        if not isinstance(metric, dict) or not isinstance(metric.get("value"), (int, float)):
            continue
        name = _text(metric.get("name")) or "metric"
        number = float(metric["value"])
        shown = (f"{number:.1%}" if name in PERCENT_METRICS and 0 <= number <= 1 else _number(number))
        found.append(Metric(name, shown))
    return tuple(found)


def _target(value: Any) -> str | None:
    """A target as the index shows it: several joined, an object as its JSON (a target may be any JSON value)."""
    if isinstance(value, list):
        return ", ".join(str(item) for item in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    return _text(value)


def _number(value: float) -> str:
    if isinstance(value, float) and not math.isfinite(value):
        return "none"
    return f"{value:,}" if isinstance(value, int) else f"{value:.3g}"


def _text(value: Any) -> str | None:
    if value is None or isinstance(value, (dict, list)):
        return None
    return str(value)


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _mapping(value: Any) -> dict[str, Any] | None:
    return value if isinstance(value, dict) else None


def _list(value: Any) -> list:
    return value if isinstance(value, list) else []
