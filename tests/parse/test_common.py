"""What the parsers share: one rule for tool addresses in every dialect, pending diagnostics, blank edges, and
the collector pause."""
from __future__ import annotations

import gc
import json
import threading

import pytest

from viewer.parse import parse
from viewer.model import Diagnostic
from viewer.model.collector import collector_paused
from viewer.parse.common import Pending, qualified_tool_name, trimmed_span


@pytest.mark.parametrize("name, address", [
    ("get_weather", "functions.get_weather"),
    ("functions.get_weather", "functions.get_weather"),
    ("browser.search", "browser.search"),
    ("container.exec", "container.exec"),
    ("python", "python"),
])
def test_function_names_get_the_functions_namespace_and_namespaced_or_built_in_tools_keep_theirs(name, address):
    assert qualified_tool_name(name) == address


def chatml_call(name: str) -> str:
    return (f'<|im_start|>assistant\n<|function_call|>{{"name": "{name}", "arguments": {{}}}}<|im_end|>\n'
            f'<|im_start|>tool\n<|function_output|>{{"name": "{name}", "content": "ok"}}<|im_end|>')


def json_call(name: str) -> str:
    call = {"id": "c", "function": {"name": name, "arguments": "{}"}}
    return json.dumps([{"role": "assistant", "tool_calls": [call]},
                       {"role": "tool", "tool_call_id": "c", "name": name, "content": "ok"}])


def events_call(name: str) -> str:
    return "\n".join(json.dumps(event) for event in [
        {"type": "response.function_call_arguments.delta", "call_id": "c", "name": name, "delta": "{}"},
        {"type": "response.function_call_arguments.done", "call_id": "c"},
        {"type": "tool.result", "call_id": "c", "name": name, "output": "ok"}])


@pytest.mark.parametrize("write", [chatml_call, json_call, events_call], ids=["chatml", "json", "events"])
@pytest.mark.parametrize("name, address", [("browser.search", "browser.search"), ("python", "python"),
                                           ("get_weather", "functions.get_weather")])
def test_every_dialect_addresses_a_named_tool_the_same_way(write, name, address):
    transcript = parse(write(name))
    call, reply = transcript.messages
    assert (call.recipient, reply.name) == (address, address)
    assert [(pair.call, pair.reply) for pair in transcript.pairs] == [(0, 1)]


def test_a_chatml_tool_declaration_is_filed_under_the_address_its_calls_use():
    text = ('<|im_start|>system\n<|function_list|>[{"name": "browser.search", "parameters": {"type": "object"}}]'
            '<|im_end|>')
    assert list(parse(text).tools) == ["browser.search"]


def test_a_trimmed_span_leaves_out_blank_edges_and_blank_text_has_none():
    assert trimmed_span("ab  x y \n cd", 2, 9) == (4, 7)
    assert trimmed_span("a \n\t b", 1, 5) is None


def test_overlapping_pauses_keep_the_collector_off_until_the_last_one_ends():
    assert gc.isenabled()
    with collector_paused:
        with collector_paused:
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_pause_in_another_thread_ending_first_does_not_restart_the_collector_under_this_one():
    inner_started, inner_may_end = threading.Event(), threading.Event()

    def other_parse():
        with collector_paused:
            inner_started.set()
            inner_may_end.wait(10)

    with collector_paused:
        thread = threading.Thread(target=other_parse)
        thread.start()
        inner_started.wait(10)
        inner_may_end.set()
        thread.join(10)
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off():
    gc.disable()
    try:
        with collector_paused:
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_pending_diagnostic_is_attached_to_its_message_with_its_span_moved():
    pending = Pending("E-PARSE-HEADER", "Bad.", (2, 5))
    assert pending.at(7, offset=10) == Diagnostic("E-PARSE-HEADER", "error", "Bad.", (12, 15), 7)
    assert pending.at(None).span == (2, 5)
