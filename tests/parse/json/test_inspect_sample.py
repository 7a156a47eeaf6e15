"""inspect_sample.read_sample reads the samples of an Inspect AI log to exactly what the general reading
(container.py, inspect_log.read_document) makes of them: the same conversations, headers, messages,
spans, frame and diagnostics, whatever the samples hold and however they are spaced; a sample it does not read is
left to that reading."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from tests.parse.json.test_inspect_plain import MESSAGE
from viewer.parse import parse
from viewer.parse.json import inspect_sample

ODD = st.sampled_from([None, 1, "x", [], {}, {"messages": [{"role": "user", "content": "q"}]}])
SAMPLE = st.fixed_dictionaries(
    {"id": st.sampled_from([1, "s1"]), "epoch": st.just(1), "target": st.sampled_from(["t", ["a", "b"]]),
     "messages": st.lists(MESSAGE, max_size=3)},
    optional={"input": st.sampled_from(["q", [{"role": "user", "content": "q"}]]),
              "scores": st.sampled_from([{}, {"match": {"value": "C", "answer": "x", "explanation": "e"}}, 3]),
              "metadata": st.just({}), "output": ODD, "events": st.lists(ODD, max_size=2),
              "attachments": st.sampled_from([{}, {"a1": "attached text"}]),
              "choices": st.sampled_from([[{"message": {"role": "assistant"}}], None]),
              "custom_id": st.sampled_from(["r", None])})
"""Samples as Inspect writes them; now and then with what another reading claims (a record's marks) or with
`messages` keys elsewhere (a model event's input)."""


def _read(text: str, fast: bool):
    with pytest.MonkeyPatch.context() as patch:
        if not fast:
            patch.setattr(inspect_sample, "read_sample", lambda *args: None)
        transcript = parse(text)
    frames = [[(s.kind, s.text, s.span) for s in part.frame] for part in (transcript, *transcript.conversations)]
    return transcript.to_json(), frames, [part.tools for part in transcript.conversations]


@settings(max_examples=300, deadline=None)
@given(samples=st.lists(SAMPLE, min_size=2, max_size=3), indent=st.sampled_from([None, 1]), ascii=st.booleans())
def test_samples_read_as_the_general_reading_reads_them(samples, indent, ascii):
    log = {"version": 2, "status": "success", "eval": {"task": "t", "model": "m"}, "samples": samples}
    text = json.dumps(log, indent=indent, ensure_ascii=ascii)
    assert _read(text, fast=True) == _read(text, fast=False)


def test_a_sample_written_oddly_is_read_as_the_general_reading_reads_it():
    message = '{"role": "user", "content": "q"}'
    for sample in ('{"id": 1, "epoch": 1, "target": "t", "messages": [' + message + '], "messages": []}',
                   '{"id": 1, "epoch": 1, "target": "t", "m\\u0065ssages": [' + message + ']}',
                   '{"id": 1, "epoch": 1, "target": "t", "messages": [' + message + '], "x": NaN}'):
        text = '{"version": 2, "eval": {"task": "t"}, "samples": [' + sample + ", " + sample + "]}"
        assert _read(text, fast=True) == _read(text, fast=False)


@pytest.mark.parametrize("ascii", [True, False])
def test_a_sample_s_messages_are_found_from_their_lengths_in_any_characters(ascii):
    messages = [{"role": "user", "content": "café ✓ 😀"}, {"role": "assistant", "content": "naïve"}]
    sample = json.dumps({"id": 1, "epoch": 1, "target": "t", "messages": messages}, ensure_ascii=ascii, indent=1)
    text = f'{{"samples": [{sample}]}}'
    bracket = text.index("[", text.index('"messages"'))
    spans = inspect_sample._listed_spans(text, bracket, sample)
    assert [json.loads(text[begin:end]) for begin, end in spans] == messages
