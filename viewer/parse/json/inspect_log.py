"""Inspect AI evaluation logs (UKGovernmentBEIS/inspect_ai, `inspect_ai.log`): the JSON log `{"version",
"status", "eval", "plan", "results", "stats", "samples": [...]}`, one sample on its own, and (eval_archive.py)
the `.eval` zip archive, whose members this module reads as the same JSON.

A sample (`id`, `epoch`, `input`, `target`, `messages`, `output`, `scores`, `metadata`, `events` …) is one
conversation: its `messages` are the model's whole exchange, `ChatMessageSystem` / `User` / `Assistant` /
`Tool` (inspect_messages.py reads them), then its `events`, each a hidden entry of its own (inspect_events.py:
the scorers' model calls and scores among them). Its other members (id, epoch, target, the whole of each score
with its explanation, metadata, store, usage …) are the conversation's header, under `inspect_sample`, their
attachments resolved (the dataset's index shows the id, target and score values). A log of several samples is
a dataset (viewer/parse/datasets.py asks `sample_spans`; the log's own members, `eval`, `plan`, `results`,
`stats` …, are the dataset's header: `log_header`); a log of one sample is that sample's conversation, the
log's members beside the sample's in its header, under `inspect_log`.
"""
from __future__ import annotations

import re
from functools import partial
from typing import Any

import msgspec

from viewer.model import make_diagnostic
from viewer.parse.json.fields import object_in
from viewer.parse.json.inspect_events import read_events, resolved
from viewer.parse.json.inspect_messages import plain_view, read_accounted, read_plain
from viewer.parse.json.positions import JsonError, Node, Partial, read_value
from viewer.parse.json.unpacked import Unpacked

SAMPLE_MARKS = ("epoch", "target")
"""Keys beside `messages` that make an object an Inspect sample."""
_HEAD = 16384
_LOG_HEAD = re.compile(r'\A\s*\{\s*"(?:version|eval_archive)"\s*:')
_DECODE = msgspec.json.Decoder().decode
_BLANKS = " \t\n\r"


def is_log(value: Any) -> bool:
    """A JSON log (`eval` beside `samples`), or an archive's members read as one (eval_archive.py)."""
    return isinstance(value, dict) and isinstance(value.get("samples"), list) and (
        isinstance(value.get("eval"), dict) or isinstance(value.get("header"), dict))


def sample_spans(text: str, start: int) -> list[tuple[int, int]] | None:
    """Where each sample of a log of two or more lies (a log cut short keeps the samples before the cut); None
    when the text is no log, or a log of fewer samples."""
    if not _LOG_HEAD.match(text, start) or '"eval' not in text[start:start + _HEAD]:
        return None
    partial = Partial(("samples",))
    try:
        top = read_value(text, start, 2, into=partial)
    except JsonError:
        items = partial.items
    else:
        items = list(top.members["samples"].node.items) if is_log(top.value) else []
    spans = [node.span for node in items if is_sample(node.value)]
    return spans if len(spans) >= 2 and len(spans) == len(items) else None


def member_sample_spans(text: str, members: list[tuple[int, int]]) -> list[tuple[int, int]] | None:
    """sample_spans of an archive's log text (eval_archive.unpack_members), from where its members lie: each
    member decoded on its own by msgspec (which refuses wherever it could disagree with `json`:
    viewer/analysis/jsontext.py) rather than the whole log read with spans (about a tenth of an archive's parse).
    None when this cannot tell (a member that is not JSON or no sample, fewer than two samples): sample_spans
    decides those."""
    if len(members) < 3 or type(_value(text[members[0][0]:members[0][1]])) is not dict:
        return None  # `header.json` must be an object for the text to be a log
    spans = []
    for start, end in members[1:]:
        written = text[start:end]
        if not is_sample(_value(written)):
            return None
        # The sample's value, without the JSON blanks around it.
        spans.append((start + len(written) - len(written.lstrip(_BLANKS)), start + len(written.rstrip(_BLANKS))))
    return spans


def _value(written: str) -> Any:
    try:
        return _DECODE(written)
    except Exception:  # noqa: BLE001 - whatever msgspec refuses, sample_spans decides
        return None


