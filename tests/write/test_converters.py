"""Converting a transcript to another dialect and reading it back keeps what the target can express of every
message (role, channel, recipient, content, and the calls: their tool and arguments); what it cannot is reported
by kind, naming the messages, and those messages are held to what the writer says it keeps."""
from __future__ import annotations

import json
import re
from typing import Any, Callable

import msgspec
import pytest
from hypothesis import given, strategies as st

from tests.write.test_roundtrip import SAMPLE_FILES, WORD, messages
from viewer.model import Message, Transcript
from viewer.parse import parse
from viewer.parse.common import qualified_tool_name
from viewer.write import (TARGETS, Written, chatml, convert, deepseek, gemma, harmony, llama3, mistral, openai_json,
                          openchatml, phi)
from viewer.write.names import function_name

READ_BACK_AS = {"openchatml": "openchatml", "harmony": "harmony", "chatml": "chatml", "openai-json": "json",
                "llama3": "llama3", "deepseek": "deepseek", "phi": "phi", "gemma": "gemma",
                "mistral": "mistral"}


def arguments(content: str) -> Any:
    """A call's arguments as JSON when they are (writers may re-encode them with other spacing)."""
    try:
        return json.loads(content)
    except (ValueError, RecursionError):
        return content


def fields(message: Message) -> dict[str, Any]:
    """What these tests compare of a message."""
    return {"role": message.role, "name": message.name, "channel": message.channel, "recipient": message.recipient,
            "content": arguments(message.content) if message.is_call else message.content}


def same(message: Message, written: Written) -> dict[str, Any]:
    """What OpenChatML and Harmony keep: everything compared here (Harmony: names a role word can carry;
    OpenChatML: an attribute's value as one word)."""
    kept = fields(message)
    if message.index in written.touched(harmony.NAME):
        kept["name"] = None
    if message.index in written.touched(openchatml.WORDS):
        kept.update((field, openchatml.one_word(kept[field]) or None) for field in ("name", "recipient") if kept[field])
    return kept


def call_address(message: Message) -> str | None:
    """The tool a call reads back with from a function name: an address outside every namespace comes back as
    a function."""
    return message.recipient and qualified_tool_name(function_name(message.recipient) or message.recipient)


def chatml_keeps(message: Message, written: Written) -> dict[str, Any]:
    """ChatML: reasoning, calls and replies keep their channel, the rest is final; a call keeps its tool, a
    reply's recipient is the assistant; no names are compared."""
    role = "system" if message.role == "developer" else message.role
    if message.index in written.touched(chatml.UNESCAPABLE) | written.touched(chatml.ARGUMENTS):
        return {"role": role}
    if message.is_call:
        return {"role": role, "channel": "commentary", "recipient": call_address(message),
                "content": arguments(message.content)}
    if message.is_reply:
        return {"role": role, "channel": "commentary", "recipient": "assistant", "content": message.content}
    content = message.content
    if message.index in written.touched(chatml.LAYOUT):
        content = re.sub(r"^(?:\r?\n)*", "", content)
    channel = "analysis" if role == "assistant" and message.channel == "analysis" else "final"
    return {"role": role, "channel": channel, "recipient": None, "content": content}


def openai_keeps(message: Message, written: Written) -> dict[str, Any]:
    """OpenAI JSON: reasoning_content is the analysis channel, calls and replies are commentary, the rest final;
    replies have no recipient, and their tool name comes back as an address (or from the call they answer)."""
    if message.index in written.touched(openai_json.THINK_TAGS):
        return {"role": message.role}
    kept = fields(message)
    if message.is_call:
        return {**kept, "channel": "commentary", "recipient": call_address(message)}
    if message.is_reply:
        del kept["name"]
        return {**kept, "channel": "commentary", "recipient": None}
    analysis = message.role == "assistant" and message.channel == "analysis"
    return {**kept, "channel": "analysis" if analysis else "final", "recipient": None}


