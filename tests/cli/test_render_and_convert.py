"""`viewer render` exports a view without a server, byte for byte what the web app's download gives; `viewer
convert` rewrites a transcript in another dialect and says on stderr, one line each, what the target cannot
express."""
from __future__ import annotations

import io
import json
import sys

import pytest

from tests.conftest import SAMPLES
from tests.web.conftest import HIDDEN_CANARIES, WEATHER
from viewer.cli import main
from viewer.parse import parse

QWEN = SAMPLES / "chatml-qwen3-thinking-tools.txt"
DATASET = SAMPLES / "json-dataset-finetune.jsonl"


@pytest.fixture
def weather(tmp_path):
    path = tmp_path / "weather.txt"
    path.write_bytes(WEATHER.read_bytes())
    return path


def test_render_writes_the_default_view_as_html_to_standard_output(weather, capsys):
    assert main(["render", str(weather)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("<!doctype html>") and "<script" not in out
    assert "What is the weather in Tokyo?" in out and "used get_weather" in out
    assert not any(canary in out for canary in HIDDEN_CANARIES)


def test_render_writes_the_debug_view_as_markdown_to_a_file(weather, tmp_path, capsys):
    out = tmp_path / "out.txt"
    assert main(["render", str(weather), "--view", "debug", "--format", "md", "-o", str(out)]) == 0
    assert capsys.readouterr().out == ""
    written = out.read_text(encoding="utf-8")
    assert written.startswith("# weather.txt\n") and "## #3 · Assistant · analysis" in written
    assert all(canary in written for canary in HIDDEN_CANARIES)


@pytest.mark.parametrize("name, start", [("out.md", "# "), ("out.json", "{"), ("out.html", "<!doctype"),
                                         ("out", "<!doctype")])
def test_the_format_follows_the_output_files_extension(weather, tmp_path, name, start):
    assert main(["render", str(weather), "-o", str(tmp_path / name)]) == 0
    assert (tmp_path / name).read_text(encoding="utf-8").startswith(start)


def test_render_json_is_the_json_twin_of_the_view(weather, capsys):
    assert main(["render", str(weather), "--format", "json"]) == 0
    twin = json.loads(capsys.readouterr().out)
    assert twin["schema"] == "openchatml-viewer/3" and twin["view"] == "default" and twin["id"] is None
    assert [item.get("show_as") for item in twin["messages"]] == ["message", "preamble", "marker", "message"]
    assert twin["counts"]["hidden"] == 3


def test_render_reads_standard_input_for_a_dash(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(WEATHER.read_bytes())))
    assert main(["render", "-", "--format", "md"]) == 0
    assert capsys.readouterr().out.startswith("# standard input\n")


def test_render_exports_a_dataset_conversation_by_conversation(capsys):
    assert main(["render", str(DATASET), "--format", "md"]) == 0
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if line.startswith("## Conversation")] == [
        f"## Conversation #{number}" for number in range(5)]


@pytest.mark.parametrize("extension", ["md", "html", "json"])
def test_render_gives_what_the_web_app_gives_for_the_same_upload(weather, tmp_path, extension, capsys):
    from viewer.web import create_app

    app = create_app({"DATABASE": str(tmp_path / "viewer.sqlite3"), "SECRET_KEY": "x", "TESTING": True, "LIMITS": False,
                      "PRELOAD_SAMPLES": False})
    client = app.test_client()
    created = client.post("/api/transcripts?name=weather.txt", data=weather.read_bytes()).get_json()
    client.get(created["manage_url"])
    for view in ("default", "debug"):
        web = client.get(f"/t/{created['id']}.{extension}?view={view}").get_data(as_text=True)
        assert main(["render", str(weather), "--view", view, "--format", extension]) == 0
        cli = capsys.readouterr().out
        if extension == "json":  # the web app's twin names its upload; a file has no id
            web, cli = json.loads(web), json.loads(cli)
            assert web.pop("id") == created["id"] and cli.pop("id") is None
        assert cli == web
    app.extensions["viewer.store"].engine.dispose()


def test_convert_writes_the_target_dialect_and_reports_each_kind_of_loss_on_stderr(capsys):
    assert main(["convert", str(SAMPLES / "harmony-gpt-oss-weather.txt"), "--to", "chatml"]) == 0
    captured = capsys.readouterr()
    again = parse(captured.out)
    assert again.dialect == "chatml" and len(again.messages) == 11
    lines = captured.err.splitlines()
    assert lines == [line for line in lines if line.startswith("openchatml-viewer: convert: ")]
    assert any("no developer role" in line and "(message #1)" in line for line in lines)
    assert len(lines) == len(set(lines)) == 4


def test_convert_to_a_file_and_from_standard_input(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(QWEN.read_bytes())))
    out = tmp_path / "qwen.json"
    assert main(["convert", "-", "--to", "openai-json", "-o", str(out)]) == 0
    assert capsys.readouterr().out == ""
    messages = json.loads(out.read_text(encoding="utf-8"))["messages"]
    assert messages[2]["reasoning_content"].startswith("The user is asking")
    assert messages[2]["tool_calls"][0]["function"]["name"] == "get_weather"


def test_a_conversion_that_loses_nothing_prints_nothing_on_stderr(capsys):
    assert main(["convert", str(QWEN), "--to", "openchatml"]) == 0
    assert capsys.readouterr().err == ""


def test_an_unwritable_output_is_one_line_on_stderr_and_exit_2(weather, tmp_path, capsys):
    assert main(["render", str(weather), "-o", str(tmp_path / "no" / "such" / "folder.html")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_render_masks_secrets_as_link_holders_see_them_unless_asked_to_show_them(tmp_path, capsys):
    token = "ghp_" + "aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2zA4"  # assembled, so no scanner flags this file
    path = tmp_path / "leaky.txt"
    path.write_text(f"<|start|>user<|message|>my token is {token} ok<|end|>", encoding="utf-8")
    assert main(["render", str(path), "--format", "md"]) == 0
    masked = capsys.readouterr().out
    assert token not in masked and "[secret: GitHub token]" in masked
    assert main(["render", str(path), "--format", "md", "--show-secrets"]) == 0
    assert token in capsys.readouterr().out
