"""Hostile-time harness (not a timed test): which Pygments lexers are slow on which classic super-linear inputs,
and how long every view and export of a transcript holding them takes to answer.

Run: `.venv/bin/python bench/hostile.py [--short 64] [--long 2000] [--lexers scala,python] [--skip-server]`

1. The sweep: every Pygments lexer (each class once, under its first alias, with our own lexers) against each
   input: runs of backslashes, quotes, spaces, `/*`, `<!--`, `${`, brackets, a long identifier, each alone,
   inside an opened string and after an opened comment; `--short` characters (exponential patterns show at a
   few dozen) and, alone and in a string, `--long` (polynomial ones). Each block goes through the bounded
   highlighter (viewer/render/workers.py) in a fresh answer, so one that backtracks is cut at the deadline
   (viewer/render/budget.py); a cut one is "slow".
2. The server: `viewer serve` on 127.0.0.1 (a free port, a throwaway SQLite database), one transcript uploaded
   per slow lexer (each slow input a message of its own, as a fenced block) and one holding every slow block;
   then each transcript's default and debug pages, window fragments, message and source parts, the context
   page, a search, a compare with itself and the `.json`, `.md` and `.html` exports of both views are opened,
   each timed. After each transcript, the CPU the server's processes (the server and its highlighting workers)
   used in the half second after its last answer is measured: it should be none.

3. With `--twins`: the repository's hostile samples beside their non-hostile twins. Each payload of the hostile
   corpus (tests/system/hostile: every payload in every field, in the dialects of `--dialects`) against the same
   transcript with `x` of the same length instead, and the issue's Scala block (`"` and 48 or 64 backslashes)
   against a block of `a` of the same length; each uploaded and every view and export opened, the twin's answer
   first. Prints how much slower each hostile answer was than its twin's, the worst first: none should be by
   more than the deadline.

Prints the lexers cut in the sweep, the slowest answers, the server's CPU after answering, and the total time.
Every loop is bounded by the lexers, inputs, samples and views listed; nothing is retried.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pygments.lexers import get_all_lexers  # noqa: E402

from viewer.render import budget, workers  # noqa: E402
from viewer.render.jobs import Job  # noqa: E402

RUNS = {"backslashes": "\\", "double quotes": '"', "single quotes": "'", "spaces": " ", "comment openers": "/*",
        "html comment openers": "<!--", "template openers": "${", "square brackets": "[", "parentheses": "(",
        "braces": "{", "identifier": "a", "escaped quotes": '\\"'}
"""Classic super-linear inputs: what each run repeats."""
CONTEXTS = {"alone": "{}", "in a string": '"{}', "in a single-quoted string": "'{}", "after a comment": "/* {}",
            "after a line comment": "# {}", "after an html comment": "<!-- {}"}
"""Where a run stands: alone, inside an opened string, after an opened comment (none of them closed)."""
LONG_CONTEXTS = ("alone", "in a string")
OUR_LEXERS = ("harmony", "openchatml", "chatml")


def inputs(short: int, long: int) -> list[tuple[str, str]]:
    """(label, text) of every input: each run in each context at `short` characters, and in the long contexts
    at `long`."""
    made = []
    for run_name, unit in RUNS.items():
        for size, contexts in ((short, CONTEXTS), (long, LONG_CONTEXTS)):
            run = (unit * size)[:size] if len(unit) == 1 else unit * (size // len(unit))
            for context in contexts:
                made.append((f"{run_name} ×{size} {context}", CONTEXTS[context].format(run)))
    return made


def lexer_aliases(only: list[str] | None) -> list[str]:
    """Each lexer once, by its first alias (our own lexers included)."""
    if only:
        return only
    aliases = [names[0] for _, names, _, _ in get_all_lexers() if names]
    return sorted(set(aliases) | set(OUR_LEXERS))


def sweep(aliases: list[str], cases: list[tuple[str, str]]) -> tuple[dict[str, list[tuple[str, str]]], float]:
    """Every (lexer, input) through the bounded highlighter, each in an answer of its own; the inputs cut."""
    slow: dict[str, list[tuple[str, str]]] = {}
    started = time.monotonic()

    def one_lexer(alias: str) -> tuple[str, list[tuple[str, str]]]:
        cut = []
        for label, text in cases:
            with budget.answering():
                html, note, transient = workers.POOL.run([Job("lex", text, alias)], budget.current())[0]
            if html is None and note is not None:
                cut.append((label, text))
        return alias, cut

    with ThreadPoolExecutor(max_workers=workers.POOL.size) as threads:
        for done, (alias, cut) in enumerate(threads.map(one_lexer, aliases), 1):
            if cut:
                slow[alias] = cut
                print(f"  {alias}: {len(cut)} of {len(cases)} inputs cut ({', '.join(label for label, _ in cut[:4])}"
                      f"{', …' if len(cut) > 4 else ''})", flush=True)
            if done % 100 == 0:
                print(f"  … {done} of {len(aliases)} lexers in {time.monotonic() - started:.0f} s", flush=True)
    return slow, time.monotonic() - started


# -- the server -------------------------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(folder: Path) -> tuple[subprocess.Popen, int]:
    port = free_port()
    env = {**os.environ, "VIEWER_PRELOAD_SAMPLES": "false", "VIEWER_SECRET_KEY": "hostile-bench"}
    server = subprocess.Popen([sys.executable, "-m", "viewer", "serve", "--host", "127.0.0.1", "--port", str(port),
                               "--db", f"sqlite:///{folder}/viewer.db"], cwd=folder, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):  # 20 s at most
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return server, port
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the server did not start")


class Client:
    """One browser: the uploader's cookie kept, so the debug view opens."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookie = ""

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, bytes, float]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        sent = {**(headers or {}), **({"Cookie": self.cookie} if self.cookie else {})}
        started = time.perf_counter()
        connection.request(method, path, body=body, headers=sent)
        response = connection.getresponse()
        data = response.read()
        took = time.perf_counter() - started
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                self.cookie = "; ".join(filter(None, [self.cookie, value.split(";", 1)[0]]))
        connection.close()
        return response.status, data, took

    def upload(self, raw: bytes) -> str:
        status, data, _ = self.request("POST", "/api/transcripts", raw)
        if status not in (201, 202):
            raise SystemExit(f"upload answered {status}: {data[:200]!r}")
        created = json.loads(data)
        self.request("GET", created["manage_url"])  # the uploader's browser owns it: the debug view opens
        for _ in range(600):  # a big upload is processed after its answer: 60 s at most
            if self.request("GET", f"/t/{created['id']}.json")[0] == 200:
                break
            time.sleep(0.1)
        return created["id"]


