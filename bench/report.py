"""`make bench`: run every benchmark in turn and write docs/benchmarks.md from what each prints.

Run: `.venv/bin/python bench/report.py [--only parse web …] [--out docs/benchmarks.md]`. Each bench script runs
in its own process, as a reader would run it; its output is echoed while it runs and copied into the page as
printed, under a short fixed introduction (kept here, with the list of benches), the date, how long it took and
the machine (cores, CPU, Python, load average). With `--only`, the other benches' sections are kept from the
page as they were. The section "Earlier figures" and whatever follows it are written by hand and kept as they
are. A bench that fails is written as failed, with the end of its error output, and the command exits 1.
"""
from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "benchmarks.md"
KEPT_FROM = "## Earlier figures"
"""The hand-written part of the page starts at this heading; the report never rewrites it."""


@dataclass(frozen=True)
class Bench:
    """One script of `make bench` and what the page says about it before its figures."""

    name: str
    """The script is bench/<name>.py."""
    title: str
    about: str
    """What it measures and how to read it (Markdown); the targets it is read against."""
    args: tuple[str, ...] = ()
    """What `make bench` passes the script beyond its defaults."""

    @property
    def script(self) -> str:
        return f"bench/{self.name}.py"


BENCHES = (
    Bench("parse", "Parsing", """\
A generated Harmony transcript of 30 MB (tests/harness/gen.py: over 150,000 messages in every header shape)
through the Harmony importer, and the same conversations as ChatML (Qwen3/Hermes template) and OpenAI chat JSON
(tests/harness/formats.py) through theirs; each beside the whole `parse()` (checks and pairing included). The
yardstick is one `re.finditer` pass over the Harmony control tokens in the same process. Best of 3, the
importers alternating so that both see the same load. Targets: the Harmony importer within 5× the regex pass
and at most 10× the input in peak memory (tracemalloc); ChatML and JSON importers at 50 MB/s."""),
    Bench("web", "Big transcripts: upload, pages, exports, load", """\
Generated Harmony transcripts of 1, 10 and 50 MB (one message in a thousand 25,000–60,000 characters long),
each measurement in a fresh process. Upload → link through the Flask test client beside `parse()` of the same
bytes (target ≤ 1.5×; the upload includes the scan for secrets and storing in one transaction); pages served
over loopback (server time is the test client's; TTFB and total over loopback; median of 5, the first request
of a process "cold"); the streamed JSON twin and the `.md` and `.html` exports beside parse speed (target
≥ 0.5×); gunicorn (2 workers × 4 threads) under 8 client threads. RSS is the peak resident memory (Linux
`VmHWM`, reset before the step). The PostgreSQL rows run the same children on a throwaway local cluster with
PostgreSQL's durable defaults, as SQLite runs with `synchronous=FULL`. Budgets: first page under 100 ms
server time, serving under 200 MB, upload under 10× the input in memory, 50 MB upload → link under 5 s."""),
    Bench("agent_sessions", "Agent sessions beside Harmony", """\
A generated 50 MB Claude Code session (text only: tests/harness/agents.py, each response's blocks on lines of
their own, tool results as `user` lines) and a generated 50 MB Harmony transcript, each uploaded and its first
pages opened, every step in a fresh process (bench/web.py's children), the two alternating round by round; the
best of 2 rounds of each. Target: the session's upload → link and first pages no slower than Harmony's."""),
    Bench("search", "Search", """\
`GET /t/<id>/search` inside generated Harmony transcripts of 1, 10 and 50 MB, on SQLite (FTS5) and PostgreSQL
(`tsvector`, GIN): a common word, a rare word, a phrase, no match and a call id only headers hold, in both
views (server time, median of 5 after a warm-up), beside the same app's first page; then the same upload with
indexing switched off, for what the index adds to upload time and database size."""),
    Bench("across", "Search across your transcripts", """\
`GET /transcripts/search` for one owner key holding 1,000 generated Harmony transcripts of 1 MB (1 GB of text),
with another owner's 100 stored after them, on SQLite (FTS5) and PostgreSQL (`tsvector`, GIN): the first window
of results (20 transcripts, 3 matches each) for a common word, a word in five transcripts, a word in one, a
phrase and no match, in both views, and the common word's next window (server time, median of 5 after a
warm-up); the list's first and last windows (`GET /transcripts`) beside them. Target: under 100 ms on SQLite."""),
    Bench("datasets", "Datasets", """\
JSON Lines files of 1,000, 10,000 and 100,000 generated conversations (tests/harness/datasets.py: chat
messages with tool calls, reasoning and system prompts): parse, upload → link and its peak RSS, then the
server time of the dataset's index and of a conversation near the end, beside a small transcript's first
page served by the same app (the ratio in brackets). Pages should stay flat as the dataset grows."""),
    Bench("exports", "Chat app exports", """\
A generated ChatGPT export of 10,000 conversations, about 200 MB (tests/harness/exports.py: nodes in no useful
order, custom instructions, an edited question, reasoning, code interpreter calls), uploaded through the test
client; then the server time of its index (first window, window near the end) and of a conversation near the
end (default view, debug view, another branch chosen), beside two small transcripts' first pages served by the
same app (the ratios in brackets): the weather sample's (a few messages) and a 300-message one's (a whole window
of 100, as the index draws a window of 100 rows). Target: the index and the conversation as fast as a first page."""),
    Bench("memory", "Memory of one big upload", """\
A generated Claude Code session (about 95% of its bytes base64 screenshots, the first line a short prompt), a
generated JSON Lines dataset (tests/harness/datasets.py), a generated Harmony transcript (tests/harness/gen.py) and
its conversations as ChatML (tests/harness/formats.py), 8 and 32 MB each, then the session and the dataset at
1 GiB (1074 MB) and Harmony and ChatML at 256 MB, every one uploaded over loopback to a `viewer serve` of its own
(a subprocess, so that the peak RSS, Linux `VmHWM`, is the serving process's alone): the answer's time, the first
page's (the transcript, not its progress page), the time until it is stored whole and searchable, idle RSS, peak
RSS, and the peak as a multiple of the file (whole, and above idle). The body is spooled to disk; datasets of 16 MB and more
are parsed and stored 4 MB of lines at a time; sessions of 8 MiB and more are parsed from a thin text, their image
payloads cut out a line at a time (viewer/parse/thinning.py); Harmony and ChatML are parsed whole, their plain
messages' bodies left in the text (viewer/model/pieces.py). Targets (issue 29): a session or a dataset of 1 GiB
≤ 512 MB; Harmony and ChatML ≤ 6× their size up to 256 MB.""",
          ("--gib", "session", "dataset", "--whole-at-256", "harmony", "chatml")),
    Bench("secret_scan", "The scan for secrets", """\
The scan every upload passes, against `parse()` of the same text (CPU time, best of 5, alternating; target:
scan ≤ parse): generated Harmony transcripts, the same with a GitHub token in one message of 50 (scan and
mask), code-dense text, and an agent reading real code as OpenAI chat JSON (Python's standard library, and
werkzeug, whose HTTP and authentication code names keys and passwords twice as often). Then findings per
megabyte on text without secrets (false positives), detect-secrets' entropy detectors at their defaults on
the same text (why they are off), and the entropy limit of the token-named detector."""),
    Bench("images", "Pasted images", """\
A generated Claude Code session of 30 MB whose bytes are nearly all base64 screenshots (1280 × 800 PNGs of a
few hundred kilobytes, each distinct): `parse()`, which decodes, hashes and checks every image with Pillow,
beside the least work any reading of them needs (base64-decode and SHA-256 of every payload); upload → link
(parse, scan, each image re-encoded without metadata and stored once) with its peak RSS; the same upload again,
every image already stored; and the media route's thumbnail and full-size answers (server time). The issue's
300 MB session in Chromium: bench/images_browser.py, next."""),
    Bench("images_browser", "A 300 MB session of screenshots in Chromium", """\
A generated Claude Code session of 300 MB (922 distinct 1280 × 800 screenshots, nearly all of its bytes base64),
written to disk a line at a time, uploaded over loopback to a `viewer serve` of its own (answered 202, processed
after) and opened by Playwright driving Chromium (/usr/bin/chromium) as a reader would: upload → link; link →
page readable (the progress page becomes the transcript by itself); per view, a fresh page's time until the
thumbnails of its first screenful have loaded (naturalWidth > 0) and the thumbnails of its first window; the
whole processing; the server's peak RSS (`VmHWM`) beside its idle RSS. Screenshots of both views go to
test-artifacts/. The suite's test of the same, on a 3 MB session: tests/system/browser/test_images_many.py."""),
    Bench("sooner", "Readable sooner: first page of a big upload", """\
One generated 10 MB Harmony transcript uploaded through the Flask test client, each upload right after a
`parse()` of the same bytes (the ratio of the two is taken per round: the machine's load moves between them
otherwise), the round of the median ratio of 3 shown: processed in the request (201, today's path below the
threshold) and answered first (202, `VIEWER_DEFER_UPLOAD_BYTES` under its size), its page asked for as soon as
the store says its first page can be served (its first two windows' rows stored: viewer/store/staged.py), which
its progress page's event stream asks every 0.5 s. On SQLite and on a
throwaway PostgreSQL cluster with durable settings, there with rows sent by COPY and, for comparison, by
executemany. Targets: first page served ≤ 2× parse on SQLite, ≤ 4× on PostgreSQL."""),
    Bench("tool_runs", "Long runs of tool calls", """\
An agent's run of 25,000 and 50,000 tool calls and replies with nothing shown between them, which the default
view collapses into one marker: upload, first page and the `.json`, `.md` and `.html` downloads, each beside
`parse()` of the same bytes. They should grow linearly with the run, not with its square."""),
)

