"""Gemini CLI recordings, whole files and logs: records replaced by id, rewinds, compression checkpoints, the tool
responses the log repeats, what the CLI wrote into the user's turn, sub-agents' logs, usage, and detection."""
from __future__ import annotations

import json

from tests.conftest import SAMPLES
from tests.parse.agents.test_claude_code import shown
from tests.parse.helpers import codes, only
from viewer import parse

LOG = "gemini-cli-0.44-log-rewind-checkpoint-subagent.jsonl"
WHOLE = "gemini-cli-0.16-session-cancelled.json"
META = {"sessionId": "s1", "projectHash": "ab" * 32, "startTime": "2026-08-03T16:40:05.219Z",
        "lastUpdated": "2026-08-03T16:40:05.219Z"}


def sample(name: str):
    return parse((SAMPLES / name).read_bytes())


def log(*records: dict) -> str:
    return "".join(json.dumps(record) + "\n" for record in (META, *records))


def user(id: str, *texts: str, **extra) -> dict:
    return {"id": id, "timestamp": "2026-08-03T16:40:06.000Z", "type": "user",
            "content": [{"text": text} for text in texts], **extra}


def gemini(id: str, content: str = "", calls=(), **extra) -> dict:
    record = {"id": id, "timestamp": "2026-08-03T16:40:07.000Z", "type": "gemini", "content": content,
              "thoughts": [], "model": "gemini-3-pro-preview", **extra}
    if calls:
        record["toolCalls"] = list(calls)
    return record


def call(id: str, output: str | None = "ok", status: str = "success", **extra) -> dict:
    made = {"id": id, "name": "read_file", "args": {"file_path": "a.py"}, "status": status,
            "timestamp": "2026-08-03T16:40:08.500Z", **extra}
    if output is not None:
        made["result"] = [{"functionResponse": {"id": id, "name": "read_file", "response": {"output": output}}}]
    return made


def test_every_sample_is_detected_as_a_gemini_cli_recording():
    for path in SAMPLES.glob("gemini-cli-*"):
        assert parse(path.read_bytes()).dialect == "gemini-cli", path.name


def test_the_default_view_of_a_log_reads_like_the_chat_the_user_saw():
    assert shown(sample(LOG)) == [
        ("message", "@shop/rates.py convert() must round half up to cents; fix it and run the tests."),
        ("marker", "used read_file"),
        ("preamble", "`round()` rounds half to even, so I'll use `Decimal.quantize` with `ROUND_HALF_UP`."),
        ("marker", "used replace, run_shell_command"),
        ("preamble", "The quantize call never ran; I'll have the investigator check how rates are used."),
        ("marker", "used codebase_investigator"),
        ("message", 'Fixed: `convert()` now returns `quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)`, so 2.675 '
                    "EUR becomes 2.68."),
        ("message", "Also add a test for negative amounts"),
        ("marker", "Interrupted by user"),  # the user pressed Esc: the log records it
        ("message", "Add a test for negative amounts to tests/test_rates.py"),
    ]


def test_a_record_written_again_with_its_id_replaces_the_earlier_one_which_is_frame():
    first = gemini("g1", "Reading it.")
    transcript = parse(log(user("u1", "read a.py"), first, {"$set": {"lastUpdated": "x"}},
                           gemini("g1", "Reading it.", [call("c1")])))
    assert [(m.role, m.content) for m in transcript.messages] == [
        ("user", "read a.py"), ("assistant", "Reading it."), ("assistant", '{"file_path": "a.py"}'),
        ("tool", "ok")]
    assert transcript.messages[1].channel == "commentary"  # a preamble: the record calls a tool
    assert len(transcript.pairs) == 1 and "W-DUPLICATE-CALL-ID" not in codes(transcript)
    assert any("Reading it." in segment.text for segment in transcript.frame if segment.kind == "event")


def test_the_tool_responses_a_log_repeats_as_user_records_are_frame_and_read_when_nothing_else_holds_them():
    repeated = {"id": "u2", "timestamp": "t", "type": "user",
                "content": [{"functionResponse": {"id": "c1", "name": "read_file", "response": {"output": "ok"}}}]}
    transcript = parse(log(user("u1", "go"), gemini("g1", "", [call("c1")]), repeated))
    assert [m.role for m in transcript.messages] == ["user", "assistant", "tool"]
    alone = parse(log(user("u1", "go"), gemini("g1", "", [call("c1", output=None, status="executing")]), repeated))
    assert [m.role for m in alone.messages] == ["user", "assistant", "tool"] and len(alone.pairs) == 1


