"""The operator's commands: `prune` deletes old and expired uploads (never samples), `check-config` prints
every setting with the layer it came from and hides secrets."""
from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import text

from viewer import ingest
from viewer.cli import main
from viewer.store import Store

RAW = b"<|start|>user<|message|>hi<|end|>"


@pytest.fixture
def database(tmp_path):
    return tmp_path / "viewer.sqlite3"


def _stored(database, id, *, days_old=0, sample=False):
    store = Store(f"sqlite:///{database}")
    if sample:
        ingest.store_sample(store, RAW, id=id, name=id)
    else:
        ingest.store_upload(store, RAW, id=id)
    created = dt.datetime.now(dt.timezone.utc) - dt.timedelta(days=days_old)
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE transcripts SET created_at = :created WHERE id = :id"),
                     {"created": created.replace(tzinfo=None), "id": id})
    return store


def test_prune_older_than_deletes_old_uploads_and_keeps_new_ones_and_samples(database, capsys):
    _stored(database, "old0000000000000000000", days_old=40)
    _stored(database, "new0000000000000000000", days_old=1)
    store = _stored(database, "sample-old", days_old=400, sample=True)
    assert main(["prune", "--older-than", "30d", "--db", str(database)]) == 0
    assert "deleted: 1 upload" in capsys.readouterr().out
    assert store.get("old0000000000000000000").deleted
    assert not store.get("new0000000000000000000").deleted and not store.get("sample-old").deleted


def test_prune_without_an_age_deletes_only_expired_uploads(database, capsys):
    store = _stored(database, "exp0000000000000000000", days_old=2)
    _stored(database, "old0000000000000000000", days_old=90)
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE transcripts SET expires_at = '2000-01-01 00:00:00' WHERE id LIKE 'exp%'"))
    assert main(["prune", "--db", str(database)]) == 0
    assert store.get("exp0000000000000000000").deleted and not store.get("old0000000000000000000").deleted


@pytest.mark.parametrize("age", ["30", "d", "3y", "-2d", "1.5d"])
def test_prune_refuses_an_age_it_cannot_read(age, database, capsys):
    with pytest.raises(SystemExit) as exit:
        main(["prune", f"--older-than={age}", "--db", str(database)])
    assert exit.value.code == 2 and "not an age" in capsys.readouterr().err


def _config_lines(capsys) -> dict[str, tuple[str, str]]:
    lines = {}
    for line in capsys.readouterr().out.splitlines():
        name, rest = line.split(None, 1)
        value, source = rest.rsplit("  (", 1)
        lines[name] = (value.strip(), source.rstrip(")"))
    return lines


def test_check_config_names_the_layer_each_setting_comes_from(tmp_path, monkeypatch, capsys):
    settings_file = tmp_path / "viewer.toml"
    settings_file.write_text("window_size = 40\nretention_days = 30\n")
    monkeypatch.setenv("VIEWER_CONFIG_FILE", str(settings_file))
    monkeypatch.setenv("VIEWER_RETENTION_DAYS", "7")
    monkeypatch.setenv("VIEWER_SECRET_KEY", "do-not-print-me")
    assert main(["check-config", "--db", "postgresql+psycopg://user:hunter2@127.0.0.1/viewer"]) == 0
    lines = _config_lines(capsys)
    assert lines["WINDOW_SIZE"] == ("40", f"file {settings_file}")
    assert lines["RETENTION_DAYS"] == ("7", "environment")
    assert lines["LONG_BODY_CHARS"] == ("20000", "default")
    assert lines["DATABASE"] == ("postgresql+psycopg://user:***@127.0.0.1/viewer", "argument")
    assert lines["SECRET_KEY"] == ("(set, hidden)", "environment")


def test_check_config_writes_nothing(tmp_path, monkeypatch, capsys):
    database = tmp_path / "never.sqlite3"
    assert main(["check-config", "--db", str(database)]) == 0
    assert not database.exists()


def test_a_settings_file_with_an_unknown_name_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    settings_file = tmp_path / "viewer.toml"
    settings_file.write_text("windowsize = 40\n")
    monkeypatch.setenv("VIEWER_CONFIG_FILE", str(settings_file))
    assert main(["check-config"]) == 2
    assert "names no setting called WINDOWSIZE" in capsys.readouterr().err
