"""Agent sessions in the web app: the default view reads like the chat the user had; the debug view lists each
message's metadata, nests a sub-agent's conversation under its call, and totals the session's tokens; the
default view's JSON keeps only the times of what it shows."""
from __future__ import annotations

from bs4 import BeautifulSoup

from tests.conftest import SAMPLES

SUBAGENT = SAMPLES / "claude-code-2.1-subagent-agent-id.jsonl"


def test_the_default_view_shows_the_chat_and_no_sub_agent(client, upload):
    id = upload(SUBAGENT.read_bytes(), debug="allow")["id"]
    page = BeautifulSoup(client.get(f"/t/{id}").data, "html.parser")
    text = page.get_text(" ")
    assert "Review the rates module for rounding bugs." in text and "want me to change it?" in text
    assert "Review shop/rates.py for rounding errors" not in text  # the sub-agent's prompt
    assert "Floats for money" not in text and "claude-opus" not in text and "a9f4657" not in text
    assert page.select(".marker")


def test_the_debug_view_nests_the_sub_agent_under_its_call_and_lists_metadata(client, upload):
    id = upload(SUBAGENT.read_bytes(), debug="allow")["id"]
    page = BeautifulSoup(client.get(f"/t/{id}?view=debug").data, "html.parser")
    thread = page.select_one(".thread-group details.thread")
    assert thread is not None and thread.has_attr("open")
    assert "a9f4657" in thread.summary.get_text() and "call #1" in thread.select_one(".thread-origin").get_text()
    assert [item["data-index"] for item in thread.select("li.entry.dbg")] == ["2", "3", "4", "5", "6"]
    fields = {dt.get_text(): dd.get_text() for dt, dd in zip(page.select("#m-1 dt"), page.select("#m-1 dd"))}
    assert fields["model"] == "claude-opus-4-1-20250805" and fields["stop reason"] == "tool_use"
    assert fields["tokens"] == "in 3 · out 64 · cache read 0 · cache write 6,200"
    reply = {dt.get_text(): dd.get_text() for dt, dd in zip(page.select("#m-7 dt"), page.select("#m-7 dd"))}
    assert reply["took"].endswith("s after its call")
    totals = page.select_one(".session-totals").get_text()
    assert "4 model responses" in totals and "out 166" in totals


def test_the_default_view_s_json_keeps_only_the_times_of_what_it_shows(client, upload):
    id = upload(SUBAGENT.read_bytes(), debug="allow")["id"]
    default = client.get(f"/t/{id}.json").get_json()
    shown = [entry for entry in default["messages"] if entry.get("show_as") != "marker"]
    assert shown and all(set(entry.get("meta", {})) <= {"timestamp"} for entry in shown)
    assert not any({"thread", "parent", "aside"} & set(entry) for entry in default["messages"])
    debug = client.get(f"/t/{id}.json?view=debug").get_json()
    assert debug["header"]["usage"]["output"] == 166
    assert [entry.get("thread") for entry in debug["messages"]][2:7] == ["a9f4657"] * 5
