"""Inspect AI eval logs: samples as conversations (a dataset when there are several), their messages, and the
.eval zip archive, read bounded."""
from __future__ import annotations

import io
import json
import zipfile

from tests.conftest import SAMPLES
from tests.parse.helpers import assert_accounted_for, codes
from viewer.parse import parse
from viewer.parse.json import eval_archive
from viewer.policy import Projection

NOT_RASTER = "not shown: not a PNG, JPEG, GIF or WebP image"
"""How a placeholder says its inline data is no image the viewer shows."""


def sample(id=1, *messages, target="42"):
    return {"id": id, "epoch": 1, "input": "q", "target": target,
            "messages": list(messages) or [{"role": "user", "content": f"Question {id}"},
                                           {"role": "assistant", "content": "42"}],
            "scores": {"match": {"value": "C", "answer": "42", "explanation": "matches"}}}


def log(*samples):
    return {"version": 2, "status": "success", "eval": {"task": "t", "model": "m"}, "samples": list(samples),
            "results": {"total_samples": len(samples)}}


def archive(members, method=zipfile.ZIP_DEFLATED):
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", method) as written:
        for name, text in members.items():
            written.writestr(name, text)
    return data.getvalue()


def test_a_log_of_several_samples_is_a_dataset_with_each_sample_s_members_in_its_header():
    text = json.dumps(log(sample(1), sample(2, target="7")), indent=2)
    transcript = parse(text)
    score = {"match": {"value": "C", "answer": "42", "explanation": "matches"}}
    assert [c.header["inspect_sample"] for c in transcript.conversations] == [
        {"id": 1, "epoch": 1, "input": "q", "target": "42", "scores": score},
        {"id": 2, "epoch": 1, "input": "q", "target": "7", "scores": score}]
    assert transcript.header["inspect_log"]["eval"] == log()["eval"]  # the log's own members: the dataset's
    assert transcript.diagnostics == ()
    assert_accounted_for(transcript, text)


def test_a_log_of_one_sample_and_a_sample_alone_are_one_conversation():
    for text in (json.dumps(log(sample(5)), indent=2), json.dumps(sample(5))):
        transcript = parse(text)
        assert transcript.conversations == ()
        assert [m.content for m in transcript.messages] == ["Question 5", "42"]
        assert transcript.header["inspect_sample"]["id"] == 5


def test_a_log_cut_inside_a_sample_keeps_the_samples_before_it():
    text = json.dumps(log(sample(1), sample(2), sample(3)), indent=2)
    transcript = parse(text[:text.rindex("Question 3")])
    assert len(transcript.conversations) == 2
    assert codes(transcript) == ["W-JSON-SYNTAX"]


def test_messages_reasoning_calls_and_tool_errors():
    transcript = parse(json.dumps(sample(1,
        {"role": "user", "content": "Compute."},
        {"role": "assistant", "content": [{"type": "reasoning", "reasoning": "Use the tool.", "signature": "SIG"},
                                          {"type": "reasoning", "reasoning": "ENCRYPTED", "redacted": True}],
         "tool_calls": [{"id": "k1", "function": "calculator", "arguments": {"x": 1}}]},
        {"role": "tool", "tool_call_id": "k1", "function": "calculator", "content": "",
         "error": {"type": "timeout", "message": "Timed out."}},
        {"role": "assistant", "content": [{"type": "text", "text": "Sorry."}]})))
    assert [(m.role, m.channel, m.recipient, m.name) for m in transcript.messages] == [
        ("user", "final", None, None), ("assistant", "analysis", None, None), ("assistant", "analysis", None, None),
        ("assistant", "commentary", "functions.calculator", None), ("tool", "commentary", None, "functions.calculator"),
        ("assistant", "final", None, None)]
    assert "ENCRYPTED" not in transcript.messages[2].content
    assert transcript.messages[4].content == "Timed out."
    assert codes(transcript) == ["W-JSON-OPAQUE-DATA", "W-JSON-OPAQUE-DATA", "E-TOOL-TIMEOUT"]
    assert [d.show_as for d in Projection.of(transcript).decisions()][-1] == "message"


def test_an_eval_archive_reads_as_the_log_it_holds():
    data = archive({"header.json": json.dumps({"version": 2, "eval": {"task": "t"}}),
                    "samples/10_epoch_1.json": json.dumps(sample(10)),
                    "samples/9_epoch_1.json": json.dumps(sample(9)), "summaries.json": "[]"})
    transcript = parse(data)
    assert [c.header["inspect_sample"]["id"] for c in transcript.conversations] == [9, 10]
    assert transcript.diagnostics == ()
    assert_accounted_for(transcript, transcript.source)


def test_a_zip_without_header_json_is_a_bundle_of_files_not_an_inspect_log():
    transcript = parse(archive({"chat.json": json.dumps([{"role": "user", "content": "hello"}])}))
    assert [message.content for message in transcript.messages] == ["hello"]
    assert transcript.source.startswith('{"bundle": 1, ') and "W-ARCHIVE" not in codes(transcript)