def test_a_rewind_sets_aside_the_message_it_names_and_everything_after_it():
    transcript = parse(log(user("u1", "first"), gemini("g1", "one"), user("u2", "second"), gemini("g2", "two"),
                           {"$rewindTo": "u2"}, user("u3", "second, better"), gemini("g3", "three")))
    assert [(m.content, m.aside) for m in transcript.messages] == [
        ("first", False), ("one", False), ("second", True), ("two", True), ("second, better", False),
        ("three", False)]
    assert only(transcript, "W-SESSION-FORK").message_index == 2
    assert [text for _, text in shown(transcript)] == ["first", "one", "second, better", "three"]


def test_a_checkpoint_is_the_model_s_context_and_the_messages_before_it_stay_as_the_user_saw_them():
    transcript = sample(LOG)
    checkpointed = [m for m in transcript.messages if m.name == "checkpoint"]
    assert len(checkpointed) == 4 and all(m.intent == "context" for m in checkpointed)
    assert checkpointed[0].content.startswith("<session_context>")
    assert only(transcript, "W-SESSION-COMPACTED")


def test_a_prompt_the_cli_expanded_shows_what_was_typed_and_hides_the_files_and_environment():
    transcript = parse(log(user("u0", "<session_context>\nlinux\n</session_context>"),
                           user("u1", "@a.py what is this?", "\n--- Content from referenced files ---",
                                "\nContent from @a.py:\n", "print(1)",
                                displayContent=[{"text": "@a.py what is this?"}]),
                           user("u2", "@b.py and this?\n--- Content from referenced files ---\nprint(2)")))
    assert shown(transcript) == [("message", "@a.py what is this?"), ("message", "@b.py and this?")]
    assert [m.intent for m in transcript.messages] == ["context", None, "context", None, "context"]


def test_a_whole_recording_cut_short_keeps_the_messages_before_the_cut():
    transcript = sample("gemini-cli-broken-session-cut-short.json")
    assert [m.role for m in transcript.messages] == ["user", "assistant", "assistant", "tool"]
    assert only(transcript, "E-STREAM-TRUNCATED")


def test_a_sub_agent_s_log_joined_after_the_session_is_a_thread_under_the_call_that_named_it():
    transcript = sample(LOG)
    (thread,) = transcript.threads
    assert transcript.messages[thread.call].recipient == "functions.codebase_investigator"
    inside = [m for m in transcript.messages if m.thread == thread.id]
    assert inside[0].content == "Find why convert() still rounds half to even in shop/rates.py"
    assert inside[-1].role == "assistant" and inside[-1].meta.model == "gemini-3-flash-preview"


def test_a_response_s_usage_counts_cached_input_apart_and_thoughts_as_output():
    tokens = {"input": 1000, "output": 50, "cached": 800, "thoughts": 20, "tool": 0, "total": 1070}
    transcript = parse(log(user("u1", "hi"), gemini("g1", "hello", tokens=tokens)))
    usage = transcript.messages[-1].meta.usage
    assert (usage.input, usage.cache_read, usage.output) == (200, 800, 70)
    assert transcript.header["models"] == ["gemini-3-pro-preview"]


def test_a_response_that_calls_tools_has_its_usage_on_its_last_call_not_on_a_result():
    tokens = {"input": 1000, "output": 50, "cached": 0, "thoughts": 0, "tool": 0, "total": 1050}
    transcript = parse(log(user("u1", "go"), gemini("g1", "Reading.", [call("c1"), call("c2")], tokens=tokens)))
    used = [message for message in transcript.messages if message.meta and message.meta.usage]
    assert [(message.is_call, message.call_id) for message in used] == [(True, "c2")]
    assert transcript.messages[-1].is_reply  # the results come after the calls in the record


def test_every_response_s_usage_is_on_a_message_as_the_header_counts_it():
    for name in (LOG, WHOLE):
        transcript = sample(name)
        used = [message.meta.usage for message in transcript.messages if message.meta and message.meta.usage]
        assert len(used) == transcript.header["responses"], name
        assert sum(usage.output for usage in used) == transcript.header["usage"]["output"], name


def test_a_cancelled_call_a_cancelled_request_and_an_error_are_reported():
    transcript = sample(WHOLE)
    assert {"W-SESSION-INTERRUPTED"} <= set(codes(transcript))
    errors = parse(log(user("u1", "go"), gemini("g1", "", [call("c1", "boom", status="error")]),
                       {"id": "e1", "timestamp": "t", "type": "error", "content": "[API Error: quota]"}))
    assert {"W-TOOL-ERROR", "W-API-ERROR"} <= set(codes(errors))
    assert errors.messages[-1].role == "system"


def test_a_recording_is_told_by_its_project_hash_and_nothing_without_one_is_taken_for_it():
    assert parse(log(user("u1", "hi"))).dialect == "gemini-cli"
    assert parse(json.dumps({**META, "messages": [user("u1", "hi")]}, indent=2)).dialect == "gemini-cli"
    assert parse(json.dumps({"sessionId": "s1", "startTime": "x", "messages": [{"role": "user", "content": "hi"}]})
                 ).dialect == "json"