HAND_RUN = """\
Not part of `make bench` (slow, or needing extras), each run alone with `.venv/bin/python bench/<name>.py`
(`--help` for options):

- `vs_harmony.py`: our `parse()` beside openai-harmony's own text → messages on a 10 MB transcript, checking
  both read the same messages (needs `pip install -e '.[bench]'` and the vocabulary `make setup` builds).
- `versus.py --base <checkout>`: `parse()` of this tree beside another checkout's, in one process, results
  checked identical (for a speed change: `git worktree add --detach /tmp/base <commit>` first).
- `live.py`: what one live append costs with 1 MB and 10 MB already stored.
- `compare.py`: `/compare/<a>/<b>` on 1 and 10 MB transcripts.
- `render.py`: Markdown and Pygments rendering of 100 short answers.
- `hostile.py`: every Pygments lexer against classic super-linear inputs through the bounded highlighter, then
  every view and export of transcripts holding the slow blocks; `--twins`: hostile samples beside their twins.
- `load.py`: gunicorn under a bounded loopback load.
- `crash.py`: uploads while gunicorn is killed with SIGKILL; nothing confirmed may be lost.
- `fuzz.py`, `secret_fuzz.py`: long fuzz runs of parse, policy and render, and of the secret masking.
- `snapshot.py OUT`: every answer of the CLI and the web app for every sample, to compare two versions byte
  for byte (`diff -r`)."""


