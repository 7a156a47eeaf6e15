"""Antigravity CLI transcripts: the request inside what the agent sent, responses, calls answered by the result
steps that follow them in order, system steps, and detection."""
from __future__ import annotations

import json

from tests.conftest import SAMPLES
from tests.parse.agents.test_claude_code import shown
from tests.parse.helpers import codes, only
from viewer import parse

SAMPLE = "antigravity-1.0-checkpoint-send-message.jsonl"


def sample(name: str = SAMPLE):
    return parse((SAMPLES / name).read_bytes())


def steps(*made: dict) -> str:
    return "".join(json.dumps({"step_index": number, "status": "DONE", "created_at": f"2026-08-03T18:02:{number:02d}Z",
                               **step}) + "\n" for number, step in enumerate(made))


def request(text: str, extra: str = "") -> dict:
    return {"source": "USER_EXPLICIT", "type": "USER_INPUT",
            "content": f"<USER_REQUEST>\n{text}\n</USER_REQUEST>{extra}"}


def planned(content: str = "", *calls: dict, **extra) -> dict:
    return {"source": "MODEL", "type": "PLANNER_RESPONSE", "content": content, "tool_calls": list(calls), **extra}


def tool(name: str, **arguments: str) -> dict:
    return {"name": name, "args": arguments}


def done(kind: str, output: str) -> dict:
    return {"source": "MODEL", "type": kind,
            "content": f"Created At: 2026-08-03T18:02:41Z\nCompleted At: 2026-08-03T18:02:43Z\n{output}"}


def test_every_sample_is_detected_as_an_antigravity_transcript():
    for path in SAMPLES.glob("antigravity-*"):
        assert parse(path.read_bytes()).dialect == "antigravity", path.name


def test_the_default_view_reads_like_the_chat_the_user_had():
    assert [text for how, text in shown(sample()) if how == "message"] == [
        "convert() in shop/rates.py must round half up to cents. Fix it and run the tests.",
        "Fixed: convert() now rounds half up to cents (2.675 EUR becomes 2.68), and the 4 rate tests pass.",
        "Also add a test for negative amounts",
        "stop, I'll write it myself",
    ]


def test_the_request_is_what_the_user_typed_and_the_blocks_the_agent_appended_are_context():
    transcript = parse(steps(request("fix it", "\n<USER_SETTINGS_CHANGE>\nThe user changed setting `Model "
                                               "Selection` from None to Gemini 3.5 Flash (High). Ok.\n"
                                               "</USER_SETTINGS_CHANGE>")))
    assert [(m.content, m.intent) for m in transcript.messages][0] == ("fix it", None)
    assert transcript.messages[1].intent == "context"
    assert transcript.header["model"] == "Gemini 3.5 Flash (High)"


def test_results_answer_the_calls_before_them_in_order_and_are_named_after_them():
    transcript = parse(steps(request("go"), planned("Editing.", tool("default_api:replace_file_content",
                                                                     TargetFile='"/w/a.py"', StartLine="1"),
                                                    tool("run_command", CommandLine='"ls"')),
                             done("CODE_ACTION", "edited"), done("RUN_COMMAND", "a b")))
    calls = [m for m in transcript.messages if m.is_call]
    assert [m.recipient for m in calls] == ["functions.replace_file_content", "functions.run_command"]
    assert json.loads(calls[0].content) == {"TargetFile": "/w/a.py", "StartLine": 1}
    replies = [m for m in transcript.messages if m.is_reply]
    assert [(m.name, m.content.rsplit("\n", 1)[-1], m.meta.duration_ms) for m in replies] == [
        ("functions.replace_file_content", "edited", 2000), ("functions.run_command", "a b", 2000)]
    assert replies[0].content.startswith("Created At: ")  # the time lines stay, as the model got them
    assert sorted((p.call, p.reply, p.by) for p in transcript.pairs) == [(2, 4, "order"), (3, 5, "order")]
    assert only(transcript, "W-PAIRED-BY-ORDER").message_index == 4  # said once, where the guess begins


def test_a_result_with_no_call_before_it_is_reported_not_guessed():
    transcript = parse(steps(request("go"), planned("Nothing to call."), done("VIEW_FILE", "x")))
    assert "W-ORPHAN-REPLY" in codes(transcript)


def test_system_steps_are_hidden_and_a_checkpoint_is_a_compaction():
    transcript = sample()
    assert only(transcript, "W-SESSION-COMPACTED")
    assert all(m.intent == "context" for m in transcript.messages if m.name in ("ephemeral_message", "checkpoint"))


def test_a_step_line_is_told_by_its_index_and_source():
    assert parse(steps(request("hi"))).dialect == "antigravity"
    assert parse(json.dumps({"step_index": "1", "source": "MODEL", "type": "X"}) + "\n").dialect == "json"
