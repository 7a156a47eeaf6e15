"""SWE-agent and mini-swe-agent trajectories: the task told apart from its instance template (or said not to be),
calls of function-calling and text-based runs paired with their output, the harness's messages as what they are,
the submission as the answer and other exit statuses said, and files cut short."""
from __future__ import annotations

import json

import pytest

from tests.conftest import SAMPLES
from tests.parse.agents.test_claude_code import shown
from tests.parse.helpers import codes, only
from viewer import parse
from viewer.parse import detect
from viewer.parse.agents.instance import find_task


def sample(name: str):
    return parse((SAMPLES / name).read_bytes())


def swe(history: list[dict], **top) -> str:
    return json.dumps({"trajectory": [{"action": "ls\n", "observation": "", "thought": "", "response": ""}],
                       "history": history, "info": top.pop("info", {"exit_status": "submitted"}), **top}, indent=2)


def mini(messages: list[dict], template: str | None = None, version: str = "mini-swe-agent-1.1") -> str:
    info = {"mini_version": "2.1.0", "config": {"agent": {"instance_template": template}} if template else {}}
    return json.dumps({"info": info, "messages": messages, "trajectory_format": version}, indent=2)


def test_every_sample_is_detected_as_its_agent():
    for pattern, dialect in (("swe-agent-*", "swe-agent"), ("mini-swe-agent-*", "mini-swe-agent")):
        for path in SAMPLES.glob(pattern):
            assert parse(path.read_bytes()).dialect == dialect, path.name


def test_a_swe_agent_run_shows_the_task_its_plans_and_the_submission():
    assert shown(sample("swe-agent-1.1-function-calling.traj")) == [
        ("message", "vat() in shop/rates.py returns 20.099999999999998 for 100.5 - fix the rounding"),
        ("preamble", "Let me look at the rates module first."),
        ("marker", "used str_replace_editor"),
        ("preamble", "Switch the arithmetic to Decimal and round half-up."),
        ("marker", "used str_replace_editor"),
        ("preamble", "Check the result."),
        ("marker", "used bash"),
        ("preamble", "The import is missing, but the autosubmit will capture the diff; submitting."),
        ("marker", "used submit"),
        ("message", json.loads((SAMPLES / "swe-agent-1.1-function-calling.traj").read_text())["info"]["submission"]),
    ]


def test_the_template_around_the_task_is_context_with_spans_of_its_own():
    transcript = sample("swe-agent-1.1-function-calling.traj")
    before, task, after = transcript.messages[1:4]
    assert (before.intent, task.intent, after.intent) == ("context", None, "context")
    assert before.span[1] == task.span[0] and task.span[1] == after.span[0]
    assert transcript.source[task.span[0]:task.span[1]] == task.content  # no escapes in the task's text


@pytest.mark.parametrize("content, known, template, found", [
    ("<pr_description>\nfix it\n</pr_description>\nboilerplate", None, None, "fix it"),
    ("We're solving this issue:\nISSUE:\nfix it\n\nINSTRUCTIONS: ...", None, None, "fix it"),
    ("Task: fix it\n\nRules of the road: be careful.\n", None, "Task: {{task}}\n\nRules of the road: {{rules}}\n",
     "fix it"),
    ("Please fix it. Then say so.", "fix it", None, "fix it"),
    ("fix it, please", None, None, None),
    ("Task: fix it", None, "Do: {{task}}", None),
])
def test_the_task_is_found_only_where_that_is_reliable(content, known, template, found):
    task = find_task(content, known, template)
    assert (content[task.start:task.end] if task else None) == found


def test_a_task_that_cannot_be_told_apart_is_shown_whole_and_said():
    transcript = parse(swe([{"role": "user", "content": "Fix the rounding; the repo is in /w."}]))
    assert shown(transcript)[0] == ("message", "Fix the rounding; the repo is in /w.")
    assert only(transcript, "W-FOLDED-TEXT").message_index == 0


def test_a_text_based_run_pairs_each_observation_with_the_command_before_it():
    transcript = sample("swe-agent-0.7-text-commands.traj")
    call = next(m for m in transcript.messages if m.is_call)
    assert (call.recipient, call.content, call.content_type) == ("functions.bash", "open shop/rates.py", None)
    assert [(p.call, p.reply) for p in transcript.pairs] == [(call.index, call.index + 1)]


