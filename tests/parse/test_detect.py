"""Dialect detection in linear time, whatever the head of a file holds."""
from __future__ import annotations

from viewer.parse.detect import detect


def test_a_run_of_blank_lines_before_the_first_message_is_detected_at_once():
    # The YAML header's pattern could split a run of newlines in exponentially many ways: 30 took minutes.
    assert detect("\n" * 5_000 + "<|start|>user<|message|>Hi<|end|>") == "harmony"
    assert detect(" \n\t\n" * 2_000 + "x") == detect("x")


def test_a_yaml_version_after_blank_lines_and_comments_is_still_openchatml():
    assert detect("\n\n---  \n\n# a comment\n  \nversion: 2.2\n") == "openchatml"
    assert detect("  \n  version : 2.2\n") == "openchatml"
