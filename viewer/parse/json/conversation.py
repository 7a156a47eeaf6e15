"""One conversation of a JSON transcript, whatever its shape, into messages: a framework's or a tool's whole
document by its own reader (shapes.py, level `document`), else the envelope's prompts, then each element by its
own marks.

Elements choose their reader by unmistakable marks (shapes.py, level `element`), so that lists mixing shapes (a
Responses API `input` holds plain messages among its items) read as written: a `from` without a `role` is a
ShareGPT turn (sharegpt.py); a `type` other than `message` without a `role` is a Responses API item
(responses.py); anything else is a message object (elements.py: OpenAI chat, Anthropic messages and their
blocks, OpenChatML, openai-harmony dicts, Responses `message` items).

The envelope around the list gives messages too, in source order with the elements: `system` (Anthropic's
system prompt, text or text blocks; ShareGPT's system column) and `instructions` (the Responses API's) are a
system message, a request's `input` written as text is the user's message. Its `tools` (OpenAI, Anthropic,
the Responses API, or LLaMA-Factory's JSON text) are declared tools, and kept in the header as written (a JSON
text read); its other keys are the header. A Responses API response's model, id, status and usage are the meta
of its output's messages (response_meta.py).

`read_conversation` reads one conversation's node: call it once per conversation when a file holds several.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from viewer.model import Span, make_diagnostic
from viewer.parse.json import response_meta, shapes
from viewer.parse.json.builder import MessageBuilder
from viewer.parse.json.container import conversation_of
from viewer.parse.json.content_text import flat_text
from viewer.parse.json.positions import Member, Node, read_value
from viewer.parse.json.shapes import plain_view, read_element, view_spans
from viewer.parse.json.source import Draft
from viewer.parse.json.tools import declared_tools, tools_value
from viewer.parse.json.unpacked import ENVELOPE_KEYS, Unpacked

PROMPT_KEYS = {"system": "system", "instructions": "system", "input": "user"}
"""Envelope members that are a message, and its role."""


def read_conversation(node: Node, builder: MessageBuilder) -> dict[str, Any]:
    """One conversation's JSON node (a list of messages or items, an envelope around one, or a single message)
    into the importer's messages and tools. Returns the envelope's header (its keys the importer does not
    read)."""
    located = read_value(builder.text, node.span[0], 2 if isinstance(node.value, dict) else 1)
    return read_plain_conversation(conversation_of(located, builder.text), builder)


def read_unpacked(reading: Unpacked, builder: MessageBuilder) -> dict[str, Any]:
    """A conversation unpacked from its container (container.py) into messages: a whole document by the shape
    that knows it, else as a plain conversation. Returns the header."""
    found = shapes.read_document(reading, builder)  # an eval log, a graph's state
    if isinstance(found, Unpacked):
        return read_plain_conversation(found, builder)
    return found if found is not None else read_plain_conversation(reading, builder)


def read_plain_conversation(reading: Unpacked, builder: MessageBuilder) -> dict[str, Any]:
    """The elements and envelope of a conversation no document shape claims into messages; returns the
    header."""
    envelope = {key: member.node.value for key, member in reading.envelope.items()}
    builder.tools.update(declared_tools(envelope))
    _unread_tools(reading.envelope, builder)
    prompts = sorted(_prompts(reading.envelope), key=lambda prompt: prompt[0][0])
    _mark_response(reading, envelope)
    if prompts or reading.continued or reading.marks:
        _add_with_prompts(reading, prompts, builder)
    else:  # most big files: the elements alone
        _add_elements(reading.elements, builder)
    header = {key: value for key, value in envelope.items() if key not in ENVELOPE_KEYS}
    for key in DEFINITIONS:
        if envelope.get(key) not in (None, "", []):
            header[key] = tools_value(envelope[key]) if tools_value(envelope[key]) is not None else envelope[key]
    return header


DEFINITIONS = ("tools", "functions")
"""Envelope members that declare tools: kept in the header as the producer wrote them (their descriptions are
read nowhere else); one written as JSON text is shown read."""


def _mark_response(reading: Unpacked, envelope: dict[str, Any]) -> None:
    """A Responses API response's meta on its output's messages (its usage on the last element's)."""
    meta = response_meta.of_response(envelope) if reading.key == "output" and reading.elements else None
    if meta is None:
        return
    last = len(reading.elements) - 1
    bare = {"meta": dataclasses.replace(meta, usage=None)}
    for position in range(last + 1):
        reading.marks[position] = {**reading.marks.get(position, {}),
                                   **({"meta": meta} if position == last else bare)}


def _add_with_prompts(reading: Unpacked, prompts: list[tuple[Span, list[Draft]]], builder: MessageBuilder) -> None:
    """The elements, and the envelope's prompts where they stand among them; an element continues the turn
    before it, or marks its messages, as the reading says."""
    for position, element in enumerate(reading.elements):
        while prompts and (reading.prompts_first or prompts[0][0][0] < element.span[0]):
            span, found = prompts.pop(0)
            builder.add_pieces(found, span)
        first = len(builder.messages)
        if position in reading.continued:
            builder.turn -= 1
        if not builder.add_plain(element):
            builder.add(element, read_element, plain_view, view_spans=view_spans)
        if position in reading.marks:
            builder.mark(first, reading.marks[position])
    for span, found in prompts:
        builder.add_pieces(found, span)


def _add_elements(elements: list[Node], builder: MessageBuilder) -> None:
    """Each element as one turn (_add_with_prompts without what the reading does not have)."""
    add_plain, add = builder.add_plain, builder.add
    for element in elements:
        if not add_plain(element):
            add(element, read_element, plain_view, view_spans=view_spans)


def _prompts(envelope: dict[str, Member]) -> list[tuple[tuple[int, int], list[Draft]]]:
    """The envelope's members that are messages, each with its span."""
    found = []
    for key, role in PROMPT_KEYS.items():
        member = envelope.get(key)
        if member is None or member.node.value is None or key == "input" and not isinstance(member.node.value, str):
            continue
        found.append((member.span, [Draft(dict(role=role, channel="final", content=flat_text(member.node.value),
                                               end="end"), member.span)]))
    return found


def _unread_tools(envelope: dict[str, Member], builder: MessageBuilder) -> None:
    """LLaMA-Factory writes `tools` as JSON text: text that is not a JSON list is reported."""
    tools = envelope.get("tools")
    if tools is not None and isinstance(tools.node.value, str) and not isinstance(tools_value(tools.node.value),
                                                                                  list):
        builder.diagnostics.append(make_diagnostic(
            "W-TOOL-DEFINITION", tools.span,
            "The 'tools' text is not a JSON list of tool definitions; it was not read."))
