"""Several app servers on one PostgreSQL database, as the README's "Serving" section describes: two gunicorn
processes (the README's command, one worker each) on one fresh database of the throwaway cluster
(tests/postgres.py), started at the same moment, so that both migrate and preload the samples at once.

What one server stores the other serves: an upload through A reads through B, a manage link opened on B deletes
it, and A then answers 410. (Search is not there yet: when it comes, an upload through A must also be found
through B; add that here.)
"""
from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import subprocess
import time
import urllib.parse
from pathlib import Path
from typing import Iterator

import pytest
from bs4 import BeautifulSoup

from tests.conftest import ROOT, SAMPLES
from tests.postgres import Cluster
from tests.web.conftest import WEATHER
from viewer.ingest.samples import sample_files, sample_ids

GUNICORN = ROOT / ".venv" / "bin" / "gunicorn"
HOST = "127.0.0.1"
READY_TIMEOUT = 120.0
"""Both servers import, migrate and preload every sample before answering; the shared 2-core machine is slow."""
REQUEST_TIMEOUT = 30.0


class Response:
    def __init__(self, status: int, headers: http.client.HTTPMessage, body: bytes) -> None:
        self.status, self.headers, self.body = status, headers, body

    def cookies(self) -> dict[str, str]:
        """The cookies this response sets (the owner key, the session with its CSRF token), by name."""
        found = {}
        for header in self.headers.get_all("Set-Cookie") or []:
            name, _, value = header.split(";", 1)[0].partition("=")
            found[name] = value
        return found


def cookie_header(jar: dict[str, str]) -> str:
    return "; ".join(f"{name}={value}" for name, value in jar.items())


def request(port: int, method: str, path: str, body: bytes | None = None, cookie: str | None = None,
            form: dict[str, str] | None = None) -> Response:
    headers = {"Cookie": cookie} if cookie else {}
    if form is not None:
        body = urllib.parse.urlencode(form).encode()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    connection = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return Response(response.status, response.headers, response.read())
    finally:
        connection.close()


class Server:
    """gunicorn in a process group of its own, so that a kill reaches its master and its worker."""

    def __init__(self, name: str, database: str, samples: Path, log: Path) -> None:
        from tests.harness.crash import free_port

        self.name, self.port, self.log = name, free_port(), log
        env = {**os.environ, "VIEWER_DATABASE": database, "VIEWER_SECRET_KEY": "two-servers",
               "VIEWER_PRELOAD_SAMPLES": "true", "VIEWER_SAMPLES_DIR": str(samples)}
        # The README's command; --no-control-socket, or both would listen on the same ~/.gunicorn/gunicorn.ctl.
        command = [str(GUNICORN), "-c", "gunicorn.conf.py", "--workers", "1", "--bind", f"{HOST}:{self.port}",
                   "--no-control-socket", "viewer.web:create_app()"]
        with log.open("wb") as output:
            self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=output,
                                            stderr=subprocess.STDOUT, start_new_session=True)

    def wait_ready(self, deadline: float) -> None:
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"server {self.name} exited with {self.process.returncode}:\n{self.output()}")
            try:
                if request(self.port, "GET", "/healthz").status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        pytest.fail(f"server {self.name} did not answer within {READY_TIMEOUT:.0f} s:\n{self.output()}")

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]

    def kill(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=30)


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the samples folder, so that the servers and the test see the same files."""
    folder = tmp_path_factory.mktemp("samples")
    for path in sample_files(SAMPLES):
        shutil.copyfile(path, folder / path.name)
    return folder


@pytest.fixture(scope="module")
def servers(postgres: Cluster, samples: Path,
            tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server]]:
    """Servers A and B on one new, empty database, started together; killed at the end whatever happens."""
    name = postgres.create_database(template="template1")
    url = postgres.url(name)
    logs = tmp_path_factory.mktemp("servers")
    started: list[Server] = []
    try:
        for label in ("A", "B"):
            started.append(Server(label, url, samples, logs / f"gunicorn-{label}.log"))
        deadline = time.monotonic() + READY_TIMEOUT
        for server in started:
            server.wait_ready(deadline)
        yield started[0], started[1]
    finally:
        for server in started:
            server.kill()
        postgres.drop_database(name)


def test_both_servers_preload_the_samples_at_once_without_an_error(servers, samples):
    expected = {f"/t/{id}" for id in sample_ids(sample_files(samples)).values()}
    for server in servers:
        home = request(server.port, "GET", "/")
        assert home.status == 200
        assert {a["href"] for a in soup_of(home).select(".sample-list a")} == expected
    for server in servers:
        assert server.process.poll() is None, server.output()
        # No database error while both stored the same samples (a parser's own failure is not this test's).
        for word in ("sqlalchemy", "psycopg", "Worker failed to boot"):
            assert word not in server.output(), server.output()


def test_an_upload_through_one_server_is_read_and_deleted_through_the_other(servers):
    a, b = servers
    created = request(a.port, "POST", "/api/transcripts", body=WEATHER.read_bytes())
    assert created.status == 201, created.body
    upload = json.loads(created.body)
    id = upload["id"]

    page = request(b.port, "GET", f"/t/{id}")
    assert page.status == 200 and "clear in Tokyo" in page.body.decode()  # the final answer
    twin = request(b.port, "GET", f"/t/{id}.json")
    assert twin.status == 200
    assert json.loads(twin.body) == json.loads(request(a.port, "GET", f"/t/{id}.json").body)

    # The manage flow on B: the link sets the owner cookie, the page gives the form's CSRF token.
    manage = urllib.parse.urlsplit(upload["manage_url"])
    opened = request(b.port, "GET", f"{manage.path}?{manage.query}")
    assert opened.status == 303 and "owner" in opened.cookies()
    jar = opened.cookies()
    form = request(b.port, "GET", f"/t/{id}/manage", cookie=cookie_header(jar))
    assert form.status == 200
    jar |= form.cookies()  # the CSRF token lives in the session
    csrf = soup_of(form).find("input", attrs={"name": "csrf"})["value"]
    deleted = request(b.port, "POST", f"/t/{id}/manage", cookie=cookie_header(jar),
                      form={"csrf": csrf, "action": "delete", "confirm": "yes"})
    assert deleted.status == 303, deleted.body

    assert request(a.port, "GET", f"/t/{id}").status == 410
    assert request(a.port, "GET", f"/t/{id}.json").status == 410
    assert request(b.port, "GET", f"/t/{id}").status == 410


def soup_of(response: Response) -> BeautifulSoup:
    return BeautifulSoup(response.body.decode(), "html.parser")
