"""`new_segment` makes the Segment that `Segment(...)` makes: equal, of the same class, and as frozen."""
from __future__ import annotations

import dataclasses

import pytest

from viewer.model import Segment
from viewer.model.drafts import new_segment


def test_new_segment_is_a_frozen_segment():
    made = new_segment("think", "why", (3, 9))
    assert made == Segment("think", "why", (3, 9)) and type(made) is Segment and hash(made) == hash(Segment(
        "think", "why", (3, 9)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.text = "changed"  # type: ignore[misc]
