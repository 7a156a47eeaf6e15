"""The command line: `parse` prints the JSON model, `lint` prints file:line:col diagnostics."""
from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from viewer.cli import main

TRUNCATED = b"<|start|>user<|message|>Hello<|end|>\n<|start|>assistant<|channel|>final<|message|>Hi th"


@pytest.fixture
def transcript_file(tmp_path):
    path = tmp_path / "cut.txt"
    path.write_bytes(TRUNCATED)
    return path


def test_parse_prints_the_json_model(transcript_file, capsys):
    assert main(["parse", str(transcript_file)]) == 0
    model = json.loads(capsys.readouterr().out)
    assert model["schema"] == "openchatml-viewer/3"
    assert model["dialect"] == "harmony"


def test_parse_reads_standard_input_for_a_dash(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(TRUNCATED)))
    assert main(["parse", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["dialect"] == "harmony"


def test_parse_obeys_a_forced_dialect(transcript_file, capsys):
    assert main(["parse", "--dialect", "chatml", str(transcript_file)]) == 0
    assert json.loads(capsys.readouterr().out)["dialect"] == "chatml"


def test_lint_prints_file_line_column_code_and_exits_1_on_an_error(transcript_file, capsys):
    assert main(["lint", str(transcript_file)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith(f"{transcript_file}:2:") and " E-STREAM-TRUNCATED " in line for line in lines)


def test_lint_exits_0_when_there_are_only_warnings_or_nothing(tmp_path, capsys):
    clean = tmp_path / "clean.txt"
    clean.write_text("<|start|>user<|message|>Hi<|end|><|start|>assistant<|channel|>final<|message|>Hello<|return|>")
    assert main(["lint", str(clean)]) == 0
    assert capsys.readouterr().out == ""


def test_a_missing_file_is_one_line_on_stderr_and_exit_2(tmp_path, capsys):
    assert main(["parse", str(tmp_path / "absent.txt")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "absent.txt" in err


def test_the_module_runs_as_a_program(transcript_file):
    result = subprocess.run([sys.executable, "-m", "viewer", "lint", str(transcript_file)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert "E-STREAM-TRUNCATED" in result.stdout


def test_reparse_parses_again_only_what_another_version_stored_unless_asked_for_all(tmp_path, capsys):
    from sqlalchemy import text

    from viewer import ingest
    from viewer.store import Store

    database = tmp_path / "viewer.sqlite3"
    store = Store(f"sqlite:///{database}")
    for id in ("aaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbb"):
        ingest.store_upload(store, b"<|start|>user<|message|>hi<|end|>", id=id)
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE transcripts SET parser_version = 'old' WHERE id LIKE 'a%'"))
    assert main(["reparse", "--db", str(database)]) == 0
    assert "parsed again: 1 transcript " in capsys.readouterr().out
    assert store.get("aaaaaaaaaaaaaaaaaaaaaa").parser_version == ingest.STORED_VERSION
    assert main(["reparse", "--db", str(database), "--all"]) == 0
    assert "parsed again: 2 transcripts" in capsys.readouterr().out
