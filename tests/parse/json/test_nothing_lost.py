"""The accounting rule of the JSON readers: every string value of a JSON input is in the debug view's model of it
(a message's body or fields, its meta, the header, a diagnostic), on every JSON and JSON Lines sample and on
generated documents of every shape; a zip archive's or a SQLite database's samples by each member's values (an
archive's files, a database's rows), as the viewer unpacks them. A value counts when it is 12 characters or more
and no id, timestamp, type tag or opaque blob (tests/harness/leaves.py). A value is held where the debug view shows
it: a detail kept by its span (`{"$source": [start, end]}`) only when its message's source panel shows that span,
and nothing by a diagnostic that only points at it (broken JSON, a row with no owner): its text must be kept, in a
message, the header or the diagnostic's words. Only a whole member of a bundle its reader does not read (a table
such as Cursor's ItemTable, which holds the editor's sign-in tokens) is excused, named by W-BUNDLE-MEMBER.
bench/nothing_lost.py measures the same over the rendered debug view."""
from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Callable

import pytest
from hypothesis import given, settings, strategies as st

from tests.conftest import SAMPLES
from tests.harness import framework_shapes
from tests.harness.agents import claude_code
from tests.harness.exports import chatgpt_export
from tests.harness.leaves import Haystack, Leaf, file_leaves, input_leaves
from tests.parse.json.shapes import SHAPES
from viewer import formats
from viewer.bundles import is_bundle, read_bundle
from viewer.bundles.pack import packed
from viewer.model import Meta, Transcript
from viewer.parse import parse

JSON_DIALECTS = [dialect for dialect in formats.DIALECTS if dialect.json_escapes]
"""The importers that read JSON: the json dialect and its shapes, event logs, agents' sessions, chat exports."""
UNREAD = "W-BUNDLE-MEMBER"
"""The diagnostic that names a member of a bundle (a file of a folder, a table of a database) its reader does not
read, kept in the source: the text it covers is excused when it is that whole member (a row it names is not)."""


def _samples() -> list[Path]:
    found = {path for dialect in JSON_DIALECTS for pattern in (*dialect.samples, *(
        glob for shape in dialect.shapes for glob in shape.samples)) for path in SAMPLES.glob(pattern)}
    return sorted(found)


def model_text(transcript: Transcript) -> str:
    """Everything the debug view's model holds of an input, as one text: each message's body, fields and meta,
    each header, declared tools, sub-agent thread (its title) and diagnostic, a dataset's own and its
    conversations'."""
    said: list[str] = []
    for part in (transcript, *transcript.conversations):
        said.append(json.dumps(part.header, ensure_ascii=False, default=str))
        said.append(json.dumps(part.tools, ensure_ascii=False, default=str))
        said.append(json.dumps([thread.to_json() for thread in part.threads], ensure_ascii=False))
        said.extend(diagnostic.message for diagnostic in part.diagnostics)
        for message in part.messages:
            said.extend(field or "" for field in (message.content, message.role, message.name, message.recipient,
                                                  message.call_id, message.intent, message.channel))
            if message.meta is not None:
                said.append(json.dumps(_resolved(message.meta.to_json(), transcript.source, message.span),
                                       ensure_ascii=False))
    return "\n".join(said)


def _resolved(value, source: str, within: tuple[int, int]):
    """A meta's details with each value kept by its span (`{"$source": [start, end]}`) read from the source, when
    the span lies in the message's own (`within`), which the debug card's source panel shows; one outside it is
    left a pointer, which the debug view shows as such."""
    if isinstance(value, dict):
        span = value.get("$source")
        if len(value) == 1 and isinstance(span, list):
            inside = within[0] <= span[0] and span[1] <= within[1]
            return json.loads(source[span[0]:span[1]]) if inside else value
        return {key: _resolved(item, source, within) for key, item in value.items()}
    if isinstance(value, list):
        return [_resolved(item, source, within) for item in value]
    return value


def lost(text: str | list[Leaf], transcript: Transcript) -> list[Leaf]:
    """The counted values of the input (its text, or its leaves) that its model holds nowhere, but those of a
    bundle's member its reader does not read (UNREAD)."""
    leaves = input_leaves(text) if isinstance(text, str) else text
    held = Haystack(model_text(transcript))
    unread = "".join(transcript.source[start:end] for start, end in _unread_members(transcript))
    return [leaf for leaf in leaves if not held.holds(leaf)
            and json.dumps(leaf.value, ensure_ascii=False)[1:-1] not in unread]


def _unread_members(transcript: Transcript) -> list[tuple[int, int]]:
    """The spans of the members of a bundle that W-BUNDLE-MEMBER names whole (never a row or a line of one)."""
    bundle = read_bundle(transcript.source) if is_bundle(transcript.source) else None
    members = {member.span for member in bundle.members} if bundle is not None else set()
    return [diagnostic.span for part in (transcript, *transcript.conversations) for diagnostic in part.diagnostics
            if diagnostic.code == UNREAD and diagnostic.span in members]


NOT_YET: dict[str, str] = {}
"""Samples of JSON importers that still lose values, each with why: listed so that the test fails when one is
fixed, and the entry goes."""


