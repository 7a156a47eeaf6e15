"""A Hypothesis strategy for Inspect AI samples with their events, as `inspect eval` writes a model-graded run
(inspect_ai's `EvalSample`, `event/*.py`, `scorer/_model.py`): the conversation, then the events (an init span
with `sample_init`, the solver's model calls and a tool call in their spans, a `scorers` span holding the
grader's own model call with its prompt and reply, and the `score`), long strings moved into `attachments`, and
optionally the model inputs pooled in `events_data` (`input_refs`, `call.call_refs`) as Inspect 0.3.28x writes
them. A unique canary (`CANARY<n>Q`) stands in every part the default view must hide, a unique word
(`SHOWN<n>`) in every part it shows. Registered in tests/parse/json/shapes.py's SHAPES."""
from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

from tests.parse.json.shapes import TOOL, Draw, Marks

ATTACHMENT = "attachment://"


class _Run:
    """One sample's events being written: their spans, times and attachments."""

    def __init__(self, m: Marks, pooled: bool) -> None:
        self.m = m
        self.events: list[dict[str, Any]] = []
        self.attachments: dict[str, str] = {}
        self.pool: list[dict[str, Any]] = []
        self.calls: list[dict[str, Any]] = []
        self.pooled = pooled
        self.clock = 0
        self.spans: list[str] = []

    def attach(self, text: str) -> str:
        key = f"{len(self.attachments):032x}"
        self.attachments[key] = text
        return ATTACHMENT + key

    def add(self, kind: str, **fields: Any) -> None:
        self.clock += 1
        event = {"uuid": f"ev{self.clock:06d}", "span_id": self.spans[-1] if self.spans else None,
                 "timestamp": f"2025-11-20T10:15:{self.clock:02d}+00:00", "working_start": float(self.clock),
                 "event": kind, **fields}
        self.events.append({key: value for key, value in event.items() if value is not None})

    def span(self, kind: str, name: str) -> None:
        identifier = f"{len(self.events):032x}"
        self.add("span_begin", id=identifier, parent_id=self.spans[-1] if self.spans else None, type=kind, name=name)
        self.spans.append(identifier)

    def end(self) -> None:
        self.add("span_end", id=self.spans.pop())

    def model(self, model: str, given: list[dict[str, Any]], said: dict[str, Any], role: str | None = None) -> None:
        request = {"model": model, "messages": given, "max_tokens": 1024}
        call: dict[str, Any] = {"request": request, "response": {"model": model, "content": said["content"]}}
        fields: dict[str, Any] = {"input": given}
        if self.pooled:
            start, calls = len(self.pool), len(self.calls)
            self.pool.extend(given)
            self.calls.extend(given)
            fields = {"input": [], "input_refs": [[start, len(self.pool)]]}
            call = {"request": {"model": model, "max_tokens": 1024}, "response": call["response"],
                    "call_refs": [[calls, len(self.calls)]], "call_key": "messages"}
        self.add("model", model=model, role=role, **fields, tools=[], tool_choice="auto", config={},
                 output={"model": model, "choices": [{"message": said, "stop_reason": "stop"}],
                         "usage": {"input_tokens": 100, "output_tokens": 20, "total_tokens": 120}},
                 call=call)


@st.composite
def inspect_samples(draw: Draw) -> str:
    m = Marks()
    run = _Run(m, pooled=draw(st.booleans()))
    # The target: shown beside the score on an evaluation's pages (not in every answer), so neither mark.
    question, answer, target = m.shown(), m.shown(), "the expected answer"
    system = {"id": "s1", "role": "system", "content": run.attach(m.canary())}
    user = {"id": "u1", "role": "user", "content": question, "source": "input"}
    calling = {"id": "a1", "role": "assistant", "source": "generate", "model": "claude-sonnet-4-5",
               "content": [{"type": "reasoning", "reasoning": m.canary(), "signature": m.canary()}],
               "tool_calls": [{"id": "c1", "function": TOOL, "arguments": {"q": m.canary()}, "type": "function"}]}
    result = {"id": "t1", "role": "tool", "content": m.canary(), "tool_call_id": "c1", "function": TOOL}
    final = {"id": "a2", "role": "assistant", "source": "generate", "model": "claude-sonnet-4-5",
             "content": [{"type": "text", "text": answer}]}
    messages = [system, user, calling, result, final]
    run.span("init", "init")
    run.add("sample_init", sample={"input": question, "target": target}, state={"messages": [system, user]})
    run.end()
    run.span("solvers", "solvers")
    run.span("solver", "generate")
    run.model("anthropic/claude-sonnet-4-5", [system, user], calling)
    run.span("tool", TOOL)
    run.add("tool", type="function", id="c1", function=TOOL, arguments={"q": m.canary()},
            result=run.attach(m.canary()), events=[])
    run.end()
    run.model("anthropic/claude-sonnet-4-5", [system, user, calling, result], final)
    run.end()
    run.end()
    explanation = m.canary()
    prompt = {"id": "g1", "role": "user", "content": run.attach(m.canary())}
    grade = {"id": "g2", "role": "assistant", "source": "generate", "model": "gpt-4o-mini",
             "content": run.attach(explanation)}
    score = {"value": "C", "answer": answer, "explanation": run.attach(explanation),
             "metadata": {"grading": [prompt, grade]}}
    if draw(st.booleans()):
        run.span("scorers", "scorers")
        run.span("scorer", "model_graded_fact")
        run.model("openai/gpt-4o-mini", [prompt], grade, role="grader")
        run.add("score", score=score, target=target, intermediate=False, scorer="model_graded_fact")
        run.end()
        run.end()
    sample: dict[str, Any] = {"id": 1, "epoch": 1, "input": question, "target": target, "messages": messages,
                              "scores": {"model_graded_fact": score}, "metadata": {"note": m.canary()},
                              "events": run.events, "attachments": run.attachments}
    if run.pooled:
        sample["events_data"] = {"messages": run.pool, "calls": run.calls}
    log = {"version": 2, "status": "success", "eval": {"task": "nothing_lost", "model": "anthropic/claude-sonnet-4-5",
                                                        "model_roles": {"grader": {"model": "openai/gpt-4o-mini"}}},
           "samples": [sample], "results": {"scores": [{"name": "model_graded_fact", "scorer": "model_graded_fact"}]}}
    return json.dumps(log if draw(st.booleans()) else sample, indent=draw(st.sampled_from([None, 1])))


EVAL_SHAPES = {"inspect-events": inspect_samples}
"""Each strategy, by name."""
