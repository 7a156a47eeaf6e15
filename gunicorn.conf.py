"""gunicorn settings for the viewer: `gunicorn -c gunicorn.conf.py 'viewer.web:create_app()'`.

Command-line flags (--bind, --workers, --threads) still override what is set here.
"""

# Request lines go to stdout. `%(U)s` is the path without its query string: a manage link
# (`/t/<id>/manage?key=…`) grants control of a transcript, so `%(r)s` (the request line) and `%(q)s` (the query)
# must never be logged. No referrer either (our pages send none, but other sites' pages may).
accesslog = "-"
access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(b)s %(L)ss "%(a)s"'

# Behind a TLS-terminating proxy on this host, trust its X-Forwarded-Proto so that the app sees https: the
# cross-site check compares a browser's Origin with the request's own scheme, host and port.
forwarded_allow_ips = "127.0.0.1,::1"


def worker_exit(server, worker):
    """A worker stops (SIGTERM to gunicorn: it finished its requests in flight and takes no new ones): its app
    hands back the uploads it was processing, which another worker, another server or the next start takes over at
    once (viewer/web/processor.py), rather than after their lease."""
    app = getattr(worker, "wsgi", None)
    if app is not None and hasattr(app, "extensions"):
        from viewer.web.processor import shut_down

        shut_down(app)
