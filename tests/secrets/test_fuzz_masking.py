"""The masking fuzz (tests/harness/secret_fuzz.py) in small: planted secrets in mutated and generated
transcripts of every dialect are masked everywhere a link holder reads, and the check finds a leak when there
is one."""
from __future__ import annotations

from tests.harness import secret_fuzz
from viewer.ingest import masking


def test_secrets_planted_in_mutated_transcripts_are_masked_everywhere(tmp_path):
    report = secret_fuzz.fuzz(count=300, seed=11, max_seconds=120, out=tmp_path)
    assert report.count == 300 and report.masked > 200  # most plantings survive the mutations and are found
    assert not report.crashes and not report.leaks, report.summary()


def test_the_masking_fuzz_reports_and_saves_a_leak(tmp_path, monkeypatch):
    monkeypatch.setattr(masking, "mask_transcript", lambda transcript, *_, **__: transcript)
    report = secret_fuzz.fuzz(count=20, seed=11, max_seconds=60, out=tmp_path)
    assert report.leaks and any(where.endswith("in source") for where in report.leaks)
    saved = next(tmp_path.glob("leak-*.bin"))
    assert saved.with_suffix(".txt").read_text() in report.leaks
