"""Fuzzing the secret masking: the fuzz harness's inputs (tests/harness/fuzz.py: mutated samples and generated
token soup of every dialect) with canary secrets planted at random places (inside JSON strings, escapes, tokens,
keys, as they land), each through `viewer.ingest.examine` as an upload is.

A leak is a secret the scan found in the parse as written that is still in some string of what link holders
read: the source, a message's body, segments or short fields, a diagnostic, a YAML header or declared tools,
of the transcript or of any conversation of a dataset. Crashes count too (the upload must not fail).

Run: .venv/bin/python bench/secret_fuzz.py --count 20000 [--seed 1]
"""
from __future__ import annotations

import json
import random
import re
import sys
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.harness.fuzz import OUT, _save, arguments, inputs  # noqa: E402
from tests.secrets.canaries import canaries  # noqa: E402
from viewer.ingest import examine  # noqa: E402
from viewer.model import Transcript  # noqa: E402
from viewer.secrets import scan_transcript  # noqa: E402

CANARIES = [canary for canary in canaries(seed=3) if canary.free]
KEY_LINE = re.compile(r"[A-Za-z0-9+/=]{16,}")
SHORTEST_LEAK = 8
"""A finding clipped to the few characters a field shares with it (a secret across a message's end) is not
counted: those characters are everywhere."""


@dataclass
class Report:
    count: int = 0
    masked: int = 0
    """Inputs in which the scan found a secret, so that masking ran."""
    leaks: Counter = field(default_factory=Counter)
    crashes: Counter = field(default_factory=Counter)
    saved: list[str] = field(default_factory=list)

    def summary(self) -> dict:
        return {"inputs": self.count, "masked": self.masked, "leaks": dict(self.leaks),
                "crashes": dict(self.crashes), "saved": self.saved}


def plant(data: bytes, rng: random.Random) -> bytes:
    """One to three canaries inserted anywhere: alone or in their context, sometimes JSON-escaped."""
    text = data.decode("utf-8", "replace")
    for _ in range(rng.randint(1, 3)):
        canary = rng.choice(CANARIES)
        piece = canary.text if rng.random() < 0.5 else canary.secret
        if rng.random() < 0.3:
            piece = json.dumps(piece)[1:-1]
        at = rng.randint(0, len(text))
        text = text[:at] + piece + text[at:]
    return text.encode("utf-8", "surrogatepass")


def leaks(raw: bytes) -> tuple[bool, list[str]]:
    """Whether masking ran, and where (kind and field) a found secret is still readable by link holders."""
    examined = examine(raw)
    if examined.original is None:
        return False, []
    shared = "\x00".join(_strings(examined.shared.transcript))
    found = scan_transcript(examined.original.transcript)
    return True, sorted({f"{item.finding.kind} in {item.field}" for item in found
                         if any(form in shared for form in _forms(item.finding.secret))})


def _forms(secret: str) -> set[str]:
    """A found secret as a reader may meet it: as found, unescaped if it was found in a JSON string's escapes,
    and each line of key material of one written on several lines (not its `-----BEGIN …` or `PuTTY-…`
    marker lines, which hold nothing secret)."""
    forms = {secret}
    try:
        forms.add(json.loads(f'"{secret}"'))
    except ValueError:
        pass
    forms |= {line for form in list(forms) for line in map(str.strip, form.splitlines()) if KEY_LINE.fullmatch(line)}
    return {form for form in forms if len(form) >= SHORTEST_LEAK}


def _strings(transcript: Transcript) -> Iterator[str]:
    """Every string of a parse a link holder may read."""
    yield transcript.source
    for message in transcript.messages:
        yield from (message.content, message.role, message.name or "", message.recipient or "", message.channel,
                    message.content_type or "", message.call_id or "", message.intent or "")
        yield from (segment.text for segment in message.segments)
    yield from (diagnostic.message for diagnostic in transcript.diagnostics)
    yield json.dumps([transcript.header, transcript.tools], ensure_ascii=False)
    for conversation in transcript.conversations:
        yield from _strings(conversation)


def fuzz(count: int, seed: int, max_seconds: float, out: Path = OUT) -> Report:
    report, rng, started = Report(), random.Random(seed), time.perf_counter()
    for data in inputs(count, seed):
        if time.perf_counter() - started > max_seconds:
            break
        raw = plant(data, rng)
        report.count += 1
        try:
            masked, found = leaks(raw)
        except Exception as error:  # noqa: BLE001 - a crash is what we are looking for
            key = f"{type(error).__name__}: {str(error)[:120]}"
            report.crashes[key] += 1
            if report.crashes[key] == 1:
                report.saved.append(_save(out, "crash", raw, traceback.format_exc()))
            continue
        report.masked += masked
        for where in found:
            report.leaks[where] += 1
            if report.leaks[where] == 1:
                report.saved.append(_save(out, "leak", raw, where))
    return report


def main() -> int:
    args = arguments(__doc__.split("\n\n")[0], 20_000)
    report = fuzz(args.count, args.seed, args.max_seconds, args.out)
    print(json.dumps(report.summary(), indent=2))
    return 1 if report.leaks or report.crashes else 0


if __name__ == "__main__":
    sys.exit(main())
