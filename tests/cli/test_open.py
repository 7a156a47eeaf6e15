"""`viewer open`: every agent's sessions in their default places, or any agent's under a folder, newest first by
their own times, each titled as its agent's list titles it (never by the slash command it began with); without a
terminal, the list and how to pick; SQLite stores read without locking the agent out; and a file or a session
opened in the local viewer, which gets the only copy."""
from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import sqlite3
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from viewer import formats, parse
from viewer.cli import main
from viewer.sessions import everywhere, human_size, session_bytes, sessions_under, stores
from viewer.sessions.folders import openhands_archive

JOINED = SAMPLES / "openhands-1.0-conversation-events.jsonl"
"""An OpenHands conversation folder's files joined: its base_state.json, then its event files."""


def joined_files() -> list[str]:
    """The texts of the files the sample joins, as they were written."""
    text, decoder, found, at = JOINED.read_text(), json.JSONDecoder(), [], 0
    while text[at:].strip():
        at += len(text[at:]) - len(text[at:].lstrip())
        end = decoder.raw_decode(text, at)[1]
        found.append(text[at:end])
        at = end
    return found


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A Claude Code project, a sub-agent's log beside it, a Codex day folder and a JSON file that is neither; the
    files' times the opposite of the sessions' own."""
    project = tmp_path / "projects" / "-home-ada-code-shop"
    day = tmp_path / "sessions" / "2025" / "10" / "02"
    for place in (project / "5e1f7d22" / "subagents", day):
        place.mkdir(parents=True)
    copies = [("claude-code-1.0-bugfix-mcp.jsonl", project / "7f3c2a10.jsonl", 500),
              ("claude-code-2.1-subagent-agent-id.jsonl", project / "5e1f7d22.jsonl", 400),
              ("claude-code-2.1-subagent-agent-id.jsonl", project / "5e1f7d22" / "subagents" / "agent-a9f4657.jsonl",
               300),
              ("codex-0.46-rollout-shell-and-patch.jsonl", day / "rollout-2025-10-02T14-00-00-0199a3f2.jsonl", 200),
              ("json-messages-lines.jsonl", tmp_path / "other.jsonl", 100)]
    for sample, target, when in copies:
        shutil.copy(SAMPLES / sample, target)
        os.utime(target, (when, when))
    return tmp_path


def line(**fields) -> str:
    return json.dumps({"sessionId": "s", "timestamp": "2026-03-21T09:14:00Z", **fields}) + "\n"


def said(uuid: str, text: str, **fields) -> str:
    return line(type="user", uuid=uuid, parentUuid=None, message={"role": "user", "content": text}, **fields)


def test_sessions_are_listed_newest_first_by_their_own_times_with_their_agent_and_title(folder):
    found = sessions_under(folder)
    assert [(session.path.name, session.agent, session.title) for session in found] == [
        ("rollout-2025-10-02T14-00-00-0199a3f2.jsonl", "Codex",
         "The CSV importer drops rows whose date has a trailing space. Fix it."),
        ("7f3c2a10.jsonl", "Claude Code", "Leap-year bug in parse_date fixed"),
        ("5e1f7d22.jsonl", "Claude Code", "Review the rates module for rounding bugs.")]
    assert all(session.timed for session in found)
    assert found[0].when == dt.datetime(2025, 10, 2, 14, 0, 24, 712000, tzinfo=dt.timezone.utc)
    assert found[1].size == (folder / "projects" / "-home-ada-code-shop" / "7f3c2a10.jsonl").stat().st_size


@pytest.mark.parametrize("lines, title", [
    ([said("u1", "first question"), line(type="summary", summary="old summary", leafUuid="u1"),
      line(type="ai-title", aiTitle="early title"), line(type="ai-title", aiTitle="later title")], "later title"),
    ([said("u1", "first question"), line(type="ai-title", aiTitle="a title"),
      line(type="custom-title", customTitle="renamed")], "renamed"),
    ([line(type="summary", summary="another file's chain", leafUuid="elsewhere"), said("u1", "first question"),
      line(type="summary", summary="this file's chain", leafUuid="u1")], "this file's chain"),
    ([said("u1", "<command-name>/clear</command-name>\n<command-message>clear</command-message>"),
      said("u2", "<local-command-stdout></local-command-stdout>"), said("u3", "caveat", isMeta=True),
      said("u4", "[Request interrupted by user]"), said("u5", "the real question")], "the real question"),
])
def test_a_claude_code_session_is_titled_as_its_own_list_titles_it(tmp_path, lines, title):
    (tmp_path / "s.jsonl").write_text("".join(lines))
    assert [session.title for session in sessions_under(tmp_path)] == [title]


def test_logs_of_title_lines_only_and_sub_agents_own_logs_are_not_listed(tmp_path):
    (tmp_path / "titles.jsonl").write_text(line(type="summary", summary="x", leafUuid="u9"))
    (tmp_path / "side.jsonl").write_text(said("u1", "hi", isSidechain=True))
    assert sessions_under(tmp_path) == []


def test_every_agent_is_found_in_its_default_places(tmp_path, monkeypatch):
    """Claude Code, Codex (not a sub-agent's rollout), an OpenHands conversation folder, mini-swe-agent's last
    run and a SpecStory export of the current project, each dated by its own times whatever its file's."""
    monkeypatch.chdir(tmp_path)
    home = tmp_path / "home"
    project = home / ".claude" / "projects" / "-w"
    rollouts = home / ".codex" / "sessions" / "2025" / "10" / "02"
    conversation = home / ".openhands" / "conversations" / "6f1c2e3d" / "events"
    mini = home / ".config" / "mini-swe-agent"
    history = tmp_path / ".specstory" / "history"
    for place in (project, rollouts, conversation, mini, history):
        place.mkdir(parents=True)
    shutil.copy(SAMPLES / "claude-code-1.0-compaction.jsonl", project / "a.jsonl")
    shutil.copy(SAMPLES / "codex-0.46-rollout-shell-and-patch.jsonl", rollouts / "rollout-1.jsonl")
    child = {"timestamp": "2025-10-02T15:00:00Z", "type": "session_meta",
             "payload": {"id": "c", "source": {"subagent": {"thread_spawn": {"parent_thread_id": "p"}}}}}
    (rollouts / "rollout-2.jsonl").write_text(json.dumps(child) + "\n")
    for number, event in enumerate(joined_files()[1:]):
        (conversation / f"event-{number:05d}-x.json").write_text(event)
    shutil.copy(SAMPLES / "mini-swe-agent-2.1-tool-calls.traj.json", mini / "last_mini_run.traj.json")
    shutil.copy(SAMPLES / "specstory-2.1-codex-cli.md", history / "2026-03-21_10-02-11Z-make-vat-round-half.md")
    trial = tmp_path / "jobs" / "2026-03-21__09-00" / "ada__shop-142__x1"
    (trial / "agent").mkdir(parents=True)
    shutil.copy(SAMPLES / "atif-1.6-claude-code-trial.json", trial / "agent" / "trajectory.json")
    (trial / "result.json").write_text(json.dumps({"task_name": "ada__shop-142", "trial_name": "ada__shop-142__x1"}))
    run = tmp_path / "trajectories" / "ada" / "run1" / "ada__shop-142"
    run.mkdir(parents=True)
    shutil.copy(SAMPLES / "swe-agent-1.1-function-calling.traj", run / "ada__shop-142.traj")
    os.utime(run / "ada__shop-142.traj", (1e9, 1e9))
    for path in (home / ".claude").rglob("*.jsonl"):
        os.utime(path, (4e9, 4e9))  # a file touched long after its session: the list goes by the session's time
    found = everywhere(home)
    assert [(session.agent, session.title) for session in found] == [
        ("OpenHands", "vat() in shop/rates.py returns 20.099999999999998 for 100.5 - fix the rounding"),
        ("SpecStory", "make vat round half"),
        ("Harbor (ATIF)", "ada__shop-142"),
        ("mini-swe-agent", "vat() in shop/rates.py returns 20.099999999999998 for 100.5 - fix the rounding"),
        ("Codex", "The CSV importer drops rows whose date has a trailing space. Fix it."),
        ("Claude Code", "Rename the `Note.body` field to `text` everywhere."),
        ("SWE-agent", "ada__shop-142"),
    ]
    assert [session.timed for session in found] == [True] * 6 + [False]  # a .traj records no time of its own
    assert parse(session_bytes(found[0])).dialect == "openhands"


def test_a_conversation_folder_reads_as_its_events_joined(tmp_path):
    """Its files in the order of their numbers (V0's `10.json` after `9.json`), uploaded as one archive."""
    events = tmp_path / "c1" / "events"
    events.mkdir(parents=True)
    state, *written = joined_files()
    for number, event in enumerate(written):
        (events / f"{number}.json").write_text(event)  # no line breaks: as the agent writes them
    (tmp_path / "c1" / "base_state.json").write_text(state)
    archived, joined = parse(openhands_archive(tmp_path / "c1")), parse(JOINED.read_bytes())
    assert archived.dialect == "openhands"
    assert [(m.role, m.content) for m in archived.messages] == [(m.role, m.content) for m in joined.messages]


def test_sizes_read_as_a_person_reads_them():
    assert [human_size(size) for size in (512, 2048, 5 * 1024 * 1024)] == ["512 bytes", "2.0 KB", "5.0 MB"]


def test_without_a_terminal_the_list_says_how_to_pick(folder, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    assert main(["open", str(folder), "--no-browser"]) == 2
    out, err = capsys.readouterr()
    assert "  1. " in out and "Codex" in out and "--pick N (1–3)" in err and "Traceback" not in err


def test_an_input_that_ends_is_no_traceback(folder, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)

    def ended(prompt: str) -> str:
        raise EOFError
    monkeypatch.setattr("builtins.input", ended)
    assert main(["open", str(folder), "--no-browser"]) == 2
    assert "--pick N" in capsys.readouterr().err


def test_a_store_is_read_with_its_latest_writes_without_locking_its_writer(tmp_path):
    path = tmp_path / "sessions.db"
    writer = sqlite3.connect(path)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute("CREATE TABLE sessions (id TEXT, name TEXT)")
    writer.execute("INSERT INTO sessions VALUES ('s1', 'first')")
    writer.commit()  # its pages are in the -wal file only
    with stores.read_only(path) as reader:
        reader.execute("BEGIN")
        assert reader.execute("SELECT name FROM sessions").fetchall() == [("first",)]
        writer.execute("INSERT INTO sessions VALUES ('s2', 'second')")  # the agent goes on writing meanwhile
        writer.commit()
        with pytest.raises(sqlite3.OperationalError):
            reader.execute("INSERT INTO sessions VALUES ('s3', 'mine')")
    copy = sqlite3.connect(":memory:")
    copy.deserialize(stores.snapshot(path))
    assert copy.execute("SELECT name FROM sessions ORDER BY id").fetchall() == [("first",), ("second",)]
    writer.close()


def test_a_store_is_listed_by_its_path(tmp_path, monkeypatch):
    """A SQLite agent's store, until its reader lists the sessions in it."""
    store = formats.SessionFiles(agent="Goose", folders=("~",), pattern="sessions.db", database=True)
    record = formats.dialect("codex").__class__(**{**{field: getattr(formats.dialect("codex"), field) for field in
                                                     formats.dialect("codex").__dataclass_fields__},
                                                   "name": "goose-test", "session": store})
    monkeypatch.setattr(formats, "agents", lambda: (record,))
    monkeypatch.setattr(formats, "find", lambda name: record if name == "goose-test" else None)
    sqlite3.connect(tmp_path / "sessions.db").execute("CREATE TABLE t (x)").connection.commit()
    (found,) = sessions_under(tmp_path)
    assert found.database and found.agent == "Goose" and "SQLite" in found.title and not found.timed
    assert session_bytes(found).startswith(b"SQLite format 3\x00")


def test_a_file_opens_in_the_running_local_viewer(server, capsys):
    port = server.rsplit(":", 1)[1]
    assert main(["open", str(SAMPLES / "claude-code-1.0-compaction.jsonl"), "--no-browser", "--port", port]) == 0
    url = capsys.readouterr().out.splitlines()[0]
    assert url.startswith(server + "/t/")
    with urllib.request.urlopen(url + ".json") as answer:
        assert b"Now add a migration for it." in answer.read()


def test_a_folder_s_session_is_picked_by_its_number(server, folder, capsys):
    port = server.rsplit(":", 1)[1]
    assert main(["open", str(folder), "--pick", "1", "--no-browser", "--port", port]) == 0
    url = capsys.readouterr().out.splitlines()[0]
    with urllib.request.urlopen(url + ".json") as answer:
        assert b"The CSV importer drops rows" in answer.read()


def test_a_missing_path_or_a_folder_without_sessions_is_a_usage_error(tmp_path, capsys):
    assert main(["open", str(tmp_path / "nowhere.jsonl"), "--no-browser"]) == 2
    assert main(["open", str(tmp_path), "--no-browser"]) == 2
    assert "no agent's session under" in capsys.readouterr().err


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


def test_a_folder_named_events_of_another_program_is_no_conversation(tmp_path):
    (tmp_path / "app" / "events").mkdir(parents=True)
    (tmp_path / "app" / "events" / "signup.json").write_text('{"kind": "MessageEvent", "source": "user"}')
    assert sessions_under(tmp_path) == []


def test_the_other_agents_are_titled_and_dated_as_their_own_lists_do(tmp_path):
    """A Factory Droid session by its title (a sub-agent's session left out), a Copilot CLI session by its
    workspace's summary, a Cline task by the milliseconds of its last message, a Goose store by its path."""
    home = tmp_path / "home"
    droid = home / ".factory" / "sessions" / "-w"
    copilot = home / ".copilot" / "session-state" / "3f9b2c61"
    cline = home / ".cline" / "data" / "tasks" / "1781170923417"
    goose = home / ".local" / "share" / "goose" / "sessions"
    for place in (droid, copilot, cline, goose):
        place.mkdir(parents=True)
    shutil.copy(SAMPLES / "factory-droid-v2-task-subagent-compaction.jsonl", droid / "3f6c2a10.jsonl")
    (droid / "9a1e7b44.jsonl").write_text(json.dumps({"type": "session_start", "id": "9a1e7b44", "title": "sub",
                                                      "callingSessionId": "3f6c2a10"}) + "\n")
    shutil.copy(SAMPLES / "copilot-cli-1.0-subagent-abort-rate-limit.jsonl", copilot / "events.jsonl")
    (copilot / "workspace.yaml").write_text("id: 3f9b2c61\nsummary: Fix cart rounding\n")
    shutil.copy(SAMPLES / "cline-3.89-read-edit-resume-api-history.json", cline / "api_conversation_history.json")
    sqlite3.connect(goose / "sessions.db").execute("CREATE TABLE sessions (id TEXT)").connection.commit()
    found = {session.agent: session for session in everywhere(home)}
    assert found["Factory Droid"].title == "Fix VAT rounding in rates.py" and found["Factory Droid"].timed
    assert found["GitHub Copilot CLI"].title == "Fix cart rounding"
    assert found["Cline"].when == dt.datetime.fromtimestamp(1781171046.977, dt.timezone.utc)
    assert found["Goose"].database and found["Goose"].path == goose / "sessions.db"
    assert len([session for session in everywhere(home) if session.agent == "Factory Droid"]) == 1
