"""Reading a JSON or JSON Lines transcript, whole (`parse_json`) or one conversation of a dataset where it stands
(`parse_json_within`): what the package's face (viewer/parse/json/__init__.py) names."""
from __future__ import annotations

from viewer.model import Span, Transcript
from viewer.model.collector import collector_paused
from viewer.parse.json import shapes
from viewer.parse.json.builder import MessageBuilder
from viewer.parse.json.container import conversation_of, read_container
from viewer.parse.json.conversation import read_unpacked
from viewer.parse.json.positions import JsonError, Partial, read_value
from viewer.parse.json.unpacked import LIST_KEYS, Unpacked, conversation_transcript
from viewer.parse.options import ParseOptions


def parse_json(text: str, options: ParseOptions) -> Transcript:
    """Read a JSON or JSON Lines transcript. Never raises on user input.

    container.py finds the elements (positions.py reads JSON with spans), shapes.py the reader of the whole
    file, of a document or of each element by its shape (plain.py the plain ones), builder.py numbers the
    messages."""
    with collector_paused:  # see viewer/model/collector.py: a big file's objects all live on
        reading = read_container(text)
        return shapes.read_file(text, reading) or _transcript(text, reading)


def parse_json_within(text: str, span: Span, options: ParseOptions) -> Transcript | None:
    """One conversation of a larger file (a dataset), read where it stands, so that its spans point into the
    whole text: what `parse_json(text[start:end])` gives, its spans moved by `start`. None when the span is not
    one whole JSON object (then the caller reads a copy: diagnostics about broken JSON quote its own lines)."""
    start, end = span
    if not text.startswith("{", start):
        return None
    # The bulk of big datasets, read the fast way: a batch output line, a preference pair, an Inspect sample.
    fast = shapes.read_fast_record(text, span)
    if fast:
        return fast
    try:
        top = read_value(text, start, 2, into=Partial(LIST_KEYS))
    except JsonError:
        return None
    if top.span[1] != end:
        return None
    return _transcript(text, conversation_of(top, text), span)


def _transcript(text: str, reading: Unpacked, within: Span | None = None) -> Transcript:
    """One conversation, as the shape of a document or of its elements says."""
    builder = MessageBuilder(text)
    return conversation_transcript(text, reading, builder, read_unpacked(reading, builder), within)
