"""The visibility policy: one case per rule, the debug view, failing closed, and content-free markers."""
from __future__ import annotations


import msgspec
import pytest

from tests.conftest import SAMPLES
from viewer import parse, policy
from viewer.model import Message, Transcript, make_diagnostic

SECRET = "SECRET-BODY {\"location\": \"Tokyo\"}"


INTERRUPTED = "interrupted-here"
"""A test message so named gets a W-SESSION-INTERRUPTED diagnostic: the log records an interruption at it."""


def message(role: str, **fields) -> Message:
    return Message.drafted(index=0, turn=0, role=role, content=SECRET, span=(0, 10), **fields)


def transcript(*messages: Message, dialect: str = "openchatml", header: dict | None = None) -> Transcript:
    numbered = tuple(msgspec.structs.replace(m, index=i, turn=i) for i, m in enumerate(messages))
    interruptions = tuple(make_diagnostic("W-SESSION-INTERRUPTED", m.span, "The user interrupted the agent here.",
                                          m.index) for m in numbered if m.name == INTERRUPTED)
    return Transcript(dialect=dialect, source="", messages=numbered, header=header or {}, diagnostics=interruptions)


def default_decision(m: Message, dialect: str = "openchatml", header: dict | None = None) -> policy.Decision:
    return policy.Projection.of(transcript(m, dialect=dialect, header=header)).decisions("default")[0]


CASES = [
    # (case id, message, dialect, expected show_as, expected rule)
    ("system", message("system"), "openchatml", "hidden", "system-prompt"),
    ("developer", message("developer"), "harmony", "hidden", "system-prompt"),
    ("user", message("user"), "openchatml", "message", "user"),
    ("preamble-on-commentary", message("assistant", channel="commentary", intent="preamble"), "openchatml",
     "preamble", "preamble-intent"),
    ("preamble-on-final", message("assistant", channel="final", intent="preamble"), "openchatml",
     "preamble", "preamble-intent"),
    ("preamble-on-analysis-stays-hidden", message("assistant", channel="analysis", intent="preamble"),
     "openchatml", "hidden", "analysis"),
    ("preamble-marked-call-is-a-call", message("assistant", channel="commentary", intent="preamble",
                                               recipient="functions.f"), "openchatml", "marker", "tool-call"),
    ("harmony-preamble", message("assistant", channel="commentary"), "harmony", "preamble", "harmony-preamble"),
    ("unmarked-commentary-in-openchatml", message("assistant", channel="commentary"), "openchatml",
     "hidden", "commentary"),
    ("unmarked-commentary-in-json", message("assistant", channel="commentary"), "json", "hidden", "commentary"),
    ("commentary-to-assistant-in-harmony", message("assistant", channel="commentary", recipient="assistant"),
     "harmony", "hidden", "commentary"),
    ("tool-call-by-recipient", message("assistant", channel="commentary", recipient="functions.get_weather"),
     "harmony", "marker", "tool-call"),
    ("tool-call-by-stop", message("assistant", channel="commentary", end="call"), "harmony", "marker",
     "tool-call"),
    ("builtin-call-from-analysis", message("assistant", channel="analysis", recipient="browser.search"),
     "harmony", "marker", "tool-call"),
    ("tool-reply", message("tool", name="functions.get_weather", recipient="assistant", channel="commentary"),
     "harmony", "marker", "tool-reply"),
    ("status-intent", message("assistant", channel="final", intent="status"), "openchatml", "hidden",
     "status-debug"),
    ("debug-intent", message("assistant", channel="commentary", intent="debug"), "harmony", "hidden",
     "status-debug"),
    ("analysis", message("assistant", channel="analysis"), "harmony", "hidden", "analysis"),
    ("rejected-answer", message("assistant", channel="final", intent="rejected"), "json", "hidden",
     "rejected-answer"),
    ("rejected-user-turn", message("user", intent="rejected"), "json", "hidden", "rejected-answer"),
    ("chosen-answer", message("assistant", channel="final", intent="chosen"), "json", "message", "final"),
    ("final", message("assistant", channel="final"), "harmony", "message", "final"),
    ("final-by-default", message("assistant"), "chatml", "message", "final"),
    ("sub-agent-user-prompt", message("user", thread="a9f4657"), "claude-code", "hidden", "sub-agent"),
    ("sub-agent-answer", message("assistant", channel="final", thread="a9f4657"), "claude-code", "hidden",
     "sub-agent"),
    ("left-branch", message("user", aside=True), "claude-code", "hidden", "other-branch"),
    ("injected-context-in-a-user-turn", message("user", intent="context"), "claude-code", "hidden",
     "injected-context"),
    ("agent-preamble", message("assistant", channel="commentary"), "claude-code", "preamble", "agent-preamble"),
    ("codex-preamble", message("assistant", channel="commentary"), "codex", "preamble", "agent-preamble"),
    ("agent-call-is-a-call", message("assistant", channel="commentary", recipient="functions.Bash", end="call"),
     "claude-code", "marker", "agent-tool-call"),
    ("call-in-a-log-with-no-screen", message("assistant", channel="commentary", recipient="functions.f", end="call"),
     "json", "marker", "tool-call"),
    ("interruption-in-a-user-turn", message("user", intent="context", name=INTERRUPTED), "claude-code", "marker",
     "interruption"),
    ("interruption-noted-in-a-system-line", message("system", name=INTERRUPTED), "codex", "marker", "interruption"),
    ("interruption-never-shows-a-sub-agent", message("user", intent="context", thread="a1", name=INTERRUPTED),
     "claude-code", "hidden", "sub-agent"),
    ("agent-final-answer", message("assistant", channel="final"), "claude-code", "message", "final"),
    ("unknown-role", message("narrator", channel="final"), "openchatml", "hidden", "unknown"),
    ("unknown-channel", message("assistant", channel="thoughts"), "openchatml", "hidden", "unknown"),
]