@dataclass(frozen=True)
class Run:
    output: str
    errors: str
    status: int
    seconds: float


def _copy(stream, into: list[str], echo) -> None:
    """Keep what a bench prints and show it as it comes: a bench may run for many minutes."""
    for line in stream:
        into.append(line)
        echo.write(line)
        echo.flush()


def run(bench: Bench) -> Run:
    print(f"== {bench.script}", flush=True)
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, bench.script, *bench.args], cwd=ROOT, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    output: list[str] = []
    errors: list[str] = []
    readers = [threading.Thread(target=_copy, args=(process.stdout, output, sys.stdout)),
               threading.Thread(target=_copy, args=(process.stderr, errors, sys.stderr))]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join()
    status = process.wait()
    return Run("".join(output), "".join(errors), status, time.perf_counter() - started)


def machine() -> str:
    """The facts that decide how far figures from two runs compare."""
    cpu = next((line.split(":", 1)[1].strip() for line in _lines("/proc/cpuinfo")
                if line.startswith("model name")), platform.processor() or "unknown CPU")
    return (f"{os.cpu_count()} cores ({cpu}), Python {platform.python_version()}, "
            f"{platform.system()} {platform.release()}")


def _lines(path: str) -> list[str]:
    try:
        return Path(path).read_text().splitlines()
    except OSError:
        return []


