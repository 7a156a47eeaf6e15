"""Loopback load test of the share page of a medium transcript, served by gunicorn as the README documents.

Starts `gunicorn 'viewer.web:create_app()'` on 127.0.0.1 with a temporary SQLite database, uploads a medium
Harmony transcript (120 exchanges: question, hidden reasoning, tool call and reply, a markdown answer with a
code block; 602 messages, about 85 KB), warms every worker up, then sends a fixed number of GET /t/<id>
requests from client threads (one keep-alive connection each) and prints requests per second, p50/p90/p99
latency and the error count (anything but 200, or a connection failure).

Run: .venv/bin/python bench/load.py [--requests 3000] [--clients 8] [--workers 2] [--threads 4] [--view default]
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.harness.crash import HOST, REQUEST_TIMEOUT, GUNICORN, ROOT, create_schema, free_port, server_errors  # noqa: E402

EXCHANGES = 120
WARMUP_PER_WORKER = 10


def medium_transcript() -> bytes:
    parts = ["<|start|>system<|message|>You are a helpful assistant.<|end|>",
             "<|start|>developer<|message|># Instructions\nAnswer briefly, with code when useful.<|end|>"]
    for n in range(EXCHANGES):
        parts += [
            f"<|start|>user<|message|>Question {n}: what is the weather in city {n}, and how do I convert it?<|end|>",
            f"<|start|>assistant<|channel|>analysis<|message|>The user asks about city {n}; call the tool, then "
            f"explain the conversion.<|end|>",
            f"<|start|>assistant to=functions.get_weather<|channel|>commentary<|constrain|>json<|message|>"
            f"{{\"location\": \"city {n}\", \"unit\": \"celsius\"}}<|call|>",
            f"<|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>"
            f"{{\"temperature\": {n % 35}, \"sky\": \"clear\"}}<|end|>",
            f"<|start|>assistant<|channel|>final<|message|>It is **{n % 35} °C** and clear in *city {n}*. "
            f"See [the forecast](https://example.com/{n}).\n\n- humidity {n % 90}%\n- wind 3 m/s\n\n"
            f"```python\ndef fahrenheit(c):\n    return c * 9 / 5 + 32  # {n}\n```<|return|>",
        ]
    return "".join(parts).encode()


def start_server(workdir: Path, workers: int, threads: int) -> tuple[subprocess.Popen, int]:
    database = workdir / "viewer.sqlite3"
    create_schema(database)  # see crash.create_schema: several workers must not race to create it
    port = free_port()
    env = {**os.environ, "VIEWER_DATABASE": str(database), "VIEWER_SECRET_KEY": "load-bench",
           "VIEWER_PRELOAD_SAMPLES": "false"}
    command = [str(GUNICORN), "--workers", str(workers), "--threads", str(threads), "--bind", f"{HOST}:{port}",
               "--no-control-socket", "viewer.web:create_app()"]
    log = (workdir / "gunicorn.log").open("ab")
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {process.returncode}; see {workdir / 'gunicorn.log'}")
        try:
            connection = http.client.HTTPConnection(HOST, port, timeout=5)
            connection.request("GET", "/t/none")
            connection.getresponse().read()
            connection.close()
            return process, port
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("gunicorn did not start")


def upload(port: int, raw: bytes, debug: bool) -> str:
    """Upload; with `debug` the link opens the debug view for anyone (the load client has no cookie)."""
    connection = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
    connection.request("POST", "/api/transcripts" + ("?debug=allow" if debug else ""), body=raw)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    if response.status != 201:
        raise RuntimeError(f"upload answered {response.status}: {body[:200]!r}")
    return json.loads(body)["id"]


def client(port: int, path: str, count: int, latencies: list[float], errors: list[str], lock: threading.Lock) -> None:
    connection = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
    mine, failures = [], []
    for _ in range(count):
        started = time.perf_counter()
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                failures.append(str(response.status))
            if response.will_close:
                connection.close()
                connection = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
        except (OSError, http.client.HTTPException) as error:
            failures.append(type(error).__name__)
            connection.close()
            connection = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
        mine.append(time.perf_counter() - started)
    connection.close()
    with lock:
        latencies.extend(mine)
        errors.extend(failures)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def measure(port: int, path: str, requests: int, clients: int) -> dict:
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    shares = [requests // clients + (1 if n < requests % clients else 0) for n in range(clients)]
    threads = [threading.Thread(target=client, args=(port, path, share, latencies, errors, lock))
               for share in shares]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - started
    return {"requests": len(latencies), "seconds": round(seconds, 2),
            "requests_per_second": round(len(latencies) / seconds, 1),
            "p50_ms": round(percentile(latencies, 0.50) * 1000, 1),
            "p90_ms": round(percentile(latencies, 0.90) * 1000, 1),
            "p99_ms": round(percentile(latencies, 0.99) * 1000, 1),
            "max_ms": round(max(latencies) * 1000, 1), "mean_ms": round(statistics.fmean(latencies) * 1000, 1),
            "errors": len(errors), "error_kinds": sorted(set(errors))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--view", choices=("default", "debug"), default="default")
    args = parser.parse_args()

    raw = medium_transcript()
    with tempfile.TemporaryDirectory(prefix="viewer-load-") as temporary:
        workdir = Path(temporary)
        process, port = start_server(workdir, args.workers, args.threads)
        try:
            id = upload(port, raw, debug=args.view == "debug")
            path = f"/t/{id}" + ("?view=debug" if args.view == "debug" else "")
            measure(port, path, WARMUP_PER_WORKER * args.workers * args.threads, args.clients)  # warm caches
            result = measure(port, path, args.requests, args.clients)
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=30)
        errors = server_errors(workdir / "gunicorn.log")
    print(json.dumps({"transcript_bytes": len(raw), "path": path.replace(id, "<id>"), "workers": args.workers,
                      "threads": args.threads, "clients": args.clients, **result, "server_errors": errors},
                     indent=2))
    return 1 if result["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
