"""This viewer beside two open-source tools people use instead to read Claude Code sessions, on the same sessions: a
generated text-heavy one (`text`: tests/harness/workday.py through bench/memory.py's `write_file`) and the Claude
Code samples repeated to the size, each copy's ids its own (`samples`: bench/memory.py's `sample_session_lines`). The
peers are claude-code-log (`claude-code-log FILE -o OUT.html`, one HTML file) and claude-code-transcripts
(`claude-code-transcripts json FILE -o DIR`, an index and pages of HTML). Both are installed at pinned versions into
a bench-only virtual environment, var/bench-peers/venv (made with `python3 -m venv` when missing, reused after),
never into the viewer's.

For each size: each peer's wall time to its HTML and its peak RSS, and `viewer render FILE -o OUT.html`'s, each run
under `/usr/bin/time` in a process of its own (so no two peaks mix), with its CPU time (user + system: what to
compare by on a shared machine), and `viewer render --view debug`'s (the default view writes a tool call as one line
without its output, which the peers write whole; the debug view writes every field); then the file uploaded over
loopback to a `viewer serve` of its own (bench/memory.py's server): the time to its first page, the time until it is
stored whole (its search answers), and the server's peak RSS (Linux `VmHWM`). Each tool's HTML is searched for the
first sentences of up to 20 of the session's prompts, spread from the first to the last, to show it read the whole
file (the samples' copies say the same words: there it shows only that a tool showed them); what a tool prints about
lines it rejects or skips is shown under the table. Prints one Markdown table, then the ratios: our time and peak RSS
over the faster and the lighter peer's. Asserts nothing.

`--inspect` adds Inspect AI's own reader (`inspect_ai.log.read_eval_log`, installed in the same bench environment)
beside `viewer render` of the Inspect logs in sample_transcripts/.

Run: `.venv/bin/python bench/peers.py [--sizes 20 100] [--sessions text samples] [--inspect]` (sizes in MB, 300
allowed; the first run installs the peers from PyPI; 100 MB takes a few minutes a session and about three times the
file's size in disk space).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.memory import served, write_file  # noqa: E402

PEERS = {"claude-code-log": "1.7.0", "claude-code-transcripts": "0.6"}
"""The peers' versions measured (the newest on PyPI on 2026-11-29)."""
INSPECT_AI = "0.3.285"
"""Inspect AI's version for `--inspect`."""
VENV = ROOT / "var" / "bench-peers" / "venv"
TIMEOUT = 3600
"""Seconds any one run may take before it is stopped and shown as failed."""
PROMPTS_CHECKED = 20
SESSIONS = ("text", "samples")
"""The sessions measured: bench/memory.py's kinds."""
COMPLAINT = re.compile(r"error|warning|skipping|invalid|failed", re.IGNORECASE)


# ---- the peers' environment ---------------------------------------------------------------------------

