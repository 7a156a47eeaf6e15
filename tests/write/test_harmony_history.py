"""How the Harmony writer writes a log (as it was) and an earlier message for the model to read (as
openai-harmony's `render_conversation` does): `<|end|>` after a final answer, `<|call|>` after a call, no
`to=all`; and a channel on an assistant message only where the source wrote one or could not say."""
from __future__ import annotations


import msgspec
import pytest

from viewer.model import Transcript
from viewer.parse import parse
from viewer.write.harmony import SPELLED, as_history, to_harmony


def written(text: str, dialect: str = "harmony") -> str:
    return to_harmony(Transcript(dialect=dialect, source="", messages=parse(text, dialect).messages)).text


@pytest.mark.parametrize(("logged", "history"), [
    ("<|start|>assistant<|channel|>final<|message|>Done.<|return|>",
     "<|start|>assistant<|channel|>final<|message|>Done.<|end|>"),
    ("<|start|>assistant<|channel|>final<|message|>Cut sh",
     "<|start|>assistant<|channel|>final<|message|>Cut sh<|end|>"),
    ("<|start|>assistant to=functions.f<|channel|>commentary json<|message|>{}<|end|>",
     "<|start|>assistant to=functions.f<|channel|>commentary json<|message|>{}<|call|>"),
    ("<|start|>assistant<|channel|>commentary<|message|>On it.<|call|>",
     "<|start|>assistant<|channel|>commentary<|message|>On it.<|end|>"),
    ("<|start|>user to=all<|message|>Hi all<|end|>", "<|start|>user<|message|>Hi all<|end|>"),
])
def test_an_earlier_message_is_written_as_openai_harmony_renders_history(logged, history):
    messages = tuple(map(as_history, parse(logged, "harmony").messages))
    assert to_harmony(Transcript(dialect="harmony", source="", messages=messages)).text == history


def test_the_log_itself_keeps_the_stop_token_it_was_written_with():
    text = "<|start|>assistant<|channel|>final<|message|>Done.<|return|>"
    assert written(text) == text


def test_a_message_already_written_as_history_is_the_same_object():
    message = parse("<|start|>user<|message|>Hi<|end|>", "harmony").messages[0]
    assert as_history(message) is message


def test_a_harmony_assistant_message_without_a_channel_is_written_without_one():
    text = "<|start|>assistant<|message|>Hello Alice.<|end|>"
    assert written(text) == text


def test_an_assistant_message_from_a_dialect_without_channels_is_written_on_final():
    text = written("<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHello<|im_end|>\n", "chatml")
    assert text.startswith("<|start|>user<|message|>Hi<|end|>")
    assert "<|start|>assistant<|channel|>final<|message|>Hello" in text


@pytest.mark.parametrize("text", [
    "<|start|>assistant to=functions.f json<|message|>{}<|call|>",
    "<|start|>functions.f to=assistant <|constrain|>json<|message|>{}<|end|>",
])
def test_a_content_type_without_a_channel_follows_the_recipient_as_openai_harmony_writes_it(text):
    assert written(text) == text


def test_a_bare_content_type_without_recipient_or_channel_keeps_the_channel_to_read_back():
    message = parse("<|start|>user<|channel|>final json<|message|>{}<|end|>", "harmony").messages[0]
    bare = Transcript(dialect="harmony", source="", messages=(
        msgspec.structs.replace(message, channel_explicit=False),))
    assert to_harmony(bare).text == "<|start|>user<|channel|>final json<|message|>{}<|end|>"


def test_as_received_a_body_that_spells_a_control_token_is_not_escaped_and_the_page_says_so():
    transcript = parse("<|start|>user<|message|>What is <|constrain|>?<|end|>", "harmony")
    assert "<<|constrain|>" in to_harmony(transcript).text
    received = to_harmony(transcript, as_received=True)
    assert received.text == "<|start|>user<|message|>What is <|constrain|>?<|end|>"
    assert [str(loss) for loss in received.losses] == [f"{SPELLED} (message #0)"]
