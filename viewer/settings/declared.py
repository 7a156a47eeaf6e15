"""The app's settings, declared once as data: name, default and help.

Each is read from a settings file and from the environment as `VIEWER_<NAME>` (`layers`: values are JSON where
they parse as JSON, `VIEWER_PORT=8080` is a number). The table of docs/settings.md must list the same names, which a
test checks.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from viewer.settings.folders import asset_folder

MIB = 1024 * 1024
LONG_BODY = 20_000
"""Characters; a longer body (or debug source) is collapsed to its size until the reader asks for it: the default
of `LONG_BODY_CHARS`, and of the cards drawn without the app."""


@dataclass(frozen=True, slots=True)
class Setting:
    """One configuration value of the app."""

    name: str
    """Config key; the environment variable is `VIEWER_` + name."""
    default: Any
    """Value when neither the environment nor the caller sets it."""
    help: str
    """One sentence for the table of docs/settings.md."""


SETTINGS = (
    Setting("DATABASE", "", "SQLite file path or SQLAlchemy database URL (e.g. `postgresql+psycopg://…`); "
                            "empty means `viewer.sqlite3` in the instance folder."),
    Setting("MAX_UPLOAD_BYTES", 1024 * MIB, "Largest accepted upload in bytes (pasted text: at most 64 MiB); "
                                            "larger ones get 413."),
    Setting("SPOOL_DIR", "", "Folder where upload bodies are written as they arrive (never held whole in "
                             "memory); empty means the system's temporary folder."),
    Setting("MIN_FREE_BYTES", 64 * MIB, "Free space kept in reserve where the server writes (the SQLite database's "
                                        "folder, the spool folder): an upload that would leave less gets 507 before "
                                        "anything is stored, and `/healthz` answers 503 while any place has less."),
    Setting("DEFER_UPLOAD_BYTES", 2 * MIB, "Uploads larger than this are answered with their link at once (202) and "
                                           "processed after, their page showing progress; 0 processes every upload "
                                           "in its request."),
    Setting("PROCESSING_SLOTS", 2, "Uploads parsed and stored at once by all server processes on the database; "
                                   "more get 503 with Retry-After."),
    Setting("PROCESSING_LEASE_SECONDS", 120, "How long a server on another host may go silent before the uploads it "
                                             "processes are taken over (checked every quarter of it)."),
    Setting("LIMITS", True, "Apply the limits below (a shared server); `viewer serve` on a loopback address and "
                            "`viewer open` turn them off unless this is set."),
    Setting("UPLOADS_PER_HOUR", 60, "Uploads one client may send an hour (the form's and the API's); more get 429 "
                                    "with Retry-After; 0: no limit."),
    Setting("EXPENSIVE_PER_MINUTE", 60, "Searches, exports, raw downloads, comparisons and context pages one client "
                                        "may ask for a minute, together; more get 429 with Retry-After; 0: no "
                                        "limit."),
    Setting("CONCURRENT_UPLOADS", 3, "Uploads one client may send at once; more get 429 with Retry-After; 0: no "
                                     "limit."),
    Setting("OWNER_QUOTA_BYTES", 2 * 1024 * MIB, "Bytes of uploads (as sent) one owner key's list may hold; an "
                                                 "upload past it gets 507 with the reason; 0: no quota."),
    Setting("STORAGE_QUOTA_BYTES", 0, "Bytes of uploads (as sent) the server keeps in all; an upload past it gets "
                                      "507 with the reason, and reads go on; 0: no quota but the disk's "
                                      "(`MIN_FREE_BYTES`)."),
    Setting("LIMITS_STORAGE", "database", "Where the request counters are kept: `database` (shared by every "
                                          "process on it) or `memory` (one process's own)."),
    Setting("PROXY_HOPS", 0, "Proxies in front of the server whose `X-Forwarded-For` and `X-Forwarded-Proto` are "
                             "trusted, to tell clients apart behind them; 0: the socket's address."),
    Setting("SECRET_KEY", "", "Signs the session cookie (form tokens, notices); empty means a random key "
                              "generated once and kept in the instance folder."),
    Setting("HOST", "127.0.0.1", "Address `viewer serve` listens on."),
    Setting("PORT", 8000, "Port `viewer serve` listens on."),
    Setting("PRELOAD_SAMPLES", True, "Store every file of the samples folder at startup (idempotent)."),
    Setting("SAMPLES_DIR", str(asset_folder("samples")), "Folder of sample transcripts to preload."),
    Setting("NODE_MODULES", str(asset_folder("node_modules")), "Where `npm ci` installed htmx."),
    Setting("WINDOW_SIZE", 100, "Entries rendered per window of a transcript page."),
    Setting("LONG_BODY_CHARS", LONG_BODY, "Message bodies (and debug sources) longer than this many characters are "
                                       "collapsed, showing their size, and rendered only when the reader asks."),
    Setting("FORCE_HTTPS", False, "Redirect plain HTTP to HTTPS and send HSTS (behind TLS only)."),
    Setting("SECURE_COOKIES", False, "Mark the session and owner-key cookies Secure (set it when served over HTTPS)."),
    Setting("RETENTION_DAYS", 0, "Days a new upload is kept before its link expires and its content is deleted "
                                 "(on first access after that, or by `prune`); 0 keeps uploads until deleted."),
    Setting("PERSONAL_DATA", True, "Look for personal data (e-mail addresses, phone numbers, cards, IBANs, national "
                                   "identifiers, IP addresses) in uploads and mask it for link holders; false for a "
                                   "server whose uploads never hold any."),
    Setting("CONFIG_FILE", "", "A TOML file of settings by these names (`WINDOW_SIZE = 50`), read before the "
                               "environment; empty means `viewer.toml` in the instance folder, if there is one."),
)
SECRET_SETTINGS = ("SECRET_KEY",)
"""Settings never printed: `check-config` says only whether they are set."""


def defaults() -> dict[str, Any]:
    """Every setting at its default value."""
    return {setting.name: setting.default for setting in SETTINGS}


def database_url(value: str, instance_path: str) -> str:
    """A SQLAlchemy URL from a path or URL; empty means the default file in the instance folder."""
    if "://" in value:
        return value
    path = Path(value) if value else Path(instance_path) / "viewer.sqlite3"
    return f"sqlite:///{path.resolve()}"
