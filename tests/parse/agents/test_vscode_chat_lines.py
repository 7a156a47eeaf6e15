"""A VS Code chat log of changes read a line at a time (`VSCodeChatReader`) reads as the log replayed whole does: the
same messages, diagnostics, header, threads and frame; a log that changes a request read out already is replayed
whole instead."""
from __future__ import annotations

import json

import pytest

from tests.conftest import SAMPLES
from tests.harness.vscode_chat_session import vscode_chat_session
from viewer.parse.agents import vscode_chat
from viewer.parse.agents.online import Reread, read_whole
from viewer.parse.options import ParseOptions


def _with(log: str, *changes: dict) -> str:
    return log + "".join(json.dumps(change, separators=(",", ":")) + "\n" for change in changes)


BASE = vscode_chat_session(0.12, seed=5)
"""Five requests."""
START = BASE.splitlines(keepends=True)[0]
LOGS = {
    **{path.name: lambda path=path: path.read_text() for path in sorted(SAMPLES.glob("vscode-chat-*.jsonl"))},
    "generated": lambda: vscode_chat_session(0.3, seed=3),
    "cut short": lambda: vscode_chat_session(0.05, seed=2)[:-200],
    "asked again": lambda: _with(BASE, {"kind": 2, "k": ["requests"], "v": [{"message": {"text": "Again."},
                                                                            "response": [{"value": "Ok."}]}], "i": 4}),
    "last one deleted": lambda: _with(BASE, {"kind": 3, "k": ["requests", 4]}),
    "paths that lead nowhere": lambda: _with(BASE, {"kind": 1, "k": ["requests", 99, "x"], "v": 1},
                                             {"kind": 2, "k": ["requests", -1, "response"], "v": [1]}),
    "unread changed, its names not": lambda: _with(
        BASE.replace('"pendingRequests":[]', '"pendingRequests":[{"text":"a"}]', 1),
        {"kind": 1, "k": ["pendingRequests"], "v": [{"text": "b"}]}),
    "requests in the first line": lambda: _with(
        '{"kind":0,"v":{"version":3,"requests":[{"message":{"text":"a"},"response":[{"value":"A"}]},'
        '{"message":{"text":"b"}}]}}\n', {"kind": 2, "k": ["requests", 1, "response"], "v": [{"value": "B"}]},
        {"kind": 2, "k": ["requests"], "v": [{"message": {"text": "c"}}, {"message": {"text": "d"}}]}),
    "requests deleted before any": lambda: START + _with("", {"kind": 3, "k": ["requests"]}) + BASE[len(START):],
}
REREAD = {
    "an old request changed": lambda: _with(BASE, {"kind": 1, "k": ["requests", 0, "isHidden"], "v": True}),
    "old requests cut away": lambda: _with(BASE, {"kind": 2, "k": ["requests"], "v": [{"message": {"text": "a"}}],
                                                  "i": 0}),
    "written again": lambda: BASE + START,
    "unread named late": lambda: _with(BASE, {"kind": 2, "k": ["pendingRequests"], "v": [{"text": "a"}]}),
    "a change first": lambda: _with("", {"kind": 1, "k": ["customTitle"], "v": "t"}) + BASE,
}


def _alike(text: str) -> None:
    whole = vscode_chat._parse_replayed(text)
    read = read_whole(vscode_chat.VSCodeChatReader(), text)
    assert read.messages == whole.messages
    assert read.header == whole.header and list(read.header) == list(whole.header)
    assert read.threads == whole.threads and read.frame == whole.frame
    assert sorted(read.diagnostics, key=repr) == sorted(whole.diagnostics, key=repr)


@pytest.mark.parametrize("case", sorted(LOGS))
def test_a_log_read_a_line_at_a_time_reads_as_it_does_replayed_whole(case):
    _alike(LOGS[case]())


@pytest.mark.parametrize("case", sorted(REREAD))
def test_a_log_that_changes_a_request_read_out_is_replayed_whole(case):
    text = REREAD[case]()
    with pytest.raises(Reread):
        read_whole(vscode_chat.VSCodeChatReader(), text)
    assert vscode_chat.parse_vscode_chat(text, ParseOptions()) == vscode_chat._parse_replayed(text)