def test_demonstrations_and_later_user_messages_are_read_as_what_they_are():
    transcript = parse(swe([
        {"role": "system", "content": "system", "message_type": "system_prompt"},
        {"role": "user", "content": "example run", "is_demo": True, "message_type": "demonstration"},
        {"role": "user", "content": "<pr_description>\ntask\n</pr_description>"},
        {"role": "user", "content": "also keep the API", "message_type": "user"}]))
    assert [(m.role, m.intent, m.name) for m in transcript.messages] == [
        ("system", "context", "system_prompt"), ("user", "context", "demonstration"), ("user", "context",
                                                                                       "instance_template"),
        ("user", None, None), ("user", "context", "instance_template"), ("user", None, None)]


def test_an_exit_status_other_than_submitted_is_said():
    transcript = parse(swe([{"role": "user", "content": "<pr_description>\nx\n</pr_description>"}],
                           info={"exit_status": "exit_cost", "model_stats": {"instance_cost": 3.0}}))
    assert "exit_cost" in only(transcript, "W-SESSION-INTERRUPTED").message
    assert transcript.header["usage"]["cost"] == 3.0


def test_a_swe_agent_trajectory_cut_in_its_history_reads_the_rest_from_its_steps():
    transcript = sample("swe-agent-broken-cut-short.traj")
    assert codes(transcript)[-1] == "E-STREAM-TRUNCATED"
    assert [m.recipient for m in transcript.messages if m.is_call] == ["functions.bash"] * 4
    assert len(transcript.pairs) == 4


def test_a_mini_swe_agent_run_shows_the_task_plans_and_submission():
    assert shown(sample("mini-swe-agent-2.1-tool-calls.traj.json")) == [
        ("message", "vat() in shop/rates.py returns 20.099999999999998 for 100.5 - fix the rounding"),
        ("preamble", "Let me look at the rates module."),
        ("marker", "used bash"),
        ("preamble", "Convert inside vat() and submit."),
        ("marker", "used bash"),
        ("message", 'diff --git a/shop/rates.py b/shop/rates.py\n--- a/shop/rates.py\n+++ b/shop/rates.py\n'
                    '@@ -1,4 +1,6 @@\n+from decimal import Decimal, ROUND_HALF_UP\n-VAT_RATE = 0.2\n'
                    '+VAT_RATE = Decimal("0.2")\n'),
    ]


def test_format_errors_and_command_output_are_not_what_the_user_typed():
    transcript = sample("mini-swe-agent-2.1-text-based-limits.traj.json")
    users = [(m.intent, m.name) for m in transcript.messages if m.role == "user"]
    assert (("context", "format_error") in users) and users.count((None, None)) == 2  # the task, the interruption
    replies = [m for m in transcript.messages if m.is_reply]
    assert [r.call_id for r in replies] == [p.call_id for p in transcript.messages if p.is_call]
    assert "W-TOOL-ERROR" in codes(transcript)  # the command that timed out
    assert any("LimitsExceeded" in d.message for d in transcript.diagnostics if d.code == "W-SESSION-INTERRUPTED")


def test_a_text_based_command_is_the_call_and_the_text_before_it_the_plan():
    transcript = parse(mini([
        {"role": "user", "content": "Please solve this issue: go\n\nRules.\n"},
        {"role": "assistant", "content": "THOUGHT: look.\n\n```mswea_bash_command\nls -la\n```",
         "extra": {"actions": [{"command": "ls -la"}], "cost": 0.5, "timestamp": 1774084446.0}},
        {"role": "user", "content": "<returncode>0</returncode>\n<output>\nx\n</output>",
         "extra": {"raw_output": "x", "returncode": 0, "timestamp": 1774084447.5}}],
        template="Please solve this issue: {{task}}\n\nRules.\n"))
    plan, command, output = transcript.messages[-3:]
    assert (plan.channel, command.content, output.call_id) == ("commentary", "ls -la", command.call_id)
    assert transcript.source[command.span[0]:command.span[1]].startswith("```mswea_bash_command")
    assert command.meta.usage.cost == 0.5 and output.meta.duration_ms == 1500
    assert shown(transcript)[0] == ("message", "go")


def test_a_1_x_run_ends_with_its_submission_as_the_answer():
    transcript = sample("mini-swe-agent-1.9-text-bash.traj.json")
    assert transcript.messages[-1].name == "submission" and shown(transcript)[-1][0] == "message"
    assert transcript.header["title"] == "ada__shop-142"


def test_an_exit_other_than_a_submission_is_hidden_and_said():
    transcript = parse(mini([{"role": "user", "content": "go"},
                             {"role": "exit", "content": "boom", "extra": {"exit_status": "RuntimeError",
                                                                           "traceback": "Traceback …"}}]))
    assert transcript.messages[-1].role == "system"
    assert "RuntimeError" in only(transcript, "W-SESSION-INTERRUPTED").message


