"""`viewer render` of a big agent session or JSON Lines dataset: stored a batch at a time into a temporary
database and written from its rows, as the server exports it (memory bounded by the batch, not the file), with
the same output as a whole parse gives, and its screenshots embedded as the server's exports embed them. The
size from which a file goes that way is lowered here so that the samples take it."""
from __future__ import annotations

import pytest

from tests.conftest import SAMPLES
from viewer import cli
from viewer.parse import streamed

EDITS = SAMPLES / "claude-code-2.0-edits-questions-plan.jsonl"
SCREENSHOTS = SAMPLES / "claude-code-1.0-screenshots.jsonl"
DATASET = SAMPLES / "json-dataset-finetune.jsonl"


@pytest.fixture
def every_file_is_big(monkeypatch):
    monkeypatch.setattr(cli, "RENDER_STORED_FROM", 0)
    monkeypatch.setattr(streamed, "STREAM_FROM", 0)


def _render(path, tmp_path, *options: str) -> str:
    out = tmp_path / f"out-{len(list(tmp_path.iterdir()))}"
    assert cli.main(["render", str(path), "-o", str(out), *options]) == 0
    return out.read_text(encoding="utf-8")


@pytest.mark.parametrize("view", ["default", "debug"])
@pytest.mark.parametrize("format", ["json", "md"])
def test_a_big_session_renders_as_a_whole_parse_renders_it(tmp_path, monkeypatch, view, format):
    whole = _render(EDITS, tmp_path, "--view", view, "--format", format)
    monkeypatch.setattr(cli, "RENDER_STORED_FROM", 0)
    monkeypatch.setattr(streamed, "STREAM_FROM", 0)
    assert cli._read_a_piece_at_a_time(cli._arguments().parse_args(["render", str(EDITS)]))
    assert _render(EDITS, tmp_path, "--view", view, "--format", format) == whole


def test_a_big_session_rendered_embeds_its_screenshots(tmp_path, every_file_is_big):
    page = _render(SCREENSHOTS, tmp_path)
    assert 'class="export-images"' in page and "data:image/png;base64," in page


def test_a_big_session_rendered_keeps_its_secrets_masked_unless_asked(tmp_path, every_file_is_big):
    session = tmp_path / "session.jsonl"
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    session.write_text(EDITS.read_text(encoding="utf-8").replace("The total is probably", f"The total {token} is probably", 1),
                       encoding="utf-8")
    assert token in session.read_text(encoding="utf-8")
    assert token not in _render(session, tmp_path, "--view", "debug", "--format", "json")
    assert token in _render(session, tmp_path, "--view", "debug", "--format", "json", "--show-secrets")


def test_small_files_standard_input_and_primed_completions_are_parsed_whole(tmp_path):
    arguments = cli._arguments()
    assert not cli._read_a_piece_at_a_time(arguments.parse_args(["render", str(EDITS)]))
    assert not cli._read_a_piece_at_a_time(arguments.parse_args(["render", "-"]))
    assert not cli._read_a_piece_at_a_time(arguments.parse_args(["render", str(tmp_path / "missing.jsonl")]))


def test_a_big_dataset_renders_as_a_whole_parse_renders_it(tmp_path, monkeypatch):
    whole = _render(DATASET, tmp_path, "--format", "md")
    from viewer.ingest import streaming

    monkeypatch.setattr(cli, "RENDER_STORED_FROM", 0)
    monkeypatch.setattr(streaming, "STREAM_FROM", 0)
    assert _render(DATASET, tmp_path, "--format", "md") == whole
