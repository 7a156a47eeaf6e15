"""batch_plain.read_record reads OpenAI Batch output lines to exactly what the general reading
(batches.py, completions.py, the builder) makes of them: the same conversations, headers, messages, spans, frame,
diagnostics and pairs, whatever the lines hold and however they are spaced; a line it does not read is left to
that reading."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from tests.parse.json.test_plain import ELEMENT, _call, _sometimes
from viewer.parse import parse
from viewer.parse.json import batch_plain, plain_records

ODD = st.none() | st.booleans() | st.integers(-1, 500) | st.sampled_from(["x", "", "system", 'a "q"', "é"]) | \
    st.lists(st.integers(0, 2), max_size=2) | st.fixed_dictionaries({}, optional={"message": st.just("m"),
                                                                                  "tools": st.just([])})


def _rarely(strategy):
    """Now and then the member `strategy` gives (which mostly sends the line the general way), else nothing."""
    return st.sampled_from([True] + [False] * 12).flatmap(lambda add: strategy if add else st.just(None))


def _with(good, odd):
    """The `good` object with, now and then, members that the general reading reads another way."""
    return st.tuples(good, st.fixed_dictionaries({}, optional=odd)).map(
        lambda pair: {**pair[0], **{key: value for key, value in pair[1].items() if value is not None}})


ANSWER = st.fixed_dictionaries({"role": st.just("assistant"), "content": st.sampled_from(["Hi", "", None, "a\nb é"])},
                               optional={"reasoning_content": st.sampled_from(["r", None]), "refusal": st.none(),
                                         "tool_calls": st.lists(_call(), max_size=2)})
"""An answer as a Chat Completion writes it (with a `refusal` member now and then, which plain.py leaves to the
general reader)."""
CHOICE = _with(st.fixed_dictionaries({"message": _sometimes(ANSWER, ELEMENT | ODD)}, optional={
    "index": st.integers(0, 3), "finish_reason": st.sampled_from(["stop", "tool_calls", None]),
    "logprobs": st.none() | st.just({"content": [{"token": "x"}]})}), {"text": _rarely(st.just("legacy"))})
BODY = _with(st.fixed_dictionaries({"choices": _sometimes(st.lists(CHOICE, min_size=1, max_size=3), ODD)}, optional={
    "id": st.just("chatcmpl-1"), "object": st.just("chat.completion"), "model": st.just("gpt-4o-mini"),
    "usage": st.just({"prompt_tokens": 5, "completion_tokens": 2})}), {
    "system": _rarely(st.just("Be brief.")), "tools": _rarely(st.just([])), "custom_id": _rarely(st.just("inner")),
    "chosen": _rarely(st.just("c")), "rejected": _rarely(st.just("r")), "error": _rarely(st.just("e"))})
RESPONSE = _with(st.fixed_dictionaries({"body": _sometimes(BODY, ODD)}, optional={
    "status_code": _sometimes(st.just(200), st.sampled_from([400, 500, "200"])), "request_id": st.just("req_1"),
    "id": st.just("inner-id")}), {"error": _rarely(st.just("bad")), "type": _rarely(st.just("errored")),
                                  "message": _rarely(st.just({"role": "assistant"}))})
LINE = _with(st.fixed_dictionaries({"custom_id": _sometimes(st.sampled_from(["request-1", "é"]), ODD),
                                    "response": _sometimes(RESPONSE, ODD)}, optional={
    "id": st.just("batch_req_1"), "error": st.none(), "model": st.just("m")}), {
    "error": _rarely(st.just({"message": "failed"})), "body": _rarely(BODY), "params": _rarely(st.just({})),
    "result": _rarely(st.just({"type": "succeeded"})), "messages": _rarely(st.just([])),
    "instructions": _rarely(st.just("Be brief."))})
"""Batch output lines, most of them succeeded with plain answers; now and then anything the general reading reads
another way (an error, a request, a prompt or tools in the envelope, another record inside, a legacy choice)."""
SEPARATORS = {"compact": (",", ":"), "spaced": (", ", ": "), "wide": (" ,  ", " :\t")}


def _read(text: str, fast: bool):
    with pytest.MonkeyPatch.context() as patch:
        if not fast:
            patch.setattr(plain_records, "read_line", lambda *args: None)
        transcript = parse(text)
    frames = [[(s.kind, s.text, s.span) for s in part.frame] for part in (transcript, *transcript.conversations)]
    return transcript.to_json(), frames, [part.tools for part in transcript.conversations]


@settings(max_examples=400, deadline=None)
@given(lines=st.lists(LINE, min_size=2, max_size=4), style=st.sampled_from(sorted(SEPARATORS)),
       ascii=st.booleans())
def test_batch_output_lines_read_as_the_general_reading_reads_them(lines, style, ascii):
    text = "".join(json.dumps(line, separators=SEPARATORS[style], ensure_ascii=ascii) + "\n" for line in lines)
    assert _read(text, fast=True) == _read(text, fast=False)


def test_a_line_written_oddly_is_left_to_the_general_reading():
    answer = ('"response": {"status_code": 200, "body": {"choices": [{"message": {"role": "assistant", '
              '"content": "A"}}]}}')
    for line in ('{"custom_id": "r", ' + answer + ', "response": {"status_code": 200, "body": {"choices": []}}}',
                 '{"custom_\\u0069d": "r", ' + answer + '}',
                 '{"custom_id": "r", "x": NaN, ' + answer + '}',
                 '{"custom_id": "\\ud800", ' + answer + '}'):
        text = line + "\n" + line + "\n"
        assert batch_plain.read_record(text, (0, len(line))) is None
        assert _read(text, fast=True) == _read(text, fast=False)


def test_a_plain_answer_is_read_the_fast_way():
    line = json.dumps({"id": "batch_req_1", "custom_id": "request-1", "response": {"status_code": 200, "body": {
        "id": "chatcmpl-1", "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hi"}}]}},
        "error": None})
    conversation = batch_plain.read_record(line, (0, len(line)))
    assert conversation is not None
    assert [(m.role, m.content) for m in conversation.messages] == [("assistant", "Hi")]
    assert conversation.header == {"id": "batch_req_1", "custom_id": "request-1", "status_code": 200}


def test_a_message_key_written_with_escapes_twice_or_elsewhere_reads_as_the_general_reading_reads_it():
    message = '{"role": "assistant", "content": "A"}'
    for choices, usage in (('[{"m\\u0065ssage": ' + message + '}]', '{"n": 1}'),
                           ('[{"m\\u0065ssage": ' + message + '}]', '{"message": ' + message + '}'),
                           ('[{"message": {"role": "user"}, "message": ' + message + '}]', '{"n": 1}'),
                           ('[{"message": ' + message + '}, {"\\u006Dessage": ' + message + '}]', '{"n": 1}')):
        line = ('{"custom_id": "r", "response": {"status_code": 200, "body": {"choices": ' + choices +
                ', "usage": ' + usage + '}}}')
        text = line + "\n" + line + "\n"
        assert _read(text, fast=True) == _read(text, fast=False)
