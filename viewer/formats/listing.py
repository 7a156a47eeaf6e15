"""Every format of the registry listed for a person (`viewer formats`, as `pygmentize -L` lists lexers), or as the
README's Markdown table (a test keeps the README equal to it)."""
from __future__ import annotations

from collections.abc import Iterator

from viewer.formats.kinds import Dialect
from viewer.formats.registry import DIALECTS, JSON_SHAPES

EXAMPLE_WIDTH = 100
"""Characters of an example shown in the text listing (the Markdown table shows it whole)."""
PIECE_AT_A_TIME = "read and stored a piece at a time, not held whole"
"""What a dialect with a line reader does with a big file (viewer/parse/streamed.py)."""


def text_listing() -> Iterator[str]:
    """Each dialect, then each JSON shape: its name and title, what writes it, one example line, whether a
    transcript can be written in it, and whether a big file of it is read a piece at a time."""
    yield "Dialects (detected from the content; `--dialect NAME` forces one):\n"
    for dialect in DIALECTS:
        yield from _entry(dialect.name, dialect.title, dialect.written_by, dialect.example, _written_back(dialect))
        if dialect.lines is not None:
            yield f"    big files:    {PIECE_AT_A_TIME}\n"
    yield "\nJSON shapes (read by the json dialect, each level in this order):\n"
    for shape in JSON_SHAPES:
        yield from _entry(shape.name, shape.title, shape.written_by, shape.example, None)


def _entry(name: str, title: str, written_by: str, example: str, written_back: str | None) -> Iterator[str]:
    yield f"\n{name}\n"
    yield f"    {title}\n"
    yield f"    written by:   {written_by}\n"
    line = one_line(example)
    yield f"    example:      {line[:EXAMPLE_WIDTH]}{'…' if len(line) > EXAMPLE_WIDTH else ''}\n"
    if written_back is not None:
        yield f"    written back: {written_back}\n"


def _written_back(dialect: Dialect) -> str:
    return f"yes, `viewer convert --to {dialect.writer.target}`" if dialect.writer is not None else "no"


def markdown_table() -> str:
    """The README's table: one row per format, the JSON shapes after the dialects."""
    rows = ["| format | name | written by | example | written back |", "| --- | --- | --- | --- | --- |"]
    rows += [_row(dialect.title, dialect.name, dialect.written_by, dialect.example, _written_back(dialect))
             for dialect in DIALECTS]
    rows += [_row(shape.title, f"json: {shape.name}", shape.written_by, shape.example, "as JSON")
             for shape in JSON_SHAPES]
    return "\n".join(rows) + "\n"


def _row(title: str, name: str, written_by: str, example: str, written_back: str) -> str:
    cells = (title, f"`{name}`", written_by, f"`{one_line(example)}`", written_back)
    return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"


def one_line(example: str) -> str:
    """An example on one line: its line breaks written `\\n`."""
    return example.replace("\n", "\\n")
