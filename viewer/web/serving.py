"""`viewer serve` (and so `make run` and `viewer open`): Werkzeug's server as a local single-user server. On a
loopback address nothing is limited (viewer/web/limits.py) unless `LIMITS` was set; SIGTERM (as systemd or
Docker send) stops taking connections, lets the requests in flight finish, and hands back the uploads being
processed (viewer/web/processor.py) before the process ends. gunicorn does the same through gunicorn.conf.py."""
from __future__ import annotations

import ipaddress
import logging
import signal
import threading
from types import FrameType

from flask import Flask
from werkzeug.serving import ThreadedWSGIServer

from viewer.web.processor import shut_down

log = logging.getLogger(__name__)


def serve(app: Flask, host: str, port: int) -> None:
    """Serve `app` on `host`:`port` until SIGTERM or Ctrl-C."""
    if is_loopback(host) and app.extensions["viewer.config_sources"].get("LIMITS") == "default":
        app.config["LIMITS"] = False  # one person's own server
    server = ThreadedWSGIServer(host, port, app)
    server.daemon_threads = False  # so that closing waits for the requests in flight
    server.block_on_close = True

    def stop(_signal: int, _frame: FrameType | None) -> None:
        threading.Thread(target=server.shutdown, name="shutdown", daemon=True).start()  # not from serve_forever's

    previous = signal.signal(signal.SIGTERM, stop)
    log.warning(" * Serving on http://%s:%d (%s)", host, port,
                "limits on" if app.config["LIMITS"] else "a local server: no limits")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.server_close()  # waits for the requests in flight
        shut_down(app)


def is_loopback(host: str) -> bool:
    """Whether `host` is a loopback address (or `localhost`): reachable from this machine alone."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


__all__ = ["is_loopback", "serve"]
