"""The app on a loopback port in a thread (Werkzeug's development server), for the browser tests.

Werkzeug's server closes an answer's body only after draining the request's socket, and that drain raises when
the client reset the connection (Chromium does, for a favicon it already holds): the body, an open static file,
is then left to the garbage collector, whose ResourceWarning fails whichever test is running. Here each body is
closed as soon as its last chunk is sent, or when the server says the connection dropped; closing again (the
server's own close) does nothing more."""
from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator

from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

BODY = "tests.loopback.body"
"""Where the environ holds the answer's body, for `_Handler.connection_dropped`."""


class _ClosedWhenSent:
    """A WSGI body that closes the app's body after its last chunk (and again when the server asks: a no-op)."""

    def __init__(self, body: Iterable[bytes]) -> None:
        self._body = body
        self._chunks = iter(body)

    def __iter__(self) -> _ClosedWhenSent:
        return self

    def __next__(self) -> bytes:
        try:
            return next(self._chunks)
        except StopIteration:
            self.close()
            raise

    def close(self) -> None:
        close = getattr(self._body, "close", None)
        if close is not None:
            close()


def _closing(app: Callable[..., Iterable[bytes]]) -> Callable[..., Iterable[bytes]]:
    def wsgi(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        body = environ[BODY] = _ClosedWhenSent(app(environ, start_response))
        return body
    return wsgi


class _Handler(WSGIRequestHandler):
    def connection_dropped(self, error: BaseException, environ: Any = None) -> None:
        body = (environ or {}).get(BODY)
        if body is not None:
            body.close()


@contextmanager
def serving(app: Any) -> Iterator[BaseWSGIServer]:
    """`app` served on 127.0.0.1 (a free port: the server's `server_port`) until the block ends."""
    httpd = make_server("127.0.0.1", 0, _closing(app), threaded=True, request_handler=_Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd
    finally:
        httpd.shutdown()
        thread.join(timeout=10)
