"""Codex CLI rollouts and `codex exec --json` streams: items read once (the UI's events repeat them), injected
context hidden, preambles, usage per response, compaction and interruption, and cut streams."""
from __future__ import annotations

import json

import pytest

from tests.conftest import SAMPLES
from tests.parse.agents.test_claude_code import shown
from tests.parse.helpers import codes, only
from viewer import parse


def sample(name: str):
    return parse((SAMPLES / name).read_bytes())


def rollout(*lines: tuple[str, dict]) -> str:
    return "".join(json.dumps({"timestamp": "2025-10-02T14:00:00Z", "type": kind, "payload": payload}) + "\n"
                   for kind, payload in lines)


def said(role: str, *texts: str, **extra) -> tuple[str, dict]:
    part = "output_text" if role == "assistant" else "input_text"
    return "response_item", {"type": "message", "role": role,
                             "content": [{"type": part, "text": text} for text in texts], **extra}


def test_every_sample_is_detected_as_codex():
    for path in SAMPLES.glob("codex-*.jsonl"):
        assert parse(path.read_bytes()).dialect == "codex", path.name


def test_a_rollout_reads_like_the_chat_the_user_had_each_thing_once():
    assert shown(sample("codex-0.46-rollout-shell-and-patch.jsonl")) == [
        ("message", "The CSV importer drops rows whose date has a trailing space. Fix it."),
        ("preamble", "Looking for where the CSV dates are parsed."),
        ("marker", "used shell, apply_patch"),
        ("message", "Fixed: the importer now strips the date cell before parsing it, so `2024-05-01 ` reads like "
                    "`2024-05-01`. All 8 tests pass."),
    ]


@pytest.mark.parametrize("text", [
    "<environment_context>\n  <cwd>/w</cwd>\n</environment_context>",
    "<user_instructions>\nBe brief.\n</user_instructions>",
    "# AGENTS.md instructions for /w\n\n<INSTRUCTIONS>\nUse tabs.\n</INSTRUCTIONS>",
    "<turn_aborted>\nThe user interrupted the previous turn.\n</turn_aborted>",
])
def test_context_codex_writes_into_a_user_message_is_hidden(text):
    transcript = parse(rollout(said("user", text), said("user", "hello")))
    assert transcript.messages[0].intent == "context"
    assert shown(transcript) == [("message", "hello")]


def test_a_message_mixing_injected_and_typed_parts_is_read_part_by_part():
    transcript = parse(rollout(said("user", "<environment_context>x</environment_context>", "what changed?")))
    assert [(m.intent, m.content) for m in transcript.messages] == [
        ("context", "<environment_context>x</environment_context>"), (None, "what changed?")]


def test_the_items_of_one_response_are_one_turn_and_its_token_count_is_its_usage():
    transcript = sample("codex-0.46-rollout-shell-and-patch.jsonl")
    response = [m for m in transcript.messages if m.turn == transcript.messages[3].turn]
    assert [m.channel for m in response] == ["analysis", "commentary", "commentary"]
    assert response[-1].meta.usage.cache_read == 7040 and response[-1].meta.usage.input == 1080
    assert transcript.header["responses"] == 4 and transcript.header["models"] == ["gpt-5-codex"]
    assert transcript.header["cli_version"] == "0.46.0"


def test_encrypted_reasoning_is_named_never_shown():
    transcript = sample("codex-0.46-rollout-shell-and-patch.jsonl")
    assert "gAAAA" not in "".join(m.content for m in transcript.messages)
    assert only(transcript, "W-JSON-OPAQUE-DATA").message_index == 3


def test_a_compaction_and_an_aborted_turn_are_reported_and_the_chat_goes_on():
    transcript = sample("codex-0.50-rollout-compacted-aborted.jsonl")
    assert {"W-SESSION-COMPACTED", "W-SESSION-INTERRUPTED"} <= set(codes(transcript))
    assert [text for how, text in shown(transcript) if how == "message"][-2:] == [
        "Go ahead with the change.", "Done: `vat_amount` now quantizes with `ROUND_HALF_UP` to two decimals."]


def test_an_exec_stream_reads_completed_items_as_calls_replies_and_answers():
    transcript = sample("codex-exec-json-stream.jsonl")
    assert [m.recipient for m in transcript.messages if m.is_call] == ["shell", "apply_patch", "tracker.add_comment"]
    assert len(transcript.pairs) == 3 and "W-TOOL-ERROR" in codes(transcript)
    assert shown(transcript)[-1][1].startswith("`Cart.total` rounded each line")
    assert transcript.messages[-1].meta.usage.output == 612