@pytest.mark.parametrize(("m", "dialect", "show_as", "rule"), [case[1:] for case in CASES],
                         ids=[case[0] for case in CASES])
def test_default_view_rule(m: Message, dialect: str, show_as: str, rule: str) -> None:
    decision = default_decision(m, dialect)
    assert (decision.show_as, decision.rule) == (show_as, rule)
    assert decision.reason == policy.RULES_BY_NAME[rule].reason


def test_every_rule_has_a_case() -> None:
    assert {case[4] for case in CASES} == {rule.name for rule in policy.RULES}


def test_rule_names_are_unique_and_reasons_are_one_sentence() -> None:
    assert len(policy.RULES_BY_NAME) == len(policy.RULES)
    for rule in policy.RULES:
        assert rule.show_as in policy.SHOW_AS
        assert rule.reason.endswith(".") and rule.reason.count(". ") == 0


def test_harmony_preamble_needs_raw_harmony_without_header() -> None:
    m = message("assistant", channel="commentary")
    assert default_decision(m, "harmony", header={"version": "2.2"}).rule == "commentary"


def test_unknown_role_and_channel_fail_closed() -> None:
    for m in (message("narrator"), message("assistant", channel="final-ish"), message("", channel="")):
        decision = default_decision(m)
        assert decision.show_as == "hidden" and decision.rule == "unknown"


def test_debug_view_shows_everything_and_names_the_default_rule() -> None:
    t = transcript(message("system"), message("user"), message("assistant", channel="analysis"),
                   message("assistant", channel="commentary", recipient="functions.f"),
                   message("tool", name="functions.f"), message("assistant"), dialect="harmony")
    default = policy.Projection.of(t).decisions("default")
    debug = policy.Projection.of(t).decisions("debug")
    assert all(d.show_as == "message" for d in debug)
    assert [d.rule for d in debug] == [d.rule for d in default]
    assert [d.default_show_as for d in debug] == [d.show_as for d in default]
    assert [d.reason for d in debug] == [d.reason for d in default]
    assert debug[2].rule == "analysis" and debug[2].default_show_as == "hidden"
    assert all(decision.show_as != "hidden" for decision in debug)


