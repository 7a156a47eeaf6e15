"""`new_segment` makes the Segment that `Segment(...)` makes: equal, of the same class, and as frozen; so does a
`draft_class` draft of any frozen dataclass once it becomes one."""
from __future__ import annotations

import dataclasses

import pytest

from viewer.model import Segment
from viewer.model.drafts import draft_class, new_segment


def test_new_segment_is_a_frozen_segment():
    made = new_segment("think", "why", (3, 9))
    assert made == Segment("think", "why", (3, 9)) and type(made) is Segment and hash(made) == hash(Segment(
        "think", "why", (3, 9)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.text = "changed"  # type: ignore[misc]


@dataclasses.dataclass(frozen=True, slots=True)
class Reading:
    line: int
    column: int
    text: str


def test_a_draft_of_a_frozen_dataclass_becomes_an_equal_frozen_instance():
    draft = draft_class(Reading)()
    draft.line, draft.column, draft.text = 2, 5, "<|start|>"
    draft.__class__ = Reading
    assert draft == Reading(2, 5, "<|start|>") and type(draft) is Reading
    with pytest.raises(dataclasses.FrozenInstanceError):
        draft.line = 3  # type: ignore[misc]
