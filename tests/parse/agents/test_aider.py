"""Aider's chat history (`.aider.chat.history.md`) and LLM history (`.aider.llm.history`): what the user typed
shown, aider's own output and the model's reasoning hidden, edits left in the answer, runs, usage from aider's
report, interruptions, the lines whose reading is ambiguous reported, and each request's context hidden."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from tests.conftest import SAMPLES
from tests.parse.agents.default_view import CANARY, default_view_json
from tests.parse.agents.test_claude_code import shown
from tests.parse.helpers import codes, only
from viewer import parse
from viewer.parse import detect

RUN = "\n# aider chat started at 2026-02-14 09:31:07\n\n"
THINKING = "thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b"


def typed(*lines: str) -> str:
    return "\n" + "".join(f"#### {line}  \n" for line in lines)


def reply(text: str) -> str:
    return "\n" + text.strip() + "\n\n"


def output(*lines: str) -> str:
    return "".join(f"> {line}  \n" if line else ">  \n" for line in lines)


@pytest.mark.parametrize("pattern, dialect", [("aider-*.md", "aider"), ("aider-*.history", "aider-llm")])
def test_every_sample_is_detected_as_its_log(pattern, dialect):
    paths = sorted(SAMPLES.glob(pattern))
    assert paths
    for path in paths:
        assert parse(path.read_bytes()).dialect == dialect, path.name


def test_a_markdown_file_without_aider_s_first_line_is_not_aider_s():
    assert detect("#### not aider  \n\nhello\n") != "aider"
    assert detect("# Notes\n\n# aider chat started at 2026-02-14 09:31:07\n") != "aider"


def test_the_chat_shows_what_the_user_typed_and_the_answers_and_hides_aider_s_output():
    transcript = parse(RUN + output("Aider v0.86.2", "Main model: anthropic/claude-x with diff edit format")
                       + typed("/add a.py") + output("Added a.py to the chat")
                       + typed("fix it", "please") + reply("a.py\n```python\n<<<<<<< SEARCH\nx\n=======\ny\n"
                                                           ">>>>>>> REPLACE\n```")
                       + output("Tokens: 2.9k sent, 1.8k cache hit, 312 received. Cost: $0.0094 message, $0.0094 "
                                "session.", "Applied edit to a.py"))
    assert shown(transcript) == [("message", "/add a.py"), ("message", "fix it\nplease"),
                                 ("message", "a.py\n```python\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n```")]
    answer = transcript.messages[4]
    assert answer.meta.model == "anthropic/claude-x"
    assert answer.meta.usage.to_json() == {"input": 1100, "output": 312, "cache_read": 1800, "cache_write": 0,
                                           "cost": 0.0094}
    assert transcript.header["version"] == "0.86.2" and transcript.header["title"] == "fix it"
    assert {m.role for m in transcript.messages if m.name == "aider"} == {"system"}


def test_reasoning_left_in_a_reply_is_analysis():
    transcript = parse(RUN + typed("why?") + reply(f"<{THINKING}>\n\nsecret\n\n</{THINKING}>\n\nBecause."))
    assert [(m.channel, m.content) for m in transcript.messages[1:]] == [("analysis", "secret"),
                                                                         ("final", "Because.")]


def test_markdown_in_a_reply_that_looks_like_aider_s_lines_stays_in_the_reply():
    transcript = parse(RUN + typed("quote it") + reply("Here:\n> a quote  \n#### a heading  \nend"))
    assert shown(transcript)[-1] == ("message", "Here:\n> a quote  \n#### a heading  \nend")
    assert "W-AMBIGUOUS-LINE" not in codes(transcript)


def test_lines_that_look_like_aider_s_after_a_blank_line_but_go_on_as_the_reply_are_reported():
    transcript = parse(RUN + typed("list") + reply("Steps:\n\n#### Step one  \nDo it."))
    assert shown(transcript)[-1] == ("message", "Steps:\n\n#### Step one  \nDo it.")
    assert only(transcript, "W-AMBIGUOUS-LINE")


def test_an_interrupted_reply_is_reported_and_runs_date_their_first_message():
    transcript = parse((SAMPLES / "aider-0.86-chat-history.md").read_bytes())
    interrupted = only(transcript, "W-SESSION-INTERRUPTED")
    assert transcript.messages[interrupted.message_index].content.startswith("The failing test expects")
    assert transcript.header["runs"] == 2
    assert [m.meta.timestamp for m in transcript.messages if m.meta and m.meta.timestamp] == [
        "2026-02-14T09:31:07", "2026-02-15T17:02:44"]


def test_a_chat_history_cut_mid_line_is_reported():
    transcript = parse((SAMPLES / "aider-broken-chat-history-cut.md").read_bytes())
    assert codes(transcript)[-1] == "E-STREAM-TRUNCATED"


def test_each_request_shows_what_the_user_asked_and_hides_the_rest_of_the_context():
    transcript = parse((SAMPLES / "aider-0.86-llm.history").read_bytes())
    assert [text for how, text in shown(transcript) if how == "message"][::2] == [
        'slugify("Crème brûlée") returns "crme-brle". Keep accented letters as their ASCII base.',
        "What's wrong? Fix"]
    assert transcript.messages[0].role == "system"
    assert all(m.intent == "context" for m in transcript.messages if m.role == "user" and m.content.startswith(
        ("I ran this command", "I committed", "Here are summaries")))


def test_a_message_aider_writes_in_the_user_s_place_is_not_shown_as_typed():
    raw = ("TO LLM 2026-02-14T09:31:38\n-------\nSYSTEM You code.\n-------\nUSER # 1 SEARCH/REPLACE block failed to "
           "match!\nUSER secret\nLLM RESPONSE 2026-02-14T09:31:46\nASSISTANT Retrying.\n")
    assert shown(parse(raw)) == [("message", "Retrying.")]


def test_an_interruption_the_next_request_reports_is_put_on_the_answer_it_cut():
    raw = ("TO LLM 2026-02-14T09:31:38\n-------\nUSER go\nLLM RESPONSE 2026-02-14T09:31:46\nASSISTANT Par\n"
           "TO LLM 2026-02-14T09:32:00\n-------\nUSER go\nUSER ^C KeyboardInterrupt\n-------\nASSISTANT I see that "
           "you interrupted my previous reply.\n-------\nUSER again\nLLM RESPONSE 2026-02-14T09:32:09\n"
           "ASSISTANT Done.\n")
    transcript = parse(raw)
    assert only(transcript, "W-SESSION-INTERRUPTED").message_index == 1
    assert shown(transcript) == [("message", "go"), ("message", "Par"), ("message", "again"), ("message", "Done.")]


def test_an_llm_history_cut_short_is_reported():
    transcript = parse((SAMPLES / "aider-broken-llm-cut.history").read_bytes())
    assert codes(transcript)[-1] == "E-STREAM-TRUNCATED"


def test_no_canary_of_a_sample_reaches_the_default_view():
    for path in SAMPLES.glob("aider-*"):
        assert "CANARY" not in str(shown(parse(path.read_bytes()))), path.name


CHAT_KINDS = ("typed", "command", "reply", "thinking", "output", "usage", "interrupt", "markdown")


def _chat_part(kind: str, number: int) -> str:
    if kind == "typed":
        return typed(f"SHOWN-{number}")
    if kind == "command":
        return typed(f"/run SHOWN-{number}") + output("Add 0.1k tokens of command output to the chat? (Y)es/(N)o "
                                                      f"[Yes]: y {CANARY}")
    if kind == "reply":
        return reply(f"SHOWN-{number}")
    if kind == "thinking":
        return reply(f"<{THINKING}>\n\n{CANARY}\n\n</{THINKING}>\n\nSHOWN-{number}")
    if kind == "output":
        return output(f"Applied edit to {CANARY}", f"Commit 3f2a9c1 {CANARY}", "", f"Traceback {CANARY}")
    if kind == "usage":
        return output(f"Tokens: 1.2k sent, 12 received. Cost: $0.01 message, $0.02 session. {CANARY}")
    if kind == "interrupt":
        return output("", "", "^C again to exit") + reply(f"<think>{CANARY}")
    return reply(f"SHOWN-{number}\n> quoted  \n#### heading  \nmore")


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(CHAT_KINDS), min_size=1, max_size=10), st.booleans())
def test_no_hidden_part_of_an_aider_chat_reaches_the_default_view(kinds, two_runs):
    parts = [_chat_part(kind, number) for number, kind in enumerate(["typed", *kinds])]
    if two_runs:
        parts.insert(len(parts) // 2 + 1, RUN + output(f"Aider v0.86.2 {CANARY}"))
    shown_json = default_view_json(RUN + output(f"/usr/bin/aider {CANARY}", "Aider v0.86.2") + "".join(parts), "aider")
    assert CANARY not in shown_json
    assert "SHOWN-0" in shown_json


LLM_KINDS = ("system", "context", "history", "ran", "answer", "thinking", "reflection", "stray")


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(st.sampled_from(LLM_KINDS), max_size=6), min_size=1, max_size=4))
def test_no_hidden_part_of_an_aider_llm_history_reaches_the_default_view(requests):
    text = ""
    for number, kinds in enumerate(requests):
        text += f"TO LLM 2026-02-14T09:3{number}:38\n"
        for kind in kinds:
            text += "-------\n" + {
                "system": f"SYSTEM Act as an expert.\nSYSTEM {CANARY}\n",
                "context": f"USER Here are summaries of some files present in my git repository.\nUSER {CANARY}\n"
                           "-------\nASSISTANT Ok.\n",
                "history": f"USER old question {CANARY}\n-------\nASSISTANT old answer {CANARY}\n",
                "ran": f"USER I ran this command:\nUSER \nUSER {CANARY}\n",
                "answer": f"ASSISTANT {CANARY}\n",
                "thinking": f"ASSISTANT <think>{CANARY}</think>\n",
                "reflection": f"USER # Fix any errors below, if possible.\nUSER {CANARY}\n",
                "stray": f"{CANARY}\n",
            }[kind]
        text += f"-------\nUSER SHOWN-{number}\nLLM RESPONSE 2026-02-14T09:3{number}:46\n"
        text += f"ASSISTANT <{THINKING}>\nASSISTANT {CANARY}\nASSISTANT </{THINKING}>\nASSISTANT answer {number}\n"
    shown_json = default_view_json(text, "aider-llm")
    assert CANARY not in shown_json
    assert "SHOWN-0" in shown_json


def test_no_prefix_of_a_chat_shows_a_hidden_part_when_it_is_cut_mid_line():
    """A live upload is read as it grows: a line cut before aider's trailing spaces is still aider's."""
    raw = (SAMPLES / "aider-0.86-chat-history.md").read_text()
    for end in range(0, len(raw), 7):
        assert "CANARY" not in str(shown(parse(raw[:end]))), end
