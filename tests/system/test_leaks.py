"""Hidden content never reaches a default-view response, and the debug view is the uploader's to share.

Every dialect gets a transcript with a unique canary in each hidden place (system, developer, analysis or
reasoning, commentary that is not a preamble, tool-call arguments, tool replies) and known text in each shown
one. The default view is then fetched in every way a browser or a tool can (full page, htmx fragment, history
restore, deep links to every message, every window in both directions, the JSON twin, the Markdown and HTML
exports, error pages); no byte of any canary may appear in any of them, headers included. An agent's call shows
its main argument cut to its first line, as the agent's screen did (viewer/policy/screens): its canary stands in the
rest of the call. A dataset's exports,
and each of its conversations', are checked the same way; every sample's pasted images are served to a
default-view reader only where a message the default view shows holds them. (The browser's side, htmx's history
cache, is checked in Chromium by tests/system/hostile/test_browser.py.)
"""
from __future__ import annotations

import json
import re
from typing import Iterator

import pytest
from bs4 import BeautifulSoup
from flask import Flask
from flask.testing import FlaskClient

from tests.system.agent_session_canaries import SESSION_BUILDERS
from tests.system.cline_pi_aider_kimi_canaries import AGENT_BUILDERS
from tests.system.export_canaries import EXPORT_BUILDERS
from tests.conftest import ROOT, SAMPLES
from tests.system.framework_canaries import JSON_SHAPES, TEXT_SHAPES
from tests.system.store_canaries import STORE_BUILDERS
from tests.system.trajectory_canaries import TRAJECTORY_BUILDERS
from viewer.formats import NAMES, Members, dialect
from viewer.web import create_app

DIALECTS = NAMES
"""Every dialect the parser can read: a new importer fails `test_every_importer_has_a_canary_transcript` until
it gets a canary transcript in `BUILDERS`."""
WINDOW_SIZE = 2
SHOWN = ("SHOWN-QUESTION", "SHOWN-ANSWER", "SHOWN-FOLLOWUP")


def canary(dialect: str, place: str) -> str:
    return f"CANARY-{dialect}-{place}-Q7"