def test_an_exec_item_that_never_completes_is_read_from_its_last_state_with_a_diagnostic():
    transcript = sample("codex-exec-broken-cut-short.jsonl")
    assert codes(transcript).count("E-STREAM-TRUNCATED") == 2
    assert transcript.messages[1].recipient == "shell"


def test_event_messages_repeat_the_items_and_give_no_message_of_their_own():
    transcript = parse(rollout(said("user", "hi"), ("event_msg", {"type": "user_message", "message": "hi"}),
                               said("assistant", "hello"),
                               ("event_msg", {"type": "agent_message", "message": "hello"})))
    assert [m.content for m in transcript.messages] == ["hi", "hello"]
    assert [segment.kind for segment in transcript.frame] == ["event", "event"]


def _reasoning(*summaries: str) -> tuple[str, dict]:
    return "response_item", {"type": "reasoning", "content": None, "encrypted_content": "gAAAAB" + "x" * 40,
                             "summary": [{"type": "summary_text", "text": text} for text in summaries]}


def test_a_reasoning_summary_written_only_as_an_event_is_shown_as_reasoning_before_its_item():
    event = {"type": "agent_reasoning", "text": "**Reading rates**\n\nFirst the code."}
    transcript = parse(rollout(said("user", "Round VAT."), ("event_msg", event), _reasoning(),
                               said("assistant", "Done.")))
    summary = transcript.messages[1]
    assert (summary.role, summary.channel, summary.intent, summary.content) == (
        "assistant", "analysis", "summary", "**Reading rates**\n\nFirst the code.")
    assert summary.turn == transcript.messages[-1].turn  # one response: the summary, the item, the answer
    assert shown(transcript) == [("message", "Round VAT."), ("message", "Done.")]


def test_a_reasoning_event_that_repeats_its_item_s_summary_is_frame():
    transcript = parse(rollout(said("user", "Round VAT."),
                               ("event_msg", {"type": "agent_reasoning", "text": "**Reading rates**"}),
                               _reasoning("**Reading rates**"), said("assistant", "Done.")))
    assert [m.content for m in transcript.messages if m.channel == "analysis"] == ["**Reading rates**"]
    assert '"type": "reasoning"' in transcript.text(transcript.messages[1].span)  # the item's, not the event's
    assert any('"agent_reasoning"' in segment.text for segment in transcript.frame if segment.kind == "event")


def test_the_codex_0_58_samples_show_every_summary_once_whether_the_item_or_only_its_event_holds_it():
    for name in ("codex-0.58-rollout-reasoning-summaries.jsonl", "codex-0.58-rollout-summaries-in-events.jsonl"):
        summaries = [m.content for m in sample(name).messages if m.intent == "summary"]
        assert [text.split("\n")[0] for text in summaries] == [
            "**Inspecting rounding in rates module**", "**Switching to Decimal quantize**",
            "**Searching Skat guidance**"], name


def test_a_session_s_git_source_and_turn_contexts_are_in_the_header():
    header = sample("codex-0.58-rollout-reasoning-summaries.jsonl").header
    assert header["git"]["repository_url"] == "git@github.com:ada/shop.git" and header["source"] == "cli"
    assert [context["model"] for context in header["turn_contexts"]] == ["gpt-5.1-codex"]


def test_an_event_no_reader_reads_is_kept_and_said():
    hint = {"user_facing_hint": "Review the uncommitted changes"}
    transcript = parse(rollout(said("user", "hi"), ("event_msg", {"type": "entered_review_mode", **hint})))
    assert transcript.header["unread"] == [{"line": 2, "members": hint}]
    assert "W-JSON-UNREAD" in codes(transcript)


def test_an_exec_stream_s_exit_code_is_its_reply_s_details_and_an_unknown_item_member_is_unread():
    stream = "".join(json.dumps(line) + "\n" for line in (
        {"type": "thread.started", "thread_id": "t1"}, {"type": "turn.started"},
        {"type": "item.completed", "item": {"id": "item_0", "type": "command_execution", "command": "false",
                                            "aggregated_output": "", "exit_code": 1, "status": "failed"}},
        {"type": "item.completed", "item": {"id": "item_1", "type": "agent_message", "text": "Done.",
                                            "x_later": "a later member"}}))
    transcript = parse(stream)
    assert transcript.messages[1].meta.details == {"exit_code": 1}
    assert transcript.header["unread"] == [{"line": 4, "members": {"item": {"x_later": "a later member"}}}]
