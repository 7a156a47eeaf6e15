"""Memory of one big upload: a generated Claude Code session (about 95% of its bytes base64 screenshots) and a
generated JSON Lines dataset, each uploaded over loopback to a server started in a subprocess of its own (so the
peak resident memory measured is the serving process's alone), one fresh server per file. Prints the time from
the request sent to its answer, to the first page served (the transcript, not its progress page) and to the upload
stored whole (an upload answered 202 is waited for until its search answers), the server's peak RSS (Linux
`VmHWM`) and its RSS when idle before the upload, beside the file's size. Asserts nothing.

A generated Harmony transcript and a ChatML one (whole-text formats, read whole) are measured beside them; a
text-heavy Claude Code session (`text`), a Codex CLI rollout (`codex`), a Qwen Code session (`qwen`), a Copilot
CLI session log (`copilot`), a Factory Droid session (`droid`), a pi session (`pi`), a Cursor agent transcript
(`cursor`), a Kimi CLI wire (`kimi-cli`), a Kimi Code agent's wire (`kimi-code`), an Antigravity CLI
transcript (`antigravity`), a VS Code chat session log (`vscode-chat`) and a Gemini CLI log (`gemini-cli`)
when asked for.

Run: `.venv/bin/python bench/memory.py [--sizes 8 32] [--kinds session dataset harmony] [--gib session dataset]
[--whole-at-256 harmony chatml]` (sizes in MB; `--gib` adds the issue's 1 GiB runs, 1074 MB, of those kinds: minutes
each, and the disk space of the file twice over; `--whole-at-256` the whole-text formats at their target's size;
`make bench` runs the session and the dataset at 1 GiB and both whole-text formats at 256 MB).
"""
from __future__ import annotations

import argparse
import base64
import http.client
import itertools
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.harness.antigravity_session import antigravity_lines  # noqa: E402
from tests.harness.codex_rollout import rollout_lines  # noqa: E402
from tests.harness.copilot_session import copilot_lines  # noqa: E402
from tests.harness.cursor_transcript import cursor_lines  # noqa: E402
from tests.harness.droid_session import droid_lines  # noqa: E402
from tests.harness.gemini_cli_session import gemini_cli_lines  # noqa: E402
from tests.harness.event_log import event_log_lines  # noqa: E402
from tests.harness.pi_session import pi_lines  # noqa: E402
from tests.harness.kimi_cli_session import kimi_cli_lines  # noqa: E402
from tests.harness.kimi_code_session import kimi_code_lines  # noqa: E402
from tests.harness.vscode_chat_session import vscode_chat_lines  # noqa: E402
from tests.harness.datasets import conversation  # noqa: E402
from tests.harness.formats import chatml  # noqa: E402
from tests.harness.gen import generate  # noqa: E402
from tests.harness.qwen_session import session_lines as qwen_session_lines  # noqa: E402
from tests.harness.workday import workday_lines  # noqa: E402

SESSION = "5b0c9e1a-7d2f-4c83-9a61-0e4f2d8b7c35"
SCREENSHOT_BYTES = 150_000
"""Bytes of one pasted screenshot before base64 (a 200 KB line): 95% of a session's bytes are these."""
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
BEFORE = {"session": "253 MB peak RSS at 32 MB (5.2× above idle)", "dataset": "626 MB at 32 MB (16.9×)",
          "harmony": "461 MB at 32 MB (11.7×)"}
"""This bench at 32 MB on the tree before bounded-memory ingest (commit 1883e7d, the same machine): the body
read whole, the raw bytes in one column, every upload parsed whole."""
BEFORE_THIN = ("session 32 MB 174 MB peak RSS, 128 MB 413 MB, 1074 MB 4,457 MB (commit a623d73, the same machine; "
               "the 1074 MB figure measured before this round)",)
"""This bench on the tree before sessions were thinned: spooled, but parsed whole."""
GIB_MB = 1074
"""1 GiB, in the MB this bench counts in."""
WHOLE_MB = 256
"""The size up to which whole-text formats must peak at ≤ 6× (issue 29)."""
BEFORE_LEFT_IN_SOURCE = ("harmony 256 MB 1,592 MB peak RSS (6.2×), chatml 252 MB 1,915 MB (7.6×) (commit 3e66a2d, "
                         "the same machine)")
