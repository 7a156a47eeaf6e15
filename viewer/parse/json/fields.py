"""A member of a decoded JSON object read as the kind a reader needs, or an empty one of that kind when it is
missing or of another kind: the readers take a member of the wrong kind for an absent one (its text stays in the
source, accounted for where the reader reports it), and these give the type that then holds."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def object_in(holder: Mapping[str, Any], key: str) -> dict[str, Any]:
    """The object under `key`, or an empty one."""
    value = holder.get(key)
    return value if isinstance(value, dict) else {}


def list_in(holder: Mapping[str, Any], key: str) -> list[Any]:
    """The list under `key`, or an empty one."""
    value = holder.get(key)
    return value if isinstance(value, list) else []
