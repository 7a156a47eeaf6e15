"""ATIF trajectories: steps read as the conversation (system and injected context hidden, an agent step's plan,
calls and their results paired by `source_call_id`), metrics as usage, sub-agents embedded or given beside the
trajectory read as threads of the call that started them, and files cut short."""
from __future__ import annotations

import json

from tests.conftest import SAMPLES
from tests.parse.agents.test_claude_code import shown
from tests.parse.helpers import codes, only
from viewer import parse
from viewer.parse import detect


def sample(name: str):
    return parse((SAMPLES / name).read_bytes())


def trajectory(*steps: dict, **top) -> dict:
    return {"schema_version": "ATIF-v1.6", "session_id": top.pop("session_id", "s1"), "agent": {"name": "a"},
            "steps": [{"step_id": number, **step} for number, step in enumerate(steps, start=1)], **top}


def calling(*calls: tuple[str, str], results=(), **fields) -> dict:
    return {"source": "agent", "tool_calls": [{"tool_call_id": id, "function_name": name, "arguments": {}}
                                              for id, name in calls],
            "observation": {"results": list(results)}, **fields}


def test_every_sample_is_detected_as_atif():
    for path in SAMPLES.glob("atif-*"):
        assert parse(path.read_bytes()).dialect == "atif", path.name


def test_a_trajectory_reads_like_the_chat_the_user_had():
    assert shown(sample("atif-1.6-claude-code-trial.json")) == [
        ("message", "vat() in shop/rates.py returns 20.099999999999998 for 100.5 - fix the rounding"),
        ("preamble", "I'll look at the rates module first."),
        ("marker", "used Read"),
        ("preamble", "I'll switch to Decimal and run the tests in parallel with a caller search."),
        ("marker", "used Edit, Bash, Task"),
        ("preamble", "Convert the argument inside vat() so callers keep passing floats."),
        ("marker", "used Edit"),
        ("message", "Fixed: `vat()` converts its argument with `Decimal(str(amount))` and rounds half-up to cents; "
                    "`vat(100.5)` is `Decimal('20.10')`."),
    ]


def test_results_pair_with_their_calls_by_source_call_id_and_a_result_naming_none_is_the_harness_s():
    transcript = parse(json.dumps(trajectory(
        {"source": "user", "message": "go"},
        calling(("k1", "Read"), ("k2", "Bash"), results=[{"source_call_id": "k2", "content": "b"},
                                                         {"source_call_id": "k1", "content": "a",
                                                          "extra": {"is_error": True}},
                                                         {"content": "note"}]))))
    calls = {m.call_id: m.index for m in transcript.messages if m.is_call}
    assert sorted((p.call, p.reply) for p in transcript.pairs) == [(calls["k1"], 4), (calls["k2"], 3)]
    assert transcript.messages[-1].role == "system" and "W-TOOL-ERROR" in codes(transcript)


def test_metrics_are_usage_with_the_cached_tokens_apart():
    transcript = sample("atif-1.6-claude-code-trial.json")
    first = next(m for m in transcript.messages if m.meta and m.meta.usage)
    assert first.is_call and first.meta.usage.to_json() == {"input": 10, "output": 96, "cache_read": 0,
                                                            "cache_write": 12030, "cost": 0.0386}
    assert transcript.header["usage"]["cost"] == 0.0548 and transcript.header["agent"] == "claude-code"


def test_an_embedded_sub_agent_is_the_thread_of_the_call_that_started_it():
    transcript = sample("atif-1.7-embedded-subagent.json")
    (thread,) = transcript.threads
    assert thread.id == "a9f4657" and transcript.messages[thread.call].recipient == "functions.Task"
    inside = [m for m in transcript.messages if m.thread == thread.id]
    assert inside[0].content.startswith("List every call site") and inside[-1].role == "assistant"
    assert "W-SESSION-THREAD" not in codes(transcript)


def test_a_sub_agent_in_a_file_of_its_own_is_said_and_one_given_beside_is_read():
    main = json.loads((SAMPLES / "atif-1.6-claude-code-trial.json").read_text())
    alone = parse(json.dumps(main))
    assert "trajectory.a9f4657.json" in only(alone, "W-SESSION-THREAD").message
    sub = trajectory({"source": "user", "message": "find callers"}, {"source": "agent", "message": "two"},
                     session_id="a9f4657")
    together = parse(json.dumps([main, sub], indent=2))
    assert [t.id for t in together.threads] == ["a9f4657"] and "W-SESSION-THREAD" not in codes(together)


def test_system_events_copied_context_and_injected_extras_are_hidden():
    transcript = parse(json.dumps(trajectory(
        {"source": "system", "message": "You are an agent."},
        {"source": "user", "message": "old question", "is_copied_context": True},
        {"source": "user", "message": "go", "extra": {"reminder": "<system-reminder>x</system-reminder>"}},
        {"source": "system", "message": "Context compacted.", "observation": {"results": [{"content": "summary"}]}},
        {"source": "agent", "message": "done"})))
    assert shown(transcript) == [("message", "go"), ("message", "done")]
    assert "W-SESSION-COMPACTED" in codes(transcript)


def test_a_trajectory_cut_short_keeps_its_finished_steps():
    transcript = sample("atif-broken-cut-short.json")
    assert codes(transcript)[-1] == "E-STREAM-TRUNCATED" and len(transcript.pairs) == 1


def test_atif_is_told_apart_from_chat_documents_both_ways():
    assert detect(json.dumps(trajectory({"source": "user", "message": "go"}))) == "atif"
    assert detect(json.dumps({"session_id": "s", "steps": [{"source": "user", "message": "go"}],
                              "messages": [{"role": "user", "content": "go"}]})) == "json"
    assert detect(json.dumps({"messages": [{"role": "user", "content": '"schema_version": "ATIF-v1.6"'}]})) == "json"


def test_what_a_step_and_a_trajectory_say_beside_what_is_read_is_kept():
    transcript = parse((SAMPLES / "atif-1.7-embedded-subagent.json").read_bytes())
    stepped = next(m for m in transcript.messages if m.meta and m.meta.details
                   and "llm_call_count" in m.meta.details)
    assert stepped.meta.details["reasoning_effort"] == "medium"
    assert transcript.header["trajectory"] == {"final_metrics": {"total_steps": 7}}
    (thread,) = transcript.threads
    assert transcript.header["thread_headers"][thread.id]["trajectory"]["agent"]["extra"]["agent_type"] == "Explore"


def test_a_step_s_member_no_table_names_is_kept_unread():
    document = {"schema_version": "ATIF-v1.6", "session_id": "s1", "agent": {"name": "a", "version": "1"},
                "steps": [{"step_id": 1, "source": "user", "message": "Hi", "x_later": "a later member"}]}
    transcript = parse(json.dumps(document))
    assert transcript.header["unread"] == [{"step": 1, "members": {"x_later": "a later member"}}]