def harmony(blocks: list[tuple[str, str, str]]) -> bytes:
    """A Harmony transcript: a question, then one assistant answer per (lexer, label, text) as a fenced block."""
    parts = ["<|start|>user<|message|>Show me the hostile blocks<|end|>"]
    for alias, label, text in blocks:
        parts.append(f"<|start|>assistant<|channel|>final<|message|>{alias}, {label}:\n\n```{alias}\n{text}\n```\n"
                     "<|end|>")
    return "".join(parts).encode()


def views(id: str, messages: int) -> list[tuple[str, dict[str, str]]]:
    """Every view and export of a transcript, with the headers an htmx fragment is asked with."""
    htmx = {"HX-Request": "true"}
    last = messages - 1
    paths: list[tuple[str, dict[str, str]]] = []
    for view in ("", "view=debug"):
        joined = f"?{view}" if view else ""
        extra = f"&{view}" if view else ""
        paths += [(f"/t/{id}{joined}", {}), (f"/t/{id}/window?start=0{extra}", htmx),
                  (f"/t/{id}/messages/{last}?part=body{extra}", htmx),
                  (f"/t/{id}.json{joined}", {}), (f"/t/{id}.md{joined}", {}), (f"/t/{id}.html{joined}", {}),
                  (f"/t/{id}/search?q=hostile{extra}", {}), (f"/compare/{id}/{id}{joined}", {})]
    paths += [(f"/t/{id}/messages/{last}?part=source&view=debug", htmx), (f"/t/{id}/context/{last}", {})]
    return paths


