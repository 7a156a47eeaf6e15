"""The format registry: every record fills every field with something that works, the README lists exactly the
registry's formats, and no module but the registry keeps a table keyed by formats' names."""
from __future__ import annotations

import fnmatch
import re

import pytest
from pygments.lexers import get_lexer_by_name

from tests.conftest import ROOT, SAMPLES
from viewer import formats
from viewer.cli import main
from viewer.context import DROP_RULES
from viewer.formats import DIALECTS, JSON_SHAPES, Level, listing
from viewer.parse import parse

SHAPE_PROTOCOL = {
    Level.FILE: ("read_file",),
    Level.FAST_RECORD: ("FIRST_KEYS", "read_record"),
    Level.DOCUMENT: ("read_document",),
    Level.RECORD: ("is_record", "reading"),
    Level.STREAM: ("starts", "streamed"),
    Level.ELEMENT: ("is_element", "read_element"),
}
"""What a shape's module provides at each level (viewer/parse/json/shapes.py)."""


def test_names_are_unique_across_dialects_and_json_shapes():
    names = [record.name for record in (*DIALECTS, *JSON_SHAPES)]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("dialect", DIALECTS, ids=lambda dialect: dialect.name)
def test_every_dialect_fills_every_field(dialect):
    assert dialect.title and dialect.written_by and dialect.example and dialect.detection
    assert callable(formats.load(dialect.reader))
    if dialect.writer is not None:
        assert callable(formats.load(dialect.writer.write))
    prompt = dialect.prompt
    assert prompt.target in {writer.target for writer in formats.writers()}
    assert prompt.drops in DROP_RULES
    for reference in (prompt.history, prompt.write):
        assert reference is None or callable(formats.load(reference))
    assert dialect.source_lexer is None or get_lexer_by_name(dialect.source_lexer)
    if dialect.session is not None:
        assert dialect.session.agent and dialect.session.folders and dialect.session.pattern
    for way in dialect.detection:
        for line in getattr(way, "lines", ()):
            assert line.test is None or callable(formats.load(line.test))


@pytest.mark.parametrize("record", [*DIALECTS, *JSON_SHAPES], ids=lambda record: record.name)
def test_every_format_has_samples(record):
    for pattern in record.samples:
        assert any(fnmatch.fnmatch(path.name, pattern) for path in SAMPLES.iterdir()), pattern


def test_every_sample_belongs_to_one_dialect():
    for path in SAMPLES.iterdir():
        owners = [d.name for d in DIALECTS if any(fnmatch.fnmatch(path.name, p) for p in d.samples)]
        assert len(owners) == 1, (path.name, owners)


@pytest.mark.parametrize("shape", JSON_SHAPES, ids=lambda shape: shape.name)
def test_every_json_shape_reads_at_its_levels_and_its_samples_read_as_json(shape):
    assert shape.title and shape.written_by and shape.example and shape.readers
    for level, reference in shape.readers.items():
        module = formats.load(reference)
        assert all(hasattr(module, name) for name in SHAPE_PROTOCOL[level]), (level, reference)
    for path in SAMPLES.iterdir():
        if any(fnmatch.fnmatch(path.name, pattern) for pattern in shape.samples):
            transcript = parse(path.read_bytes())
            assert transcript.dialect == "json" and (transcript.messages or transcript.conversations), path.name


def test_the_readme_lists_exactly_the_registry_s_formats():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert listing.markdown_table() in readme


def test_viewer_formats_lists_every_format(capsys):
    assert main(["formats"]) == 0
    listed = capsys.readouterr().out
    assert all(f"\n{record.name}\n" in listed for record in (*DIALECTS, *JSON_SHAPES))


def test_no_module_but_the_registry_names_three_formats():
    names = [re.escape(name) for name in formats.NAMES]
    naming = []
    for path in (ROOT / "viewer").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if sum(1 for name in names if re.search(r"[\"']%s[\"']" % name, text)) >= 3:
            naming.append(path.relative_to(ROOT).as_posix())
    assert naming == ["viewer/formats/registry.py"]