def test_decisions_reject_an_unknown_view() -> None:
    with pytest.raises(ValueError, match="unknown view"):
        policy.Projection.of(transcript(message("user"))).decisions("raw")


def test_hidden_count_counts_only_hidden_messages() -> None:
    t = transcript(message("system"), message("user"), message("assistant", channel="analysis"),
                   message("assistant", recipient="functions.f", channel="commentary"), message("assistant"))
    assert policy.Projection.of(t).hidden_count == 2


def test_marker_carries_only_the_tool_name() -> None:
    call = message("assistant", channel="commentary", recipient="functions.get_weather", call_id="wx-secret-id",
                   content_type="json", end="call")
    decision = default_decision(call, "harmony")
    assert decision.show_as == "marker" and decision.tool == "functions.get_weather"
    [marker] = policy.visible_entries([decision])
    shown = repr(decision) + repr(marker) + marker.text
    assert "SECRET" not in shown and "Tokyo" not in shown and "wx-secret-id" not in shown
    assert marker.text == "used get_weather"


def test_only_markers_of_calls_name_a_tool() -> None:
    t = transcript(message("assistant", channel="analysis", recipient="assistant"), message("tool", name="x"),
                   message("assistant"), message("assistant", channel="commentary", recipient="functions.f"))
    assert [d.tool for d in policy.Projection.of(t).decisions("default")] == [None, None, None, "functions.f"]


def test_a_replys_own_name_never_reaches_the_marker() -> None:
    # Hermes and JSON replies may take their name from the reply's (hidden) content.
    t = transcript(message("tool", name="SECRET-FROM-THE-REPLY"))
    [marker] = policy.visible_entries(policy.Projection.of(t).decisions("default"))
    assert marker.text == "used a tool"


def test_consecutive_markers_collapse_across_hidden_messages() -> None:
    t = transcript(
        message("user"),
        message("assistant", channel="analysis"),
        message("assistant", channel="commentary", recipient="functions.get_weather"),
        message("tool", name="functions.get_weather"),
        message("assistant", channel="analysis", recipient="browser.search"),
        message("tool", name="browser.search"),
        message("assistant", channel="commentary", recipient="functions.get_weather"),
        message("assistant"),
        message("tool", name="python"),
        dialect="harmony",
    )
    entries = policy.visible_entries(policy.Projection.of(t).decisions("default"))
    assert [type(e).__name__ for e in entries] == ["Decision", "Marker", "Decision", "Marker"]
    assert entries[1].indices == (2, 3, 4, 5, 6)
    assert entries[1].text == "used get_weather, browser.search"
    assert entries[3].text == "used a tool"  # a lone reply: its own name is not trusted


def test_marker_without_a_tool_name_still_reads() -> None:
    t = transcript(message("assistant", channel="commentary", end="call"), message("tool"))
    [marker] = policy.visible_entries(policy.Projection.of(t).decisions("default"))
    assert marker.text == "used a tool" and marker.indices == (0, 1)


def test_debug_entries_keep_every_message() -> None:
    t = transcript(message("system"), message("assistant", recipient="functions.f"), message("tool", name="f"))
    assert [e.index for e in policy.visible_entries(policy.Projection.of(t).decisions("debug"))] == [0, 1, 2]


@pytest.mark.parametrize("sample", sorted(SAMPLES.iterdir()), ids=lambda path: path.name)
def test_rules_asked_once_per_header_equal_the_table_for_every_message(sample):
    transcript = parse(sample.read_bytes())
    expected = [policy.rule_for(message, transcript) for message in transcript.messages]
    assert list(policy.default_rules(transcript)) == expected