def _load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def section(bench: Bench, result: Run, load_before: str) -> str:
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    facts = (f"`{bench.script}`, finished {when} after {result.seconds / 60:.1f} min on {machine()}; "
             f"load average {load_before} before, {_load()} after.")
    figures = result.output.rstrip("\n") or "(it printed nothing)"
    text = [facts, "", "```text", figures, "```"]
    if result.status != 0:
        tail = "\n".join(result.errors.rstrip("\n").splitlines()[-20:])
        text += ["", f"**It failed** (exit status {result.status}); the end of what it wrote on stderr:", "",
                 "```text", tail, "```"]
    elif result.errors.strip():
        text += ["", "It also said, on stderr:", "", "```text", result.errors.rstrip("\n"), "```"]
    return "\n".join(text)


def _begin(bench: Bench) -> str:
    return f"<!-- figures of {bench.script}: written by bench/report.py -->"


def _end(bench: Bench) -> str:
    return f"<!-- end of {bench.script} -->"


def earlier_sections(page: str) -> dict[str, str]:
    """Each bench's figures as the page holds them, by script."""
    found = {}
    for bench in BENCHES:
        match = re.search(re.escape(_begin(bench)) + r"\n(.*?)\n" + re.escape(_end(bench)), page, re.DOTALL)
        if match:
            found[bench.name] = match[1]
    return found


def page(figures: dict[str, str], kept: str) -> str:
    parts = ["# Benchmarks", "",
             "Written by `make bench` (bench/report.py), which runs each bench below in turn and copies what it",
             "prints. Tests never assert these figures. The reference machine is shared, so a figure is an upper",
             "bound: compare runs made back to back, or use `bench/versus.py`, which alternates two checkouts in",
             "one process. Each bench prints its own targets beside its figures.", ""]
    parts += [f"- [{bench.title}](#{_anchor(bench.title)}): `{bench.script}`" for bench in BENCHES]
    parts += ["- [Other benches](#other-benches)", f"- [Earlier figures](#{_anchor(KEPT_FROM[3:])})", ""]
    for bench in BENCHES:
        parts += [f"## {bench.title}", "", bench.about, "",
                  f"Alone: `.venv/bin/python {bench.script}` (`--help` for sizes and options).", "",
                  _begin(bench), figures.get(bench.name, "Not run yet: `make bench` writes it."), _end(bench), ""]
    parts += ["## Other benches", "", HAND_RUN, ""]
    return "\n".join(parts) + "\n" + kept


def _anchor(title: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--only", nargs="+", choices=[bench.name for bench in BENCHES],
                           help="run these benches; keep the others' figures from the page")
    arguments.add_argument("--out", type=Path, default=PAGE)
    options = arguments.parse_args()
    before = options.out.read_text() if options.out.exists() else ""
    figures = earlier_sections(before)
    kept = before[before.index(KEPT_FROM):] if KEPT_FROM in before else ""
    failed = []
    for bench in BENCHES:
        if options.only and bench.name not in options.only:
            continue
        load = _load()
        result = run(bench)
        figures[bench.name] = section(bench, result, load)
        if result.status != 0:
            failed.append(bench.script)
        # Written after each bench, so that an interrupted run keeps what it measured.
        options.out.write_text(page(figures, kept))
    print(f"wrote {options.out.relative_to(ROOT) if options.out.is_relative_to(ROOT) else options.out}")
    if failed:
        sys.exit(f"failed: {', '.join(failed)}")


if __name__ == "__main__":
    main()
