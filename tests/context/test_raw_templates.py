"""What the model saw, for the raw prompt templates: DeepSeek's templates drop the reasoning of earlier exchanges,
the other families keep everything; the text is the family's writer's, ending with its generation prompt."""
from __future__ import annotations

import pytest

from viewer.context import DEEPSEEK_RULE, EVERYTHING_RULE, sampling_context
from viewer.context.text import exact_text
from viewer.parse import parse
from viewer.parse.templates.deepseek import ASSISTANT, EOS, USER

TWO_EXCHANGES = (f"{USER}Q1{ASSISTANT}<think>T1</think>A1{EOS}{USER}Q2{ASSISTANT}<think>T2</think>A2{EOS}")
# indices: 0 Q1, 1 T1, 2 A1, 3 Q2, 4 T2, 5 A2


def test_deepseek_drops_the_reasoning_of_earlier_exchanges_and_keeps_the_current_one():
    transcript = parse(TWO_EXCHANGES)
    assert [m.content for m in transcript.messages] == ["Q1", "T1", "A1", "Q2", "T2", "A2"]
    context = sampling_context(transcript.messages, "deepseek", 5)
    assert context.rule is DEEPSEEK_RULE
    assert [m.index for m in context.dropped] == [1]
    assert [m.index for m in sampling_context(transcript.messages, "deepseek", 2).dropped] == []


@pytest.mark.parametrize(("text", "prompt"), [
    ("<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|>"
     "<|start_header_id|>assistant<|end_header_id|>\n\nHello<|eot_id|>",
     "<|start_header_id|>assistant<|end_header_id|>\n\n"),
    ("<bos><start_of_turn>user\nHi<end_of_turn>\n<start_of_turn>model\nHello<end_of_turn>\n", "<start_of_turn>model\n"),
    ("<|user|>Hi<|end|><|assistant|>Hello<|end|>", "<|assistant|>"),
    ("<s>[INST]Hi[/INST]Hello</s>", ""),
])
def test_the_text_is_the_family_writer_s_with_its_generation_prompt(text, prompt):
    transcript = parse(text)
    context = sampling_context(transcript.messages, transcript.dialect, 1)
    assert context.rule is EVERYTHING_RULE
    written = exact_text(context, transcript.dialect)
    assert written.writer == transcript.dialect and written.prompt == prompt
    assert parse(written.text, transcript.dialect).messages[0].content == "Hi"
    assert written.text.endswith("Hi[/INST]" if transcript.dialect == "mistral" else prompt)
