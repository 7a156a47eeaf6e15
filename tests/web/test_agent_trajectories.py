"""Agents' trajectories and exports in the web app: the debug view totals a run's tokens and cost and lists each
response's own, and nests a sub-agent's trajectory (ATIF) or sidechain (SpecStory) under the call that started
it, which the default view shows as a note only."""
from __future__ import annotations

from bs4 import BeautifulSoup

from tests.conftest import SAMPLES


def fields_of(page: BeautifulSoup, index: int) -> dict[str, str]:
    return {dt.get_text(): dd.get_text() for dt, dd in zip(page.select(f"#m-{index} dt"),
                                                           page.select(f"#m-{index} dd"))}


def test_the_debug_view_totals_the_cost_a_run_recorded_and_each_response_s(client, upload):
    id = upload((SAMPLES / "openhands-0.42-trajectory-export.json").read_bytes(), debug="allow")["id"]
    page = BeautifulSoup(client.get(f"/t/{id}?view=debug").data, "html.parser")
    assert "cost $0.0461" in page.select_one(".session-totals").get_text()
    assert fields_of(page, 5)["cost"] == "$0.0312"  # the first response's call: the growth of the accumulated cost


def test_a_sub_agent_s_trajectory_is_nested_under_its_call(client, upload):
    for sample, thread in (("atif-1.7-embedded-subagent.json", "a9f4657"),
                           ("specstory-2.1-claude-code-sidechain.md", "sidechain-1")):
        id = upload((SAMPLES / sample).read_bytes(), debug="allow")["id"]
        debug = BeautifulSoup(client.get(f"/t/{id}?view=debug").data, "html.parser")
        group = debug.select_one(".thread-group details.thread")
        assert group is not None and thread in group.summary.get_text(), sample
        page = BeautifulSoup(client.get(f"/t/{id}").data, "html.parser")
        # The sub-agent's prompt stays hidden; its call is one line, as the agent's screen showed it.
        assert "List every call site" not in page.get_text(" ") and page.select(".said-line"), sample