def process_tree_cpu(pid: int) -> float:
    """CPU seconds (user and system) of a process and its children so far, from /proc."""
    total = 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    pids = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*"):  # a worker is the child of the thread that started it
        try:
            pids += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            continue
    for each in pids:
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def settle(pid: int) -> None:
    """Wait (10 s at most) until the server's processes are idle: a new server starts a worker in the background."""
    for _ in range(50):
        before = process_tree_cpu(pid)
        time.sleep(0.2)
        if process_tree_cpu(pid) - before < 0.02:
            return


def serve_and_open(slow: dict[str, list[tuple[str, str]]], cap: int) -> list[tuple[float, str, int]]:
    """Upload the slow blocks, open every view and export; every answer's (seconds, label, status)."""
    answers: list[tuple[float, str, int]] = []
    with tempfile.TemporaryDirectory() as folder:
        server, port = start_server(Path(folder))
        try:
            client = Client(port)
            everything = [(alias, label, text) for alias, cut in slow.items() for label, text in cut[:cap]]
            transcripts = [(alias, [(alias, label, text) for label, text in cut[:cap]]) for alias, cut in slow.items()]
            transcripts.append(("every slow block", everything))
            for name, blocks in transcripts:
                if not blocks:
                    continue
                id = client.upload(harmony(blocks))
                for path, headers in views(id, len(blocks) + 1):
                    status, _, took = client.request("GET", path, headers=headers)
                    answers.append((took, f"{name}: {path.replace(id, 'ID')}", status))
                before = process_tree_cpu(server.pid)
                time.sleep(0.5)
                idle = process_tree_cpu(server.pid) - before
                print(f"  {name}: {len(blocks)} blocks, {len(views(id, 2))} answers, slowest "
                      f"{max(took for took, label, _ in answers if label.startswith(name + ':')):.2f} s; "
                      f"server CPU in the 0.5 s after: {idle:.2f} s", flush=True)
        finally:
            server.terminate()
            server.wait(10)
    return answers


def scala(backslashes: int, hostile: bool) -> bytes:
    """The issue's transcript: one answer, a fenced `scala` block of `"` and backslashes (or as many `a`)."""
    code = '"' + "\\" * backslashes if hostile else "a" * (backslashes + 1)
    return harmony([("scala", f"{backslashes} characters", code)])


def twins(dialects: list[str]) -> list[tuple[str, bytes, bytes]]:
    """(name, hostile transcript, its twin) for every hostile sample."""
    sys.path.insert(0, str(ROOT))
    from tests.system.hostile.corpus import build, load_payloads

    made = [(f"scala \\×{count}", scala(count, True), scala(count, False)) for count in (48, 64)]
    for payload in load_payloads():
        for dialect in dialects:
            made.append((f"{payload.id} {dialect}", build(payload.text, dialect), build("x" * len(payload.text), dialect)))
    return made


