"""The one projection step: the store's rows, the pages' cards and the JSON twin all go through it, so the
in-memory decisions and the stored rows of any transcript give the same default view."""
from __future__ import annotations

import pytest

from tests.conftest import SAMPLES
from viewer import parse, policy
from viewer.store.rows import entries_in_memory

SAMPLE_FILES = sorted(path for path in SAMPLES.iterdir() if path.is_file())


def _shape(items) -> list:
    return [(item.indices, item.tools) if isinstance(item, policy.Marker) else (item.index, item.show_as)
            for item in items]


@pytest.mark.parametrize("sample", SAMPLE_FILES, ids=lambda path: path.name)
def test_stored_rows_and_decisions_project_to_the_same_default_view(sample):
    projection = policy.Projection.of(parse(sample.read_bytes()))
    from_decisions = policy.visible_entries(projection.decisions("default"))
    from_rows = policy.visible_entries(entries_in_memory(projection))
    assert _shape(from_rows) == _shape(from_decisions)


@pytest.mark.parametrize("sample", SAMPLE_FILES, ids=lambda path: path.name)
def test_ranks_number_exactly_the_messages_the_default_view_does_not_hide(sample):
    projection = policy.Projection.of(parse(sample.read_bytes()))
    ranks = list(projection.ranks())
    shown = [decision.index for decision in projection.decisions() if decision.show_as != "hidden"]
    assert [index for index, rank in enumerate(ranks) if rank is not None] == shown
    assert [rank for rank in ranks if rank is not None] == list(range(len(shown)))
    assert projection.hidden_count == ranks.count(None)


def test_the_default_json_has_no_source_positions():
    transcript = parse(b"<|start|>user<|message|>hi<|end|>")
    data = policy.default_json(transcript.messages[0], "message")
    assert "span" not in data and data["content"] == "hi" and data["show_as"] == "message"


@pytest.mark.parametrize("show_as", ["hidden", "marker"])
def test_the_default_json_refuses_a_message_it_does_not_show_in_full(show_as):
    transcript = parse(b"<|start|>system<|message|>secret<|end|>")
    with pytest.raises(ValueError):
        policy.default_json(transcript.messages[0], show_as)


def test_a_marker_run_streams_exactly_as_it_collapses_on_a_whole_list():
    transcript = parse(b"<|start|>user<|message|>go<|end|>"
                       b"<|start|>assistant to=functions.f<|channel|>commentary json<|message|>{}<|call|>"
                       b"<|start|>functions.f to=assistant<|channel|>commentary<|message|>{}<|end|>"
                       b"<|start|>assistant<|channel|>analysis<|message|>think<|end|>"
                       b"<|start|>assistant to=functions.g<|channel|>commentary json<|message|>{}<|call|>")
    decisions = policy.Projection.of(transcript).decisions()
    streamed = list(policy.iter_visible_entries(iter(decisions)))
    assert _shape(streamed) == _shape(policy.visible_entries(decisions)) == [(0, "message"),
                                                                            ((1, 2, 4), ("functions.f", "functions.g"))]


def test_a_run_of_a_hundred_thousand_tool_messages_is_one_marker_naming_each_tool_once():
    calls = 100_000  # an agent's loop with nothing shown in between: the run is gathered, never copied per item
    decisions = [policy.Decision(index, "marker", "tool-call", "", "marker", f"functions.tool_{index % 7}")
                 for index in range(calls)]
    (marker,) = policy.iter_visible_entries(iter(decisions))
    assert marker.indices == tuple(range(calls))
    assert marker.tools == tuple(f"functions.tool_{number}" for number in range(7))
