"""Secret scanner benchmark: scan time against parse time, and false positives.

Run: `.venv/bin/python bench/secret_scan.py [--megabytes 1 10] [--corpus 1] [--engine re]`. Prints, with the
anchor engine the scan uses here (Hyperscan where installed) or the one named, for generated Harmony
transcripts (tests/harness/gen.py) of each size, the parse time and the `scan_transcript` time (CPU time, best
of 5, alternating, so that both see the same load on a shared machine) and their ratio (target: scan <= parse);
the same for a code-dense transcript (the blocks of tests/secrets/corpus.py as messages), for an agent reading
real code as OpenAI chat JSON (few, long messages, whose parse is little more than `json.loads`): Python's standard
library, and werkzeug, whose HTTP and authentication code names keys, tokens and passwords twice as often;
and for the scan and the masking an upload with secrets pays. Then findings per megabyte: the
sample transcripts, the generated prose, code and tool output, and the standard library's own source, by kind,
also as the JSON document of an agent reading it (code whose lines end in `\\n`);
detect-secrets' context-free entropy detectors at their default limits on the same text (why they are off);
and the entropy limit of the token-named detector against the share of random keys it keeps.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import random
import string
import sys
import sysconfig
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from detect_secrets.plugins.high_entropy_strings import (Base64HighEntropyString,  # noqa: E402
                                                         HexHighEntropyString)

from bench.parse import best_of  # noqa: E402
from tests.harness.gen import generate  # noqa: E402
from tests.secrets.corpus import Corpus, corpus  # noqa: E402
from viewer.ingest import mask_secrets  # noqa: E402
from viewer.parse import parse  # noqa: E402
from viewer.policy import Projection  # noqa: E402
from viewer.secrets import scan_text, scan_transcript  # noqa: E402
from viewer.secrets.anchors import DEFAULT_ENGINE, using  # noqa: E402
from viewer.secrets.assignments import NOT_SECRET_NAMES, TOKEN_NAMED, plausible, random_looking  # noqa: E402
from viewer.secrets.engines import NAMES  # noqa: E402

SAMPLES = Path(__file__).resolve().parent.parent / "sample_transcripts"
STDLIB = Path(sysconfig.get_paths()["stdlib"])


def ratio_row(label: str, text: str) -> tuple[str, str, str]:
    transcript = parse(text)
    (parse_time, _), (scan_time, found) = best_of(5, lambda: parse(text), lambda: scan_transcript(transcript),
                                                   clock=time.process_time)
    megabytes = len(text.encode("utf-8")) / 1_000_000
    return (f"{label} ({megabytes:.1f} MB, {len(transcript.messages):,} messages)",
            f"{scan_time / parse_time:.2f}x",
            f"scan {scan_time * 1000:.0f} ms, parse {parse_time * 1000:.0f} ms, {len(found)} findings; target <= 1x")


def masking_row(megabytes: float) -> tuple[str, str, str]:
    """Scan and mask (what an upload with secrets pays, `viewer.ingest.mask_secrets`) against parse, on a
    generated transcript with a GitHub token planted in one message of every 50."""
    text = with_planted_secrets(generate(megabytes))
    (parse_time, projection), (mask_time, examined) = best_of(
        3, lambda: Projection.of(parse(text)), lambda: mask_secrets(Projection.of(parse(text))),
        clock=time.process_time)
    masking = mask_time - parse_time  # mask_secrets' run parses too: the difference is the scan and the masking
    return (f"scan and mask, one secret per 50 messages ({megabytes:.0f} MB)", f"{masking / parse_time:.2f}x",
            f"scan+mask {masking * 1000:.0f} ms, parse+policy {parse_time * 1000:.0f} ms, "
            f"{sum(examined.secret_kinds.values())} secrets; target <= 1x")


def with_planted_secrets(text: str) -> str:
    rng = random.Random(2)
    pieces = text.split("<|end|>")
    for number in range(0, len(pieces) - 1, 50):
        token = "ghp_" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(36))
        pieces[number] += f" token {token} "
    return "<|end|>".join(pieces)


def dense_transcript(megabytes: float) -> str:
    """The corpus's blocks as Harmony messages: user prose, assistant code, tool output."""
    writer, parts, size = Corpus(5), [], 0
    while size < megabytes * 1_000_000:
        block = writer.block()
        role = "tool" if block.startswith(("commit", "{")) else writer.random.choice(("user", "assistant"))
        head = "<|start|>functions.shell to=assistant<|channel|>commentary" if role == "tool" else \
            f"<|start|>{role}" + ("<|channel|>final" if role == "assistant" else "")
        parts.append(f"{head}<|message|>{block}<|end|>")
        size += len(parts[-1].encode("utf-8"))
    return "".join(parts)


def standard_library(with_tests: bool = False) -> list[tuple[Path, str]]:
    """The standard library's Python files (without its test suites unless asked), in name order."""
    paths = sorted(path for path in STDLIB.rglob("*.py") if "site-packages" not in path.parts
                   and (with_tests or not {"test", "tests"} & set(path.parts)))
    return [(path, path.read_text(encoding="utf-8", errors="replace")) for path in paths]


def package_source(name: str) -> list[tuple[Path, str]]:
    """An installed package's Python files, in name order."""
    folder = Path(importlib.util.find_spec(name).origin).parent
    return [(path, path.read_text(encoding="utf-8", errors="replace")) for path in sorted(folder.rglob("*.py"))]


