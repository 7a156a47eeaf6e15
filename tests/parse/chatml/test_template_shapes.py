"""Properties of ChatML transcripts in the shapes real chat templates write (template_shapes.py): every
character is accounted for, turns keep their order, and nothing the default view shows holds a hidden part."""
from __future__ import annotations

import json

from hypothesis import given, settings

from tests.parse.chatml.helpers import chatml
from tests.parse.chatml.template_shapes import template_transcripts
from tests.parse.helpers import assert_accounted_for
from viewer import policy


@settings(deadline=None)
@given(template_transcripts())
def test_template_shapes_are_accounted_for_in_order(text):
    transcript = chatml(text)
    assert_accounted_for(transcript, text)
    spans = [message.span for message in transcript.messages]
    assert all(earlier[1] <= later[0] for earlier, later in zip(spans, spans[1:]))


@settings(deadline=None)
@given(template_transcripts())
def test_no_hidden_part_of_a_template_shape_reaches_the_default_view(text):
    transcript = chatml(text)
    shown = []
    for entry in policy.visible_entries(policy.Projection.of(transcript).decisions("default")):
        if isinstance(entry, policy.Marker):
            shown.append(policy.marker_json(entry))
        else:
            shown.append(policy.default_json(transcript.messages[entry.index], entry.show_as))
    assert "CANARY" not in json.dumps(shown)
    # And what it shows is there: every SHOWN word of the source, in order.
    words = [word for word in text.split() if word.startswith("SHOWN")]
    assert [m["content"] for m in shown if m.get("content")] == [w.removesuffix("<|im_end|>") for w in words]
