"""Storing a parse leaves it as it was in memory: the database gets copies of texts that are not ASCII, since
binding a str caches its UTF-8 form inside it for as long as it lives (viewer/store/rows.py `bound`). And the
rows' pairs, found through an array of pair numbers, are the transcript's pairs. Tests run on SQLite and on
PostgreSQL."""
from __future__ import annotations

import sys

import pytest

from viewer import ingest
from viewer.store import rows

HARMONY = ("<|start|>user<|message|>Wie warm ist es in Köln — jetzt?<|end|>"
           "<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>"
           '{"location":"Köln"}<|call|>'
           "<|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>{\"temp\":\"21 °C\"}<|end|>"
           "<|start|>assistant<|channel|>final<|message|>Es sind 21 °C — angenehm.<|return|>")
CHATML = ("<|im_start|>user\nWie warm ist es in Köln?<|im_end|>\n"
          "<|im_start|>assistant\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Köln\"}}\n"
          "</tool_call><|im_end|>\n"
          "<|im_start|>tool\n<tool_response>\n{\"name\": \"get_weather\", \"temp\": \"21 °C\"}\n</tool_response>"
          "<|im_end|>\n<|im_start|>assistant\nEs sind 21 °C — angenehm.<|im_end|>\n")


@pytest.mark.parametrize("text", [HARMONY, CHATML], ids=["harmony", "chatml"])
def test_storing_a_parse_leaves_its_texts_without_a_utf8_copy(store, text):
    examined = ingest.examine(text)
    messages = examined.shared.transcript.messages
    assert any(not message.content.isascii() for message in messages)  # what the test is about
    sizes = [sys.getsizeof(message.content) for message in messages]  # counts a cached UTF-8 form
    store.add(text.encode(), examined.shared, ingest.STORED_VERSION, id="row-memory-1")
    assert [sys.getsizeof(message.content) for message in messages] == sizes


def test_bound_copies_only_texts_that_are_not_ascii():
    ascii_text, other = "plain words " * 3, "Köln — 21 °C " * 3
    assert rows.bound(ascii_text) is ascii_text
    assert rows.bound(other) == other and rows.bound(other) is not other


@pytest.mark.parametrize("text", [HARMONY, CHATML], ids=["harmony", "chatml"])
def test_each_rows_pair_is_the_transcripts_pair(text):
    projection = ingest.examine(text).shared
    transcript = projection.transcript
    assert transcript.pairs
    stored = {row[1]: (row[17], row[18]) for row in rows.message_rows("t", projection, {})}
    expected = {index: (None, None) for index in range(len(transcript.messages))}
    for number, pair in enumerate(transcript.pairs, start=1):
        expected[pair.call], expected[pair.reply] = (number, pair.reply), (number, pair.call)
    assert stored == expected


def test_a_fresh_parse_s_entries_read_the_columns_the_tables_name():
    """`entries_in_memory` (the command line's `render`, without the database) names an entry's values by
    `ENTRY_NAMES`; the tables' columns, which a stored entry is selected by, are the same and in the same order."""
    from viewer.store import rows

    assert tuple(column.name for column in rows.entry_columns()) == rows.ENTRY_NAMES