def test_a_broken_zip_is_refused_with_a_diagnostic():
    data = archive({"header.json": "{}"})
    transcript = parse(data[:len(data) // 2])
    assert codes(transcript) == ["W-ARCHIVE"]


def test_a_zip_bomb_is_refused_before_it_is_unpacked(monkeypatch):
    monkeypatch.setattr(eval_archive, "MAX_UNPACKED", 1_000_000)
    bomb = archive({"header.json": "{}", "samples/1_epoch_1.json": " " * 2_000_000})
    assert len(bomb) < 10_000
    transcript = parse(bomb)
    assert codes(transcript) == ["W-ARCHIVE"] and "2,000,002 bytes" in transcript.diagnostics[0].message


def test_an_archive_of_too_many_members_is_refused(monkeypatch):
    monkeypatch.setattr(eval_archive, "MAX_MEMBERS", 3)
    members = {"header.json": "{}", **{f"samples/{n}_epoch_1.json": "{}" for n in range(5)}}
    assert codes(parse(archive(members))) == ["W-ARCHIVE"]


def test_attachment_references_are_read_as_the_values_they_stand_for():
    png = "data:image/png;base64," + "A" * 400
    text = json.dumps({**sample(1, {"role": "user", "content": [
        {"type": "text", "text": "attachment://t1"}, {"type": "image", "image": "attachment://i1"}]}),
        "attachments": {"t1": "A long question.", "i1": png}})
    assert [m.content for m in parse(text).messages] == [
        "A long question.", f"[image: image/png, 300 bytes, sha256 d13d4a8b3b8a, {NOT_RASTER}]"]


def test_a_log_without_samples_shows_nothing_and_says_why():
    for data in (json.dumps({**log(), "status": "started"}).encode(),
                 archive({"header.json": json.dumps({"version": 2, "status": "started", "eval": {"task": "t"}})})):
        transcript = parse(data)
        assert transcript.messages == ()
        assert codes(transcript) == ["W-JSON-SHAPE"] and "'started'" in transcript.diagnostics[0].message
        assert transcript.header["inspect_log"]["eval"]["task"] == "t"


def _graded(pooled: bool) -> dict:
    """A sample of a model-graded run: its scorer's own model call and score in a scorer span."""
    prompt = {"role": "user", "content": "attachment://p1"}
    grade = {"role": "assistant", "content": "attachment://g1", "model": "gpt-4o-mini-2024-07-18"}
    call = {"model": "openai/gpt-4o-mini", "role": "grader", "input": [prompt], "config": {},
            "output": {"model": "gpt-4o-mini-2024-07-18", "choices": [{"message": grade, "stop_reason": "stop"}],
                       "usage": {"input_tokens": 318, "output_tokens": 74}},
            "call": {"request": {"model": "gpt-4o-mini", "messages": [prompt]}, "response": {"id": "r1"}}}
    if pooled:
        call.update(input=[], input_refs=[[0, 1]])
        call["call"] = {"request": {"model": "gpt-4o-mini"}, "response": {"id": "r1"}, "call_refs": [[0, 1]],
                        "call_key": "messages"}
    events = [
        {"event": "span_begin", "id": "sc", "type": "scorers", "name": "scorers", "timestamp": "2025-11-20T10:15:07Z"},
        {"event": "span_begin", "id": "mg", "parent_id": "sc", "type": "scorer", "name": "model_graded_fact",
         "span_id": "sc", "timestamp": "2025-11-20T10:15:07Z"},
        {"event": "model", "span_id": "mg", "timestamp": "2025-11-20T10:15:08Z", **call},
        {"event": "score", "span_id": "mg", "timestamp": "2025-11-20T10:15:09Z", "scorer": "model_graded_fact",
         "score": {"value": "C", "explanation": "attachment://g1"}},
        {"event": "span_end", "id": "mg", "span_id": "sc"}, {"event": "span_end", "id": "sc"}]
    found = {**sample(1), "events": events,
             "attachments": {"p1": "Compare the submission with the expert answer.", "g1": "It matches. GRADE: C"}}
    if pooled:
        found["events_data"] = {"messages": [prompt], "calls": [{"role": "user", "content": "attachment://p1"}]}
    return found


def test_a_scorer_s_model_call_and_its_score_are_hidden_entries_after_the_conversation():
    for pooled in (False, True):
        transcript = parse(json.dumps(_graded(pooled)))
        grading, scored = transcript.messages[2:]
        assert [(m.role, m.name) for m in (grading, scored)] == [("system", "model_call"), ("system", "score")]
        body = json.loads(grading.content)
        assert body["span"] == "scorers › scorer model_graded_fact" and body["role"] == "grader"
        assert body["input"] == [{"role": "user", "content": "Compare the submission with the expert answer."}]
        assert body["call"]["request"]["messages"][0]["content"] == "Compare the submission with the expert answer."
        assert (grading.meta.model, grading.meta.usage.input, grading.meta.stop_reason) == (
            "gpt-4o-mini-2024-07-18", 318, "stop")
        assert json.loads(scored.content)["score"]["explanation"] == "It matches. GRADE: C"
        assert [m.content for m, d in zip(transcript.messages, Projection.of(transcript).decisions())
                if d.show_as == "message"] == ["Question 1", "42"]


def test_a_sample_s_members_are_its_header_with_their_attachments_resolved():
    header = parse(json.dumps(_graded(False))).header["inspect_sample"]
    assert header["scores"]["match"]["explanation"] == "matches"
    assert "events" not in header and "attachments" not in header and header["target"] == "42"


def test_the_model_graded_samples_keep_the_grader_s_prompt_and_explanation_pooled_or_not():
    for name in ("json-inspect-log-model-graded.json", "json-inspect-log-model-graded-pooled.json"):
        transcript = parse((SAMPLES / name).read_bytes())
        grading = next(m for m in transcript.messages if m.name == "model_call" and '"grader"' in m.content)
        assert "You are comparing a submitted answer to an expert answer" in grading.content, name
        assert "CANARY-SCORER-IN01" in grading.content, name
        assert transcript.header["inspect_log"]["eval"]["model_roles"]["grader"]["model"] == "openai/gpt-4o-mini"
