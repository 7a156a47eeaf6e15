"""The agents' screens as words (viewer/policy/screens): each call's line as the agent's own screen showed it, its
outcome read as numbers and the agent's own words, never as text of the reply."""
from __future__ import annotations

import json

from hypothesis import given, strategies as st

from viewer.model import Message, Thread
from viewer.policy import Exchange
from viewer.policy.screens import claude_code, codex, generic


def call(tool: str, arguments: dict | str) -> Message:
    body = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return Message.drafted(body, (0, 0), index=0, turn=0, role="assistant", recipient=tool, channel="commentary",
                           end="call", call_id="c1")


def reply(text: str) -> Message:
    return Message.drafted(text, (0, 0), index=1, turn=1, role="tool", name="x", call_id="c1")


def test_claude_code_reads_the_answers_from_the_reply_when_no_structured_copy_was_kept():
    said = claude_code.said(Exchange(call("functions.AskUserQuestion", {"questions": [
        {"question": "Which tests?", "options": [{"label": "All"}, {"label": "Unit"}]}]}),
        reply('User has answered your questions: "Which tests?"="Unit". You can now continue.')))
    assert said.tool == "User answered Claude's questions:" and said.items == ("· Which tests? → Unit",)


def test_a_rejected_plan_and_a_declined_call_keep_what_the_user_said():
    rejected = ("The user doesn't want to proceed with this tool use. The tool use was rejected. To tell you how to "
                "proceed, the user said:\nSplit it into two commits.")
    plan = claude_code.said(Exchange(call("functions.ExitPlanMode", {"plan": "1. Do it"}), reply(rejected), failed=True))
    assert plan.tool == "User rejected Claude's plan:" and plan.status == "rejected" and plan.text == "1. Do it"
    assert plan.items == ("The user said: Split it into two commits.",)
    bash = claude_code.said(Exchange(call("functions.Bash", {"command": "rm -rf build"}), reply(rejected), failed=True))
    assert (bash.line, bash.outcome, bash.status) == ("Bash(rm -rf build)", "Rejected by user", "rejected")


def test_a_task_names_its_sub_agent_and_counts_its_work():
    line = json.dumps({"type": "user", "toolUseResult": {"totalToolUseCount": 34, "totalTokens": 62400,
                                                         "totalDurationMs": 162300}})
    said = claude_code.said(Exchange(call("functions.Task", {"description": "Check package configuration",
                                                             "prompt": "A long prompt"}),
                                     reply("Done."), recorded=line, thread=Thread("a1", 0, "Check package configuration")))
    assert said.line == "Task(Check package configuration)" and said.thread == "a1"
    assert said.outcome == "Done (34 tool uses · 62.4k tokens · 2m 42.3s)"


def test_a_long_or_multi_line_command_is_cut():
    said = claude_code.said(Exchange(call("functions.Bash", {"command": "cat > f <<EOF\nsecret body\nEOF"}),
                                     reply("")))
    assert said.target == "cat > f <<EOF …" and "secret body" not in said.words


def test_codex_reads_an_exec_command_s_exit_code_and_a_go_test_run():
    said = codex.said(Exchange(call("functions.exec_command", {"cmd": "go test ./..."}),
                               reply("Chunk ID: 1\nWall time: 0.2 seconds\nProcess exited with code 1\nOutput:\n"
                                     "ok  \tshop/cart\t0.1s\nFAIL\tshop/rates\t0.2s\n")))
    assert (said.line, said.outcome, said.status) == ("Ran go test ./...", "exit code 1 · 1 failed, 1 passed",
                                                      "failed")


def test_the_default_screen_reads_the_arguments_by_their_names():
    edit = generic.said(Exchange(call("functions.edit", {"path": "/w/a.py", "old_str": "a\nb", "new_str": "a\nc\nd"}),
                                 reply("ok"), cwd="/w"))
    assert (edit.line, edit.outcome) == ("edit(a.py)", "+2 -1")
    ran = generic.said(Exchange(call("functions.run_shell_command", {"command": "pytest", "description": "x"}),
                                reply("Exit code: 2\n3 failed, 4 passed in 1s")))
    assert (ran.line, ran.outcome, ran.status) == ("run_shell_command(pytest)", "exit code 2 · 3 failed, 4 passed",
                                                   "failed")
    unknown = generic.said(Exchange(call("functions.lookup", {"payload": "anything at all"}), reply("x")))
    assert unknown.line == "lookup"  # no argument of a known name: the tool alone


@given(st.text(min_size=8, max_size=200).filter(lambda text: text.strip()))
def test_no_text_of_a_reply_reaches_an_outcome(output):
    marked = f"Q7{output}Q7"
    for screen, tool, arguments in ((claude_code, "functions.Bash", {"command": "make"}),
                                    (claude_code, "functions.Grep", {"pattern": "x"}),
                                    (codex, "functions.shell", {"command": ["make"]}),
                                    (generic, "functions.bash", {"command": "make"})):
        for failed in (False, True):
            said = screen.said(Exchange(call(tool, arguments), reply(marked), failed=failed))
            assert "Q7" not in said.outcome and all("Q7" not in item for item in said.items)