def peer_venv(extra: dict[str, str] | None = None) -> Path:
    """The bench-only venv with the pinned peers (and `extra` pins) installed; pip leaves a pin already there."""
    if not (VENV / "bin" / "python").exists():
        subprocess.run(["python3", "-m", "venv", str(VENV)], check=True, timeout=600)
    pins = [f"{name}=={version}" for name, version in {**PEERS, **(extra or {})}.items()]
    subprocess.run([str(VENV / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    *pins], check=True, timeout=1800)
    return VENV


def peer_commands(venv: Path, session: Path, out: Path) -> dict[str, tuple[list[str], Path]]:
    """Each tool's command turning one session file into HTML, and where its HTML goes (a file or a folder).

    claude-code-log: an `-o` ending in .html is one output file, always regenerated; a single file is read without
    its cache (cli.py, converter.convert_jsonl_to). claude-code-transcripts: `json` is its command for a local file
    (`local` picks one from ~/.claude); with `-o` it opens no browser and writes index.html and page-NNN.html."""
    return {
        "claude-code-log": ([str(venv / "bin" / "claude-code-log"), str(session), "-o",
                             str(out / "claude-code-log.html")], out / "claude-code-log.html"),
        "claude-code-transcripts": ([str(venv / "bin" / "claude-code-transcripts"), "json", str(session), "-o",
                                     str(out / "claude-code-transcripts")], out / "claude-code-transcripts"),
        "viewer render": ([sys.executable, "-m", "viewer", "render", str(session), "-o", str(out / "viewer.html")],
                          out / "viewer.html"),
        # The default view shows a tool call as Claude Code's terminal does, one line, its output left out of the
        # HTML; the peers write every tool's output, so the debug view (every field) is measured too.
        "viewer render --view debug": ([sys.executable, "-m", "viewer", "render", str(session), "--view", "debug",
                                        "-o", str(out / "viewer-debug.html")], out / "viewer-debug.html"),
    }


# ---- one timed run ------------------------------------------------------------------------------------

def timed_run(command: list[str], folder: Path) -> dict:
    """Run `command` under GNU time in `folder`: wall seconds, CPU seconds, peak RSS in bytes, exit status and what
    it printed. HOME is the folder, so a peer writes no cache or config into the real one."""
    times = folder / "time.txt"
    log = folder / "output.txt"
    with log.open("w") as output:
        try:
            finished = subprocess.run(["/usr/bin/time", "-f", "%e %M %U %S", "-o", str(times), *command],
                                      cwd=folder, env={**os.environ, "HOME": str(folder)}, stdout=output,
                                      stderr=subprocess.STDOUT, timeout=TIMEOUT)
            status = finished.returncode
        except subprocess.TimeoutExpired:
            status = "timeout"
    printed = log.read_text(errors="replace")
    if status == "timeout" or not times.exists():
        return {"status": status, "printed": printed}
    # GNU time writes "Command exited with non-zero status N" before its figures when the command fails.
    wall, peak_kb, user, system = times.read_text().split()[-4:]
    return {"status": status, "seconds": float(wall), "cpu": float(user) + float(system),
            "peak": int(peak_kb) * 1024, "printed": printed}


def serve_run(session: Path, folder: Path) -> dict:
    """Upload the session to a `viewer serve` of its own: first page, stored whole, the server's peak RSS."""
    timed = served(session, folder)
    return {"status": timed["status"], "seconds": timed["seconds"], "first_page": timed["first_page"],
            "cpu": timed["cpu"], "peak": timed["peak"], "printed": ""}


# ---- did it read the file -----------------------------------------------------------------------------

def prompt_sentences(session: Path, count: int = PROMPTS_CHECKED) -> list[str]:
    """The first sentence of up to `count` of the session's typed prompts, evenly spread, the last one included:
    plain words that any tool showing the prompt shows as they are."""
    prompts = []
    with session.open(encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            content = record.get("message", {}).get("content")
            if record.get("type") == "user" and isinstance(content, str):
                prompts.append(content.split(".")[0])
    step = max(1, len(prompts) // count)
    return prompts[::step][:count - 1] + prompts[-1:]


def html_files(target: Path) -> list[Path]:
    """The HTML a tool wrote: its one file, or every .html file of its folder."""
    if target.is_dir():
        return sorted(target.glob("*.html"))
    return [target] if target.exists() else []


def complaints(printed: str) -> list[str]:
    """The distinct lines a tool printed about errors, warnings or skipped lines (line numbers left out, so one
    complaint repeated on every line counts once), each with how often it came."""
    seen: dict[str, int] = {}
    for line in printed.splitlines():
        if COMPLAINT.search(line):
            key = re.sub(r"\d+", "N", line.strip())[:200]
            seen[key] = seen.get(key, 0) + 1
    return [f"{line} (×{times})" if times > 1 else line for line, times in seen.items()]


# ---- one size -----------------------------------------------------------------------------------------

def measure_size(kind: str, megabytes: float, venv: Path, folder: Path) -> list[dict]:
    """Every tool on one session of `kind` (bench/memory.py's kinds) and `megabytes`; the file and the outputs are
    removed after."""
    session = folder / "session.jsonl"
    size = write_file(kind, megabytes, session)
    sentences = prompt_sentences(session)
    rows = []
    try:
        for tool, (command, target) in peer_commands(venv, session, folder).items():
            run = timed_run(command, folder)
            text = "".join(path.read_text(encoding="utf-8", errors="replace") for path in html_files(target))
            run |= {"tool": tool, "kind": kind, "size": size,
                    "output": sum(path.stat().st_size for path in html_files(target)),
                    "found": sum(sentence in text for sentence in sentences), "checked": len(sentences)}
            del text  # up to some hundreds of MB: not kept while the next tool runs
            _remove(target)
            rows.append(run)
            print(f"  {_row(run)}", file=sys.stderr, flush=True)
        run = serve_run(session, folder) | {"tool": "viewer serve (upload → stored)", "kind": kind, "size": size}
        rows.append(run)
        print(f"  {_row(run)}", file=sys.stderr, flush=True)
    finally:
        session.unlink()
    return rows


def _remove(target: Path) -> None:
    if target.is_dir():
        shutil.rmtree(target)
    elif target.exists():
        target.unlink()


# ---- the table ----------------------------------------------------------------------------------------

def _row(run: dict) -> str:
    if "seconds" not in run or run["status"] not in (0, 201, 202):
        return f"| {run['tool']} | {run['kind']} {run['size'] / 1e6:.0f} MB | failed ({run['status']}) | | | | | |"
    first_page = f"{run['first_page']:.1f} s" if "first_page" in run else "—"
    output = f"{run['output'] / 1e6:.1f} MB" if "output" in run else "—"
    found = f"{run['found']}/{run['checked']}" if "found" in run else "—"
    return (f"| {run['tool']} | {run['kind']} {run['size'] / 1e6:.0f} MB | {run['seconds']:.1f} s | {first_page} | "
            f"{run['cpu']:.1f} s | {run['peak'] / 1e6:,.0f} MB | {output} | {found} |")


def ratio_lines(rows: list[dict]) -> list[str]:
    """Ours over the faster peer's time and the lighter peer's peak RSS, for the server and for `viewer render`."""
    peers = [row for row in rows if row["tool"] in PEERS and row["status"] == 0 and "seconds" in row]
    if not peers:
        return ["no peer finished: no ratios"]
    faster = min(peers, key=lambda row: row["seconds"])
    lighter = min(peers, key=lambda row: row["peak"])
    lines = []
    for ours in rows:
        if ours["tool"] in PEERS or "seconds" not in ours:
            continue
        name = ours["tool"].split(" (")[0]
        what = "until stored" if name == "viewer serve" else "to HTML"
        lines.append(f"- {name}, time {what} ÷ the faster peer's ({faster['tool']}, {faster['seconds']:.1f} s): "
                     f"{ours['seconds'] / faster['seconds']:.2f}×")
        if "first_page" in ours:
            lines.append(f"- {name}, time to first page ÷ the faster peer's: "
                         f"{ours['first_page'] / faster['seconds']:.2f}×")
        lines.append(f"- {name}, peak RSS ÷ the lighter peer's ({lighter['tool']}, {lighter['peak'] / 1e6:,.0f} MB): "
                     f"{ours['peak'] / lighter['peak']:.2f}×")
    return lines


def print_report(rows: list[dict], sessions: list[tuple[str, int]]) -> None:
    print(f"Peers: {', '.join(f'{name} {version}' for name, version in PEERS.items())}; "
          f"prompts found: first sentences of {PROMPTS_CHECKED} prompts from first to last, in the tool's HTML.\n")
    print("| tool | session | time to HTML / stored | first page | CPU | peak RSS | HTML written | prompts found |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for row in rows:
        print(_row(row))
    for kind, size in sessions:
        print(f"\n{kind}, {size / 1e6:.0f} MB:")
        print("\n".join(ratio_lines([row for row in rows if (row["kind"], row["size"]) == (kind, size)])))
    notes = [(row, line) for row in rows for line in complaints(row.get("printed", ""))]
    if notes:
        print("\nWhat the tools printed about errors, warnings or skipped lines:")
    for row, line in notes:
        print(f"- {row['tool']} on {row['kind']} at {row['size'] / 1e6:.0f} MB: {line}")


# ---- Inspect logs (--inspect) -------------------------------------------------------------------------

INSPECT_READ = "import sys; from inspect_ai.log import read_eval_log; log = read_eval_log(sys.argv[1]); " \
               "print(len(log.samples or []), 'samples')"
"""Inspect AI reading a whole log, samples included, as its own viewer and scripts do."""


def inspect_logs() -> list[Path]:
    """The sample Inspect logs: .eval archives, and the .json logs whose top level is an Inspect EvalLog."""
    logs = sorted((ROOT / "sample_transcripts").glob("*.eval"))
    for path in sorted((ROOT / "sample_transcripts").glob("*inspect*.json")):
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            continue
        if isinstance(document, dict) and "eval" in document:
            logs.append(path)
    return logs


def measure_inspect(venv: Path, folder: Path) -> None:
    print(f"\nInspect logs (sample_transcripts/): Inspect AI {INSPECT_AI}'s `read_eval_log` beside `viewer render` "
          "(files of a few KB: the times are mostly each program's start, its imports)\n")
    print("| log | size | read_eval_log | it read | its peak RSS | viewer render | its peak RSS |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for log in inspect_logs():
        theirs = timed_run([str(venv / "bin" / "python"), "-c", INSPECT_READ, str(log)], folder)
        ours = timed_run([sys.executable, "-m", "viewer", "render", str(log), "-o", str(folder / "viewer.html")],
                         folder)
        _remove(folder / "viewer.html")
        read = theirs["printed"].strip().splitlines()[-1:] if theirs["status"] == 0 else []
        print(f"| {log.name} | {log.stat().st_size / 1e3:,.0f} KB | {_short(theirs)} | {''.join(read)} | "
              f"{_short_peak(theirs)} | {_short(ours)} | {_short_peak(ours)} |")


def _short(run: dict) -> str:
    if run["status"] != 0 or "seconds" not in run:
        last = run["printed"].strip().splitlines()[-1:] or [""]
        return f"failed ({run['status']}): {last[0][:80]}"
    return f"{run['seconds']:.2f} s"


def _short_peak(run: dict) -> str:
    return f"{run['peak'] / 1e6:,.0f} MB" if "peak" in run else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[20, 100], help="session sizes in MB")
    parser.add_argument("--sessions", nargs="+", choices=SESSIONS, default=list(SESSIONS),
                        help="generated (text) or samples repeated (samples)")
    parser.add_argument("--inspect", action="store_true", help="also Inspect AI's reader on the sample Inspect logs")
    args = parser.parse_args()
    venv = peer_venv({"inspect_ai": INSPECT_AI} if args.inspect else None)
    rows: list[dict] = []
    sessions = []
    with tempfile.TemporaryDirectory(prefix="bench-peers-") as folder:
        for kind in args.sessions:
            for megabytes in args.sizes:
                print(f"{kind}, {megabytes:g} MB ...", file=sys.stderr, flush=True)
                measured = measure_size(kind, megabytes, venv, Path(folder))
                rows += measured
                sessions.append((kind, measured[0]["size"]))
        print_report(rows, sessions)
        if args.inspect:
            measure_inspect(venv, Path(folder))


if __name__ == "__main__":
    main()
