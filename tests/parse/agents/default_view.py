"""What the default view's JSON holds of a parsed session, for the agents' leak properties: every message it shows
(`viewer.policy.default_json`) and the note of every run of tool traffic, in order."""
from __future__ import annotations

import json

from viewer import parse
from viewer.policy import Projection, default_json, visible_entries
from viewer.policy.projection import marker_json

CANARY = "CANARY-Q7"


def default_view_json(text: str, dialect: str) -> str:
    """The default view's JSON of `text`, which must be detected as `dialect`."""
    transcript = parse(text)
    assert transcript.dialect == dialect, transcript.dialect
    projection = Projection.of(transcript)
    shown = [marker_json(entry) if hasattr(entry, "indices") else
             default_json(transcript.messages[entry.index], entry.show_as)
             for entry in visible_entries(projection.decisions("default"))]
    return json.dumps(shown, ensure_ascii=False)
