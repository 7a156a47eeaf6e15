"""What the model saw when sampling an assistant message: OpenChatML 2.2 drops analysis after a turn that ended
with final and keeps it (with the call) while a call is being resolved; Harmony follows openai-harmony's
auto_drop_analysis (analysis before the first final, only when the last assistant message is final); every other
dialect keeps everything before the message. And the exact text, by the dialect's writer, with its prompt."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT
from viewer.context import (EVERYTHING_RULE, HARMONY_RULE, OPENCHATML_RULE, NotSampled, sampling_context)
from viewer.context.text import exact_text
from viewer.parse import parse

SAMPLES = ROOT / "sample_transcripts"
THREE_TURNS = ("<|start|>user<|message|>Q1<|end|>"
               "<|start|>assistant<|channel|>analysis<|message|>T1<|end|>"
               "<|start|>assistant<|channel|>final<|message|>A1<|end|>"
               "<|start|>user<|message|>Q2<|end|>"
               "<|start|>assistant<|channel|>analysis<|message|>T2<|end|>"
               "<|start|>assistant<|channel|>final<|message|>A2<|end|>"
               "<|start|>user<|message|>Q3<|end|>"
               "<|start|>assistant<|channel|>analysis<|message|>T3<|end|>"
               "<|start|>assistant<|channel|>final<|message|>A3<|return|>")
# indices: 0 Q1, 1 T1, 2 A1, 3 Q2, 4 T2, 5 A2, 6 Q3, 7 T3, 8 A3


def sample(name: str):
    return parse(Path(SAMPLES / name).read_text(encoding="utf-8"))


def dropped(transcript, index: int) -> list[int]:
    context = sampling_context(transcript.messages, transcript.dialect, index)
    return [message.index for message in context.dropped]


@pytest.fixture
def harmony():
    transcript = parse(THREE_TURNS, "harmony")
    assert [m.content for m in transcript.messages] == ["Q1", "T1", "A1", "Q2", "T2", "A2", "Q3", "T3", "A3"]
    return transcript


@pytest.fixture
def openchatml():
    transcript = parse("---\nversion: 2.2\n---\n" + THREE_TURNS)
    assert transcript.dialect == "openchatml" and len(transcript.messages) == 9
    return transcript


def test_openchatml_drops_the_analysis_of_every_turn_that_ended_with_final(openchatml):
    assert dropped(openchatml, 4) == [1]
    assert dropped(openchatml, 7) == [1, 4]
    assert dropped(openchatml, 8) == [1, 4]  # the analysis leading to this answer stays


def test_openchatml_keeps_the_analysis_and_the_call_when_resuming_after_a_tool_reply():
    transcript = sample("openchatml-22-fixture-4-tool-timeout.txt")  # user, analysis, call, reply, final
    context = sampling_context(transcript.messages, transcript.dialect, 4)
    assert context.rule is OPENCHATML_RULE
    assert [m.index for m in context.kept] == [0, 1, 2, 3] and context.dropped == ()


def test_openchatml_keeps_the_analysis_that_leads_to_the_answer_sampled():
    transcript = sample("openchatml-22-fixture-2-channeled-return.txt")  # system, user, analysis, final
    assert dropped(transcript, 3) == []


def test_harmony_drops_analysis_before_the_first_final_when_the_last_assistant_message_is_final(harmony):
    context = sampling_context(harmony.messages, "harmony", 4)
    assert context.rule is HARMONY_RULE
    assert [m.index for m in context.dropped] == [1]
    assert all(item.dropped_by is HARMONY_RULE for item in context.items if not item.kept)
    # openai-harmony's reference: only analysis before the *first* final goes, so T2 stays for turn three
    assert dropped(harmony, 7) == [1]


def test_harmony_drops_nothing_when_the_last_assistant_message_is_not_final(harmony):
    assert dropped(harmony, 5) == []  # the last assistant message before A2 is T2 (analysis)
    assert dropped(harmony, 8) == []


def test_harmony_keeps_everything_in_the_gpt_oss_weather_conversation():
    # preamble, parallel calls, a tool error, then analysis and the final answer: no final before the answer
    transcript = sample("harmony-gpt-oss-weather.txt")
    context = sampling_context(transcript.messages, transcript.dialect, 10)
    assert context.rule is HARMONY_RULE and len(context.kept) == 10 and context.dropped == ()
    assert context.target.channel == "final"


def test_dialects_without_a_rule_keep_everything_before_the_message():
    transcript = parse("<|im_start|>user\nQ1<|im_end|>\n<|im_start|>assistant\n<think>\nT1\n</think>\n\nA1<|im_end|>\n"
                       "<|im_start|>user\nQ2<|im_end|>\n<|im_start|>assistant\nA2<|im_end|>\n")
    assert transcript.dialect == "chatml"
    last = transcript.messages[-1]
    context = sampling_context(transcript.messages, transcript.dialect, last.index)
    assert context.rule is EVERYTHING_RULE
    assert context.dropped == () and len(context.kept) == last.index


@pytest.mark.parametrize("index", [-1, 9, 100])
def test_a_message_out_of_range_was_not_sampled(harmony, index):
    with pytest.raises(NotSampled, match="no message"):
        sampling_context(harmony.messages, "harmony", index)


def test_a_user_message_was_not_sampled(harmony):
    with pytest.raises(NotSampled, match="user message"):
        sampling_context(harmony.messages, "harmony", 3)


def test_the_harmony_text_is_the_kept_messages_then_the_generation_prompt(harmony):
    text = exact_text(sampling_context(harmony.messages, "harmony", 4), "harmony")
    assert text.writer == "harmony" and text.prompt == "<|start|>assistant"
    assert text.text == ("<|start|>user<|message|>Q1<|end|>"
                         "<|start|>assistant<|channel|>final<|message|>A1<|end|>"
                         "<|start|>user<|message|>Q2<|end|>"
                         "<|start|>assistant")


def test_the_weather_text_keeps_the_calls_and_their_constraint():
    transcript = sample("harmony-gpt-oss-weather.txt")
    text = exact_text(sampling_context(transcript.messages, "harmony", 10), "harmony").text
    assert "<|start|>assistant to=functions.get_air_quality<|channel|>commentary json<|message|>" in text
    assert "<|start|>functions.get_air_quality to=assistant<|channel|>commentary<|message|>" in text
    assert text.count("<|call|>") == 2 and text.endswith("<|end|><|start|>assistant")
    assert "<|return|>" not in text  # the answer sampled is not part of its own context


def test_the_openchatml_text_has_its_header_and_prompt(openchatml):
    text = exact_text(sampling_context(openchatml.messages, "openchatml", 8), "openchatml", openchatml.header)
    assert text.text.startswith("---\nversion: 2.2\n---\n") and text.text.endswith("<|start|>assistant")
    assert "T1" not in text.text and "T2" not in text.text and "T3" in text.text


def test_chatml_ends_with_its_prompt_and_json_has_none():
    transcript = parse("<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHello<|im_end|>\n")
    text = exact_text(sampling_context(transcript.messages, "chatml", 1), "chatml")
    assert text.text == "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"
    as_json = exact_text(sampling_context(transcript.messages, "json", 1), "json")
    assert as_json.writer == "openai-json" and as_json.prompt == "" and '"content": "Hi"' in as_json.text


@pytest.mark.parametrize("path", sorted(SAMPLES.iterdir()), ids=lambda path: path.name)
def test_every_assistant_message_of_every_sample_has_a_context_and_an_exact_text(path):
    transcript = parse(path.read_bytes())
    for conversation in transcript.conversations or (transcript,):
        for message in conversation.messages:
            if message.role != "assistant":
                continue
            context = sampling_context(conversation.messages, conversation.dialect, message.index)
            assert len(context.items) == message.index
            assert all(item.kept or item.message.channel == "analysis" for item in context.items)
            text = exact_text(context, conversation.dialect, conversation.header)
            assert text.text.endswith(text.prompt)
