"""Long fuzz run: generated and mutated transcripts through parse + policy + render, as the pages use them.

Seeds are the files of sample_transcripts/ plus one benign transcript per dialect from the hostile corpus
builder. Each input is either a mutation of a seed (cut, splice two seeds, duplicate a control token, flip
bytes, insert control tokens, or several of these at once) or generated from a bag of tokens of every dialect.
Each input goes through `viewer.parse.parse`, `Projection.decisions` (both views), the cards of the default and
debug views (`viewer.present.cards`, which renders every body) and `Transcript.to_json`.

Reported: crashes (exceptions; each saved under bench/out/ as the input bytes plus a traceback, so
`viewer parse bench/out/crash-….bin` reproduces it), rendered HTML that opens a tag outside the allowlist
(saved the same way), inputs per second, and the slowest input (saved too).

Run: .venv/bin/python bench/fuzz.py --count 100000 [--seed 1] [--max-seconds 3600]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.system.hostile.corpus import DIALECTS as CORPUS_DIALECTS, build  # noqa: E402
from tests.system.hostile.html_checks import ALLOWED_ELEMENTS  # noqa: E402
from viewer import policy  # noqa: E402
from viewer.parse import parse  # noqa: E402
from viewer.present import cards  # noqa: E402
from viewer.store.rows import entries_in_memory  # noqa: E402

OUT = ROOT / "bench" / "out"
SAMPLES = ROOT / "sample_transcripts"
MAX_INPUT = 64 * 1024
"""Bytes; mutations that grow past this are cut back, so one input stays a fraction of a second."""

CONTROL_TOKENS = (
    "<|start|>", "<|end|>", "<|message|>", "<|channel|>", "<|constrain|>", "<|call|>", "<|return|>",
    "<|im_start|>", "<|im_end|>", "<|function_list|>", "<|function_call|>", "<|function_output|>",
    "<|start_reason|>", "<|end_reason|>", "<|reflect|>", "<|start_reflect|>", "<|end_reflect|>",
    "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|file_separator|>", "<<|", "[BOS]", "[EOS]", "<s>",
    "</s>", "<|begin_of_text|>", "<|end_of_text|>", "---\n", "version: 2.2\n")
WORDS = (
    "system", "developer", "user", "assistant", "tool", "analysis", "commentary", "final", "json", " ",
    " to=functions.get_weather", " to=assistant", " call_id=c1", " name=alice", " intent=preamble",
    " content_type=json", "functions.get_weather", "\n", "\r\n", "\t", "{", "}", "[", "]", ":", ",", '"', "\\",
    '"role": "assistant"', '"content": "hi"', '"channel": "analysis"', '"tool_calls": [',
    '{"type": "response.delta", "delta": "x"}\n', '{"type": "response.done"}\n',
    '{"type": "tool.result", "call_id": "c1", "output": {}}\n', "```python\n", "```\n", "**", "_", "[a](b)",
    "<script>", "javascript:", "![x](y)", "|a|b|\n|-|-|\n", "\x00", "\ufeff", "\ud800", "é", "🙂", "1e999", "0",
)


@dataclass
class Report:
    count: int = 0
    seconds: float = 0.0
    crashes: dict[str, int] = field(default_factory=dict)
    """Exception summary -> how many inputs raised it."""
    unsafe: int = 0
    saved: list[str] = field(default_factory=list)
    slowest: tuple[float, str] = (0.0, "")

    def summary(self) -> dict:
        return {"inputs": self.count, "seconds": round(self.seconds, 1),
                "inputs_per_second": round(self.count / self.seconds, 1) if self.seconds else None,
                "crashes": sum(self.crashes.values()), "distinct_crashes": self.crashes, "unsafe_html": self.unsafe,
                "slowest_seconds": round(self.slowest[0], 3), "slowest_input": self.slowest[1],
                "saved": self.saved}


# ---- inputs -----------------------------------------------------------------------------------------------

def seeds() -> list[bytes]:
    files = sorted(path for path in SAMPLES.iterdir() if path.is_file()) if SAMPLES.is_dir() else []
    found = [path.read_bytes()[:MAX_INPUT] for path in files]
    found += [build("Hello **there**, see [docs](https://example.com).\n\n```python\nx = 1\n```", dialect)
              for dialect in CORPUS_DIALECTS]
    return found


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def mutate(data: bytes, pool: list[bytes], rng: random.Random) -> bytes:
    """One to four mutations of `data`; the result is at most MAX_INPUT bytes."""
    for _ in range(rng.randint(1, 4)):
        data = rng.choice(MUTATIONS)(data, pool, rng)
    return data[:MAX_INPUT]


def _cut(data: bytes, pool: list[bytes], rng: random.Random) -> bytes:
    if not data:
        return data
    start = rng.randrange(len(data))
    return data[:start] + data[start + rng.randint(1, 200):] if rng.random() < 0.5 else data[:start]


def _splice(data: bytes, pool: list[bytes], rng: random.Random) -> bytes:
    other = rng.choice(pool)
    return data[:rng.randint(0, len(data))] + other[rng.randint(0, len(other)):]


def _duplicate_token(data: bytes, pool: list[bytes], rng: random.Random) -> bytes:
    present = [token for token in CONTROL_TOKENS if _encode(token) in data]
    token = _encode(rng.choice(present or CONTROL_TOKENS))
    at = data.find(token)
    if at < 0:
        return data + token
    return data[:at] + token * rng.randint(2, 50) + data[at + len(token):]


def _flip_bytes(data: bytes, pool: list[bytes], rng: random.Random) -> bytes:
    if not data:
        return bytes([rng.randrange(256)])
    buffer = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        buffer[rng.randrange(len(buffer))] ^= 1 << rng.randrange(8)
    return bytes(buffer)


def _insert_tokens(data: bytes, pool: list[bytes], rng: random.Random) -> bytes:
    for _ in range(rng.randint(1, 6)):
        at = rng.randint(0, len(data))
        data = data[:at] + _encode(rng.choice(CONTROL_TOKENS + WORDS)) + data[at:]
    return data


def _repeat_chunk(data: bytes, pool: list[bytes], rng: random.Random) -> bytes:
    if not data:
        return data
    start = rng.randrange(len(data))
    chunk = data[start:start + rng.randint(1, 64)]
    return data[:start] + chunk * rng.randint(2, 200) + data[start:]


MUTATIONS = (_cut, _splice, _duplicate_token, _flip_bytes, _insert_tokens, _repeat_chunk)


def generate(rng: random.Random) -> bytes:
    """A transcript-like string from the tokens and words of every dialect."""
    parts = [rng.choice(CONTROL_TOKENS) if rng.random() < 0.4 else rng.choice(WORDS)
             for _ in range(rng.randint(1, 120))]
    return _encode("".join(parts))


def inputs(count: int, seed: int):
    """`count` inputs, deterministic for a seed: two thirds mutations, one third generated."""
    rng = random.Random(seed)
    pool = seeds()
    for _ in range(count):
        yield generate(rng) if rng.random() < 0.33 else mutate(rng.choice(pool), pool, rng)


# ---- the pipeline the pages use ----------------------------------------------------------------------------

def run_pipeline(data: bytes, dialect: str = "auto") -> list[str]:
    """Parse, project, build the cards of both views from the rows the store would keep (rendering every
    body) and the JSON form; returns the problems found in the HTML (raises on a crash)."""
    transcript = parse(data, dialect)
    projection = policy.Projection.of(transcript)
    projection.decisions("debug")
    json.dumps(transcript.to_json(), ensure_ascii=False)
    stored = entries_in_memory(projection)
    found = cards.default_cards([entry for entry in stored if entry.show_as != "hidden"])
    found += cards.debug_cards(stored, [])
    problems = []
    for card in found:
        if card.body is not None:
            problems += _html_problems(str(card.body.html))
    return problems


def _html_problems(html: str) -> list[str]:
    import re

    return [f"<{name}>" for name in re.findall(r"<([A-Za-z][^\s/>]*)", html) if name.lower() not in ALLOWED_ELEMENTS]


# ---- driver ------------------------------------------------------------------------------------------------

def fuzz(count: int, seed: int, max_seconds: float, out: Path = OUT, progress: bool = False) -> Report:
    report = Report()
    started = time.perf_counter()
    for data in inputs(count, seed):
        if time.perf_counter() - started > max_seconds:
            break
        before = time.perf_counter()
        try:
            problems = run_pipeline(data)
        except Exception as error:  # noqa: BLE001 - a crash is what we are looking for
            key = f"{type(error).__name__}: {str(error)[:120]}"
            report.crashes[key] = report.crashes.get(key, 0) + 1
            if report.crashes[key] == 1:
                report.saved.append(_save(out, "crash", data, traceback.format_exc()))
            problems = []
        elapsed = time.perf_counter() - before
        if problems:
            report.unsafe += 1
            if report.unsafe <= 20:
                report.saved.append(_save(out, "unsafe", data, "\n".join(problems)))
        if elapsed > report.slowest[0]:
            report.slowest = (elapsed, _digest(data))
            slowest = data
        report.count += 1
        if progress and report.count % 10_000 == 0:
            print(f"{report.count} inputs, {report.count / (time.perf_counter() - started):.0f}/s", flush=True)
    report.seconds = time.perf_counter() - started
    if report.count:
        report.saved.append(_save(out, "slowest", slowest, f"{report.slowest[0]:.3f} s"))
    return report


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def _save(out: Path, kind: str, data: bytes, note: str) -> str:
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{kind}-{_digest(data)}.bin"
    path.write_bytes(data)
    path.with_suffix(".txt").write_text(note)
    return str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


def arguments(description: str, count: int) -> argparse.Namespace:
    """The command line of a fuzz run: how many inputs, the seed, a time limit and where to save findings."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--count", type=int, default=count)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-seconds", type=float, default=3600.0, help="stop early after this long")
    parser.add_argument("--out", type=Path, default=OUT)
    return parser.parse_args()


def main() -> int:
    args = arguments(__doc__.split("\n\n")[0], 100_000)
    report = fuzz(args.count, args.seed, args.max_seconds, args.out, progress=True)
    print(json.dumps(report.summary(), indent=2))
    return 1 if report.crashes or report.unsafe else 0


if __name__ == "__main__":
    sys.exit(main())