"""This bench on the tree before message bodies were left in the source and spans became numbers."""
BEFORE_CODEX_LINES = ("codex 20 MB 188 MB peak RSS, first page 2.7 s, stored 3.4 s; 100 MB 513 MB, 12.0 s, 14.6 s, "
                      "14.0 s CPU (commit 65d38ee, the same machine)")
"""This bench on the tree before Codex rollouts were read a piece at a time (read whole)."""
BEFORE_QWEN_LINES = ("qwen 20 MB 176 MB peak RSS, first page 1.3 s, stored 1.5 s; 100 MB 486 MB, 5.6 s, 6.9 s "
                     "(commit 8db3a7e with tests/harness/qwen_session.py, the same machine)")
"""This bench on the tree before Qwen Code sessions were read a piece at a time (read whole)."""
BEFORE_COPILOT_LINES = ("copilot 20 MB 246 MB peak RSS, first page 3.5 s, stored 4.4 s; 100 MB 740 MB, 16.2 s, "
                        "22.4 s, 12.6 s CPU (commit 8db3a7e with this generator, the same machine)")
"""This bench on the tree before Copilot CLI logs were read a piece at a time (read whole)."""
BEFORE_DROID_LINES = ("droid 20 MB 174 MB peak RSS, first page 1.7 s, stored 2.2 s; 100 MB 470 MB, 6.6 s, 9.0 s, "
                      "8.5 s CPU (commit 8db3a7e with this generator, the same machine)")
"""This bench on the tree before Factory Droid sessions were read a piece at a time (read whole)."""
BEFORE_PI_LINES = ("pi 20 MB 193 MB peak RSS, first page 3.6 s, stored 4.3 s, 2.6 s CPU; 100 MB 574 MB, 17.1 s, "
                   "22.3 s, 12.8 s CPU (round47 with this generator, the same machine, beside a test run)")
"""This bench on the tree before pi sessions were read a piece at a time (read whole)."""
BEFORE_CURSOR_LINES = ("cursor 20 MB 190 MB peak RSS, first page 3.0 s, stored 3.7 s, 1.5 s CPU; 100 MB 543 MB, "
                       "22.3 s, 35.8 s, 8.6 s CPU (round47 with this generator, the same machine, beside a test run)")
"""This bench on the tree before Cursor agent transcripts were read a piece at a time (read whole)."""
BEFORE_KIMI_CLI_LINES = ("kimi-cli 20 MB 199 MB peak RSS, first page 2.0 s, stored 2.5 s; 100 MB 597 MB, 9.9 s, "
                         "12.8 s, 12.0 s CPU (commit 28fa51c with this generator, the same machine)")
"""This bench on the tree before Kimi CLI wires were read a piece at a time (read whole)."""
BEFORE_KIMI_CODE_LINES = ("kimi-code 20 MB 183 MB peak RSS, first page 2.3 s, stored 2.8 s; 100 MB 539 MB, 11.3 s, "
                          "13.8 s, 12.7 s CPU (commit 28fa51c with this generator, the same machine)")
"""This bench on the tree before Kimi Code agents' wires were read a piece at a time (read whole)."""
BEFORE_VSCODE_CHAT_LINES = ("vscode-chat 20 MB 325 MB peak RSS, first page 3.9 s, stored 4.6 s, 3.0 s CPU; 100 MB "
                            "1189 MB, 13.5 s, 17.4 s, 16.1 s CPU (commit 4acf62e with this generator, the same "
                            "machine, beside a test run)")
"""This bench on the tree before VS Code chat logs were read a piece at a time (read whole)."""
BEFORE_GEMINI_CLI_LINES = ("gemini-cli 20 MB 189 MB peak RSS, first page 1.4 s, stored 1.6 s, 1.4 s CPU; 100 MB "
                           "550 MB, 5.3 s, 6.6 s, 6.0 s CPU (commit 4acf62e with this generator, the same machine, "
                           "beside a test run)")
"""This bench on the tree before Gemini CLI logs were read a piece at a time (read whole)."""


