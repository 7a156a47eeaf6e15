"""Settings are data, read from VIEWER_… variables, and the table of docs/settings.md lists the same names."""
from __future__ import annotations

import re

from tests.conftest import ROOT
from viewer.settings import SETTINGS, database_url


def test_the_settings_table_lists_every_setting_with_its_default():
    table = (ROOT / "docs" / "settings.md").read_text()
    rows = dict(re.findall(r"^\| `VIEWER_([A-Z_]+)` \| ([^|]*) \|", table, re.MULTILINE))
    assert set(rows) == {setting.name for setting in SETTINGS}


def test_environment_variables_with_the_prefix_configure_the_app(make_app, monkeypatch):
    monkeypatch.setenv("VIEWER_PORT", "9123")
    monkeypatch.setenv("VIEWER_MAX_UPLOAD_BYTES", "2048")
    app = make_app()
    assert app.config["PORT"] == 9123 and app.config["MAX_CONTENT_LENGTH"] == 2048


def test_overrides_beat_the_environment(make_app, monkeypatch):
    monkeypatch.setenv("VIEWER_HOST", "127.0.0.2")
    assert make_app(HOST="127.0.0.3").config["HOST"] == "127.0.0.3"


def test_database_accepts_a_path_or_a_url(tmp_path):
    assert database_url(str(tmp_path / "a.db"), "/x") == f"sqlite:///{tmp_path / 'a.db'}"
    assert database_url("postgresql+psycopg://u@h/db", "/x") == "postgresql+psycopg://u@h/db"
    assert database_url("", str(tmp_path)) == f"sqlite:///{tmp_path / 'viewer.sqlite3'}"


def test_a_generated_secret_key_is_kept_in_the_instance_folder(tmp_path):
    from viewer.web import _instance_secret

    first = _instance_secret(tmp_path / "instance")
    assert first == _instance_secret(tmp_path / "instance") and len(first) >= 40
    assert (tmp_path / "instance" / "secret_key").stat().st_mode & 0o077 == 0