def _harmony_body(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731
    header = "---\nversion: 2.2\nmodel: gpt-oss\n---\n" if dialect == "openchatml" else ""
    # Raw Harmony shows recipient-less commentary as a preamble, so its hidden commentary carries an intent.
    commentary = "" if dialect == "openchatml" else " intent=status"
    return header + (
        f"<|start|>system<|message|>{c('system')}<|end|>"
        f"<|start|>developer<|message|># Instructions\n{c('developer')}<|end|>"
        f"<|start|>user<|message|>{SHOWN[0]}<|end|>"
        f"<|start|>assistant<|channel|>analysis<|message|>{c('analysis')}<|end|>"
        f"<|start|>assistant<|channel|>commentary{commentary}<|message|>{c('commentary')}<|end|>"
        f"<|start|>assistant to=functions.lookup call_id=k1<|channel|>commentary<|constrain|>json<|message|>"
        f"{{\"q\": \"{c('arguments')}\"}}<|call|>"
        f"<|start|>functions.lookup call_id=k1 to=assistant<|channel|>commentary<|message|>"
        f"{{\"r\": \"{c('reply')}\"}}<|end|>"
        f"<|start|>assistant<|channel|>analysis<|message|>{c('analysis2')}<|end|>"
        f"<|start|>assistant<|channel|>final<|message|>{SHOWN[1]}<|return|>"
        f"<|start|>user<|message|>{SHOWN[2]}<|end|>"
        f"<|start|>assistant<|channel|>commentary to=functions.lookup json<|message|>{c('arguments2')}<|call|>"
        f"<|start|>functions.lookup to=assistant<|channel|>commentary<|message|>{c('reply2')}<|end|>")


def _chatml_body(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731
    call = json.dumps({"arguments": {"q": c("arguments")}, "name": "lookup"})
    output = json.dumps({"name": "lookup", "content": c("reply")})
    return (
        f"<|im_start|>system\n{c('system')}<|im_end|>\n"
        f"<|im_start|>user\n{SHOWN[0]}<|im_end|>\n"
        f"<|im_start|>assistant\n<|start_reason|>{c('analysis')}<|end_reason|>\n"
        f"<|function_call|>\n{call}\n<|im_end|>\n"
        f"<|im_start|>tool\n<|function_output|>\n{output}\n<|im_end|>\n"
        f"<|im_start|>assistant\n<|start_reflect|>{c('reflect')}<|end_reflect|>\n{SHOWN[1]}<|im_end|>\n"
        f"<|im_start|>user\n{SHOWN[2]}<|im_end|>\n")


def _json_body(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731
    messages = [
        {"role": "system", "content": c("system")},
        {"role": "developer", "content": c("developer")},
        {"role": "user", "content": SHOWN[0]},
        {"role": "assistant", "channel": "analysis", "content": c("analysis")},
        {"role": "assistant", "channel": "commentary", "content": c("commentary")},
        {"role": "assistant", "reasoning_content": c("reasoning"), "content": None, "tool_calls": [
            {"id": "k1", "type": "function", "function": {"name": "lookup",
                                                          "arguments": json.dumps({"q": c("arguments")})}}]},
        {"role": "tool", "tool_call_id": "k1", "content": c("reply")},
        {"role": "assistant", "channel": "commentary", "thinking": c("thinking"),
         "tool_call": {"id": "k2", "recipient": "functions.lookup", "content_type": "json",
                       "arguments": json.dumps({"q": c("arguments2")})}},
        {"role": "tool", "name": "functions.lookup", "call_id": "k2", "channel": "commentary",
         "content": c("reply2")},
        {"role": "assistant", "channel": "final", "content": SHOWN[1]},
        {"role": "user", "content": SHOWN[2]},
    ]
    return json.dumps({"model": "m", "messages": messages}, indent=1)


def _events_body(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731
    events = [
        {"type": "response.created"},
        {"type": "response.reasoning_text.delta", "delta": c("analysis")},
        {"type": "response.reasoning_text.done"},
        {"type": "response.reasoning_summary_text.delta", "delta": c("summary")},
        {"type": "response.reasoning_summary_text.done"},
        {"type": "response.function_call_arguments.delta", "call_id": "k1", "name": "lookup",
         "delta": json.dumps({"q": c("arguments")})},
        {"type": "response.function_call_arguments.done", "call_id": "k1"},
        {"type": "response.done"},
        {"type": "tool.result", "call_id": "k1", "name": "lookup", "output": {"r": c("reply")}},
        {"type": "response.delta", "delta": SHOWN[0]},
        {"type": "response.output_text.done"},
        {"type": "response.done"},
        {"type": "response.reasoning_text.delta", "delta": c("analysis2")},
        {"type": "response.reasoning_text.done"},
        {"type": "response.delta", "delta": SHOWN[1]},
        {"type": "response.done"},
        {"type": "response.delta", "delta": SHOWN[2]},
        {"type": "response.done"},
    ]
    return "\n".join(json.dumps(event) for event in events) + "\n"


def _llama3_body(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731
    header = lambda role: f"<|start_header_id|>{role}<|end_header_id|>\n\n"  # noqa: E731
    tool = {"type": "function", "function": {"name": "lookup", "description": c("definitions"),
                                             "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}}
    return (
        f"<|begin_of_text|>{header('system')}Environment: ipython\n\n{c('system')}<|eot_id|>"
        f"{header('user')}Given the following functions, please respond with a JSON for a function call with its "
        f"proper arguments that best answers the given prompt.\n\nRespond in the format {{\"name\": function name, "
        f"\"parameters\": dictionary of argument name and its value}}.Do not use variables.\n\n"
        f"{json.dumps(tool, indent=4)}\n\n{SHOWN[0]}<|eot_id|>"
        f"{header('assistant')}{json.dumps({'name': 'lookup', 'parameters': {'q': c('arguments')}})}<|eot_id|>"
        f"{header('ipython')}{c('reply')}<|eot_id|>"
        f"{header('assistant')}<|python_tag|>print('{c('code')}')<|eom_id|>"
        f"{header('ipython')}{c('reply2')}<|eot_id|>"
        f"{header('assistant')}{SHOWN[1]}<|eot_id|>{header('user')}{SHOWN[2]}<|eot_id|>")


def _gemma_body(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731
    turn = lambda role, body: f"<start_of_turn>{role}\n{body}<end_of_turn>\n"  # noqa: E731
    call = lambda place: (  # noqa: E731
        f"<start_function_call>call:lookup{{q:<escape>{c(place)}<escape>}}<end_function_call>")
    reply = lambda place: (  # noqa: E731
        f"<start_function_response>response:lookup{{r:<escape>{c(place)}<escape>}}<end_function_response>")
    return ("<bos>" + turn("developer", f"{c('developer')}<start_function_declaration>declaration:lookup{{description:"
                                        f"<escape>{c('definitions')}<escape>}}<end_function_declaration>")
            + turn("user", SHOWN[0]) + turn("model", call("arguments") + reply("reply") + SHOWN[1])
            + turn("user", SHOWN[2]) + turn("model", call("arguments2") + reply("reply2")))


def _mistral_body(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731
    tools = json.dumps([{"type": "function", "function": {"name": "lookup", "description": c("definitions")}}])
    return (f"<s>[SYSTEM_PROMPT]{c('system')}[/SYSTEM_PROMPT][AVAILABLE_TOOLS]{tools}[/AVAILABLE_TOOLS]"
            f"[INST]{SHOWN[0]}[/INST][THINK]{c('analysis')}[/THINK]"
            f"[TOOL_CALLS]lookup[ARGS]{json.dumps({'q': c('arguments')})}</s>"
            f"[TOOL_RESULTS]{json.dumps({'r': c('reply')})}[/TOOL_RESULTS][THINK]{c('analysis2')}[/THINK]{SHOWN[1]}</s>"
            f"[INST]{SHOWN[2]}[/INST]")


def _deepseek_body(dialect: str) -> str:
    from viewer.parse.templates.deepseek import (ASSISTANT, BOS, CALL_BEGIN, CALL_END, CALLS_BEGIN, CALLS_END, EOS,
                                                 OUTPUT_BEGIN, OUTPUT_END, OUTPUTS_BEGIN, OUTPUTS_END, SEPARATOR, USER)
    c = lambda place: canary(dialect, place)  # noqa: E731
    call = f"{CALLS_BEGIN}{CALL_BEGIN}lookup{SEPARATOR}{json.dumps({'q': c('arguments')})}{CALL_END}{CALLS_END}"
    return (f"{BOS}{c('system')}{USER}{SHOWN[0]}{ASSISTANT}<think>\n{c('analysis')}\n</think>\n\n{call}{EOS}"
            f"{OUTPUTS_BEGIN}{OUTPUT_BEGIN}{c('reply')}{OUTPUT_END}{OUTPUTS_END}"
            f"<think>{c('analysis2')}</think>{SHOWN[1]}{EOS}{USER}{SHOWN[2]}{ASSISTANT}<think>\n")


def _phi_body(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731
    tools = json.dumps([{"name": "lookup", "description": c("definitions"), "parameters": {}}])
    call = json.dumps([{"name": "lookup", "arguments": {"q": c("arguments")}}])
    return (f"<|system|>{c('system')}<|tool|>{tools}<|/tool|><|end|><|user|>{SHOWN[0]}<|end|>"
            f"<|assistant|><think>{c('analysis')}</think><|tool_call|>{call}<|/tool_call|><|end|>"
            f"<|tool|>{c('reply')}<|end|><|assistant|>{SHOWN[1]}<|end|><|user|>{SHOWN[2]}<|end|>")


def _claude_code_body(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731
    base = {"isSidechain": False, "userType": "external", "cwd": "/w", "sessionId": "s1", "version": "1.0.98"}

    def line(uuid, parent, kind, message=None, **extra):
        made = {**base, "parentUuid": parent, "type": kind, "uuid": uuid, "timestamp": "2025-09-14T09:00:00Z",
                **extra}
        if message is not None:
            made["message"] = message
        return made

    def said(mid, *blocks, **extra):
        return {"id": mid, "type": "message", "role": "assistant", "model": "m", "content": list(blocks),
                "usage": {"input_tokens": 1, "output_tokens": 1}, **extra}

    def use(id, name, **arguments):
        return {"type": "tool_use", "id": id, "name": name, "input": arguments}

    def result(id, text):
        return {"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": text}]}

    lines = [
        {"type": "summary", "summary": c("summary"), "leafUuid": "a4"},
        line("u0", None, "user", {"role": "user", "content": c("caveat")}, isMeta=True),
        line("u1", "u0", "user", {"role": "user", "content": SHOWN[0]}),
        line("a1", "u1", "assistant", said("m1", {"type": "thinking", "thinking": c("analysis"),
                                                  "signature": "c2lnbmF0dXJl"})),
        line("a2", "a1", "assistant", said("m1", use("k1", "Task", prompt=c("arguments")))),
        {**line("s1", None, "user", {"role": "user", "content": c("arguments")}), "isSidechain": True},
        {**line("s2", "s1", "assistant", said("m2", {"type": "text", "text": c("subagent")})), "isSidechain": True},
        line("u2", "a2", "user", result("k1", c("reply"))),
        # A branch the user rewound: shown while it was the last message (a live upload's prefix), so it holds no
        # canary; tests/parse/agents/test_claude_code.py checks it is hidden once the session went another way.
        line("a3", "u2", "assistant", said("m3", {"type": "text", "text": "LEFT-BRANCH"})),
        line("u3", "a3", "user", {"role": "user", "content": "REWOUND-QUESTION"}),
        line("a4", "u2", "assistant", said("m4", {"type": "text", "text": SHOWN[1]})),
        line("y1", "a4", "system", content=c("system"), subtype="compact_boundary"),
        line("u4", "y1", "user", {"role": "user", "content": c("compacted")}, isCompactSummary=True),
        line("u5", "u4", "user", {"role": "user", "content": f"<local-command-stdout>{c('stdout')}"
                                                              "</local-command-stdout>"}),
        line("a5", "u5", "assistant", said("m5", {"type": "redacted_thinking", "data": "ZGF0YQ=="})),
        line("u6", "a5", "user", {"role": "user", "content": SHOWN[2]}),
    ]
    return "".join(json.dumps(made) + "\n" for made in lines)


def _codex_body(dialect: str) -> str:
    c = lambda place: canary(dialect, place)  # noqa: E731

    def line(kind, payload):
        return {"timestamp": "2025-10-02T14:00:00Z", "type": kind, "payload": payload}

    def said(role, text, part="input_text", **extra):
        return line("response_item", {"type": "message", "role": role, "content": [{"type": part, "text": text}],
                                      **extra})

    lines = [
        line("session_meta", {"id": "s1", "cwd": "/w", "cli_version": "0.46.0", "instructions": c("system")}),
        said("developer", f"<permissions instructions>{c('developer')}</permissions instructions>"),
        said("user", f"<environment_context>{c('environment')}</environment_context>"),
        said("user", f"<user_instructions>{c('instructions')}</user_instructions>"),
        said("user", SHOWN[0]),
        line("event_msg", {"type": "user_message", "message": SHOWN[0]}),
        line("turn_context", {"cwd": "/w", "model": "gpt-5-codex"}),
        line("response_item", {"type": "reasoning", "summary": [{"type": "summary_text", "text": c("summary")}],
                               "encrypted_content": "Z0FBQUFB"}),
        line("event_msg", {"type": "agent_reasoning", "text": c("summary")}),
        line("response_item", {"type": "function_call", "name": "shell", "call_id": "k1",
                               "arguments": json.dumps({"command": ["bash", "-lc", f"ls\n{c('arguments')}"]})}),
        line("response_item", {"type": "function_call_output", "call_id": "k1", "output": c("reply")}),
        line("response_item", {"type": "custom_tool_call", "name": "apply_patch", "call_id": "k2",
                               "input": c("patch")}),
        line("response_item", {"type": "custom_tool_call_output", "call_id": "k2", "output": c("patched")}),
        said("assistant", SHOWN[1], "output_text", phase="final_answer"),
        line("compacted", {"message": c("compacted")}),
        said("user", SHOWN[2]),
    ]
    return "".join(json.dumps(made) + "\n" for made in lines)


BUILDERS = {"harmony": _harmony_body, "openchatml": _harmony_body, "chatml": _chatml_body, "json": _json_body,
            "events": _events_body, "llama3": _llama3_body, "gemma": _gemma_body, "mistral": _mistral_body,
            "deepseek": _deepseek_body, "phi": _phi_body, "claude-code": _claude_code_body,
            "codex": _codex_body}
BUILDERS.update(EXPORT_BUILDERS)
BUILDERS.update(SESSION_BUILDERS)
BUILDERS.update(AGENT_BUILDERS)
BUILDERS.update(STORE_BUILDERS)
BUILDERS.update(TRAJECTORY_BUILDERS)
BUILDERS.update(JSON_SHAPES)
CASES = (*DIALECTS, *JSON_SHAPES)
"""Every dialect, and the JSON shapes of frameworks and evaluation tools (tests/system/framework_canaries.py),
each read by its own module of the JSON importer."""


def test_every_importer_has_a_canary_transcript():
    assert set(BUILDERS) == set(CASES)


def transcript(dialect: str) -> bytes:
    body = BUILDERS[dialect](dialect)
    return body if isinstance(body, bytes) else body.encode()


def canaries_in(dialect: str) -> list[str]:
    body = BUILDERS[dialect](dialect)
    return re.findall(r"CANARY-[a-z0-9-]+-[a-z0-9]+-Q7", body.decode("latin-1") if isinstance(body, bytes) else body)


# ---- fixtures ----------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    database = tmp_path_factory.mktemp("leaks") / "viewer.sqlite3"
    yield create_app({"DATABASE": str(database), "SECRET_KEY": "leaks", "TESTING": True, "LIMITS": False,
                      "PRELOAD_SAMPLES": False, "WINDOW_SIZE": WINDOW_SIZE})


@pytest.fixture
def uploader(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def stranger(app: Flask) -> FlaskClient:
    return app.test_client()


def upload(client: FlaskClient, raw: bytes, **query: str) -> dict[str, str]:
    response = client.post("/api/transcripts", data=raw, query_string=query)
    assert response.status_code == 201, response.get_data(as_text=True)
    created = response.get_json()
    assert client.get(created["manage_url"]).status_code == 303  # the uploader's browser now owns it
    return created


def set_debug(client: FlaskClient, id: str, allowed: bool) -> None:
    page = BeautifulSoup(client.get(f"/t/{id}/manage").get_data(as_text=True), "html.parser")
    csrf = page.find("input", attrs={"name": "csrf"})["value"]
    action = "allow-debug" if allowed else "deny-debug"
    assert client.post(f"/t/{id}/manage", data={"csrf": csrf, "action": action}).status_code == 303


# ---- what the default view answers -------------------------------------------------------------------------

def hidden_words(client: FlaskClient, id: str) -> list[str]:
    """The words of what the default view hides (as the uploader's debug JSON gives it) that the default view
    does not show anywhere (a shown message, or the one line an agent's screen showed for a call): the canaries'
    parts, and the words around them. A word shown is no leak, and the search finds it by design."""
    hidden, shown = set(), set()
    for message in client.get(f"/t/{id}.json?view=debug").get_json()["messages"]:
        words = set(re.findall(r"[^\W_]+", str(message.get("content") or "").lower()))
        (shown if message["default_view"]["show_as"] in ("message", "preamble") else hidden).update(words)
    # The transcript's own id is no shown word: a random one starting with a hidden word would hide it.
    shown.update(re.findall(r"[^\W_]+", client.get(f"/t/{id}.json").get_data(as_text=True).replace(id, " ").lower()))
    # The search matches a word by its beginning: a hidden word that begins a shown one is found by it.
    return sorted(word for word in hidden - shown if not any(other.startswith(word) for other in shown))


def searches(dialect: str, words: list[str]) -> list[str]:
    """Queries for the default view's search: each canary, as a word and as a phrase, and each hidden word. In
    lower case (the search ignores case), so that a page repeating the query never holds "CANARY"."""
    canaries = [place.lower() for place in canaries_in(dialect)]
    return [*canaries, *(f'"{canary}"' for canary in canaries), " ".join(canaries[:2]), *words]


def default_view_responses(client: FlaskClient, id: str, queries: list[str] = ()) -> Iterator[tuple[str, object]]:
    """Every way to ask for the default view (and some ways to get an error about it), and its search for each
    of `queries`."""
    htmx = {"HX-Request": "true"}
    for query in queries:
        yield f"search {query!r}", client.get(f"/t/{id}/search", query_string={"q": query})
        yield f"search {query!r} htmx", client.get(f"/t/{id}/search", query_string={"q": query}, headers=htmx)
        yield f"search {query!r} ?view=default", client.get(f"/t/{id}/search", query_string={"q": query,
                                                                                              "view": "default"})
    yield "page", client.get(f"/t/{id}")
    yield "page ?view=default", client.get(f"/t/{id}?view=default")
    yield "fragment", client.get(f"/t/{id}", headers=htmx)
    yield "history restore", client.get(f"/t/{id}", headers={**htmx, "HX-History-Restore-Request": "true"})
    yield "json twin", client.get(f"/t/{id}.json")
    yield "json twin as html client", client.get(f"/t/{id}.json", headers={"Accept": "text/html"})
    yield "markdown export", client.get(f"/t/{id}.md")
    yield "markdown export ?view=default", client.get(f"/t/{id}.md?view=default")
    yield "html export", client.get(f"/t/{id}.html")
    yield "html export ?view=default", client.get(f"/t/{id}.html?view=default")
    count = client.get(f"/t/{id}.json").get_json()["counts"]["messages"]
    for at in range(-1, count + 2):
        yield f"deep link at={at}", client.get(f"/t/{id}?at={at}")
        yield f"deep link fragment at={at}", client.get(f"/t/{id}?at={at}", headers=htmx)
    for start in range(0, count + 2):
        for direction in ("next", "earlier"):
            url = f"/t/{id}/window?start={start}&direction={direction}"
            yield f"window {start} {direction}", client.get(url, headers=htmx)
            yield f"window {start} {direction} without htmx", client.get(url)
    for url in (f"/t/{id}?view=nonsense", f"/t/{id}?at=x", f"/t/{id}/window?direction=x",
                f"/t/{id}/window?start=x", f"/t/{id}.json?view=nonsense", f"/t/{id}/nothing",
                f"/t/{id}/search?q=", f"/t/{id}/search?q=canary&view=nonsense", f"/t/{id}/search?q=canary&offset=x",
                f"/t/{id}.md?view=nonsense", f"/t/{id}.html?view=nonsense"):
        yield f"error {url}", client.get(url)
        yield f"error {url} as json", client.get(url, headers={"Accept": "application/json"})


def assert_no_canary(dialect: str, where: str, response) -> None:
    assert response.status_code < 500, where
    text = response.get_data(as_text=True) + "\n" + "\n".join(f"{k}: {v}" for k, v in response.headers.items())
    assert "CANARY" not in text, (where, re.findall(r"CANARY-\S+?-Q7", text))


@pytest.mark.parametrize("dialect", CASES)
def test_the_canaries_are_really_in_the_transcript(uploader, dialect):
    """The debug view shows every canary, so their absence elsewhere means something."""
    id = upload(uploader, transcript(dialect))["id"]
    debug = uploader.get(f"/t/{id}.json?view=debug").get_data(as_text=True)
    places = canaries_in(dialect)
    assert len(places) >= 5
    for place in places:
        assert place in debug, place
    page = uploader.get(f"/t/{id}?view=debug").get_data(as_text=True)
    page += "".join(uploader.get(f"/t/{id}?view=debug&at={at}").get_data(as_text=True) for at in range(0, 20, 2))
    assert all(place in page for place in places)


@pytest.mark.parametrize("dialect", CASES)
def test_no_default_view_response_holds_hidden_content(uploader, stranger, dialect):
    id = upload(uploader, transcript(dialect))["id"]
    queries = searches(dialect, hidden_words(uploader, id))
    for who, client in (("stranger", stranger), ("uploader", uploader)):
        shown = ""
        for where, response in default_view_responses(client, id, queries):
            assert_no_canary(dialect, f"{who}: {where}", response)
            shown += response.get_data(as_text=True)
        for text in SHOWN:
            assert text in shown, (who, text)  # the walk did reach the shown messages


@pytest.mark.parametrize("dialect", CASES)
def test_the_default_views_search_finds_and_counts_no_hidden_text(uploader, stranger, dialect):
    id = upload(uploader, transcript(dialect))["id"]
    words = hidden_words(uploader, id)
    assert {"canary", "q7"} <= set(words)
    for query in searches(dialect, words):
        for client in (stranger, uploader):
            page = BeautifulSoup(client.get(f"/t/{id}/search", query_string={"q": query}).get_data(as_text=True),
                                 "html.parser")
            assert page.select_one("[data-total]")["data-total"] == "0", query
            assert not page.select(".search-hit"), query
    found = BeautifulSoup(stranger.get(f"/t/{id}/search?q=shown").get_data(as_text=True), "html.parser")
    assert found.select_one("[data-total]")["data-total"] == str(len(SHOWN))  # the search itself works


@pytest.mark.parametrize("dialect", CASES)
def test_title_and_meta_tags_hold_no_hidden_content(stranger, uploader, dialect):
    id = upload(uploader, transcript(dialect))["id"]
    page = BeautifulSoup(stranger.get(f"/t/{id}").get_data(as_text=True), "html.parser")
    assert "CANARY" not in page.title.get_text()
    for meta in page.find_all("meta"):
        assert "CANARY" not in " ".join(str(value) for value in meta.attrs.values())


@pytest.mark.parametrize("dialect", CASES)
def test_link_holders_get_no_debug_view_until_the_uploader_allows_it(uploader, stranger, dialect):
    id = upload(uploader, transcript(dialect))["id"]
    refused = [f"/t/{id}?view=debug", f"/t/{id}.json?view=debug", f"/t/{id}/raw",
               f"/t/{id}/window?start=0&view=debug", f"/t/{id}/search?q=canary&view=debug",
               f"/t/{id}.md?view=debug", f"/t/{id}.html?view=debug"]
    for url in refused:
        for headers in ({}, {"HX-Request": "true"}):
            response = stranger.get(url, headers=headers)
            assert response.status_code == 403, url
            assert_no_canary(dialect, f"refused {url}", response)

    set_debug(uploader, id, True)
    for url in refused:
        response = stranger.get(url, headers={"HX-Request": "true"})
        assert response.status_code == 200, url
    assert canaries_in(dialect)[0] in stranger.get(f"/t/{id}.json?view=debug").get_data(as_text=True)
    assert canaries_in(dialect)[0] in stranger.get(f"/t/{id}?view=debug").get_data(as_text=True)

    set_debug(uploader, id, False)
    assert stranger.get(f"/t/{id}?view=debug").status_code == 403


def test_debug_allowed_at_upload_is_open_to_link_holders(uploader, stranger):
    id = upload(uploader, transcript("harmony"), debug="allow")["id"]
    assert stranger.get(f"/t/{id}?view=debug").status_code == 200
    assert stranger.get(f"/t/{id}.json?view=debug").status_code == 200


def test_a_stranger_cannot_allow_the_debug_view(uploader, stranger):
    id = upload(uploader, transcript("harmony"))["id"]
    assert stranger.post(f"/t/{id}/manage", data={"action": "allow-debug", "csrf": "x"}).status_code == 403
    assert stranger.get(f"/t/{id}/manage").status_code == 403
    assert stranger.get(f"/t/{id}?view=debug").status_code == 403


def test_no_export_of_a_dataset_or_of_its_conversations_holds_hidden_content(uploader, stranger):
    """A dataset's exports hold every conversation (the Markdown and HTML files) or one (a conversation's own):
    the default view's hold no canary, and the debug view's are refused to link holders."""
    line = json.dumps(json.loads(transcript("json"))) + "\n"
    id = upload(uploader, (line * 3).encode())["id"]
    exports = [f"/t/{id}{suffix}" for suffix in (".md", ".html", ".json")]
    exports += [f"/t/{id}/c/{k}{suffix}" for k in range(3) for suffix in ("", ".md", ".html", ".json")]
    for who, client in (("stranger", stranger), ("uploader", uploader)):
        for url in exports:
            response = client.get(url)
            assert response.status_code == 200, url
            assert_no_canary("json", f"{who}: {url}", response)
        assert all(text in client.get(f"/t/{id}.md").get_data(as_text=True) for text in SHOWN)
    for url in (f"/t/{id}.md?view=debug", f"/t/{id}.html?view=debug", f"/t/{id}/c/1.md?view=debug",
                f"/t/{id}/c/1.html?view=debug"):
        response = stranger.get(url)
        assert response.status_code == 403, url
        assert_no_canary("json", f"refused {url}", response)
    assert canaries_in("json")[0] in uploader.get(f"/t/{id}/c/1.md?view=debug").get_data(as_text=True)


# ---- caching ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["", "?view=debug", ".json", ".json?view=debug", "/window?start=0",
                                  "/window?start=0&view=debug", "/raw", "/search?q=canary",
                                  "/search?q=canary&view=debug", ".md", ".md?view=debug", ".html",
                                  ".html?view=debug"])
@pytest.mark.parametrize("hx", [False, True], ids=["plain", "htmx"])
def test_transcript_responses_are_not_stored_by_caches(uploader, path, hx):
    id = upload(uploader, transcript("harmony"))["id"]
    headers = {"HX-Request": "true"} if hx else {}
    response = uploader.get(f"/t/{id}{path}", headers=headers)
    if response.status_code == 303:  # a window without htmx redirects to the page: that page is tested
        return
    assert response.status_code == 200
    assert "no-store" in response.headers.get("Cache-Control", ""), (path, response.headers.get("Cache-Control"))


LIVE_CASES = (*(name for name in DIALECTS if not all(isinstance(way, Members) for way in dialect(name).detection)),
              *TEXT_SHAPES)
"""What a live upload can be: text appended as it is written (a database or an archive of files cannot)."""


@pytest.mark.parametrize("dialect", LIVE_CASES)
def test_no_default_view_of_a_live_transcript_holds_hidden_content(uploader, stranger, dialect, monkeypatch):
    """A transcript appended in pieces, cut anywhere (inside a hidden message too): after each append, the
    default view's page, its live region's event stream and its JSON hold no canary."""
    from viewer.web.views import live as live_view
    monkeypatch.setattr(live_view, "STREAM_SECONDS", 0.05)
    raw = transcript(dialect)
    created = uploader.post("/api/transcripts", data=b"", query_string={"live": "1"}).get_json()
    id, key = created["id"], created["manage_url"].rsplit("key=", 1)[1]
    assert uploader.get(created["manage_url"]).status_code == 303  # the uploader's browser now owns it
    step = max(len(raw) // 12, 1)
    for at in range(0, len(raw), step):
        answer = uploader.post(f"/api/transcripts/{id}/append", data=raw[at:at + step], query_string={"key": key})
        assert answer.status_code == 200, answer.get_data(as_text=True)
        for where, response in (("page", stranger.get(f"/t/{id}")), ("events", stranger.get(f"/t/{id}/events")),
                                ("json", stranger.get(f"/t/{id}.json")),
                                ("fragment", stranger.get(f"/t/{id}", headers={"HX-Request": "true"}))):
            assert_no_canary(dialect, f"live after {at + step} bytes: {where}", response)
    assert uploader.get(f"/t/{id}.json?view=debug").get_json()["counts"] == \
        uploader.get(f"/t/{upload(uploader, raw)['id']}.json?view=debug").get_json()["counts"]


IMAGE_SAMPLES = sorted(path for path in SAMPLES.iterdir()
                       if '"media"' in (ROOT / "tests" / "golden" / f"{path.name}.json").read_text(encoding="utf-8"))
"""Every sample whose parse holds pasted images."""


@pytest.mark.parametrize("sample", IMAGE_SAMPLES, ids=[path.name for path in IMAGE_SAMPLES])
def test_no_hidden_message_s_image_is_served_to_the_default_view(uploader, stranger, sample):
    id = upload(uploader, sample.read_bytes())["id"]
    messages = uploader.get(f"/t/{id}.json?view=debug").get_json()["messages"]
    held = [(media, message["default_view"]["show_as"] in ("message", "preamble"))
            for message in messages for media in message.get("media", []) if "refused" not in media]
    refused = [media for message in messages for media in message.get("media", []) if "refused" in media]
    shown = {media["sha256"] for media, visible in held if visible}
    assert held or refused
    for media, _ in held:
        url = f"/t/{id}/media/{media['sha256']}"
        assert uploader.get(f"{url}?view=debug").status_code == 200
        for size in ("", "?size=thumb"):  # an image a shown message also holds is served; no other is
            assert stranger.get(url + size).status_code == (200 if media["sha256"] in shown else 404)
    for media in refused:
        assert uploader.get(f"/t/{id}/media/{media['sha256']}?view=debug").status_code == 404


@pytest.mark.parametrize("dialect", (*DIALECTS, *TEXT_SHAPES))
def test_no_default_view_of_an_upload_being_processed_holds_hidden_content(tmp_path, dialect, monkeypatch):
    """An upload answered before it is processed (viewer/ingest/processor.py), held between its first rows and the
    rest: its page, fragment, deep links, windows, progress stream, twin, exports and search hold no canary."""
    import threading

    from viewer.web.views import processing as progress_view
    monkeypatch.setattr(progress_view, "STREAM_SECONDS", 0.05)
    app = create_app({"DATABASE": str(tmp_path / "viewer.sqlite3"), "SECRET_KEY": "leaks", "TESTING": True,
                      "PRELOAD_SAMPLES": False, "WINDOW_SIZE": 1, "DEFER_UPLOAD_BYTES": 1, "LIMITS": False})
    store, stranger = app.extensions["viewer.store"], app.test_client()
    first_rows_stored, rest, finish = threading.Event(), threading.Event(), store.processing.finish

    def held(*args, **kwargs):
        first_rows_stored.set()
        assert rest.wait(60)
        return finish(*args, **kwargs)
    monkeypatch.setattr(store.processing, "finish", held)
    response = stranger.post("/api/transcripts", data=transcript(dialect))
    assert response.status_code == 202
    id, htmx = response.get_json()["id"], {"HX-Request": "true"}
    try:
        assert first_rows_stored.wait(60)
        count = store.get(id).message_count
        urls = [*(f"/t/{id}?at={at}" for at in range(-1, count + 2)),
                *(f"/t/{id}/window?start={start}" for start in range(0, count + 2)),
                *(f"/t/{id}{route}" for route in ("", "/progress", ".json", ".md", ".html", "/raw", "/search?q=canary"))]
        for url in urls:
            for headers in ({}, htmx):  # each answer read whole before the next (the progress stream is one)
                assert_no_canary(dialect, f"processing: {url} {headers}", stranger.get(url, headers=headers))
    finally:
        rest.set()
    assert app.extensions["viewer.processor"].idle(60)
    store.engine.dispose()
