"""Personal data scan benchmark: what looking for personal data adds to the secret scan, in the same process.

Run: `.venv/bin/python bench/personal_scan.py [--megabytes 1 10]`. For each transcript, the CPU time (best of 5,
alternating, so that all see the same load on a shared machine) of the parse, of the secret scan alone
(`scan_transcript`, what an upload paid before) and of the scan of secrets and personal data together
(`scan_transcript(…, scan_with_secrets)`, what it pays now), with two ratios: together against secrets alone,
and together against the parse (the secret scan's budget: scan <= parse, bench/secret_scan.py). Transcripts:
generated Harmony (tests/harness/gen.py) without and with personal data planted (the issue's six values in one
message of every 50), the code-dense corpus of tests/secrets/corpus.py, and an agent reading the standard
library as OpenAI chat JSON. Last, scanning and masking an upload with personal data against its parse.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.parse import best_of  # noqa: E402
from bench.secret_scan import agent_reading_code, dense_transcript, standard_library  # noqa: E402
from tests.harness.gen import generate  # noqa: E402
from viewer.ingest import mask_secrets  # noqa: E402
from viewer.parse import parse  # noqa: E402
from viewer.policy import Projection  # noqa: E402
from viewer.secrets import scan_transcript  # noqa: E402
from viewer.secrets.personal.scan import scan_with_secrets  # noqa: E402

PLANTED = (" Mail maria.lopez@fastmail.com or call 07700 900123; card 4539 1488 0343 6467, SSN 536-22-8726, "
           "IBAN GB82 WEST 1234 5698 7654 32, US +1 415-555-0132.")


def with_personal_data(text: str) -> str:
    pieces = text.split("<|end|>")
    for number in range(0, len(pieces) - 1, 50):
        pieces[number] += PLANTED
    return "<|end|>".join(pieces)


def row(label: str, text: str) -> tuple[str, str, str, str]:
    transcript = parse(text)
    (parse_time, _), (secrets_time, _), (both_time, found) = best_of(
        5, lambda: parse(text), lambda: scan_transcript(transcript),
        lambda: scan_transcript(transcript, scan_with_secrets), clock=time.process_time)
    megabytes = len(text.encode("utf-8")) / 1_000_000
    return (f"{label} ({megabytes:.1f} MB)", f"{both_time / secrets_time:.2f}x", f"{both_time / parse_time:.2f}x",
            f"secrets {secrets_time * 1000:.0f} ms, secrets and personal data {both_time * 1000:.0f} ms, "
            f"parse {parse_time * 1000:.0f} ms, {len(found)} findings")


def masking_row(megabytes: float) -> tuple[str, str, str, str]:
    text = with_personal_data(generate(megabytes))
    (parse_time, _), (mask_time, examined) = best_of(
        3, lambda: Projection.of(parse(text)), lambda: mask_secrets(Projection.of(parse(text))),
        clock=time.process_time)
    masking = mask_time - parse_time
    return (f"scan and mask, personal data in one message of 50 ({megabytes:.0f} MB)", "", f"{masking / parse_time:.2f}x",
            f"scan+mask {masking * 1000:.0f} ms, parse+policy {parse_time * 1000:.0f} ms, "
            f"{len(examined.personal)} distinct values")


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--megabytes", type=float, nargs="+", default=[1, 10])
    arguments = options.parse_args()
    rows = [("transcript", "both / secrets", "both / parse", "times")]
    for megabytes in arguments.megabytes:
        text = generate(megabytes)
        rows += [row("gen.py Harmony", text), row("gen.py Harmony, personal data planted", with_personal_data(text))]
    rows.append(row("code-dense Harmony", dense_transcript(1)))
    rows.append(row("agent reading the standard library, OpenAI JSON", agent_reading_code(4, standard_library())))
    rows += [masking_row(megabytes) for megabytes in arguments.megabytes]
    widths = [max(len(line[column]) for line in rows) for column in range(3)]
    for line in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths)) + "  " + line[3])


if __name__ == "__main__":
    main()