# ---- generated files ------------------------------------------------------------------------------------

def session_lines(rng: random.Random) -> Iterator[str]:
    """Claude Code lines without end: a user pasting a screenshot with a question, the assistant's answer, each
    line chained to the one before by `parentUuid` as Claude Code writes them."""
    parent = None
    count = 0
    while True:
        count += 1
        question = [{"type": "text", "text": f"Step {count}: the page looks like this now. What is wrong?"}]
        if count > 1:  # the first line is short, as a session's first prompt is (detect.py reads 64 KiB)
            picture = base64.b64encode(PNG_SIGNATURE + rng.randbytes(SCREENSHOT_BYTES)).decode()
            question.append({"type": "image",
                             "source": {"type": "base64", "media_type": "image/png", "data": picture}})
        answer = [{"type": "text", "text": f"In step {count} the header overlaps the menu: " + "set a margin. " * 40}]
        for kind, role, content in (("user", "user", question), ("assistant", "assistant", answer)):
            uuid = f"{count:08x}-0000-4000-8000-{len(role):012x}"
            message = {"role": role, "content": content}
            if role == "assistant":
                message |= {"id": f"msg_{count:020d}", "type": "message", "model": "claude-sonnet-4-5",
                            "stop_reason": "end_turn", "usage": {"input_tokens": 1500, "output_tokens": 90}}
            yield json.dumps({"parentUuid": parent, "isSidechain": False, "userType": "external",
                              "cwd": "/home/ada/site", "sessionId": SESSION, "version": "1.0.98",
                              "gitBranch": "main", "type": kind, "message": message, "uuid": uuid,
                              "timestamp": f"2025-09-14T10:{count // 60 % 60:02d}:{count % 60:02d}.000Z"},
                             separators=(",", ":")) + "\n"
            parent = uuid


def dataset_lines(rng: random.Random) -> Iterator[str]:
    """JSON Lines dataset records without end (tests/harness/datasets.py's conversations)."""
    number = 0
    while True:
        yield json.dumps(conversation(rng, number)) + "\n"
        number += 1


def text_session_lines(rng: random.Random) -> Iterator[str]:
    """A text-heavy Claude Code session without end (tests/harness/workday.py): file reads with their structured
    copies, edits with the original file, test runs, thinking."""
    return workday_lines(float("inf"), seed=rng.randrange(1 << 30))


SAMPLE_IDS = frozenset({"uuid", "parentUuid", "logicalParentUuid", "leafUuid", "messageId", "id", "tool_use_id",
                        "requestId", "agentId", "toolUseID", "parentToolUseID", "sourceToolUseID", "promptId"})
"""The members of a Claude Code line that name a line, a message, a call or a sub-agent: made each copy's own."""


def sample_session_lines(rng: random.Random) -> Iterator[str]:
    """The Claude Code samples (sample_transcripts/, not the broken one) one after another without end, each
    copy's ids (`SAMPLE_IDS`) given a suffix of its own so that every copy is a conversation apart: the shapes of
    real sessions (sub-agents, compaction, a rewind, screenshots, edits, questions, MCP tools) at any size."""
    records = [json.loads(text) for path in sorted((ROOT / "sample_transcripts").glob("claude-code-[0-9]*.jsonl"))
               for text in path.read_text(encoding="utf-8").splitlines() if text.strip()]
    for copy in itertools.count():
        for record in records:
            yield json.dumps(_with_ids_of(record, f"-{copy}"), separators=(",", ":")) + "\n"


def _with_ids_of(value: Any, suffix: str) -> Any:
    """`value` with every id member (`SAMPLE_IDS`) ending in `suffix`."""
    if isinstance(value, dict):
        return {key: item + suffix if key in SAMPLE_IDS and isinstance(item, str) else _with_ids_of(item, suffix)
                for key, item in value.items()}
    if isinstance(value, list):
        return [_with_ids_of(item, suffix) for item in value]
    return value


def codex_lines(rng: random.Random) -> Iterator[str]:
    """A Codex CLI rollout without end (tests/harness/codex_rollout.py): file reads and test runs as tool output,
    patches, reasoning, usage events."""
    return rollout_lines(float("inf"), seed=rng.randrange(1 << 30))


