"""The screen's lines of a session read a batch at a time (viewer/policy/onscreen.py `OnlineLines`): a copy made
part way goes on apart from the lines it was copied from, as the lines as written part from the lines link holders
read at the first batch that masks anything (viewer/ingest/sessions.py)."""
from __future__ import annotations

import io
from pathlib import Path

import pytest

from viewer.parse import pieces, streamed
from viewer.policy.onscreen import OnlineLines

SAMPLES = Path(__file__).resolve().parents[2] / "sample_transcripts"


def batches(name: str) -> tuple[list, object]:
    """The transcripts of a sample's batches, a few lines each, and its end."""
    found = list(streamed.read_session(io.BytesIO((SAMPLES / name).read_bytes()), "claude-code"))
    return [item.transcript for item in found[:-1]], found[-1]


def lines_of(lines: OnlineLines, transcripts: list) -> list:
    return [lines.batch(transcript) for transcript in transcripts]


@pytest.mark.parametrize("name", ["claude-code-2.0-edits-questions-plan.jsonl",
                                  "claude-code-1.0-task-sidechain.jsonl"])
def test_a_copy_made_part_way_goes_on_apart_from_its_original(monkeypatch, name):
    monkeypatch.setattr(pieces, "PIECE_BYTES", 700)
    transcripts, end = batches(name)
    assert len(transcripts) > 4
    alone = OnlineLines("claude-code")
    expected = lines_of(alone, transcripts), alone.end(end.threads, end.aside)
    for part in (1, len(transcripts) // 2, len(transcripts) - 1):
        original = OnlineLines("claude-code")
        before = lines_of(original, transcripts[:part])
        twin = original.copy()
        # The twin first, to the end: what it keeps must not be what the original goes on with.
        assert (before + lines_of(twin, transcripts[part:]), twin.end(end.threads, end.aside)) == expected
        assert (before + lines_of(original, transcripts[part:]), original.end(end.threads, end.aside)) == expected
