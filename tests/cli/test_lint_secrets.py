"""`viewer lint` reports the secrets of a transcript (W-SECRET: kind and masked preview, never the secret) and
exits 1, so that a CI job can stop a transcript with secrets before it is published."""
from __future__ import annotations

import json

from viewer.cli import main

# Assembled here, so that the repository holds no string a secret scanner would flag.
GITHUB_TOKEN = "ghp_" + "aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2zA4"
AWS_KEY = "AKIA" + "QX7TZ2PLM4NB8VCD"


def lint(tmp_path, capsys, name: str, text: str) -> tuple[int, list[str]]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    status = main(["lint", str(path)])
    return status, capsys.readouterr().out.splitlines()


def test_lint_reports_each_secret_with_its_position_and_kind_but_not_the_secret(tmp_path, capsys):
    text = (f"<|start|>user<|message|>my token is {GITHUB_TOKEN} ok<|end|>"
            f"<|start|>assistant<|channel|>final<|message|>use {AWS_KEY}<|return|>")
    status, lines = lint(tmp_path, capsys, "leaky.txt", text)
    assert status == 1
    secrets = [line for line in lines if " W-SECRET " in line]
    assert [line.split(": W-SECRET")[0].rsplit(":", 2)[1:] for line in secrets] == [
        ["1", str(text.index(GITHUB_TOKEN) + 1)], ["1", str(text.index(AWS_KEY) + 1)]]
    assert "GitHub token" in secrets[0] and "AWS access key" in secrets[1]
    output = "\n".join(lines)
    assert GITHUB_TOKEN not in output and AWS_KEY not in output
    assert GITHUB_TOKEN[4:-4] not in output


def test_lint_finds_a_secret_in_a_dataset_conversation_at_its_line(tmp_path, capsys):
    rows = [{"messages": [{"role": "user", "content": f"key {GITHUB_TOKEN}" if k == 2 else "hi"}]} for k in range(4)]
    status, lines = lint(tmp_path, capsys, "data.jsonl", "\n".join(map(json.dumps, rows)) + "\n")
    assert status == 1
    assert [line.split(":")[1] for line in lines if "W-SECRET" in line] == ["3"]


def test_lint_of_a_transcript_without_secrets_reports_none(tmp_path, capsys):
    status, lines = lint(tmp_path, capsys, "clean.txt", "<|start|>user<|message|>Hello<|end|>"
                                                        "<|start|>assistant<|channel|>final<|message|>Hi<|return|>")
    assert status == 0
    assert not [line for line in lines if "W-SECRET" in line]