def qwen_lines(rng: random.Random) -> Iterator[str]:
    """A Qwen Code session without end (tests/harness/qwen_session.py): file reads and test runs as tool results,
    edits with their diffs, sub-agents, rewinds."""
    return qwen_session_lines(float("inf"), seed=rng.randrange(1 << 30))


def copilot_log_lines(rng: random.Random) -> Iterator[str]:
    """A Copilot CLI session log without end (tests/harness/copilot_session.py): file reads and test runs as tool
    output (each also as the CLI showed it, `detailedContent`), edits, sub-agents, reasoning."""
    return copilot_lines(float("inf"), seed=rng.randrange(1 << 30))


def droid_session_lines(rng: random.Random) -> Iterator[str]:
    """A Factory Droid session without end (tests/harness/droid_session.py): file reads and test runs as tool
    results, edits, thinking, usage now and then."""
    return droid_lines(float("inf"), seed=rng.randrange(1 << 30))


def gemini_cli_log_lines(rng: random.Random) -> Iterator[str]:
    """A Gemini CLI log without end (tests/harness/gemini_cli_session.py): each response written again with its
    calls, file reads and test runs as their results, thoughts, rewinds and checkpoints now and then."""
    return gemini_cli_lines(float("inf"), seed=rng.randrange(1 << 30))


def pi_session_lines(rng: random.Random) -> Iterator[str]:
    """A pi session without end (tests/harness/pi_session.py): file reads and test runs as tool results, edits with
    their diffs, thinking, usage on every response, /tree jumps."""
    return pi_lines(float("inf"), seed=rng.randrange(1 << 30))


def cursor_transcript_lines(rng: random.Random) -> Iterator[str]:
    """A Cursor agent transcript without end (tests/harness/cursor_transcript.py): edits with their old and new
    text and whole files written as tool calls (Cursor records no results), thinking, interrupted turns."""
    return cursor_lines(float("inf"), seed=rng.randrange(1 << 30))


def kimi_cli_wire_lines(rng: random.Random) -> Iterator[str]:
    """A Kimi CLI wire without end (tests/harness/kimi_cli_session.py): file reads and test runs as tool results,
    arguments streamed, sub-agents' events, usage per step."""
    return kimi_cli_lines(float("inf"), seed=rng.randrange(1 << 30))


def antigravity_transcript_lines(rng: random.Random) -> Iterator[str]:
    """An Antigravity CLI transcript without end (tests/harness/antigravity_session.py): file reads and test runs as
    result steps answering calls without ids in order, edits, thinking, usage on every response."""
    return antigravity_lines(float("inf"), seed=rng.randrange(1 << 30))


def vscode_chat_log_lines(rng: random.Random) -> Iterator[str]:
    """A VS Code chat session log without end (tests/harness/vscode_chat_session.py): requests appended, their
    responses in parts, their results (file reads and test runs) set."""
    return vscode_chat_lines(float("inf"), seed=rng.randrange(1 << 30))


def kimi_code_wire_lines(rng: random.Random) -> Iterator[str]:
    """A Kimi Code agent's wire without end (tests/harness/kimi_code_session.py): file reads and test runs as tool
    results, edits, usage and model per step."""
    return kimi_code_lines(float("inf"), seed=rng.randrange(1 << 30))


def event_log_lines_of(rng: random.Random) -> Iterator[str]:
    """A streaming event log without end (tests/harness/event_log.py): a token slice a line, reasoning, calls and
    the tools' results (module reads, test runs), two answers streamed at once now and then."""
    return event_log_lines(float("inf"), seed=rng.randrange(1 << 30))


KINDS: dict[str, Callable[[random.Random], Iterator[str]]] = {"session": session_lines, "text": text_session_lines,
                                                              "samples": sample_session_lines,
                                                              "dataset": dataset_lines, "codex": codex_lines,
                                                              "qwen": qwen_lines, "copilot": copilot_log_lines,
                                                              "droid": droid_session_lines, "pi": pi_session_lines,
                                                              "cursor": cursor_transcript_lines,
                                                              "kimi-cli": kimi_cli_wire_lines,
                                                              "kimi-code": kimi_code_wire_lines,
                                                              "antigravity": antigravity_transcript_lines,
                                                              "vscode-chat": vscode_chat_log_lines,
                                                              "gemini-cli": gemini_cli_log_lines,
                                                              "events": event_log_lines_of}
