"""The development server the browser tests run the app on (tests/harness/loopback.py): a client that resets its
connection while a static file is answered leaves no open file for the garbage collector to warn about (the
warnings are errors here, so one leak fails whichever browser test is running when it is collected)."""
from __future__ import annotations

import gc
import http.client
import socket
import struct
import sys
import time

from tests.harness.loopback import serving

RESETS = 30


def _reset_after(port: int, request: bytes, delay: float) -> None:
    connection = socket.create_connection(("127.0.0.1", port), timeout=10)
    connection.sendall(request)
    time.sleep(delay)
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # RST, not FIN
    connection.close()


def test_a_client_resetting_its_connection_leaves_no_static_file_open(app, monkeypatch):
    unclosed: list[str] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda raised: unclosed.append(repr(raised.exc_value)))
    with serving(app) as httpd:
        first = http.client.HTTPConnection("127.0.0.1", httpd.server_port, timeout=10)
        first.request("GET", "/static/favicon.svg")
        etag = first.getresponse().getheader("ETag") or ""
        first.close()
        for number in range(RESETS):  # resets at every moment of the answer: before, while and after it is sent
            conditional = f"If-None-Match: {etag}\r\n" if number % 2 else ""
            _reset_after(httpd.server_port, f"GET /static/favicon.svg HTTP/1.1\r\nHost: viewer\r\n{conditional}\r\n"
                         .encode(), 0.001 * (number % 15))
        time.sleep(0.3)
    gc.collect()
    assert unclosed == []
