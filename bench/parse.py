"""Parse benchmark: a generated Harmony transcript (≥ 30 MB, ≥ 100k messages, from tests/harness/gen.py) through the
Harmony parser, and the same conversations as ChatML and as JSON (tests/harness/formats.py) through theirs.

Run: `.venv/bin/python bench/parse.py [--megabytes 30]`. Prints the input's size and message count, the parse
time (best of 3), throughput, peak memory while parsing (tracemalloc, a separate run because tracing slows
Python down), and the time of one `re.finditer` pass over the control tokens of the same text, which is the
yardstick of the targets: parse ≤ 5× that pass, ≥ 100 MB/s, peak memory ≤ 10× the input. Then the ChatML and
JSON importers (target ≥ 50 MB/s) and the whole `parse()` of each, with their speed beside the Harmony importer's,
measured alternately in the same process. Then the whole `parse()` of the frameworks' and evaluation tools' JSON
shapes (tests/harness/framework_shapes.py: OpenTelemetry, Inspect AI's log and .eval archive, LangChain, the AI
SDK; target ≥ 20 MB/s), in CPU time, each beside the plain OpenAI JSON of the same size (`--frameworks` runs only
these), and of the API records (tests/harness/api_formats.py: Gemini, batches, Ollama, preference pairs; `--apis`).
Then the raw-template importers (Llama 3, Gemma, Mistral, DeepSeek, Phi; target ≥ 30 MB/s) on the same
conversations as each family's template writes them (tests/harness/templates.py; `--templates`). The importer
rows include a Claude Code session of the same size (tests/harness/agents.py) through its importer.
"""
from __future__ import annotations

import argparse
import gc
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.harness.api_formats import SHAPES as API_SHAPES  # noqa: E402
from tests.harness.agents import claude_code  # noqa: E402
from tests.harness.formats import chatml, openai_json  # noqa: E402
from tests.harness.framework_shapes import SHAPES  # noqa: E402
from tests.harness.gen import generate  # noqa: E402
from tests.harness.templates import RENDERERS, raw_prompt  # noqa: E402
from viewer.parse import ParseOptions, parse, read_as  # noqa: E402
from viewer.parse.agents import parse_claude_code  # noqa: E402
from viewer.parse.chatml import parse_chatml  # noqa: E402
from viewer.parse.harmony import parse_harmony  # noqa: E402
from viewer.parse.json import parse_json  # noqa: E402
from viewer.parse.harmony.tokens import TOKEN_RE  # noqa: E402

def best_of(runs: int, *functions, clock=time.perf_counter) -> list[tuple[float, object]]:
    """Best time and last result of each function. The runs alternate between the functions so that both
    see the same load on a shared machine, which keeps their ratio honest; `clock=time.process_time` counts
    this process's CPU time alone."""
    best = [float("inf")] * len(functions)
    results: list[object] = [None] * len(functions)
    for _ in range(runs):
        for which, function in enumerate(functions):
            results[which] = None
            gc.collect()
            started = clock()
            results[which] = function()
            best[which] = min(best[which], clock() - started)
    return list(zip(best, results))


def regex_pass(text: str) -> int:
    count = 0
    for _ in TOKEN_RE.finditer(text):
        count += 1
    return count


def peak_memory(function) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__)
    arguments.add_argument("--megabytes", type=float, default=30.0)
    arguments.add_argument("--messages", type=int, default=100_000)
    arguments.add_argument("--frameworks", action="store_true", help="only the frameworks' JSON shapes")
    arguments.add_argument("--apis", action="store_true", help="only the API records' JSON shapes")
    arguments.add_argument("--templates", action="store_true", help="only the raw-template importers")
    options = arguments.parse_args()
    if options.frameworks or options.apis or options.templates:
        print_rows((framework_rows(options.megabytes) if options.frameworks else [])
                   + (api_rows(options.megabytes) if options.apis else [])
                   + (template_rows(options.megabytes) if options.templates else []))
        return

    started = time.perf_counter()
    text = generate(options.megabytes, options.messages)
    generated = time.perf_counter() - started
    size = len(text.encode("utf-8"))
    megabytes = size / 1_000_000

    (regex_time, tokens), (parse_time, transcript) = best_of(
        3, lambda: regex_pass(text), lambda: parse_harmony(text, ParseOptions()))
    ((full_time, full),) = best_of(1, lambda: parse(text))
    memory = peak_memory(lambda: parse_harmony(text, ParseOptions()))
    count = len(transcript.messages)

    rows = [
        ("input", f"{megabytes:.1f} MB", f"{count:,} messages, {tokens:,} control tokens (generated in {generated:.1f} s)"),
        ("re.finditer pass", f"{regex_time * 1000:.0f} ms", f"{megabytes / regex_time:.0f} MB/s"),
        ("parse_harmony (best of 3)", f"{parse_time * 1000:.0f} ms",
         f"{megabytes / parse_time:.0f} MB/s, {count / parse_time:,.0f} messages/s"),
        ("ratio parse / regex", f"{parse_time / regex_time:.2f}x", "target <= 5x"),
        ("peak memory in parse", f"{memory / 1_000_000:.0f} MB", f"{memory / size:.2f}x the input, target <= 10x"),
        ("full parse() (+checks, pairing)", f"{full_time * 1000:.0f} ms",
         f"{megabytes / full_time:.0f} MB/s, {len(full.pairs):,} pairs, {len(full.diagnostics):,} diagnostics"),
        ("parser diagnostics", str(len(transcript.diagnostics)), "expected 0 on generated input"),
    ]
    rows += importer_rows(options.megabytes, megabytes / parse_time)
    rows += framework_rows(options.megabytes)
    rows += api_rows(options.megabytes)
    rows += template_rows(options.megabytes)
    print_rows(rows)