WHOLE = {"harmony": generate, "chatml": chatml}
"""Whole-text formats, generated at once (tests/harness/gen.py, and the same conversations as ChatML:
tests/harness/formats.py): read whole, they must peak at ≤ 6× their size."""


def write_file(kind: str, megabytes: float, path: Path) -> int:
    """Write a generated file of at least `megabytes` to `path`, a line at a time; returns its size."""
    if kind in WHOLE:
        data = WHOLE[kind](megabytes=megabytes).encode()
        path.write_bytes(data)
        return len(data)
    size = 0
    with path.open("w", encoding="utf-8") as out:
        for line in KINDS[kind](random.Random(7)):
            if size >= megabytes * 1_000_000:
                break
            out.write(line)
            size += len(line.encode())
    return size


# ---- the server ---------------------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(folder: Path, limit: int) -> tuple[subprocess.Popen, int]:
    """A `viewer serve` of its own on loopback, ready to answer (waits at most 60 s)."""
    port = _free_port()
    env = {**os.environ, "VIEWER_PRELOAD_SAMPLES": "false", "VIEWER_MAX_UPLOAD_BYTES": str(limit),
           "VIEWER_SECRET_KEY": "bench", "VIEWER_SPOOL_DIR": str(folder)}
    server = subprocess.Popen([sys.executable, "-m", "viewer", "serve", "--host", "127.0.0.1", "--port", str(port),
                               "--db", str(folder / "memory.sqlite3")], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return server, port
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise RuntimeError("the server did not start")


def cpu_seconds(pid: int) -> float:
    """User and system CPU time process `pid` has used so far (Linux /proc), in seconds: what a run on a shared
    machine is best compared by."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def status_bytes(pid: int, field: str) -> int:
    """A VmRSS or VmHWM figure of process `pid`, in bytes."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return 0


def post_file(port: int, path: Path, query: str = "") -> tuple[int, dict, float]:
    """POST the file as the API's raw body, streamed from disk: its status, JSON answer and seconds to the answer."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=3600)
    started = time.perf_counter()
    with path.open("rb") as body:
        connection.request("POST", f"/api/transcripts{query}", body=body,
                           headers={"Content-Length": str(path.stat().st_size), "Content-Type": "text/plain"})
        response = connection.getresponse()
        answer = json.loads(response.read())
    connection.close()
    return response.status, answer, time.perf_counter() - started


def upload(port: int, path: Path) -> dict:
    """POST the file; returns the status and the seconds to its answer, to its first page and to its being stored
    whole."""
    started = time.perf_counter()
    status, answer, answered = post_file(port, path)
    wait_for_first_page(port, answer["id"])
    first_page = time.perf_counter() - started
    if status == 202:  # answered before it is processed (viewer/ingest/processor.py): wait until it is whole
        wait_until_searchable(port, answer["id"])
    return {"status": status, "answer": answered, "first_page": first_page, "seconds": time.perf_counter() - started}


def wait_for_first_page(port: int, id: str, seconds: float = 3600) -> None:
    """Ask for the upload's page until it is the transcript rather than its progress page."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        connection.request("GET", f"/t/{id}")
        response = connection.getresponse()
        page = response.read()
        connection.close()
        if response.status == 200 and b"data-processing" not in page:
            return
        time.sleep(0.1)
    raise TimeoutError(f"upload {id} has no first page after {seconds} s")


def wait_until_searchable(port: int, id: str, seconds: float = 3600) -> None:
    """Poll the upload's search, which answers 409 until its processing (search index last) is done."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        connection.request("GET", f"/t/{id}/search?q=x")
        status = connection.getresponse().status
        connection.close()
        if status != 409:
            return
        time.sleep(0.2)
    raise TimeoutError(f"upload {id} still processing after {seconds} s")


def measure(kind: str, megabytes: float, folder: Path) -> dict:
    path = folder / f"{kind}.jsonl"
    size = write_file(kind, megabytes, path)
    try:
        return {"kind": kind, "size": size, **served(path, folder)}
    finally:
        path.unlink()


def served(path: Path, folder: Path) -> dict:
    """`path` uploaded to a server of its own (its database in `folder`, removed after): `upload`'s times, and the
    server's RSS when idle before, its peak and its CPU seconds for the upload."""
    server, port = start_server(folder, max(path.stat().st_size + 1, 1 << 30))
    try:
        idle = status_bytes(server.pid, "VmRSS")
        cpu = cpu_seconds(server.pid)
        timed = upload(port, path)
        peak = status_bytes(server.pid, "VmHWM")
        cpu = cpu_seconds(server.pid) - cpu
    finally:
        server.terminate()
        server.wait(timeout=30)
        for leftover in folder.glob("memory.sqlite3*"):
            leftover.unlink()
    return {**timed, "idle": idle, "peak": peak, "cpu": cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[8, 32], help="file sizes in MB")
    parser.add_argument("--kinds", nargs="+", choices=sorted([*KINDS, *WHOLE]),
                        default=["session", "dataset", "harmony", "chatml"])
    parser.add_argument("--gib", nargs="*", choices=sorted(KINDS), default=[],
                        help="kinds also measured at 1 GiB (1074 MB), after the others")
    parser.add_argument("--whole-at-256", nargs="*", choices=sorted(WHOLE), default=[],
                        help="whole-text kinds also measured at 256 MB (their target's size), after the others")
    args = parser.parse_args()
    runs = [(megabytes, kind) for megabytes in args.sizes for kind in args.kinds]
    runs += [(GIB_MB, kind) for kind in args.gib]
    runs += [(WHOLE_MB, kind) for kind in args.whole_at_256]
    print(f"{'file':<8} {'size':>9} {'status':>6} {'answer':>8} {'1st page':>9} {'stored':>8} {'MB/s':>6} "
          f"{'CPU':>7} {'idle RSS':>9} {'peak RSS':>9} {'× size':>7} {'above idle':>11}")
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as folder:
        for megabytes, kind in runs:
            r = measure(kind, megabytes, Path(folder))
            print(f"{r['kind']:<8} {r['size'] / 1e6:>6.0f} MB {r['status']:>6} {r['answer']:>6.1f} s "
                  f"{r['first_page']:>7.1f} s {r['seconds']:>6.1f} s {r['size'] / 1e6 / r['seconds']:>6.1f} "
                  f"{r['cpu']:>5.1f} s "
                  f"{r['idle'] / 1e6:>6.0f} MB {r['peak'] / 1e6:>6.0f} MB {r['peak'] / r['size']:>6.1f}× "
                  f"{(r['peak'] - r['idle']) / r['size']:>10.1f}×", flush=True)
    for kind, figure in BEFORE.items():
        print(f"before bounded-memory ingest, {kind}: {figure}")
    for figure in BEFORE_THIN:
        print(f"before thin sessions: {figure}")
    print(f"before bodies left in the source: {BEFORE_LEFT_IN_SOURCE}")
    print(f"before Codex rollouts were read a piece at a time: {BEFORE_CODEX_LINES}")
    print(f"before Qwen Code sessions were read a piece at a time: {BEFORE_QWEN_LINES}")
    print(f"before Copilot CLI logs were read a piece at a time: {BEFORE_COPILOT_LINES}")
    print(f"before Factory Droid sessions were read a piece at a time: {BEFORE_DROID_LINES}")
    print(f"before pi sessions were read a piece at a time: {BEFORE_PI_LINES}")
    print(f"before Cursor agent transcripts were read a piece at a time: {BEFORE_CURSOR_LINES}")
    print(f"before Kimi CLI wires were read a piece at a time: {BEFORE_KIMI_CLI_LINES}")
    print(f"before Kimi Code agents' wires were read a piece at a time: {BEFORE_KIMI_CODE_LINES}")
    print(f"before VS Code chat logs were read a piece at a time: {BEFORE_VSCODE_CHAT_LINES}")
    print(f"before Gemini CLI logs were read a piece at a time: {BEFORE_GEMINI_CLI_LINES}")


if __name__ == "__main__":
    main()
