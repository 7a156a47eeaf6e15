"""`<think>` left in an assistant's content by a server without a reasoning parser."""
from __future__ import annotations

import json

import pytest

from tests.parse.helpers import codes, only
from viewer.parse import parse
from viewer.parse.json.think import split_think
from viewer.policy import Projection


def chat(*contents, role="assistant", **fields):
    return parse(json.dumps([{"role": role, "content": content, **fields} for content in contents]))


def shown(transcript):
    return [m.content for m, d in zip(transcript.messages, Projection.of(transcript).decisions()) if d.show_as == "message"]


@pytest.mark.parametrize("text, runs, unclosed", [
    ("plain", [(False, "plain")], False),
    ("<think>\nR\n</think>\n\nA", [(True, "R"), (False, "A")], False),
    ("R\n</think>\n\nA", [(True, "R"), (False, "A")], False),
    ("<think>\n\n</think>\n\nA", [(False, "A")], False),
    ("<think>\nR cut", [(True, "R cut")], True),
    ("A1<think>R</think>A2", [(False, "A1"), (True, "R"), (False, "A2")], False),
])
def test_split_think(text, runs, unclosed):
    assert split_think(text) == (runs, unclosed)


def test_think_in_an_answer_is_analysis_and_the_rest_is_shown():
    transcript = chat("<think>\nCount letters.\n</think>\n\nThree.")
    assert [(m.turn, m.channel, m.content) for m in transcript.messages] == [
        (0, "analysis", "Count letters."), (0, "final", "Three.")]
    assert shown(transcript) == ["Three."]


def test_reasoning_opened_in_the_generation_prompt_ends_at_the_closing_tag():
    assert shown(chat("Count letters.\n</think>\n\nThree.")) == ["Three."]


def test_empty_think_gives_no_analysis():
    transcript = chat("<think>\n\n</think>\n\nThree.")
    assert [m.channel for m in transcript.messages] == ["final"]


def test_unclosed_think_is_all_analysis_with_a_warning():
    transcript = chat("<think>\nStill thinking")
    assert [m.channel for m in transcript.messages] == ["analysis"]
    assert only(transcript, "W-UNCLOSED-BLOCK").message_index == 0


def test_reasoning_content_equal_to_the_think_text_is_shown_once():
    transcript = chat("<think>\nSame.\n</think>\n\nDone.", reasoning_content="Same.")
    assert [(m.channel, m.content) for m in transcript.messages] == [("analysis", "Same."), ("final", "Done.")]


def test_think_across_text_parts_is_split_too():
    transcript = chat([{"type": "text", "text": "<think>R"}, {"type": "text", "text": "</think>A"}])
    assert shown(transcript) == ["A"] and codes(transcript) == []


def test_a_user_s_think_tags_are_kept_as_written():
    assert shown(chat("What does <think> do?", role="user")) == ["What does <think> do?"]
