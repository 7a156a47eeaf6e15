"""Cline, Roo Code and Kilo Code task histories (`api_conversation_history.json`): told apart from plain Anthropic
messages and from each other, tool results and environment details in the user's turns read as tool replies and
injected context (hidden), what the user typed shown, XML-era calls paired by their tool, and the agent's
answers shown as it showed them."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings

from tests.conftest import SAMPLES
from tests.parse.agents.test_claude_code import shown
from tests.parse.helpers import codes, only
from tests.parse.json.shapes import anthropic_transcripts
from viewer import parse
from viewer.parse import detect

HISTORIES = {"cline": "cline-*-api-history.json", "roo-code": "roo-code-*-api-history.json",
             "kilo-code": "kilo-code-*-api-history.json"}
ENVIRONMENT = ("<environment_details>\n# VSCode Visible Files\nsrc/db.ts\n\n# VSCode Open Tabs\nsrc/db.ts\n\n"
               "# Current Time\n6/11/2026, 11:42:03 AM (Europe/Berlin, UTC+2:00)\n\n# Current Mode\nACT MODE\n"
               "</environment_details>")


def text(value: str) -> dict:
    return {"type": "text", "text": value}


def history(*messages: dict) -> str:
    return json.dumps(list(messages), separators=(",", ":"))


def user(*blocks, **extra) -> dict:
    return {"role": "user", "content": list(blocks), "ts": 1781170924627, **extra}


def assistant(*blocks, **extra) -> dict:
    return {"role": "assistant", "content": list(blocks), "ts": 1781170929537, **extra}


def task(typed: str = "Fix getUser") -> dict:
    return user(text(f"<task>\n{typed}\n</task>"), text(ENVIRONMENT))


@pytest.mark.parametrize("dialect", HISTORIES)
def test_every_history_sample_is_detected_as_its_agent_s(dialect):
    paths = sorted(SAMPLES.glob(HISTORIES[dialect]))
    assert paths
    for path in paths:
        assert parse(path.read_bytes()).dialect == dialect, path.name


def test_a_cline_history_is_never_read_as_plain_anthropic_messages():
    """The leak issue 39 reports: Cline's tool results and environment details, written into user messages, were
    shown as what the user typed."""
    raw = (SAMPLES / "cline-3.89-read-edit-resume-api-history.json").read_text()
    assert detect(raw) == "cline"
    transcript = parse(raw)
    typed = [content for how, content in shown(transcript) if how == "message"
             and not content.startswith(("Fixed", "The null guard"))]
    assert typed == ["The GET /users/:id endpoint crashes with \"Cannot read properties of null (reading "
                     "'toLowerCase')\" when a user has no email. Fix getUser in src/db.ts and make sure the tests "
                     "pass.", "run only the users tests please, the db tests need docker"]
    everything = " ".join(content for _, content in shown(transcript))
    for hidden in ("environment_details", "Result:", "TASK RESUMPTION", "CANARY"):
        assert hidden not in everything


@pytest.mark.parametrize("marks", [
    dict(blocks=[text("<task>\nhi\n</task>")]),
    dict(blocks=[text("hi"), text(ENVIRONMENT)]),
    dict(blocks=[text("[read_file for 'a.ts'] Result:\n1 | x")]),
    dict(blocks=[text("hi")], ts=1781170924627, answer={"modelInfo": {"modelId": "m", "providerId": "p",
                                                                      "mode": "act"}}),
    dict(blocks=[text("hi")], answer={"metrics": {"tokens": {"prompt": 1, "completion": 1, "cached": 0}}}),
])
def test_any_one_mark_of_cline_s_makes_an_array_of_messages_a_cline_history(marks):
    raw = history(user(*marks["blocks"]), assistant(text("ok"), **marks.get("answer", {})))
    assert detect(raw) == "cline"


@settings(max_examples=60, deadline=None)
@given(anthropic_transcripts())
def test_plain_anthropic_messages_are_still_read_as_json(raw):
    assert detect(raw) == "json"


def test_the_anthropic_samples_are_still_json():
    for path in SAMPLES.glob("json-anthropic-*"):
        assert parse(path.read_bytes()).dialect == "json", path.name


def test_roo_code_and_kilo_code_are_told_apart_from_cline_by_their_environment_details():
    roo = ENVIRONMENT.replace("6/11/2026, 11:42:03 AM (Europe/Berlin, UTC+2:00)",
                              "Current time in ISO 8601 UTC format: 2026-04-16T12:00:13.551Z")
    roo = roo.replace("ACT MODE", "<slug>code</slug>\n<name>Code</name>\n<model>claude-sonnet-4-5</model>")
    kilo = roo.replace("</model>", "</model>\n<tool_format>xml</tool_format>")
    for environment, dialect in ((ENVIRONMENT, "cline"), (roo, "roo-code"), (kilo, "kilo-code")):
        raw = history(user(text("<task>\nhi\n</task>"), text(environment)), assistant(text("ok")))
        assert detect(raw) == dialect


def test_environment_details_and_tool_results_are_hidden_and_the_typed_task_shown():
    transcript = parse(history(
        task("Fix getUser"),
        assistant(text("Reading it."), {"type": "tool_use", "id": "t1", "name": "read_file",
                                          "input": {"path": "src/db.ts"}}),
        user({"type": "tool_result", "tool_use_id": "t1", "content": "[read_file for 'src/db.ts'] Result:\n1 | x"},
             text(ENVIRONMENT)),
        assistant(text("It reads x."))))
    assert shown(transcript) == [("message", "Fix getUser"), ("preamble", "Reading it."),
                                 ("marker", "used read_file"), ("message", "It reads x.")]
    reply = transcript.messages[4]
    assert (reply.role, reply.name, reply.call_id) == ("tool", "functions.read_file", "t1")
    assert (transcript.pairs[0].call, transcript.pairs[0].reply) == (3, 4)


def test_xml_calls_are_calls_paired_with_the_text_results_that_name_their_tool():
    transcript = parse(history(
        task("Add a flag"),
        assistant(text("<thinking>\nLook first.\n</thinking>\n\n<read_file>\n<path>bin/r.js</path>\n</read_file>")),
        user(text("[read_file for 'bin/r.js'] Result:"), text("const a = 1;"), text(ENVIRONMENT)),
        assistant(text("It is one line."))))
    thinking, call, reply = transcript.messages[2:5]
    assert thinking.channel == "analysis" and thinking.content == "Look first."
    assert call.recipient == "functions.read_file" and json.loads(call.content) == {"path": "bin/r.js"}
    assert reply.name == "functions.read_file" and "const a = 1;" in reply.content
    assert [(pair.call, pair.reply, pair.by) for pair in transcript.pairs] == [(3, 4, "name")]
    assert shown(transcript)[1:] == [("marker", "used read_file"), ("message", "It is one line.")]


def test_feedback_on_a_denied_edit_is_shown_as_typed_and_the_denial_is_the_tool_s_reply():
    transcript = parse(SAMPLES.joinpath("cline-3.20-xml-tools-feedback-api-history.json").read_bytes())
    assert ("message", "call it --debug instead") in shown(transcript)
    denial = next(m for m in transcript.messages if m.role == "tool" and "denied" in m.content)
    assert denial.name == "functions.replace_in_file"


def test_a_tag_like_the_user_s_inside_a_tool_s_output_is_not_shown_as_typed():
    transcript = parse(history(
        task(), assistant({"type": "tool_use", "id": "t1", "name": "read_file", "input": {"path": "a.xml"}}),
        user({"type": "tool_result", "tool_use_id": "t1",
              "content": "[read_file for 'a.xml'] Result:\n<a>\n<answer>\nhidden file text\n</answer>\n</a>"},
             text(ENVIRONMENT)),
        assistant(text("Done."))))
    assert "hidden file text" not in str(shown(transcript))


def test_the_answer_to_a_follow_up_question_inside_its_result_is_shown_as_typed():
    transcript = parse(history(
        task(), assistant({"type": "tool_use", "id": "t1", "name": "ask_followup_question",
                           "input": {"question": "Which file?"}}),
        user({"type": "tool_result", "tool_use_id": "t1",
              "content": "[ask_followup_question for 'Which file?'] Result:\n<answer>\nsrc/db.ts\n</answer>"},
             text(ENVIRONMENT)),
        assistant(text("Reading src/db.ts."))))
    assert shown(transcript) == [("message", "Fix getUser"), ("message", "Which file?"),
                                 ("marker", "used ask_followup_question"), ("message", "src/db.ts"),
                                 ("message", "Reading src/db.ts.")]


def test_a_mentioned_file_expanded_after_the_typed_task_is_context():
    transcript = parse(history(
        user(text("<task>\nExplain 'src/a.ts' (see below for file content)\n</task>\n\n<file_content path="
                  "\"src/a.ts\">\n<feedback>not typed</feedback>\n</file_content>"), text(ENVIRONMENT)),
        assistant(text("It exports a."))))
    assert shown(transcript)[0] == ("message", "Explain 'src/a.ts' (see below for file content)")
    assert "not typed" not in str(shown(transcript))


def test_a_completion_nothing_answers_is_the_answer_alone_and_one_answered_is_a_call_too():
    ended = parse(history(task(), assistant({"type": "tool_use", "id": "t1", "name": "attempt_completion",
                                             "input": {"result": "All fixed."}})))
    assert shown(ended)[-1] == ("message", "All fixed.") and not ended.pairs
    assert "W-UNANSWERED-CALL" not in codes(ended)
    answered = parse(history(
        task(), assistant({"type": "tool_use", "id": "t1", "name": "attempt_completion",
                           "input": {"result": "All fixed."}}),
        user({"type": "tool_result", "tool_use_id": "t1", "content": [
            text("The user has provided feedback on the results. Consider their input to continue the task, and "
                 "then attempt completion again."), text("<feedback>\nalso the docs\n</feedback>")]},
             text(ENVIRONMENT))))
    assert shown(answered)[1:] == [("message", "All fixed."), ("marker", "used attempt_completion"),
                                   ("message", "also the docs")]
    assert answered.pairs


def test_an_interrupted_response_loses_the_agent_s_mark_and_says_so():
    cut = "Running the tests, and then\n\n[Response interrupted by user]"
    transcript = parse(history(task(), assistant(text(cut))))
    assert transcript.messages[-1].content == "Running the tests, and then"
    assert only(transcript, "W-SESSION-INTERRUPTED").message_index == 2
    failed = parse(history(task(), assistant(text("Partial\n\n[Response interrupted by API Error]"))))
    assert failed.messages[-1].content == "Partial" and "W-API-ERROR" in codes(failed)


def test_a_resumed_task_shows_only_the_new_instructions():
    transcript = parse(history(task(), assistant(text("Working.")), user(
        text("[TASK RESUMPTION] This task was interrupted 1 minute ago."),
        text("New instructions for task continuation:\n<user_message>\nonly the users tests\n</user_message>"),
        text(ENVIRONMENT))))
    assert shown(transcript)[-1] == ("message", "only the users tests")
    assert [m.intent for m in transcript.messages[3:]] == ["context", "context", None, "context"]


def test_usage_cost_model_and_times_are_each_response_s_and_totalled_in_the_header():
    transcript = parse((SAMPLES / "cline-3.89-read-edit-resume-api-history.json").read_bytes())
    call = transcript.messages[4]
    assert call.meta.model == "claude-sonnet-4-5-20250929" and call.meta.response == "msg_01Jx4ZqkR8sVtbn3WcLHd2Ea"
    assert call.meta.usage.to_json() == {"input": 663, "output": 187, "cache_read": 14210, "cache_write": 0,
                                         "cost": 0.0154}
    assert transcript.messages[3].meta.usage is None  # counted once, on the response's last message
    assert transcript.messages[0].meta.timestamp == "2026-06-11T09:42:04.627Z"
    assert transcript.messages[5].meta.duration_ms == 890
    assert transcript.header["responses"] == 5 and transcript.header["usage"]["cost"] == pytest.approx(0.0434)
    assert transcript.header["cwd"] == "/home/dev/shop-api"


def test_roo_code_s_reasoning_blocks_are_analysis_and_its_model_comes_from_the_environment_details():
    transcript = parse((SAMPLES / "roo-code-3.52-subtask-api-history.json").read_bytes())
    reasoning = [m for m in transcript.messages if m.channel == "analysis"]
    assert reasoning and all(m.role == "assistant" for m in reasoning)
    assert {m.meta.model for m in transcript.messages if m.role == "assistant"} == {"deepseek-reasoner"}


def test_a_roo_code_summary_is_hidden_context_and_marks_the_condensing():
    transcript = parse(history(
        user(text("<user_message>\nhi\n</user_message>"), text(ENVIRONMENT.replace("ACT MODE", "<slug>code</slug>"))),
        assistant(text("ok")), user(text("## Conversation Summary\nwe said hi"), isSummary=True, condenseId="c1")))
    assert transcript.messages[-1].intent == "context"
    assert "W-SESSION-COMPACTED" in codes(transcript)


def test_a_failed_tool_s_text_result_is_reported():
    transcript = parse((SAMPLES / "kilo-code-5.10-xml-tools-api-history.json").read_bytes())
    failure = only(transcript, "W-TOOL-ERROR")
    assert transcript.messages[failure.message_index].name == "functions.apply_diff"


def test_a_history_cut_short_keeps_the_messages_before_the_cut():
    transcript = parse((SAMPLES / "cline-broken-cut-api-history.json").read_bytes())
    assert codes(transcript)[-1] == "E-STREAM-TRUNCATED"
    assert shown(transcript)[0][1].startswith("The GET /users/:id endpoint crashes")


def test_an_unknown_element_and_an_unknown_block_are_hidden_with_a_diagnostic():
    transcript = parse(history(task(), {"role": "critic", "content": "secret"},
                               assistant({"type": "gadget", "payload": "secret"}, text("ok"))))
    assert "secret" not in str(shown(transcript))
    assert codes(transcript).count("W-JSON-UNKNOWN-ITEM") == 1 and "W-JSON-UNKNOWN-PART" in codes(transcript)


def test_no_canary_of_any_sample_reaches_the_default_view():
    for pattern in (*HISTORIES.values(), "*-ui-messages.json", "cline-*.messages.json"):
        for path in SAMPLES.glob(pattern):
            assert "CANARY" not in str(shown(parse(path.read_bytes()))), path.name


def test_a_roo_code_parent_names_the_sub_task_it_delegated_to_in_its_header():
    transcript = parse((SAMPLES / "roo-code-3.52-orchestrator-api-history.json").read_bytes())
    assert transcript.header["sub_tasks"] == ["019d962d-0e7a-7b41-8f63-2a9c5e1d7f04"]
    delegated = next(m for m in transcript.messages if m.recipient == "functions.new_task")
    assert any(p.call == delegated.index for p in transcript.pairs)


def test_a_native_result_that_says_the_tool_failed_is_reported():
    transcript = parse(history(
        task(), assistant({"type": "tool_use", "id": "t1", "name": "read_file", "input": {"path": "nope"}}),
        user({"type": "tool_result", "tool_use_id": "t1", "content": "[read_file for 'nope'] Result:\nThe tool "
              "execution failed with the following error:\n<error>\nNo such file\n</error>"}, text(ENVIRONMENT))))
    assert only(transcript, "W-TOOL-ERROR").message_index == 3


def test_a_text_result_s_output_holding_a_tag_like_the_user_s_stays_the_tool_s():
    transcript = parse(history(
        task(), assistant(text("<read_file>\n<path>a.md</path>\n</read_file>")),
        user(text("[read_file for 'a.md'] Result:"), text("Notes <task>\nfile text\n</task>"), text(ENVIRONMENT))))
    assert "file text" not in str(shown(transcript))
    reply = next(m for m in transcript.messages if m.role == "tool")
    assert "file text" in reply.content and reply.name == "functions.read_file"


def test_a_roo_code_history_whose_first_message_fills_the_head_is_still_read_as_the_cline_family():
    raw = history(user(text("<user_message>\n" + "pasted log line\n" * 6000 + "</user_message>"),
                       text(ENVIRONMENT.replace("ACT MODE", "<slug>code</slug>"))), assistant(text("ok")))
    assert len(raw) > 65536
    transcript = parse(raw)
    assert transcript.dialect == "cline" and transcript.messages[1].intent == "context"


def test_a_completion_standing_for_its_call_keeps_the_tool_and_its_other_arguments_in_its_details():
    ended = parse(history(task(), assistant({"type": "tool_use", "id": "t1", "name": "attempt_completion", "input": {
        "result": "All fixed.", "task_progress": "- [x] Guard null email"}})))
    assert ended.messages[-1].meta.details == {"tool": "attempt_completion",
                                               "arguments": {"task_progress": "- [x] Guard null email"}}


def test_the_mark_left_out_of_an_interrupted_response_is_quoted_by_its_diagnostic():
    transcript = parse(history(task(), assistant(text("Running the tests\n\n[Response interrupted by user]"))))
    assert "'[Response interrupted by user]'" in only(transcript, "W-SESSION-INTERRUPTED").message


def test_a_response_s_provider_and_mode_are_its_details_and_an_unknown_member_is_kept_unread():
    transcript = parse(history(task(), assistant(text("Done."), modelInfo={
        "modelId": "claude-sonnet-4-5", "providerId": "anthropic", "mode": "act"}, x_later="a later member")))
    assert transcript.messages[-1].meta.details == {"modelInfo": {"mode": "act"}}
    assert transcript.header["unread"] == [{"element": 2, "members": {"x_later": "a later member"}}]


def test_a_chat_panel_s_bookkeeping_rows_are_kept_in_the_header():
    rows = [{"ts": 1781170923417, "type": "say", "say": "task", "text": "Fix getUser"},
            {"ts": 1781170924000, "type": "say", "say": "task_progress", "text": "- [ ] Read getUser"},
            {"ts": 1781170926467, "type": "say", "say": "completion_result", "text": "Done.",
             "modelInfo": {"modelId": "m", "mode": "act"}, "x_later": 1}]
    transcript = parse(json.dumps(rows), "cline-ui")
    assert transcript.header["bookkeeping"] == [{"row": 2, "say": "task_progress", "text": "- [ ] Read getUser"}]
    assert transcript.messages[-1].meta.details == {"modelInfo": {"mode": "act"}}
    assert transcript.header["unread"] == [{"row": 3, "members": {"x_later": 1}}]


def test_a_cline_sdk_message_s_model_details_are_kept_and_an_unknown_member_unread():
    document = {"version": 1, "agent": "lead", "sessionId": "s1", "x_file_note": "kept", "messages": [
        {"id": "m1", "role": "user", "content": [text("Hi")]},
        {"id": "m2", "role": "assistant", "content": [text("Hello")],
         "modelInfo": {"id": "claude-sonnet-4-6", "provider": "anthropic"}}]}
    transcript = parse(json.dumps(document), "cline-sdk")
    assert transcript.messages[-1].meta.details == {"modelInfo": {"provider": "anthropic"}}
    assert transcript.header["unread"] == [{"document": 1, "members": {"x_file_note": "kept"}}]
