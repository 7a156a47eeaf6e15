"""`viewer open`: agent sessions found under a folder (newest first, their first shown message, their size) and a
file opened in the local viewer, which gets the only copy."""
from __future__ import annotations

import os
import shutil
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from viewer.cli import main
from viewer import parse
from viewer.sessions import human_size, session_bytes, sessions_under


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A Claude Code project, a sub-agent's log beside it, a Codex day folder and a JSON file that is neither."""
    project = tmp_path / "projects" / "-home-ada-code-shop"
    day = tmp_path / "sessions" / "2025" / "10" / "02"
    for place in (project / "5e1f7d22" / "subagents", day):
        place.mkdir(parents=True)
    copies = [("claude-code-1.0-bugfix-mcp.jsonl", project / "7f3c2a10.jsonl", 100),
              ("claude-code-2.1-subagent-agent-id.jsonl", project / "5e1f7d22.jsonl", 300),
              ("claude-code-2.1-subagent-agent-id.jsonl", project / "5e1f7d22" / "subagents" / "agent-a9f4657.jsonl",
               400),
              ("codex-0.46-rollout-shell-and-patch.jsonl", day / "rollout-2025-10-02T14-00-00-0199a3f2.jsonl", 200),
              ("json-messages-lines.jsonl", tmp_path / "other.jsonl", 500)]
    for sample, target, when in copies:
        shutil.copy(SAMPLES / sample, target)
        os.utime(target, (when, when))
    return tmp_path


def test_sessions_are_listed_newest_first_with_their_first_shown_message(folder):
    found = sessions_under(folder)
    assert [(session.path.name, session.dialect) for session in found] == [
        ("5e1f7d22.jsonl", "claude-code"), ("rollout-2025-10-02T14-00-00-0199a3f2.jsonl", "codex"),
        ("7f3c2a10.jsonl", "claude-code")]
    assert [session.first_message for session in found] == [
        "Review the rates module for rounding bugs.",
        "The CSV importer drops rows whose date has a trailing space. Fix it.",
        "/cost"]
    assert found[0].size == (folder / "projects" / "-home-ada-code-shop" / "5e1f7d22.jsonl").stat().st_size


def test_sizes_read_as_a_person_reads_them():
    assert [human_size(size) for size in (512, 2048, 5 * 1024 * 1024)] == ["512 bytes", "2.0 KB", "5.0 MB"]


def test_a_file_opens_in_the_running_local_viewer(server, capsys):
    port = server.rsplit(":", 1)[1]
    assert main(["open", str(SAMPLES / "claude-code-1.0-compaction.jsonl"), "--no-browser", "--port", port]) == 0
    url = capsys.readouterr().out.splitlines()[0]
    assert url.startswith(server + "/t/")
    with urllib.request.urlopen(url + ".json") as answer:
        assert b"Now add a migration for it." in answer.read()


def test_a_folder_s_session_is_picked_by_its_number(server, folder, capsys):
    port = server.rsplit(":", 1)[1]
    assert main(["open", str(folder), "--pick", "2", "--no-browser", "--port", port]) == 0
    url = capsys.readouterr().out.splitlines()[0]
    with urllib.request.urlopen(url + ".json") as answer:
        assert b"The CSV importer drops rows" in answer.read()


def test_a_missing_path_or_a_folder_without_sessions_is_a_usage_error(tmp_path, capsys):
    assert main(["open", str(tmp_path / "nowhere.jsonl"), "--no-browser"]) == 2
    assert main(["open", str(tmp_path), "--no-browser"]) == 2
    assert "no Claude Code or Codex session" in capsys.readouterr().err


def test_a_session_s_sub_agent_logs_beside_it_are_opened_with_it(tmp_path):
    """Newer versions write a sub-agent's lines to <session>/subagents/agent-<id>.jsonl, not the session's file."""
    lines = (SAMPLES / "claude-code-2.1-subagent-agent-id.jsonl").read_text().splitlines(keepends=True)
    main = tmp_path / "5e1f7d22.jsonl"
    main.write_text("".join(line for line in lines if '"isSidechain":false' in line))
    (tmp_path / "5e1f7d22" / "subagents").mkdir(parents=True)
    side = "".join(line for line in lines if '"isSidechain":true' in line)
    (tmp_path / "5e1f7d22" / "subagents" / "agent-a9f4657.jsonl").write_text(side.rstrip("\n"))
    transcript = parse(session_bytes(main))
    assert [(thread.id, thread.call) for thread in transcript.threads] == [("a9f4657", 1)]
    assert transcript.diagnostics and "W-JSON-SYNTAX" not in [d.code for d in transcript.diagnostics]


def test_a_codex_session_is_opened_with_the_rollouts_of_the_sub_agents_it_spawned(tmp_path):
    """Codex writes a sub-agent's rollout beside its parent's, naming the parent in its first line."""
    import shutil
    from tests.harness.stores.samples import FOLDERS
    shutil.copytree(FOLDERS / "codex-0.118-subagent-rollouts" / "sessions", tmp_path / "sessions")
    day = tmp_path / "sessions" / "2026" / "03" / "21"
    parent = next(day.glob("rollout-*-019cf1a2-*.jsonl"))
    (day / "rollout-2026-03-21T11-00-00-019cf1ff-0000-7000-8000-000000000000.jsonl").write_text(
        '{"timestamp": "x", "type": "session_meta", "payload": {"id": "019cf1ff-0000-7000-8000-000000000000"}}\n')
    transcript = parse(session_bytes(parent))
    assert [(thread.id, thread.title) for thread in transcript.threads] == [
        ("019cf1a3-0c1d-7e2f-8a3b-4c5d6e7f8091", "Euler (explorer)")]
    assert transcript.messages[transcript.threads[0].call].recipient == "functions.spawn_agent"
