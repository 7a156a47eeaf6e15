"""A Hypothesis property per chat app's export, through the web app: conversations of any shape (a tree of
messages of every kind, branches anywhere, the app's branch ending at the last message), with a canary in every
message the default view hides: each hidden kind, and every message of a branch the app did not show. No
default-view answer of any conversation (page, fragments, deep links, windows, JSON twin, Markdown and HTML
exports, search) nor of the export (index, its exports, its search) holds a canary; a version the reader picks
(?branch=N, the app's "‹ 1/2 ›") shows that version's questions and answers, and still no hidden kind."""
from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings, strategies as st

from tests.system.test_leaks import assert_no_canary, default_view_responses, upload
from viewer.web import create_app

QUERIES = ["canary", '"canary"', "canary-q7"]
EXAMPLES = settings(max_examples=12, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
CHATGPT_KINDS = ("user", "answer", "system", "context", "memory", "thoughts", "recap", "code", "output", "bio",
                 "hidden-user", "unknown")
CLAUDE_KINDS = ("human", "answer", "thinking", "tool", "attachment", "unknown", "placeholder")
SHOWN_KINDS = ("user", "answer", "human")
# A step: its kind, and the earlier message it follows (None: the one before it), so that branches start anywhere.
STEPS = st.lists(st.tuples(st.integers(0, 11), st.one_of(st.none(), st.integers(0, 30))), min_size=1, max_size=9)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    database = tmp_path_factory.mktemp("export-leaks") / "viewer.sqlite3"
    yield create_app({"DATABASE": str(database), "SECRET_KEY": "leaks", "TESTING": True, "LIMITS": False,
                      "PRELOAD_SAMPLES": False, "WINDOW_SIZE": 2})


def _tree(steps: list[tuple[int, int | None]], kinds: tuple[str, ...]) -> tuple[list[tuple[str, int | None]], set[int]]:
    """Each message's kind and parent, and the messages on the branch that ends at the last one."""
    made: list[tuple[str, int | None]] = []
    for number, (kind, follows) in enumerate(steps):
        parent = number - 1 if follows is None or number == 0 else follows % number
        made.append((kinds[kind % len(kinds)], parent if number else None))
    path, node = set(), len(made) - 1
    while node is not None:
        path.add(node)
        node = made[node][1]
    return made, path


def _text(number: int, kind: str, path: set[int]) -> str:
    return f"SHOWN-{number}" if kind in SHOWN_KINDS and number in path else f"CANARY-{kind}-{number}-Q7"


def _chatgpt(steps) -> bytes:
    made, path = _tree(steps, CHATGPT_KINDS)
    nodes = {"root": {"id": "root", "message": None, "parent": None, "children": []}}
    for number, (kind, parent) in enumerate(made):
        text = _text(number, kind, path)
        role, content, extra = "assistant", {"content_type": "text", "parts": [text]}, {}
        if kind in ("user", "hidden-user"):
            role = "user"
        elif kind == "system":
            role = "system"
        elif kind == "context":
            role, content = "user", {"content_type": "user_editable_context", "user_profile": text}
        elif kind == "memory":
            content = {"content_type": "model_editable_context", "model_set_context": text}
        elif kind == "thoughts":
            content = {"content_type": "thoughts", "thoughts": [{"summary": text, "content": text}]}
        elif kind == "recap":
            content = {"content_type": "reasoning_recap", "content": text}
        elif kind == "code":
            content, extra = {"content_type": "code", "language": "python", "text": text}, {"recipient": "python"}
        elif kind == "output":
            role, content, extra = "tool", {"content_type": "execution_output", "text": text}, {"name": "python"}
        elif kind == "bio":
            extra = {"recipient": "bio"}
        elif kind == "unknown":
            content = {"content_type": "mystery", "parts": [text]}
        hidden = kind in ("context", "memory", "hidden-user", "system")
        message = {"id": f"m{number}", "author": {"role": role, "name": extra.get("name")}, "content": content,
                   "recipient": extra.get("recipient", "all"), "create_time": 1731400000.0 + number,
                   "metadata": {"is_visually_hidden_from_conversation": True} if hidden else {}}
        above = "root" if parent is None else f"n{parent}"
        nodes[f"n{number}"] = {"id": f"n{number}", "message": message, "parent": above, "children": []}
        nodes[above]["children"].append(f"n{number}")
    conversation = {"title": "Leaks", "create_time": 1731400000.0, "mapping": nodes,
                    "current_node": f"n{len(made) - 1}"}
    return json.dumps([conversation, conversation]).encode()


def _claude(steps) -> bytes:
    made, path = _tree(steps, CLAUDE_KINDS)
    messages = []
    for number, (kind, parent) in enumerate(made):
        text = _text(number, kind, path)
        blocks = [{"type": "text", "text": text}]
        if kind == "thinking":
            blocks = [{"type": "thinking", "thinking": text}]
        elif kind == "tool":
            blocks = [{"type": "tool_use", "id": f"t{number}", "name": "web_search", "input": {"q": text}},
                      {"type": "tool_result", "tool_use_id": f"t{number}", "content": [{"type": "text", "text": text}]}]
        elif kind == "unknown":
            blocks = [{"type": "mystery", "payload": text}]
        elif kind == "placeholder":
            blocks = []
        message = {"uuid": f"u{number}", "sender": "human" if kind in ("human", "attachment") else "assistant",
                   "text": "```\nThis block is not supported on your current device yet.\n```" if not blocks else text,
                   "content": blocks, "created_at": f"2025-03-02T09:{number:02d}:00Z",
                   "parent_message_uuid": "00000000-0000-4000-8000-000000000000" if parent is None else f"u{parent}",
                   # The attachment's text named apart from its message's: the one is hidden, the other shown.
                   "attachments": [{"file_name": "a.txt", "extracted_content": text.replace(
                       "CANARY-attachment-", "CANARY-extracted-")}] if kind == "attachment" else [],
                   "files": []}
        if kind == "attachment":
            message["content"] = [{"type": "text", "text": f"SHOWN-{number}" if number in path else text}]
        messages.append(message)
    conversation = {"uuid": "c", "name": "Leaks", "created_at": "2025-03-02T09:00:00Z", "chat_messages": messages}
    return json.dumps([conversation, conversation]).encode()


def _check(app: Flask, raw: bytes, dialect: str, count: int) -> None:
    uploader, stranger = app.test_client(), app.test_client()
    id = upload(uploader, raw, debug="allow")["id"]
    assert uploader.get(f"/t/{id}.json").get_json()["dialect"] == dialect
    debug = uploader.get(f"/t/{id}/c/0.json?view=debug").get_data(as_text=True)
    assert all(canary in debug for canary in re.findall(r"CANARY-[a-z-]+-[0-9]+-Q7", raw.decode()))  # really there
    for who, client in (("uploader", uploader), ("stranger", stranger)):
        for url in (f"/t/{id}", f"/t/{id}.json", f"/t/{id}.md", f"/t/{id}.html",
                    *(f"/t/{id}/search?q={query}" for query in QUERIES)):
            assert_no_canary(dialect, f"{who}: {url}", client.get(url))
        for k in range(2):
            for where, response in default_view_responses(client, f"{id}/c/{k}", QUERIES):
                assert_no_canary(dialect, f"{who}: #{k} {where}", response)
            for branch in range(count):  # a version the reader picks, as the app offered: no hidden message
                response = client.get(f"/t/{id}/c/{k}", query_string={"branch": branch})
                _assert_only_versions(f"{who}: #{k} branch={branch}", response)


def _assert_only_versions(where: str, response) -> None:
    """The default view of a version the reader picked shows what the app showed of it (the other versions of a
    question or an answer), never a message the default view hides on any version."""
    assert response.status_code < 500, where
    kinds = re.findall(r"CANARY-([a-z-]+)-[0-9]+-Q7", response.get_data(as_text=True))
    assert set(kinds) <= {*SHOWN_KINDS, "attachment"}, (where, kinds)  # an attachment's message: what was typed


@EXAMPLES
@given(STEPS)
def test_no_default_view_answer_of_a_chatgpt_export_holds_a_hidden_or_abandoned_message(app, steps):
    _check(app, _chatgpt(steps), "chatgpt", len(steps))


@EXAMPLES
@given(STEPS)
def test_no_default_view_answer_of_a_claude_ai_export_holds_a_hidden_or_abandoned_message(app, steps):
    _check(app, _claude(steps), "claude-ai", len(steps) + 2)
