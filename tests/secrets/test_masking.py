"""Masking a whole transcript: every spelling of every secret goes, in the source and in every field, and every
offset still points at the same text in the masked source."""
from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.secrets.canaries import PRIVATE, canaries, pem
from viewer.model import Message
from viewer.parse import parse
from viewer.secrets import Masker, mask_transcript, scan_transcript
from viewer.secrets.finding import placeholder_of
from viewer.secrets.masking import Moves, _messages, mask_source, spellings

GITHUB = next(canary.secret for canary in canaries(seed=3) if canary.secret.startswith("ghp_"))
KEY = pem(random.Random(9), "RSA " + PRIVATE)


def masked(text: str):
    transcript = parse(text)
    found = scan_transcript(transcript)
    in_source = [(item.finding.start, item.finding.end, placeholder_of(item.finding)) for item in found
                 if item.field == "source"]
    return transcript, mask_transcript(transcript, Masker(found), in_source)


def test_a_secret_has_its_json_escaped_and_line_by_line_spellings():
    forms = spellings(KEY)
    assert KEY in forms and json.dumps(KEY)[1:-1] in forms
    assert all(line in forms for line in KEY.splitlines() if len(line) >= 16)
    assert "==" not in forms  # too short to look for anywhere


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 300), st.integers(0, 20)), max_size=30),
       st.lists(st.tuples(st.integers(0, 300), st.integers(1, 20), st.integers(1, 30)), max_size=8), st.randoms())
def test_every_message_moves_as_its_offsets_do_in_any_order(spans, secrets, rng):
    """Messages in source order carry the shift from one to the next; out of order, nested or overlapping
    ones must move exactly as `Moves` says too."""
    replaced, done, written = [], 0, 0
    for start, length, placeholder in sorted(secrets):
        if start < done:
            continue
        written += start - done
        replaced.append((start, start + length, written, written + placeholder))
        written, done = written + placeholder, start + length
    moves = Moves(replaced)
    messages = [Message.drafted("", (start, start + length), (start, start + length // 2), index=number, turn=0,
                                role="user", channel="")
                for number, (start, length) in enumerate(sorted(spans) if rng.random() < 0.5 else spans)]
    moved = _messages(tuple(messages), moves, Masker([]), set())
    assert [message.span for message in moved] == [moves.span(message.span) for message in messages]
    assert [message.header for message in moved] == [moves.span(message.header) for message in messages]


def test_offsets_move_by_the_placeholders_and_inside_one_go_to_its_ends():
    moves = Moves([(10, 20, 10, 13), (30, 35, 23, 26)])
    assert [moves.offset(at) for at in (0, 10, 15, 20, 25, 30, 40)] == [0, 10, 10, 13, 18, 23, 31]
    assert moves.offset(15, end=True) == 13 and moves.offset(10, end=True) == 10
    assert moves.span((5, 32)) == (5, 26)


def test_overlapping_spans_are_one_placeholder():
    text, moves = mask_source("abc SECRET-PART def", Masker([]), [(4, 10, "[secret: A]"), (7, 15, "[secret: B]")])
    assert text == "abc [secret: A] def" and moves.offset(15) == 15


def test_every_field_and_the_source_lose_every_spelling_and_spans_point_at_the_same_text():
    text = ("---\nversion: 2.2\ntoken: " + json.dumps(f"use {GITHUB}") + "\n---\n"
            f"<|start|>user<|message|>Here is {GITHUB} and\n{KEY}\n<|end|>"
            f"<|start|>assistant to=functions.deploy call_id={GITHUB}<|channel|>commentary json<|message|>"
            + json.dumps({"key": KEY}) + "<|call|>"
            "<|start|>assistant<|channel|>final<|message|>Done.<|return|>")
    original, shown = masked(text)
    everything = json.dumps(shown.to_json()) + shown.source
    assert GITHUB not in everything and not any(line in everything for line in KEY.splitlines()[1:-1])
    assert "[secret: GitHub token]" in shown.source and "[secret: Private key]" in shown.messages[0].content
    assert shown.messages[1].call_id == "[secret: GitHub token]" and shown.header["token"].startswith("use [secret")
    for before, after in zip(original.messages, shown.messages):
        assert (before.index, before.role, before.channel, before.end) == (after.index, after.role, after.channel,
                                                                            after.end)
        written = shown.source[after.span[0]:after.span[1]]
        assert written.startswith("<|start|>") and written.endswith(("<|end|>", "<|call|>", "<|return|>"))
    assert shown.messages[2].content == "Done." and shown.text(shown.messages[2].span).endswith("Done.<|return|>")


def test_a_json_body_with_escapes_is_masked_in_the_source_too():
    text = json.dumps({"messages": [{"role": "tool", "tool_call_id": "c", "content": KEY},
                                    {"role": "user", "content": f"see https:\\/\\/x.example\\/{GITHUB}"}]})
    _, shown = masked(text)
    assert "MII" not in shown.source and GITHUB not in shown.source and "[secret: Private key]" in shown.source


def test_a_transcript_without_secrets_is_left_as_it_is():
    text = "<|start|>user<|message|>Hello there, no secrets here.<|end|>"
    original, shown = masked(text)
    assert shown == original


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["Hi ", "token ", "\n", "é", "🙂", "{", "}", " ", "\"", "=", "x"]), max_size=12),
       st.integers(0, 3))
def test_masked_offsets_point_at_the_masked_text_of_the_same_message(pieces, copies):
    filler = "".join(pieces)
    bodies = [f"{filler}{GITHUB * (number < copies)}{filler}" for number in range(4)]
    text = "".join(f"<|start|>user<|message|>{body}<|end|>" for body in bodies)
    original, shown = masked(text)
    for before, after in zip(original.messages, shown.messages):
        assert shown.source[after.span[0]:after.span[1]] == f"<|start|>user<|message|>{after.content}<|end|>"
        assert GITHUB not in after.content
        assert ("[secret: GitHub token]" in after.content) == (GITHUB in before.content)
