"""Structured bodies (fill-in-the-middle, files, thought blocks) are drawn as labelled panels, one per part."""
from __future__ import annotations

from tests.conftest import SAMPLES
from tests.web.conftest import soup
from viewer import parse, render
from viewer.present.cards import panel_parts

FIM = b"<|fim_prefix|>def add(a, b):\n    <|fim_middle|><|fim_suffix|>\n\n# *not* a heading\n"
FILES = b"first file\n<|file_separator|>\nsecond <b>file</b>\n<|file_separator|>\nthird file"


def panels_of(page):
    return [(panel.select_one(".panel-label").get_text(), panel.select_one("pre, p:not(.panel-label)"))
            for panel in page.select(".panel")]


def test_a_fim_task_shows_prefix_cursor_and_suffix_as_code(client, upload):
    page = soup(client.get(upload(FIM)["url"]))
    labels = [label for label, _ in panels_of(page)]
    assert labels == ["Prefix · before the cursor", "Middle · the cursor, to be filled", "Suffix · after the cursor"]
    suffix = page.select(".panel")[2]
    assert "# *not* a heading" in suffix.get_text()
    assert suffix.find("h1") is None and suffix.find("em") is None


def test_a_multi_file_sequence_shows_one_panel_per_file_with_its_text_escaped(client, upload):
    page = soup(client.get(upload(FILES)["url"]))
    assert [label for label, _ in panels_of(page)] == ["File 1", "File 2", "File 3"]
    assert page.select(".panel")[1].find("b") is None
    assert "second <b>file</b>" in page.select(".panel")[1].get_text()


def test_thought_blocks_are_labelled_panels_in_the_debug_view():
    transcript = parse((SAMPLES / "harmony-cot-markers.txt").read_bytes())
    analysis = next(message for message in transcript.messages if message.channel == "analysis")
    labels = [part.label for part in panel_parts(analysis)]
    assert {"Reasoning", "Reflection", "Introspection"} <= set(labels)
    assert all(not part.as_code for part in panel_parts(analysis))


def test_a_body_without_structure_has_no_panels():
    transcript = parse(b"<|start|>user<|message|>plain words<|end|>")
    assert panel_parts(transcript.messages[0]) == []


def test_panel_kinds_cannot_inject_class_names():
    rendered = render.panels([render.Panel("x", "y", True, 'a" onclick="z')])
    assert 'class="panel panel-text"' in rendered.html and "onclick" not in rendered.html
