"""What an operator's tools ask: `GET /healthz`, for a load balancer or a container's health check."""
from __future__ import annotations

from flask import Blueprint, jsonify
from werkzeug.wrappers import Response

from viewer.ingest import STORED_VERSION
from viewer.web.lookup import get_store

bp = Blueprint("operations", __name__)


@bp.get("/healthz")
def healthz() -> tuple[Response, int]:
    """200 when the database answers, 503 when it does not. Says nothing an attacker could use: no URL, no
    paths, no versions of the software underneath, no counts."""
    database = get_store().ping()
    body = {"status": "ok" if database else "unavailable", "database": "ok" if database else "unreachable",
            "parser": STORED_VERSION}
    return jsonify(body), 200 if database else 503