def test_a_mini_swe_agent_trajectory_cut_short_keeps_its_messages():
    transcript = sample("mini-swe-agent-broken-cut-short.traj.json")
    assert codes(transcript)[-1] == "E-STREAM-TRUNCATED" and len(transcript.pairs) == 1


def test_trajectories_are_told_apart_from_chat_messages_both_ways():
    assert detect(mini([{"role": "user", "content": "go"}])) == "mini-swe-agent"
    assert detect(json.dumps({"info": {"mini_version": "1.9.1"}, "messages": []})) == "mini-swe-agent"
    assert detect(json.dumps({"info": {"model": "m"}, "messages": [{"role": "user", "content": "go"}]})) == "json"
    assert detect(swe([])) == "swe-agent"
    assert detect(json.dumps({"trajectory": [{"role": "user", "content": "go"}], "history": []})) == "json"
    assert detect(json.dumps({"messages": [{"role": "user", "content": "trajectory_format: mini-swe-agent"}]})) \
        == "json"


def test_a_retrying_agent_s_attempts_follow_the_kept_one_and_set_the_others_aside():
    def attempt(plan: str, patch: str) -> dict:
        return {"trajectory": [{"action": "submit\n", "observation": "", "thought": plan, "execution_time": 1.5}],
                "history": [{"role": "user", "content": "<pr_description>\nfix it\n</pr_description>"},
                            {"role": "assistant", "content": plan, "thought": plan, "action": "submit",
                             "tool_calls": [{"id": f"k-{plan}", "type": "function",
                                             "function": {"name": "submit", "arguments": "{}"}}]},
                            {"role": "tool", "content": patch, "tool_call_ids": [f"k-{plan}"]}],
                "info": {"exit_status": "submitted", "submission": patch}}
    text = json.dumps({"attempts": [attempt("first try", "diff A"), attempt("second try", "diff B")],
                       "info": {"exit_status": "submitted", "submission": "diff B"}}, indent=2)
    transcript = parse(text)
    assert transcript.dialect == "swe-agent"
    assert shown(transcript) == [("message", "fix it"), ("preamble", "second try"), ("marker", "used submit"),
                                 ("message", "diff B")]
    assert "Attempt 1 of 2" in only(transcript, "W-SESSION-FORK").message
    reply = next(m for m in transcript.messages if m.is_reply and not m.aside)
    assert reply.meta.duration_ms == 1500


def test_what_the_model_wrote_whole_and_the_task_s_template_are_kept_as_written():
    transcript = sample("swe-agent-0.7-text-commands.traj")
    answer = next(m for m in transcript.messages if m.role == "assistant" and m.meta and m.meta.details)
    # As text: the debug card's source panel shows the message's piece of it alone.
    assert answer.meta.details["content"] == "DISCUSSION\nFirst I'll open the rates module.\n\n```\nopen shop/rates.py\n```"
    task = next(m for m in transcript.messages if m.role == "user" and m.meta and m.meta.details)
    assert "Here's the issue text" in task.meta.details["content"]


def test_a_step_keeps_what_the_history_does_not_hold_and_info_s_other_members_are_in_the_header():
    transcript = sample("swe-agent-0.7-text-commands.traj")
    steps = [m.meta.details["step"] for m in transcript.messages if m.meta and m.meta.details
             and "step" in m.meta.details]
    assert steps[0]["observation"].startswith("[File: /shop/shop/rates.py (4 lines total)]")
    assert transcript.header["info"] == {"model_stats": {"total_cost": 3.12}}


def test_a_history_item_s_member_no_table_names_is_kept_unread():
    transcript = parse(swe([{"role": "system", "content": "You are an agent."},
                            {"role": "user", "content": "<pr_description>\nFix it\n</pr_description>",
                             "x_later": "a later member"}]))
    assert transcript.header["unread"] == [{"history item": 2, "members": {"x_later": "a later member"}}]


def test_a_mini_swe_agent_message_s_extra_is_its_details_and_info_s_config_the_header_s():
    transcript = sample("mini-swe-agent-2.1-text-based-limits.traj.json")
    refused = next(m for m in transcript.messages if m.meta and m.meta.details
                   and m.meta.details.get("extra", {}).get("interrupt_type") == "FormatError")
    assert refused.meta.details["extra"]["model_response"].startswith("I think the fix is to use Decimal")
    assert transcript.header["info"]["config"]["agent_type"] == "minisweagent.agents.interactive.InteractiveAgent"