def raw_template_keeps(module: Any) -> Callable[[Message, Written], dict[str, Any]]:
    """What a raw-template writer keeps: calls their tool and arguments, replies read back as the assistant's,
    reasoning stays reasoning (where the family has it); the rest is final text without its blank edges; no
    names."""
    said = module.SAID

    def keeps(message: Message, written: Written) -> dict[str, Any]:
        role = "system" if message.index in written.touched(said.DEVELOPER) else message.role
        if message.index in written.touched(getattr(module, "ROLE_WORD", "")):
            role = "unknown"
        if message.index in set().union(*(written.touched(what) for what in
                                          (said.UNESCAPABLE, said.ARGUMENTS, said.LOOKS_LIKE,
                                           getattr(module, "JOINED_SYSTEM", ""),
                                           getattr(module, "REPLY_UNWRITABLE", ""),
                                           getattr(module, "REPLY_SHAPE", "")))):
            return {"role": role}
        content = message.content.strip() if message.index in written.touched(said.TRIMMED) else message.content
        if message.index in written.touched(getattr(module, "REPLY_AS_JSON", "")):
            content = json.dumps(json.loads(content), ensure_ascii=False)
        if message.is_call:
            recipient = "python" if message.recipient == "python" else call_address(message)
            return {"role": role, "channel": "commentary", "recipient": recipient, "content": arguments(content)}
        if message.is_reply:
            return {"role": role, "channel": "commentary", "recipient": "assistant", "content": content}
        analysis = role == "assistant" and message.channel == "analysis"
        return {"role": role, "channel": "analysis" if analysis else "final", "recipient": None, "content": content}
    return keeps


KEEPS: dict[str, Callable[[Message, Written], dict[str, Any]]] = {
    "openchatml": same, "harmony": same, "chatml": chatml_keeps, "openai-json": openai_keeps,
    "llama3": raw_template_keeps(llama3), "deepseek": raw_template_keeps(deepseek), "phi": raw_template_keeps(phi),
    "gemma": raw_template_keeps(gemma), "mistral": raw_template_keeps(mistral)}
DROPPED = {"chatml": (chatml.BLANK,), "openai-json": (openai_json.EMPTY_REASONING,),
           "llama3": (llama3.REASONING, llama3.SAID.UNKNOWN_CALL), "phi": (phi.SAID.UNKNOWN_CALL,),
           "gemma": (gemma.REASONING, gemma.SAID.UNKNOWN_CALL),
           "mistral": (mistral.SAID.UNKNOWN_CALL, mistral.UNPLACED, mistral.OTHER_ROLE, mistral.BLANK),
           "deepseek": (deepseek.SAID.UNKNOWN_CALL, deepseek.LATE_SYSTEM, deepseek.OTHER_ROLE, deepseek.JOINED_INTO,
                        deepseek.UNPLACED, deepseek.BLANK_SYSTEM)}
"""Losses that leave a message out altogether."""
PAIRS_KEPT = {"openchatml": ("call_id",), "openai-json": ("call_id", "name", "order")}
"""The pairs a target keeps, by the rule that made them: ids, which OpenChatML writes as they are, and every
pair in OpenAI JSON, which gives each call an id. (Harmony pairs by tool name, ChatML in order.)"""


def conversations(transcript: Transcript) -> tuple[Transcript, ...]:
    return transcript.conversations or (transcript,)


def flat(transcript: Transcript) -> list[Message]:
    """Every message in order; a dataset's renumbered as text targets write it (one conversation)."""
    found = [message for conversation in conversations(transcript) for message in conversation.messages]
    return [msgspec.structs.replace(message, index=number) for number, message in enumerate(found)]