def read_document(reading: Unpacked, builder: Any) -> dict[str, Any] | None:
    """A sample, a log of one sample, or a log without samples, read into the builder: its header; None for
    anything else (nothing was read)."""
    sample = only_sample(reading, builder.text)
    if sample is not None:
        return read_sample(sample, builder) | log_header(reading.elements[0].value)
    if is_sample_reading(reading):
        return read_sample(reading, builder)
    return read_sampleless_log(reading, builder)


def is_sample_reading(reading: Unpacked) -> bool:
    """One sample: its `messages` read as the elements, its other members the envelope."""
    return reading.key == "messages" and all(key in reading.envelope for key in SAMPLE_MARKS)


def read_sample(reading: Unpacked, builder: Any) -> dict[str, Any]:
    """A sample's messages and events; returns its header."""
    envelope = {key: member.node.value for key, member in reading.envelope.items()}
    events = reading.envelope.get("events")
    nodes = list(events.node.items) if events is not None and isinstance(events.node.value, list) else []
    return read_sample_elements(envelope, reading.elements, nodes, builder)


def read_sample_elements(envelope: dict[str, Any], elements: list[Node], events: list[Node],
                         builder: Any) -> dict[str, Any]:
    """A sample's messages, then its events (`events`: the items of its `events`, with their spans), its members
    other than `messages` being `envelope`; returns its header."""
    attachments = object_in(envelope, "attachments")
    read = partial(read_accounted, attachments=attachments)
    for element in elements:
        if not builder.add_plain(element, plain_view):
            builder.add(element, read, plain_view, read_plain)
    read_events(events, envelope, builder)
    header = {key: resolved(value, attachments) for key, value in envelope.items() if key not in NOT_HEADER}
    return {"inspect_sample": header}


NOT_HEADER = ("messages", "events", "events_data", "attachments")
"""A sample's members that are no fact of the conversation as a whole: its messages and events are its entries,
and the attachments and pools are what they resolve."""


def only_sample(reading: Unpacked, text: str) -> Unpacked | None:
    """A log of exactly one sample (a dataset holds the others): that sample's reading."""
    if len(reading.elements) != 1 or reading.envelope or not is_log(reading.elements[0].value):
        return None
    top = read_value(text, reading.elements[0].span[0], 2)
    items = top.members["samples"].node.items
    if len(items) != 1 or not is_sample(items[0].value):
        return None
    sample = read_value(text, items[0].span[0], 2)
    envelope = {key: member for key, member in sample.members.items() if key != "messages"}
    return Unpacked(list(sample.members["messages"].node.items), envelope, key="messages")


def read_sampleless_log(reading: Unpacked, builder: Any) -> dict[str, Any] | None:
    """A log without samples (one still running, or written with its header alone): no messages, and a
    diagnostic that says so; None for anything else."""
    if len(reading.elements) != 1 or reading.envelope or not is_log(reading.elements[0].value) \
            or reading.elements[0].value["samples"]:
        return None
    log = reading.elements[0].value
    header = log_header(log)
    builder.diagnostics.append(make_diagnostic(
        "W-JSON-SHAPE", reading.elements[0].span, "This Inspect AI log holds no samples (its status is "
        f"{header['inspect_log'].get('status')!r}); there is no conversation to show."))
    return header


def is_sample(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("messages"), list) and all(
        key in value for key in SAMPLE_MARKS)


def dataset_header(text: str, spans: list[tuple[int, int]]) -> dict[str, Any]:
    """The header of a dataset whose conversations are a log's samples (`spans`): the log's own members
    (`log_header`), read from the text around the samples; {} for any other dataset, or a log cut short."""
    start = len(text) - len(text.lstrip(_BLANKS))
    if not spans or not _LOG_HEAD.match(text, start):
        return {}
    try:
        log = _DECODE(text[start:spans[0][0]] + text[spans[-1][1]:])
    except Exception:  # noqa: BLE001 - a log cut short has no end to read: its samples alone
        return {}
    return log_header(log) if isinstance(log, dict) else {}


def log_header(log: dict[str, Any]) -> dict[str, Any]:
    """A log's own members (its spec, plan, results, stats, reductions …: what it says of all its samples); an
    archive's `header.json` holds them."""
    held = log["header"] if isinstance(log.get("header"), dict) else log  # an archive's header.json
    return {"inspect_log": {key: value for key, value in held.items() if key != "samples"}}

