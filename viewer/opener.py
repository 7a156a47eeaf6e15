"""`viewer open`: a transcript file shown in the viewer running on this machine, which is started when it is not
running yet. The file goes to that local server only (its upload API on the loopback address), with the debug
view allowed: the person who opens it is its owner."""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

LOOPBACK = "127.0.0.1"
START_SECONDS = 30
"""How long a started server may take to answer."""


class OpenError(Exception):
    """The viewer could not be reached or refused the file: one line for a person."""


def local_viewer(port: int, database: str | None = None, *, start: bool = True) -> str:
    """The base URL of the viewer on this machine's `port`, started in the background when nothing answers."""
    base = f"http://{LOOPBACK}:{port}"
    if _answers(base):
        return base
    if not start:
        raise OpenError(f"no viewer answers at {base}")
    command = [sys.executable, "-m", "viewer", "serve", "--host", LOOPBACK, "--port", str(port)]
    if database:
        command += ["--db", database]
    log = Path(tempfile.gettempdir()) / f"openchatml-viewer-{port}.log"
    with log.open("ab") as output:  # the server outlives this command: its own session, its own log
        subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=output, stderr=output, start_new_session=True)
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if _answers(base):
            return base
        time.sleep(0.3)
    raise OpenError(f"the viewer did not start at {base}; see {log}")


def upload(base: str, name: str, data: bytes) -> dict:
    """Store a transcript in the viewer at `base`; its answer (`url`, `manage_url`, …)."""
    query = urllib.parse.urlencode({"debug": "allow", "name": name})
    request = urllib.request.Request(f"{base}/api/transcripts?{query}", data=data, method="POST",
                                     headers={"Content-Type": "application/octet-stream"})
    try:
        with urllib.request.urlopen(request, timeout=300) as answer:
            return json.load(answer)
    except urllib.error.HTTPError as error:
        raise OpenError(f"the viewer refused {name}: {error.code} {_said(error)}") from None
    except (urllib.error.URLError, OSError) as error:
        raise OpenError(f"cannot reach the viewer at {base}: {error}") from None


def _answers(base: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base}/healthz", timeout=1) as answer:
            return json.load(answer).get("status") == "ok"
    except urllib.error.HTTPError as error:  # a viewer that cannot store now (503) still answers: no second one
        try:
            return "status" in json.load(error)
        except ValueError:
            return False
    except (urllib.error.URLError, OSError, ValueError):
        return False


def _said(error: urllib.error.HTTPError) -> str:
    try:
        return json.load(error).get("error", {}).get("message", error.reason)
    except (ValueError, AttributeError):
        return str(error.reason)
