"""The chat apps' exports read into conversations: detection, the tree's order and the app's branch, what each
hidden kind becomes, placeholders that are no answer, old exports, broken input, every character accounted for."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.parse.helpers import assert_accounted_for, codes
from viewer.model.branches import FORKS_KEY, Fork, aside_for
from viewer.parse import detect, parse

SAMPLES = Path(__file__).resolve().parents[3] / "sample_transcripts"
EXPORTS = sorted(SAMPLES.glob("*-export-*.json"))
ROOT_UUID = "00000000-0000-4000-8000-000000000000"


def _node(id, parent, role, text, **message):
    return id, {"id": id, "parent": parent, "children": [], "message": None if role is None else {
        "id": id, "author": {"role": role}, "content": {"content_type": "text", "parts": [text]}, **message}}


def _chatgpt(nodes, current, **extra) -> str:
    mapping = dict(nodes)
    for id, node in mapping.items():
        if node["parent"] in mapping:
            mapping[node["parent"]]["children"].append(id)
    return json.dumps({"title": "T", "mapping": mapping, "current_node": current, **extra})


@pytest.mark.parametrize("path", EXPORTS, ids=lambda path: path.name)
def test_every_character_of_each_sample_export_is_accounted_for(path):
    text = path.read_text(encoding="utf-8")
    transcript = parse(text)
    assert transcript.is_dataset and transcript.dialect in ("chatgpt", "claude-ai")
    assert_accounted_for(transcript, text)


def test_a_list_of_messages_that_only_mentions_the_exports_keys_is_not_an_export():
    quoted = json.dumps([{"role": "user", "content": '"mapping": {"a": 1}, "current_node": "x", "chat_messages": ['}])
    assert detect(quoted) == "json"


def test_nodes_stored_out_of_order_read_in_the_trees_order_following_current_node():
    nodes = [_node("c", "b", "assistant", "second answer"), _node("b", "a", "user", "question"),
             _node("a", None, None, None), _node("x", "b", "assistant", "first answer")]
    transcript = parse(_chatgpt(nodes, "c"))
    assert [(m.content, m.parent, m.aside) for m in transcript.messages] == [
        ("question", None, False), ("second answer", 0, False), ("first answer", 0, True)]
    assert transcript.header[FORKS_KEY] == [[0, [1, 2]]]
    assert codes(transcript) == ["W-EXPORT-BRANCH"]


def test_an_unknown_current_node_follows_the_newest_branch():
    nodes = [_node("a", None, "user", "q"), _node("b", "a", "assistant", "old"), _node("c", "a", "assistant", "new")]
    transcript = parse(_chatgpt(nodes, "nowhere"))
    assert [m.content for m in transcript.messages if not m.aside] == ["q", "new"]


def test_parents_that_form_a_cycle_are_read_once_each_without_hanging():
    nodes = [_node("a", "b", "user", "one"), _node("b", "a", "assistant", "two")]
    transcript = parse(_chatgpt(nodes, "b"))
    assert sorted(m.content for m in transcript.messages) == ["one", "two"]


def test_hidden_kinds_of_a_chatgpt_conversation():
    export = parse((SAMPLES / "chatgpt-export-branches-tools-memory.json").read_text())
    fit, memory = export.conversations[1], export.conversations[2]
    assert [(m.role, m.channel, m.recipient, m.name) for m in fit.messages[1:5]] == [
        ("assistant", "analysis", None, None), ("assistant", "analysis", None, None),
        ("assistant", "commentary", "python", None), ("tool", "commentary", None, "python")]
    assert [(p.call, p.reply) for p in fit.pairs] == [(3, 4)]
    assert fit.messages[0].content.startswith("[image: file-service://file-7QpXkZ3mN2, 640×480, 48,213 bytes]")
    assert "[file: samples.csv, text/csv, 2,048 bytes]" in fit.messages[0].content
    assert memory.messages[0].intent == "context" and "CANARY-MEMORY" in memory.messages[0].content
    assert export.conversations[3].messages == () and export.conversations[3].header["title"] == "New chat"


def test_claude_ai_follows_the_latest_leaf_and_keeps_its_blocks_apart():
    export = parse((SAMPLES / "claude-ai-export-branches-tools-attachments.json").read_text())
    tram, haiku, minutes = export.conversations[:3]
    assert [(m.role, m.channel, m.recipient) for m in tram.messages] == [
        ("user", "final", None), ("assistant", "analysis", None), ("assistant", "commentary", "functions.web_search"),
        ("tool", "commentary", None), ("assistant", "final", None)]
    assert "CANARY-CLAUDE-THINKING" not in tram.messages[4].content  # the flattened `text` is never read
    assert [m.content.split("\n")[0] for m in haiku.messages if not m.aside] == [
        "Write a haiku about rain.", "Rain on the window"]
    assert minutes.messages[1].intent == "context" and "CANARY-CLAUDE-EXTRACTED" in minutes.messages[1].content
    assert "[file: whiteboard.jpg]" in minutes.messages[0].content


def test_an_old_claude_ai_export_reads_its_text_in_order_without_its_placeholders():
    export = parse((SAMPLES / "claude-ai-export-old-text-only.json").read_text())
    packing = export.conversations[0]
    assert [m.parent for m in packing.messages] == [None, 0, 1, 2]
    assert packing.messages[1].content == "Here is a list you can print:\n\nPack light: the forecast is dry."
    assert packing.messages[3].channel == "placeholder" and packing.messages[3].content == ""
    assert codes(packing).count("W-EXPORT-PLACEHOLDER") == 2


def test_a_claude_ai_conversation_is_read_as_one_when_it_stands_alone():
    one = {"uuid": "c", "name": "Solo", "chat_messages": [
        {"uuid": "m1", "sender": "human", "text": "hi", "content": [{"type": "text", "text": "hi"}],
         "parent_message_uuid": ROOT_UUID}]}
    transcript = parse(json.dumps(one))
    assert transcript.dialect == "claude-ai" and not transcript.is_dataset
    assert transcript.header["title"] == "Solo" and transcript.messages[0].content == "hi"


@pytest.mark.parametrize("text", ['[{"title": "T", "mapping": {}, "current_node": "x"}, {"broken',
                                  '[{"title": "T", "mapping": {"a": 1}, "current_node": "x"}, 3]',
                                  '{"title": "T", "mapping": {"a": []}, "current_node": null} trailing'])
def test_a_broken_export_keeps_what_it_could_read_and_says_where_it_broke(text):
    transcript = parse(text)
    assert transcript.dialect == "chatgpt"
    assert_accounted_for(transcript, text)
    assert {"W-JSON-SYNTAX", "W-JSON-SHAPE"} & {d.code for part in (transcript, *transcript.conversations)
                                                 for d in part.diagnostics}


def test_choosing_a_message_follows_every_branch_that_leads_to_it():
    #   0 ─┬─ 1 ─┬─ 3
    #      │     └─ 4
    #      └─ 2
    parents = {0: None, 1: 0, 2: 0, 3: 1, 4: 1}
    forks = [Fork(0, (1, 2)), Fork(1, (3, 4))]
    assert aside_for(forks, parents, parents) == {1, 3, 4}  # the newest branch at each fork
    assert aside_for(forks, parents, parents, chosen=3) == {2, 4}
    assert aside_for(forks, parents, parents, chosen=1, default={1: 4}) == {2, 3}


def test_a_claude_ai_block_s_summaries_and_a_tool_use_s_line_are_its_message_s_details():
    transcript = parse((SAMPLES / "claude-ai-export-branches-tools-attachments.json").read_bytes())
    details = [m.meta.details for m in transcript.conversations[0].messages if m.meta and m.meta.details]
    assert {"summaries": [{"summary": "Looking up the timetable."}]}.items() <= details[1].items()
    assert details[2]["message"] == "Searching the web"


def test_a_claude_ai_text_no_message_shows_whole_is_kept_as_written_in_details():
    transcript = parse((SAMPLES / "claude-ai-export-branches-tools-attachments.json").read_bytes())
    reasoning = transcript.conversations[0].messages[1]
    assert reasoning.channel == "analysis"
    assert reasoning.meta.details["text"].startswith("The user wants the Sunday start time. CANARY-CLAUDE-THINKING")
    assert "text" not in transcript.conversations[0].messages[0].meta.details  # the user's text is their message
    old = parse((SAMPLES / "claude-ai-export-old-text-only.json").read_bytes()).conversations[0]
    assert old.messages[1].meta.details == {"text": "Here is a list you can print:\n```\nThis block is not supported "
                                                    "on your current device yet.\n```\n\nPack light: the forecast is "
                                                    "dry."}
