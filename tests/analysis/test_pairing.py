"""Calls pair with replies by call_id, else by the dialect's rule: by tool name (Harmony, JSON, events) or
in order (ChatML)."""
from __future__ import annotations

import random

import pytest

from viewer.analysis import BY_NAME, BY_ORDER, pair_calls, pairing
from viewer.model import Message


def call(index, tool="functions.f", call_id=None):
    return Message.drafted(index=index, turn=index, role="assistant", content="{}", span=(index, index),
                           recipient=tool, channel="commentary", call_id=call_id, end="call")


def reply(index, tool="functions.f", call_id=None):
    return Message.drafted(index=index, turn=index, role="tool", content="{}", span=(index, index), name=tool,
                           recipient="assistant", channel="commentary", call_id=call_id)


def final(index):
    return Message.drafted(index=index, turn=index, role="assistant", content="done", span=(index, index))


def pairs_of(messages, replies_without_id=BY_NAME):
    pairs, diagnostics = pair_calls(tuple(messages), replies_without_id)
    return [(p.call, p.reply, p.by) for p in pairs], [(d.code, d.message_index, d.severity) for d in diagnostics]


def test_replies_pair_by_call_id_whatever_their_order():
    pairs, diagnostics = pairs_of([call(0, call_id="a"), call(1, call_id="b"),
                                   reply(2, call_id="b"), reply(3, call_id="a")])
    assert pairs == [(1, 2, "call_id"), (0, 3, "call_id")]
    assert diagnostics == []


def test_without_ids_a_reply_answers_the_earliest_open_call_to_its_tool():
    messages = [call(0, "functions.a"), call(1, "functions.b"), call(2, "functions.a"),
                reply(3, "functions.a"), reply(4, "functions.a"), reply(5, "functions.b")]
    pairs, _ = pairs_of(messages)
    assert pairs == [(0, 3, "name"), (2, 4, "name"), (1, 5, "name")]


def test_chatml_outputs_answer_calls_in_order_unless_they_name_another_open_call():
    messages = [call(0, "functions.a"), call(1, "functions.b"), reply(2, None), reply(3, "functions.x")]
    pairs, diagnostics = pairs_of(messages, BY_ORDER)
    assert pairs == [(0, 2, "order"), (1, 3, "order")]  # no open call to x: order decides
    assert diagnostics == []


def test_a_chatml_reply_naming_a_later_call_pairs_with_it_by_name():
    messages = [call(0, "functions.a"), call(1, "functions.b"), reply(2, "functions.b"), reply(3, "functions.a")]
    pairs, diagnostics = pairs_of(messages, BY_ORDER)
    assert pairs == [(1, 2, "name"), (0, 3, "order")]
    assert diagnostics == []


def test_a_reply_to_an_unknown_call_id_is_an_orphan():
    _, diagnostics = pairs_of([call(0, call_id="a"), reply(1, call_id="zzz"), reply(2, call_id="a")])
    assert ("W-ORPHAN-REPLY", 1, "warning") in diagnostics


def test_a_reply_from_a_tool_nobody_called_is_an_orphan():
    pairs, diagnostics = pairs_of([call(0, "functions.a"), reply(1, "functions.b")])
    assert pairs == []
    assert ("W-ORPHAN-REPLY", 1, "warning") in diagnostics


def test_a_duplicate_call_id_is_reported_and_replies_take_the_earliest_open_one():
    pairs, diagnostics = pairs_of([call(0, call_id="a"), call(1, call_id="a"),
                                   reply(2, call_id="a"), reply(3, call_id="a")])
    assert pairs == [(0, 2, "call_id"), (1, 3, "call_id")]
    assert diagnostics == [("W-DUPLICATE-CALL-ID", 1, "warning")]


def test_a_call_never_answered_is_a_warning():
    _, diagnostics = pairs_of([call(0), final(1)])
    assert diagnostics == [("W-UNANSWERED-CALL", 0, "warning")]


def test_a_call_that_ends_the_transcript_is_only_waiting():
    _, diagnostics = pairs_of([final(0), call(1)])
    assert diagnostics == [("W-UNANSWERED-CALL", 1, "info")]


def test_a_reply_without_id_prefers_calls_without_id():
    pairs, _ = pairs_of([call(0, call_id="a"), call(1), reply(2), reply(3, call_id="a")])
    assert pairs == [(1, 2, "name"), (0, 3, "call_id")]


def test_an_answered_call_is_never_answered_twice():
    pairs, diagnostics = pairs_of([call(0), reply(1), reply(2)])
    assert pairs == [(0, 1, "name")]
    assert ("W-ORPHAN-REPLY", 2, "warning") in diagnostics


def test_a_cancelled_call_is_not_reported_as_unanswered():
    pairs, diagnostics = pair_calls((call(0), final(1)), BY_NAME, cancelled=frozenset({0}))
    assert pairs == [] and diagnostics == []


def mixed_session(seed, calls=3000):
    """Calls with and without ids to a few tools, answered by id, by name or never, out of order now and then."""
    pick = random.Random(seed)
    messages, open_calls = [], []
    while len(messages) < 2 * calls:
        index = len(messages)
        if open_calls and pick.random() < 0.45:
            tool, call_id = open_calls.pop(pick.randrange(len(open_calls)) if pick.random() < 0.2 else 0)
            messages.append(reply(index, tool, call_id if pick.random() < 0.9 else None))
        else:
            tool = pick.choice(["functions.a", "functions.b", "functions.c"])
            call_id = f"call_{index}" if pick.random() < 0.8 else None
            messages.append(call(index, tool, call_id))
            if pick.random() < 0.95:
                open_calls.append((tool, call_id))
    return messages


@pytest.mark.parametrize("rule", [BY_NAME, BY_ORDER])
@pytest.mark.parametrize("seed", range(3))
def test_answered_calls_taken_out_of_the_queues_pair_as_skipped_ones(monkeypatch, rule, seed):
    messages = mixed_session(seed)
    pruned = pairs_of(messages, rule)
    monkeypatch.setattr(pairing, "PRUNE_FROM", 10 ** 9)  # never taken out: skipped lazily
    assert pruned == pairs_of(messages, rule)


def test_calls_answered_by_id_are_not_held_to_the_end():
    open_calls = pairing.Pairing()
    for number in range(20_000):
        open_calls.feed([call(2 * number, call_id=f"c{number}"), reply(2 * number + 1, call_id=f"c{number}")])
    held = open_calls.open  # none is open: what the queues hold is answered calls not taken out yet
    assert sum(len(queue) for queue in held.in_order.values()) < 2_500
    assert sum(len(queue) for queue in held.by_tool.values()) < 2_500