def _expected(path: Path):
    reason = NOT_YET.get(path.name)
    return pytest.param(path, marks=pytest.mark.xfail(reason=reason, strict=True)) if reason else path


@pytest.mark.parametrize("sample", [_expected(path) for path in _samples()], ids=lambda path: path.name)
def test_every_value_of_a_json_sample_is_in_its_model(sample):
    data = sample.read_bytes()
    missing = lost(file_leaves(data), parse(data))
    assert not missing, [(leaf.path, leaf.value[:80]) for leaf in missing]


_MARK = re.compile(r"\b(CANARY\d+Q|SHOWN\d+)\b")


def _counted(text: str) -> str:
    """A generated document whose marks (`CANARY3Q`, `SHOWN4`) are long enough to be counted."""
    return _MARK.sub(lambda found: f"{found[1]}-nothing-lost", text)


@pytest.mark.parametrize("shape", sorted(SHAPES))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_every_value_of_a_generated_document_is_in_its_model(shape, data):
    text = _counted(data.draw(SHAPES[shape]()))
    missing = lost(text, parse(text))
    assert not missing, [(leaf.path, leaf.value[:80]) for leaf in missing]


GENERATORS: dict[str, Callable[[int], str]] = {
    "otel": lambda seed: framework_shapes.otel_lines(0.004, seed),
    "inspect": lambda seed: framework_shapes.inspect_log(0.004, seed),
    "langchain": lambda seed: framework_shapes.langchain_dicts(0.004, seed),
    "langchain-dumpd": lambda seed: framework_shapes.langchain_dumpd(0.004, seed),
    "ai-sdk": lambda seed: framework_shapes.ai_sdk_messages(0.004, seed),
    "claude-code": lambda seed: claude_code(messages=40, seed=seed),
    "chatgpt": lambda seed: chatgpt_export(2, 2_000, seed),
}
"""The deterministic generators of tests/harness, for the shapes and dialects SHAPES has no strategy of."""


@pytest.mark.parametrize("shape", sorted(GENERATORS))
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**16))
def test_every_value_of_a_generated_file_is_in_its_model(shape, seed):
    text = GENERATORS[shape](seed)
    missing = lost(text, parse(text))
    assert not missing, [(leaf.path, leaf.value[:80]) for leaf in missing]


def test_a_value_no_reader_claims_is_kept_and_said():
    text = json.dumps({"messages": [{"role": "user", "content": "Hi", "x_trace_note": "kept for the debug view"}]})
    transcript = parse(text)
    assert transcript.header["unread"] == [{"turn": 0, "members": {"x_trace_note": "kept for the debug view"}}]
    assert [diagnostic.code for diagnostic in transcript.diagnostics] == ["W-JSON-UNREAD"]
    assert "'x_trace_note'" in transcript.diagnostics[0].message


def test_a_value_counted_here_is_found_only_where_the_model_holds_it():
    text = json.dumps({"messages": [{"role": "user", "content": "What the model holds"}],
                       "x_note": "Only in the header"})
    assert lost(text, parse(text)) == []
    emptied = parse(json.dumps({"messages": [{"role": "user", "content": "Something else entirely"}]}))
    assert [leaf.value for leaf in lost(text, emptied)] == ["What the model holds", "Only in the header"]


def test_a_value_a_diagnostic_only_points_at_is_lost():
    text = ('[\n{"role": "user", "content": "Read before the break"},\n{"role": "user" "content": "broken"},\n'
            '{"role": "user", "content": "Only after the break"}\n]')
    transcript = parse(text)
    assert [diagnostic.code for diagnostic in transcript.diagnostics] == ["W-JSON-SYNTAX"]
    assert lost(text, transcript) == []  # the header's unread_text holds it
    said_only = dataclasses.replace(transcript, header={})
    assert [leaf.value for leaf in lost(text, said_only)] == ["Only after the break"]


def test_a_detail_kept_by_a_span_outside_its_message_is_lost():
    text = json.dumps({"messages": [{"role": "user", "content": "Hi"}], "x_note": "Kept by a span elsewhere"})
    transcript = parse(text)
    at = text.index('"Kept')
    pointed = transcript.messages[0].changed(meta=Meta(details={"note": {"$source": [at, at + 26]}}))
    elsewhere = dataclasses.replace(transcript, header={}, messages=(pointed,))
    assert [leaf.value for leaf in lost(text, elsewhere)] == ["Kept by a span elsewhere"]
    inside = pointed.changed(span=(0, len(text)))  # a span its source panel shows
    assert lost(text, dataclasses.replace(elsewhere, messages=(inside,))) == []


def test_each_member_of_an_archive_is_counted_on_its_own():
    session = json.dumps({"type": "user", "uuid": "u1", "parentUuid": None, "sessionId": "s1",
                          "message": {"role": "user", "content": "What the session holds"}})
    data = packed([("s1.jsonl", session.encode()), ("notes/extra.json", b'{"note": "A second file of the folder"}')])
    assert [(leaf.path, leaf.value) for leaf in file_leaves(data)] == [
        ("notes/extra.json:$.note", "A second file of the folder"),
        ("s1.jsonl:$.message.content", "What the session holds")]