def agent_reading_code(megabytes: float, files: list[tuple[Path, str]]) -> str:
    """An OpenAI chat transcript in which an assistant reads the files, one tool call each."""
    messages: list[dict] = [{"role": "user", "content": "Read this code and explain how it is laid out."}]
    size = 0
    for number, (path, text) in enumerate(files):
        if size >= megabytes * 1_000_000:
            break
        call = {"id": f"call_{number}", "type": "function",
                "function": {"name": "read_file", "arguments": json.dumps({"path": str(path)})}}
        messages += [{"role": "assistant", "content": None, "tool_calls": [call]},
                     {"role": "tool", "tool_call_id": f"call_{number}", "content": text}]
        size += len(text.encode("utf-8"))
    return json.dumps({"messages": messages}, indent=1)


def rate(label: str, texts: list[str], count) -> tuple[str, str, str]:
    megabytes = sum(len(text.encode("utf-8")) for text in texts) / 1_000_000
    kinds: Counter[str] = Counter()
    for text in texts:
        kinds.update(count(text))
    total = sum(kinds.values())
    return (f"{label} ({megabytes:.2f} MB)", f"{total / megabytes:.1f}/MB",
            f"{total} findings" + (f": {dict(kinds.most_common(6))}" if kinds else ""))


def entropy_plugins(text: str) -> Counter[str]:
    """detect-secrets' context-free entropy detectors at their default limits, on quoted strings (as it scans
    source files), line by line."""
    found: Counter[str] = Counter()
    for plugin in (Base64HighEntropyString(), HexHighEntropyString()):
        for line in text.splitlines():
            found[plugin.secret_type] += len(plugin.analyze_line(filename="transcript.py", line=line))
    return +found


def token_named_values(text: str) -> list[str]:
    """Every value the token-named detector weighs by its entropy: after a token-ish name (not a pagination
    cursor's), and not a placeholder, path, UUID or ID."""
    values = []
    for match in TOKEN_NAMED.finditer(text):
        value, name = match["value"].rstrip("."), text[match.start():match.start("value")]
        if not NOT_SECRET_NAMES.search(text, max(0, match.start() - 24), match.start("value")) \
                and plausible(value, name):
            values.append(value)
    return values


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__)
    arguments.add_argument("--megabytes", type=float, nargs="+", default=[1.0, 10.0])
    arguments.add_argument("--corpus", type=float, default=1.0, help="megabytes of generated prose and code")
    arguments.add_argument("--engine", choices=NAMES, default=DEFAULT_ENGINE,
                           help=f"the anchor engine (default here: {DEFAULT_ENGINE})")
    options = arguments.parse_args()
    print(f"anchor engine: {options.engine}")
    with using(options.engine):
        rows = measure(options)
    width = max(len(row[0]) for row in rows)
    for label, figure, note in rows:
        print(f"{label:<{width}}  {figure:>8}  {note}")


def measure(options: argparse.Namespace) -> list[tuple[str, str, str]]:
    rows = [ratio_row("gen.py Harmony", generate(megabytes)) for megabytes in options.megabytes]
    rows += [masking_row(megabytes) for megabytes in options.megabytes]
    rows.append(ratio_row("code-dense Harmony", dense_transcript(options.corpus)))
    rows.append(ratio_row("agent reading the standard library, OpenAI JSON",
                          agent_reading_code(options.corpus, standard_library())))
    rows.append(ratio_row("agent reading werkzeug (HTTP, auth), OpenAI JSON",
                          agent_reading_code(options.corpus, package_source("werkzeug"))))
    samples = [path.read_text(encoding="utf-8", errors="replace") for path in sorted(SAMPLES.iterdir())
               if path.is_file()]
    generated = [corpus(options.corpus, seed=3)]
    by_kind = lambda text: Counter(finding.kind for finding in scan_text(text))  # noqa: E731
    library = [text for _, text in standard_library()]
    tests = [text for path, text in standard_library(with_tests=True) if {"test", "tests"} & set(path.parts)]
    in_document = lambda text: Counter(found.finding.kind for found in scan_transcript(parse(text))  # noqa: E731
                                       if found.field == "source")
    rows += [rate("findings, sample transcripts", samples, by_kind),
             rate("findings, generated prose/code/tool output", generated, by_kind),
             rate("findings, Python standard library source", library, by_kind),
             rate("findings, the same as an agent's OpenAI JSON (escaped)",
                  [agent_reading_code(100, standard_library())], in_document),
             rate("findings, its test suites (literal test passwords)", tests, by_kind),
             rate("detect-secrets entropy defaults, samples", samples, entropy_plugins),
             rate("detect-secrets entropy defaults, generated", generated, entropy_plugins)]
    values = token_named_values(generated[0]) + [value for text in samples for value in token_named_values(text)]
    rng = random.Random(1)
    keys = ["".join(rng.choice(string.ascii_letters + string.digits) for _ in range(rng.randint(16, 40)))
            for _ in range(2000)]
    for limit in (3.0, 3.5, 4.0, 4.5):
        kept = sum(random_looking(key, limit) for key in keys) / len(keys)
        passed = sum(random_looking(value, limit) for value in values)
        rows.append((f"token-named entropy limit {limit}", f"{kept:.1%}",
                     f"of random 16-40 character keys kept; {passed} of {len(values)} token-named values in the "
                     "secret-free text pass the entropy test"))
    return rows


if __name__ == "__main__":
    main()