def read_back(target: str, original: Transcript, written: Written, again: Transcript) -> tuple[list, list]:
    """(what the target keeps of each original message, the same fields of each message read back)."""
    keeps = KEEPS[target]
    dropped = set().union(*(written.touched(what) for what in DROPPED.get(target, ())))
    if target == "openai-json" and original.conversations:  # JSON Lines: each conversation numbered on its own
        expected = [keeps(message, written) for conversation in original.conversations
                    for message in conversation.messages]
        got = [message for conversation in conversations(again) for message in conversation.messages]
    else:
        expected = [keeps(message, written) for message in flat(original) if message.index not in dropped]
        got = flat(again)
    return expected, [{key: fields(message)[key] for key in want} for message, want in zip(got, expected)] + [
        fields(message) for message in got[len(expected):]]


@pytest.mark.parametrize("target", sorted(TARGETS))
@pytest.mark.parametrize("sample", SAMPLE_FILES, ids=[path.name for path in SAMPLE_FILES])
def test_every_sample_converts_and_reads_back_with_what_the_target_keeps(sample, target):
    original = parse(sample.read_bytes())
    written = convert(original, target)
    again = parse(written.text)
    expected, got = read_back(target, original, written, again)
    # A text the writer could put no message in (a Mistral prompt cannot start with an answer) has no dialect.
    assert again.dialect == READ_BACK_AS[target] or expected == got == []
    assert got == expected
    kept = PAIRS_KEPT.get(target, ())
    for before, after in zip(conversations(original), conversations(again)):
        assert {(p.call, p.reply) for p in before.pairs if p.by in kept} <= {(p.call, p.reply) for p in after.pairs}


# ---- generated transcripts -------------------------------------------------------------------------------

def made_transcript(made: list[Message]) -> Transcript:
    return Transcript(dialect="json", source="", messages=tuple(made))


@given(messages())
def test_generated_models_survive_harmony_but_for_ids_and_intents(made):
    made = [m for m in made if not (m.channel == "analysis" and "<|start_reason|>" in m.content)]
    written = convert(made_transcript(made), "harmony")
    again = parse(written.text)
    names = written.touched(harmony.NAME)
    want = [{**fields(m), "name": None if m.index in names else m.name, "content_type": m.content_type,
             "constrained": m.constrained and m.content_type is not None, "end": m.end, "call_id": None,
             "intent": None} for m in made]
    assert [{**fields(m), **{key: getattr(m, key) for key in list(want[0])[5:]}} for m in again.messages] == want


TEXT = st.text(st.characters(codec="utf-8", exclude_characters="<[\x00"), max_size=12)
"""Bodies without tokens or tags, which ChatML could not escape."""
ARGUMENTS = st.dictionaries(st.text("abcxyz_", min_size=1, max_size=4),
                            st.one_of(st.none(), st.booleans(), st.integers(), TEXT), max_size=3)


@st.composite
def plain_messages(draw) -> list[Message]:
    """What chat templates and chat APIs write: prompts, questions, reasoning, answers, calls and replies."""
    made = []
    for index in range(draw(st.integers(0, 8))):
        kind = draw(st.sampled_from(("system", "developer", "user", "analysis", "final", "call", "reply")))
        common = dict(index=index, turn=index, span=(0, 0), content=draw(TEXT))
        if kind == "call":
            common.update(role="assistant", recipient=f"functions.{draw(WORD.filter(str.isidentifier))}",
                          channel="commentary", content_type="json", end="call",
                          content=json.dumps(draw(ARGUMENTS), ensure_ascii=False))
        elif kind == "reply":
            common.update(role="tool", recipient="assistant", channel="commentary")
        elif kind in ("analysis", "final"):
            common.update(role="assistant", channel=kind)
        else:
            common.update(role=kind)
        made.append(Message.drafted(**common))
    return made


@pytest.mark.parametrize("target", ["chatml", "openai-json", "llama3", "deepseek", "phi", "gemma", "mistral"])
@given(made=plain_messages())
def test_generated_chats_read_back_with_what_the_target_keeps(target, made):
    original = made_transcript(made)
    written = convert(original, target)
    again = parse(written.text)
    expected, got = read_back(target, original, written, again)
    assert got == expected