def compare_twins(dialects: list[str]) -> list[tuple[float, str, float, float]]:
    """(hostile − twin seconds, label, hostile, twin) of every view and export of every hostile sample."""
    gaps: list[tuple[float, str, float, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        server, port = start_server(Path(folder))
        try:
            client = Client(port)
            samples = twins(dialects)
            for number, (name, hostile, twin) in enumerate(samples, 1):
                twin_id, hostile_id = client.upload(twin), client.upload(hostile)
                count = 2  # every sample has a message 1; more are not needed to open each kind of answer
                for (twin_path, headers), (path, _) in zip(views(twin_id, count), views(hostile_id, count)):
                    _, _, twin_took = client.request("GET", twin_path, headers=headers)
                    status, _, took = client.request("GET", path, headers=headers)
                    gaps.append((took - twin_took, f"{name}: {path.replace(hostile_id, 'ID')} ({status})", took,
                                 twin_took))
                if number % 50 == 0:
                    print(f"  … {number} of {len(samples)} samples", flush=True)
        finally:
            server.terminate()
            server.wait(10)
    return gaps


def each_view_cold(slow: dict[str, list[tuple[str, str]]], cap: int) -> list[tuple[float, str, int, float]]:
    """Every view and export opened first, on a fresh server of its own (no worker started, nothing cached,
    nothing known slow): (seconds, label, status, server CPU seconds in the half second after)."""
    blocks = [(alias, label, text) for alias, cut in slow.items() for label, text in cut[:cap]]
    answers: list[tuple[float, str, int, float]] = []
    for position in range(len(views("ID", len(blocks) + 1))):
        with tempfile.TemporaryDirectory() as folder:
            server, port = start_server(Path(folder))
            try:
                client = Client(port)
                id = client.upload(harmony(blocks))
                settle(server.pid)
                path, headers = views(id, len(blocks) + 1)[position]
                status, _, took = client.request("GET", path, headers=headers)
                before = process_tree_cpu(server.pid)
                time.sleep(0.5)
                answers.append((took, path.replace(id, "ID"), status, process_tree_cpu(server.pid) - before))
            finally:
                server.terminate()
                server.wait(10)
    return answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--short", type=int, default=64, help="characters of the short runs (default 64)")
    parser.add_argument("--long", type=int, default=2000, help="characters of the long runs (default 2000)")
    parser.add_argument("--lexers", help="comma-separated aliases (default: every lexer)")
    parser.add_argument("--per-lexer", type=int, default=12, help="slow inputs uploaded per lexer (default 12)")
    parser.add_argument("--skip-server", action="store_true", help="the sweep only")
    parser.add_argument("--twins", action="store_true", help="only the hostile samples beside their twins")
    parser.add_argument("--cold", action="store_true",
                        help="then each view and export of the slow blocks first, each on a fresh server")
    parser.add_argument("--dialects", default="harmony,json", help="dialects of the hostile corpus (--twins)")
    args = parser.parse_args()
    started = time.monotonic()
    if args.twins:
        gaps = sorted(compare_twins(args.dialects.split(",")), reverse=True)
        print(f"answers: {len(gaps)} hostile beside {len(gaps)} twins; deadline {budget.DEADLINE} s")
        print("most slower than the twin:")
        for gap, label, took, twin_took in gaps[:10]:
            print(f"  {gap:+6.3f} s  {label}: {took:.3f} s, twin {twin_took:.3f} s")
        print(f"slower than the twin by more than the deadline: {sum(gap > budget.DEADLINE for gap, *_ in gaps)}")
        print(f"total time: {time.monotonic() - started:.0f} s")
        return
    aliases = lexer_aliases(args.lexers.split(",") if args.lexers else None)
    cases = inputs(args.short, args.long)
    print(f"sweep: {len(aliases)} lexers × {len(cases)} inputs, deadline {budget.DEADLINE} s beyond each block's "
          f"expected time, {workers.POOL.size} workers", flush=True)
    slow, took = sweep(aliases, cases)
    print(f"sweep: {sum(map(len, slow.values()))} blocks of {len(slow)} lexers cut in {took:.0f} s; "
          f"{workers.POOL.kills} workers killed")
    print("lexers that hit the deadline: " + (", ".join(sorted(slow)) or "none"))
    if not args.skip_server and slow:
        answers = serve_and_open(slow, args.per_lexer)
        answers.sort(reverse=True)
        print(f"answers: {len(answers)}, statuses {sorted({status for _, _, status in answers})}")
        print("slowest answers:")
        for took, label, status in answers[:15]:
            print(f"  {took:6.2f} s  {status}  {label}")
    if args.cold and slow:
        print("each view first, on a fresh server (seconds, status, server CPU in the 0.5 s after):")
        for took, label, status, idle in each_view_cold(slow, args.per_lexer):
            print(f"  {took:6.2f} s  {status}  CPU {idle:.2f} s  {label}")
    print(f"total time: {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
