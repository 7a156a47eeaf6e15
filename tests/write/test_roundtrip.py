"""Writing a transcript as OpenChatML 2.2 and reading it back keeps every message's meaning, but for what the
grammar cannot say and the writer reports: an attribute's value of several words comes back as one."""
from __future__ import annotations

import pytest
from msgspec.structs import replace as msgspec_replace
from hypothesis import given, strategies as st

from tests.conftest import SAMPLES
from viewer.model import Message, Transcript
from viewer.parse import parse
from viewer.write import Written, to_openchatml
from viewer.write.openchatml import ATTRIBUTES, WORDS, one_word, to_openchatml_written

FIELDS = ("role", "name", "recipient", "channel", "content_type", "constrained", "intent", "call_id", "content", "end")
SAMPLE_FILES = sorted(path for path in SAMPLES.iterdir() if path.is_file() and not path.name.startswith("."))


def meaning(transcript: Transcript) -> list[tuple]:
    return [tuple(getattr(message, field) for field in FIELDS) for message in transcript.messages]


def kept(message: Message, written: Written) -> tuple:
    """What OpenChatML keeps of a message: everything, but the attributes of a message the writer reports as
    written in one word (`name=system reminder` reads back as `system_reminder`)."""
    values = {field: getattr(message, field) for field in FIELDS}
    if message.index in written.touched(WORDS):
        values.update((field, one_word(values[field]) or None) for field in ATTRIBUTES if values[field])
    return tuple(values.values())


@pytest.mark.parametrize("sample", SAMPLE_FILES, ids=[path.name for path in SAMPLE_FILES])
def test_every_sample_survives_a_round_trip_through_openchatml(sample):
    original = parse(sample.read_bytes())
    written = to_openchatml_written(original)
    again = parse(written.text)
    assert again.dialect == "openchatml"
    assert not [diagnostic for diagnostic in again.diagnostics if diagnostic.code == "E-PARSE-HEADER"]
    assert meaning(again) == [kept(message, written) for message in original.messages]


def test_a_value_of_several_words_is_written_as_one_and_reported():
    message = Message.drafted(index=0, turn=0, role="user", content="x", span=(0, 0), name="system  reminder",
                              intent="context", end="end")
    written = to_openchatml_written(Transcript(dialect="json", source="", messages=(message,)))
    assert written.text.endswith("<|start|>user name=system_reminder intent=context<|channel|>final<|message|>x"
                                 "<|end|>\n")
    assert written.touched(WORDS) == {0}
    assert parse(written.text).messages[0].name == "system_reminder"
    assert to_openchatml_written(Transcript(dialect="json", source="", messages=(
        msgspec_replace(message, name="system_reminder"),))).losses == ()


def test_the_writer_is_canonical():
    original = parse("<|start|>assistant<|channel|>commentary to=functions.f json<|message|>{}<|call|>"
                     "<|start|>functions.f to=assistant<|channel|>commentary<|message|>{\"ok\": true}<|end|>"
                     "<|start|>assistant<|channel|>analysis<|message|>Use <|start_reason|>x<|end|>")
    assert to_openchatml(original) == (
        "---\nversion: 2.2\n---\n"
        "<|start|>assistant to=functions.f content_type=json<|channel|>commentary<|message|>{}<|call|>\n"
        "<|start|>tool to=assistant name=functions.f<|channel|>commentary<|message|>{\"ok\": true}<|end|>\n"
        "<|start|>assistant<|channel|>analysis<|message|>Use x<|end|>\n")


def test_constrained_content_type_is_written_with_constrain_and_bodies_are_escaped():
    message = Message.drafted(index=0, turn=0, role="assistant", content="a <|end|> b<", span=(0, 0),
                              recipient="functions.f", channel="commentary", content_type="json", constrained=True,
                              call_id="c1", end="call")
    written = to_openchatml(Transcript(dialect="json", source="", messages=(message,)))
    assert written.endswith("<|start|>assistant to=functions.f call_id=c1<|channel|>commentary<|constrain|>json"
                            "<|message|>a <<|end|> b<|literal|>\n<\n<|endliteral|><|call|>\n")


WORD = st.text(st.sampled_from("abcxyz_.-:019"), min_size=1, max_size=8).filter(lambda w: "=" not in w)
BODY = st.lists(st.one_of(st.sampled_from(["<|", "|>", "<", "<<|", "<|end|>", "<|start|>", "<|literal|>",
                                          "<|endliteral|>", "<|start_reason|>", "\n", "\r\n", " "]),
                          st.characters(codec="utf-8")), max_size=30).map("".join)
END_OR_EOF = st.sampled_from(("end", "call", "return", "eof"))


@st.composite
def messages(draw) -> list[Message]:
    count = draw(st.integers(0, 5))
    made = []
    for index in range(count):
        role = draw(st.sampled_from(("system", "developer", "user", "assistant", "tool")))
        made.append(Message.drafted(
            index=index, turn=index, role=role, content=draw(BODY), span=(0, 0),
            name=draw(st.none() | WORD), recipient=draw(st.none() | WORD),
            channel=draw(st.sampled_from(("analysis", "commentary", "final"))), channel_explicit=True,
            content_type=draw(st.none() | st.sampled_from(("json", "text", "markdown"))),
            constrained=draw(st.booleans()), intent=draw(st.none() | st.sampled_from(("preamble", "status"))),
            call_id=draw(st.none() | WORD), end=draw(END_OR_EOF)))
    return made


def expected(message: Message) -> tuple:
    """What a reader can know: a constrained flag without a content type says nothing; chain-of-thought
    markers in analysis are structure, not content."""
    values = dict((field, getattr(message, field)) for field in FIELDS)
    values["constrained"] = message.constrained and message.content_type is not None
    return tuple(values.values())


@given(messages())
def test_generated_models_survive_a_round_trip(made):
    made = [m for m in made if not (m.channel == "analysis" and "<|start_reason|>" in m.content)]
    again = parse(to_openchatml(Transcript(dialect="json", source="", messages=tuple(made))))
    assert meaning(again) == [expected(message) for message in made]