def print_rows(rows: list[tuple[str, str, str]]) -> None:
    width = max(len(row[0]) for row in rows)
    for label, figure, note in rows:
        print(f"{label:<{width}}  {figure:>10}  {note}")


def framework_rows(megabytes: float) -> list[tuple[str, str, str]]:
    """The whole `parse()` of each framework shape (best of 3, CPU time), alternating with plain OpenAI JSON of
    the same size, whose rate the ratio compares with (the machine's load weighs on both alike). An archive's
    size is what it unpacks to (the text that is parsed), its packed size beside it."""
    baseline = openai_json(megabytes)
    rows = []
    for name, make in SHAPES.items():
        data = make(megabytes)
        size = _unpacked_megabytes(data)
        (time_taken, transcript), (base_time, _) = best_of(
            3, lambda: parse(data), lambda: parse(baseline), clock=time.process_time)
        rate = size / time_taken
        base_rate = len(baseline.encode("utf-8")) / 1_000_000 / base_time
        count = len(transcript.messages) + sum(len(part.messages) for part in transcript.conversations)
        packed = f", {len(data) / 1_000_000:.1f} MB packed" if isinstance(data, bytes) else ""
        rows.append((f"parse() of {name}", f"{rate:.0f} MB/s",
                     f"target >= 20 MB/s; {size:.1f} MB{packed}, {count:,} messages, "
                     f"{len(transcript.conversations):,} conversations; {rate / base_rate:.2f}x OpenAI JSON's "
                     f"{base_rate:.0f} MB/s"))
    return rows


def _unpacked_megabytes(data: str | bytes) -> float:
    if isinstance(data, bytes):
        return len(parse(data).source.encode("utf-8")) / 1_000_000
    return len(data.encode("utf-8")) / 1_000_000


def importer_rows(megabytes: float, harmony_rate: float) -> list[tuple[str, str, str]]:
    """The ChatML and JSON importers, and the whole `parse()`, on the same conversations (best of 3 each,
    alternating)."""
    rows = []
    for name, make, importer in (("chatml", chatml, parse_chatml), ("json", openai_json, parse_json),
                                 ("claude_code", claude_code, parse_claude_code)):
        text = make(megabytes)
        size = len(text.encode("utf-8")) / 1_000_000
        (read_time, transcript), (full_time, full) = best_of(
            3, lambda: importer(text, ParseOptions()), lambda: parse(text))
        rate = size / read_time
        rows += [(f"{name}: input", f"{size:.1f} MB", f"{len(transcript.messages):,} messages"),
                 (f"parse_{name} (best of 3)", f"{read_time * 1000:.0f} ms",
                  f"{rate:.0f} MB/s, target >= 50 MB/s; {rate / harmony_rate:.2f}x the Harmony importer's MB/s"),
                 (f"full parse() of {name}", f"{full_time * 1000:.0f} ms",
                  f"{size / full_time:.0f} MB/s, {len(full.pairs):,} pairs, {len(full.diagnostics):,} diagnostics")]
    return rows


def api_rows(megabytes: float) -> list[tuple[str, str, str]]:
    """The API records (tests/harness/api_formats.py: Gemini, batch output, Ollama request and stream, preference
    pairs) through the whole `parse()`, in CPU time (best of 3, alternating with OpenAI chat JSON of the same
    size, whose rate is the yardstick: the machine is shared), target >= 20 MB/s."""
    rows = []
    yardstick = openai_json(megabytes)
    for name, make in API_SHAPES.items():
        text = make(megabytes)
        size = len(text.encode("utf-8")) / 1_000_000
        (time_taken, parsed), (openai_time, _) = best_of(3, lambda: parse(text), lambda: parse(yardstick),
                                                         clock=time.process_time)
        messages = len(parsed.messages) + sum(len(part.messages) for part in parsed.conversations)
        rate, openai_rate = size / time_taken, len(yardstick.encode("utf-8")) / 1_000_000 / openai_time
        rows += [(f"{name}: parse() (CPU)", f"{time_taken * 1000:.0f} ms",
                  f"{rate:.1f} MB/s on {size:.1f} MB, {messages:,} messages, {len(parsed.conversations):,} "
                  f"conversations; {rate / openai_rate:.2f}x OpenAI chat JSON's {openai_rate:.1f} MB/s")]
    return rows


def template_rows(megabytes: float) -> list[tuple[str, str, str]]:
    """Each raw-template importer, and the whole `parse()`, on its family's rendering of the same conversations
    (best of 3 each, alternating)."""
    rows = []
    for family in RENDERERS:
        text = raw_prompt(family, megabytes)
        size = len(text.encode("utf-8")) / 1_000_000
        def importer(text: str, options: ParseOptions, family: str = family) -> object:
            return read_as(family, text, options)
        (read_time, transcript), (full_time, full) = best_of(
            3, lambda: importer(text, ParseOptions()), lambda: parse(text))
        ((cpu_time, _),) = best_of(3, lambda: importer(text, ParseOptions()), clock=time.process_time)
        rows += [(f"{family}: input", f"{size:.1f} MB", f"{len(transcript.messages):,} messages"),
                 (f"parse_{family} (best of 3)", f"{read_time * 1000:.0f} ms",
                  f"{size / read_time:.0f} MB/s, target >= 30 MB/s"),
                 (f"parse_{family}, CPU time (best of 3)", f"{cpu_time * 1000:.0f} ms",
                  f"{size / cpu_time:.0f} MB/s: this process alone, on a machine others share"),
                 (f"full parse() of {family}", f"{full_time * 1000:.0f} ms",
                  f"{size / full_time:.0f} MB/s, {len(full.pairs):,} pairs, {len(full.diagnostics):,} diagnostics")]
    return rows


if __name__ == "__main__":
    main()
