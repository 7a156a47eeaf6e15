"""preference_plain.read_record reads TRL preference pairs to exactly what the general reading
(preference.py, the builder) makes of them: the same conversations, marks, headers, messages, spans, frame,
diagnostics and pairs, whatever the records hold and however they are spaced; a record it does not read is left
to that reading."""
from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from tests.parse.json.test_batch_plain import ANSWER, ODD, SEPARATORS, _rarely, _read, _with
from tests.parse.json.test_plain import ELEMENT, _sometimes
from viewer.parse.json import preference_plain

PROMPT = st.fixed_dictionaries({"role": st.sampled_from(["system", "user", "developer"]),
                                "content": st.sampled_from(["Hi", "", "a\nb é", 'say "x"'])})
MESSAGES = st.lists(_sometimes(ANSWER, ELEMENT | ODD), max_size=2)
RECORD = _with(st.fixed_dictionaries({"chosen": _sometimes(MESSAGES, ODD), "rejected": _sometimes(MESSAGES, ODD)},
                                     optional={"prompt": _sometimes(st.lists(PROMPT, max_size=3), ODD),
                                               "score_chosen": st.just(8.0), "score_rejected": st.just(3.0),
                                               "id": st.sampled_from(["p1", 3])}),
               {"messages": _rarely(st.lists(PROMPT, max_size=1)), "system": _rarely(st.just("Be brief.")),
                "tools": _rarely(st.just([])), "custom_id": _rarely(st.just("r")),
                "conversations": _rarely(st.just([]))})
"""TRL conversational preference records, most of them plain; now and then anything the general reading reads
another way (a text answer, a chosen answer that repeats the prompt, a prompt in `messages`, tools)."""


@settings(max_examples=400, deadline=None)
@given(records=st.lists(RECORD, min_size=2, max_size=4), style=st.sampled_from(sorted(SEPARATORS)),
       ascii=st.booleans())
def test_preference_records_read_as_the_general_reading_reads_them(records, style, ascii):
    text = "".join(json.dumps(record, separators=SEPARATORS[style], ensure_ascii=ascii) + "\n"
                   for record in records)
    assert _read(text, fast=True) == _read(text, fast=False)


def test_a_plain_pair_is_read_the_fast_way_its_answers_marked():
    line = json.dumps({"prompt": [{"role": "user", "content": "Q"}], "chosen": [{"role": "assistant", "content": "A"}],
                       "rejected": [{"role": "assistant", "content": "B"}], "score_chosen": 8.0})
    conversation = preference_plain.read_record(line, (0, len(line)))
    assert conversation is not None
    assert [(m.content, m.intent) for m in conversation.messages] == [("Q", None), ("A", "chosen"), ("B", "rejected")]
    assert conversation.header == {"score_chosen": 8.0}
