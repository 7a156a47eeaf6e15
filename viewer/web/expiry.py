"""How long a share link lives: the uploader's choice at upload (`never`, 1, 7 or 30 days; the form's select,
the API's `expires=`), changeable on the manage page, within the operator's `RETENTION_DAYS` when that is set
(a choice longer than it, or `never`, is cut to it)."""
from __future__ import annotations

import datetime as dt

from flask import abort

from viewer.web.lookup import retention

CHOICES: dict[str, dt.timedelta | None] = {
    "never": None,
    "1d": dt.timedelta(days=1),
    "7d": dt.timedelta(days=7),
    "30d": dt.timedelta(days=30),
}
LABELS = {"never": "Never", "1d": "After 1 day", "7d": "After 7 days", "30d": "After 30 days"}
DEFAULT = "never"


def keep_for(value: str | None) -> dt.timedelta | None:
    """How long to keep an upload for the choice `value` (None or empty: the default); 400 for anything else."""
    choice = value or DEFAULT
    if choice not in CHOICES:
        abort(400, f"expires must be one of {', '.join(CHOICES)}.")
    chosen, most = CHOICES[choice], retention()
    if most is not None and (chosen is None or chosen > most):
        return most
    return chosen


def expires_at(value: str | None, now: dt.datetime) -> dt.datetime | None:
    """When a link chosen now with `value` expires (None: never)."""
    kept = keep_for(value)
    return now + kept if kept is not None else None
