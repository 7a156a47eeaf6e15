"""What an operator's tools ask: `GET /healthz`, for a load balancer or a container's health check."""
from __future__ import annotations

from flask import Blueprint, jsonify
from werkzeug.wrappers import Response

from viewer.ingest import STORED_VERSION
from viewer.web import capacity
from viewer.web.lookup import get_store

bp = Blueprint("operations", __name__)


@bp.get("/healthz")
def healthz() -> tuple[Response, int]:
    """200 when the server can store; 503 when the database does not answer, a place it writes has less free
    space than it keeps in reserve, or the database refused a write for lack of room moments ago. Says what is
    wrong in words, and each place's free bytes by its role, never its path: no URL, no versions of the software
    underneath, no counts of what is stored."""
    body, status = capacity.health(get_store().ping())
    return jsonify({**body, "parser": STORED_VERSION}), status
