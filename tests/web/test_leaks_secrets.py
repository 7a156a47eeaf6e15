"""A secret found in an upload reaches no link holder: not in any view, fragment, JSON twin, export, search
result or raw download, whatever field of whatever format it was written in. The uploader reads it in their own
debug view, and link holders of the debug view read it once the uploader unmasks it.

Every canary of tests/secrets/canaries.py (one per kind the scanner knows, several for kinds of several
shapes) is planted in every field a format has: bodies of every role, reasoning, tool-call arguments and
outputs, names, recipients and call ids, YAML header values and keys, JSON object keys. A secret whose shape
needs its context (`password = "…"`) is planted with it; one that is a single token is also planted where only
a token fits (a recipient, a call id, a name, a key).
"""
from __future__ import annotations

import html
import json
import random
import re
from typing import Callable, Iterator

import pytest
from bs4 import BeautifulSoup
from flask.testing import FlaskClient
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.secrets.canaries import Canary, canaries
from viewer.secrets import scan_text

CANARIES = canaries(seed=7)
TOKEN = re.compile(r"[A-Za-z0-9_.\-]+")


def token_of(canary: Canary) -> str | None:
    """The secret where only a token fits (a recipient, a call id, a name), if it is one and found alone."""
    return canary.secret if canary.free and TOKEN.fullmatch(canary.secret) else None


def openchatml(text: str, tokens: list[str], *, yaml: bool = True) -> str:
    keys = "".join(f"{json.dumps(token)}: a key\n" for token in tokens)
    header = f"---\nversion: 2.2\nmodel: gpt-oss\napi_key: {json.dumps(text)}\n{keys}---\n" if yaml else ""
    calls = "".join(
        f"<|start|>assistant to=functions.{token} call_id={token}<|channel|>commentary<|constrain|>json<|message|>"
        + json.dumps({"key": text}) + "<|call|>"
        f"<|start|>functions.{token} call_id={token} to=assistant<|channel|>commentary<|message|>{text}<|end|>"
        for token in tokens or ["lookup"])
    return header + (
        f"<|start|>system<|message|>System: {text}<|end|>"
        f"<|start|>developer<|message|># Instructions\n{text}<|end|>"
        f"<|start|>user<|message|>Please use {text}<|end|>"
        f"<|start|>assistant<|channel|>analysis<|message|>Thinking about {text}<|end|>"
        f"{calls}<|start|>assistant<|channel|>final<|message|>Done with {text}<|return|>")


def chatml(text: str, tokens: list[str]) -> str:
    calls = "\n".join(f"<tool_call>\n{json.dumps({'name': token, 'arguments': {'key': text}})}\n</tool_call>"
                      for token in tokens or ["lookup"])
    return (f"<|im_start|>system\nSystem: {text}<|im_end|>\n<|im_start|>user\nPlease use {text}<|im_end|>\n"
            f"<|im_start|>assistant\n<think>\nThinking about {text}\n</think>\n\n{calls}"
            f"<|im_end|>\n<|im_start|>user\n<tool_response>\n{text}\n</tool_response><|im_end|>\n"
            f"<|im_start|>assistant\nDone with {text}<|im_end|>\n")


def openai_chat(text: str, tokens: list[str]) -> str:
    tokens = tokens or ["call_1"]
    return json.dumps({"messages": [
        {"role": "system", "content": f"System: {text}"},
        {"role": "user", "content": f"Please use {text}", "name": tokens[0], **{token: "a key" for token in tokens}},
        {"role": "assistant", "reasoning_content": f"Thinking about {text}", "content": None, "tool_calls": [
            {"id": token, "type": "function", "function": {"name": token, "arguments": json.dumps({"key": text})}}
            for token in tokens]},
        *({"role": "tool", "tool_call_id": token, "content": text} for token in tokens),
        {"role": "assistant", "content": f"Done with {text}"}], "tools": declared_tools(text, tokens)}, indent=1)


def declared_tools(text: str, tokens: list[str]) -> list[dict]:
    """OpenAI-style tool declarations with the secrets in their names, descriptions and parameter schemas."""
    return [{"type": "function", "function": {"name": token, "description": f"Uses {text}", "parameters": {
        "type": "object", "properties": {token: {"type": "string", "description": text}}}}}
        for token in tokens or ["lookup"]]


def anthropic(text: str, tokens: list[str]) -> str:
    tokens = tokens or ["toolu_1"]
    return json.dumps({"system": f"System: {text}", "messages": [
        {"role": "user", "content": [{"type": "text", "text": f"Please use {text}"}]},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": f"Thinking about {text}", "signature": "c2ln"},
            *({"type": "tool_use", "id": token, "name": token, "input": {"key": text}} for token in tokens)]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": token, "content": text}
                                     for token in tokens]},
        {"role": "assistant", "content": [{"type": "text", "text": f"Done with {text}"}]}]})


def responses(text: str, tokens: list[str]) -> str:
    calls = [item for token in tokens or ["call_1"] for item in (
        {"type": "function_call", "id": "fc_1", "call_id": token, "name": token, "arguments": json.dumps({"key": text})},
        {"type": "function_call_output", "call_id": token, "output": text})]
    return json.dumps({"object": "response", "instructions": f"System: {text}", "input": [
        {"role": "user", "content": [{"type": "input_text", "text": f"Please use {text}"}]}], "output": [
        {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": f"Thinking about {text}"}]},
        *calls,
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": f"Done with {text}"}]}]})


def sharegpt(text: str, tokens: list[str]) -> str:
    calls = [turn for token in tokens or ["lookup"] for turn in (
        {"from": "function_call", "value": json.dumps({"name": token, "arguments": {"key": text}})},
        {"from": "observation", "value": text})]
    return json.dumps({"conversations": [
        {"from": "system", "value": f"System: {text}"}, {"from": "human", "value": f"Please use {text}"}, *calls,
        {"from": "gpt", "value": f"Done with {text}"}]})


def events(text: str, tokens: list[str]) -> str:
    calls = [line for token in tokens or ["c1"] for line in (
        {"type": "response.function_call_arguments.done", "call_id": token, "name": token,
         "arguments": json.dumps({"key": text})},
        {"type": "response.done"},
        {"type": "tool.result", "call_id": token, "name": token, "output": text})]
    lines = [{"type": "response.created", "response_id": "resp_1"},
             {"type": "response.reasoning_text.delta", "delta": f"Thinking about {text}"},
             {"type": "response.reasoning_text.done"}, *calls,
             {"type": "response.delta", "delta": f"Done with {text}"},
             {"type": "response.done"}]
    return "\n".join(json.dumps(line) for line in lines) + "\n"


def dataset(text: str, tokens: list[str]) -> str:
    """Three lines, each with its own declared tools and keys of its own beside the messages."""
    return "\n".join(json.dumps({"messages": [{"role": "user", "content": f"Please use {text} ({number})"},
                                              {"role": "assistant", "content": f"Done with {text}"}],
                                 "tools": declared_tools(text, tokens), "metadata": {"note": text, **{
                                     token: "a key" for token in tokens}}})
                     for number in range(3)) + "\n"


FORMATS: dict[str, Callable[[str, str | None], str]] = {
    "openchatml": openchatml, "harmony": lambda text, tokens: openchatml(text, tokens, yaml=False), "chatml": chatml,
    "openai-chat": openai_chat, "anthropic": anthropic, "responses": responses, "sharegpt": sharegpt,
    "events": events, "dataset": dataset}


def spellings(secret: str) -> set[str]:
    """What of a secret must not appear in a response: itself, escaped for HTML or JSON, and each line of one
    written on several lines."""
    lines = {line.strip() for line in secret.splitlines() if len(line.strip()) >= 16} if "\n" in secret else set()
    return {secret, html.escape(secret), json.dumps(secret)[1:-1], *lines}


def link_holder_answers(client: FlaskClient, stranger: FlaskClient, id: str) -> Iterator[tuple[str, str]]:
    """Every answer a link holder (allowed the debug view) gets about upload `id`: (address, body)."""
    index = client.get(f"/t/{id}.json").get_json()
    urls = [f"/t/{id}/raw", f"/compare/{id}/{id}", f"/compare/{id}/{id}?view=debug"]
    pages = [f"/t/{id}"] if "conversations" not in index else [f"/t/{id}", *(
        f"/t/{id}/c/{number}" for number in range(len(index["conversations"])))]
    for page in pages:
        for view in ("default", "debug"):
            urls += [f"{page}?view={view}", f"{page}.json?view={view}", f"{page}.md?view={view}",
                     f"{page}.html?view={view}"]
        debug = stranger.get(f"{page}.json?view=debug").get_json()
        for message in debug.get("messages", []):
            number = message["index"]
            urls += [f"{page}/messages/{number}?view=debug", f"{page}/messages/{number}?view=debug&part=source",
                     f"{page}/context/{number}"]
    for url in urls:
        yield url, stranger.get(url).get_data(as_text=True)


def leaked(secret: str, body: str) -> bool:
    return any(form in body for form in spellings(secret))


@pytest.mark.parametrize("format", FORMATS)
def test_secrets_of_every_kind_in_every_field_reach_no_link_holder(client, stranger, owned, format):
    text = "\n".join(canary.text for canary in CANARIES)
    tokens = [token for token in map(token_of, CANARIES) if token]
    id = owned(FORMATS[format](text, tokens).encode(), debug="allow")
    written = client.get(f"/t/{id}/raw").get_data(as_text=True)
    assert all(leaked(canary.secret, written) for canary in CANARIES)  # the raw bytes are kept as uploaded
    twin = f"/t/{id}/c/0.json?view=debug" if format == "dataset" else f"/t/{id}.json?view=debug"
    assert {f"[secret: {canary.kind}]" for canary in CANARIES} <= set(  # each masked, not the message dropped
        re.findall(r"\[secret: [^\]]+\]", stranger.get(twin).get_data(as_text=True)))
    for url, body in link_holder_answers(client, stranger, id):
        for canary in CANARIES:
            assert not leaked(canary.secret, body), (canary.kind, format, url)
    # The search matches words by their beginning: a part of a secret that begins a word link holders read
    # anyway ("Comment" of a key's comment line, "commentary" of a channel) is no leak when it is found.
    shown = set(re.findall(r"[a-z0-9]+", stranger.get(twin).get_data(as_text=True).lower()))
    for canary in CANARIES:
        label = f"[secret: {canary.kind}]"
        parts = [part for part in re.findall(r"[A-Za-z0-9]{6,}", canary.secret) if part.lower() not in label.lower()
                 and not any(word.startswith(part.lower()) for word in shown)]
        for query in [canary.secret, *parts[:3]]:  # nor found by search (but its placeholder is)
            page = BeautifulSoup(stranger.get(f"/t/{id}/search", query_string={"q": query, "view": "debug"})
                                 .get_data(as_text=True), "html.parser")
            assert page.select_one("[data-total]")["data-total"] == "0", (canary.kind, format, query)


@pytest.mark.parametrize("kind", ["Private key", "GitHub token"])
def test_a_secret_only_in_a_dataset_lines_own_tools_and_keys_reaches_no_link_holder(client, stranger, owned, kind):
    canary = next(c for c in CANARIES if c.kind == kind)
    plain = {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]}
    # Escaped in the file (a key's line breaks are `\n`), read back with its line breaks: only the fields of
    # the conversation hold the secret as a reader sees it, so they must be scanned, not only the file.
    own = {**plain, "tools": declared_tools(canary.secret, [f"order_{canary.secret}_status"]),
           "metadata": {canary.secret: canary.secret}}
    id = owned("\n".join(map(json.dumps, (plain, own, plain))).encode() + b"\n", debug="allow")
    created = client.get(f"/t/{id}/c/1.json?view=debug").get_json()
    assert "[secret: " in json.dumps(created)  # masked in the conversation, not dropped
    for url, body in link_holder_answers(client, stranger, id):
        assert not leaked(canary.secret, body), url
    assert leaked(canary.secret, client.get(f"/t/{id}/raw").get_data(as_text=True))  # the uploader keeps it


def test_a_key_written_with_json_escapes_is_masked_in_the_diagnostics_that_quote_part_of_it(client, stranger, owned):
    key = next(c for c in CANARIES if c.kind == "Private key").secret.replace("=", "")  # no `=`: one word the
    escaped = json.dumps(key)[1:-1]  # header quotes whole; its line breaks written `\n`, as in a JSON string
    id = owned(f"<|start|>user Here it is: {escaped}<|message|>hi<|end|>".encode(), debug="allow")
    material = [line for line in key.splitlines() if "-----" not in line]
    for url, body in link_holder_answers(client, stranger, id):
        assert not any(line in body for line in material), url
    quoted = [d["message"] for d in stranger.get(f"/t/{id}.json?view=debug").get_json()["diagnostics"]
              if d["code"] == "E-PARSE-HEADER"]
    assert any("[secret: Private key]" in message for message in quoted)  # quoted in part, masked there too


def test_a_secret_that_begins_inside_an_escape_is_masked_where_the_escape_is_written_back(client, stranger, owned):
    # `\f` is a form feed in a double-quoted YAML value: the value holds a form feed and 31 hex digits, and the
    # JSON twin writes it back as `\f…`, a Mailchimp key's shape again
    digits = random.Random(5)
    key = "f" + "".join(digits.choice("0123456789abcdef") for _ in range(31)) + "-us12"
    assert [finding.kind for finding in scan_text(key)] == ["Mailchimp API key"]
    text = f'---\nversion: 2.2\nmodel: "see \\{key} here"\n---\n<|start|>user<|message|>hi<|end|>\n'
    id = owned(text.encode(), debug="allow")
    header = stranger.get(f"/t/{id}.json?view=debug").get_json()["header"]
    assert header["model"] == "see [secret: Mailchimp API key] here"
    for url, body in link_holder_answers(client, stranger, id):
        assert key not in body and key[1:] not in body, url


@pytest.mark.parametrize("format", FORMATS)
def test_the_uploader_reads_the_secrets_in_their_debug_view_and_may_unmask_them_for_link_holders(
        client, stranger, owned, format):
    canary = next(c for c in CANARIES if c.kind == "GitHub token")
    id = owned(FORMATS[format](canary.text, [canary.secret]).encode(), debug="allow")
    debug = "/t/{}/c/0?view=debug".format(id) if format == "dataset" else f"/t/{id}?view=debug"
    assert canary.secret in client.get(debug).get_data(as_text=True)
    assert canary.secret in client.get(f"/t/{id}/raw").get_data(as_text=True)  # the bytes as uploaded
    assert not leaked(canary.secret, client.get(debug.replace("debug", "default")).get_data(as_text=True))
    assert "[secret: GitHub token]" in stranger.get(debug).get_data(as_text=True)
    manage = client.get(f"/t/{id}/manage")
    csrf = re.search(r'name="csrf" value="([^"]+)"', manage.get_data(as_text=True))[1]
    assert client.post(f"/t/{id}/manage", data={"csrf": csrf, "action": "unmask-secrets"}).status_code == 303
    assert canary.secret in stranger.get(debug).get_data(as_text=True)
    assert canary.secret in stranger.get(f"/t/{id}/raw").get_data(as_text=True)
    assert not leaked(canary.secret, stranger.get(debug.replace("debug", "default")).get_data(as_text=True))
    assert client.post(f"/t/{id}/manage", data={"csrf": csrf, "action": "mask-secrets"}).status_code == 303
    assert not leaked(canary.secret, stranger.get(debug).get_data(as_text=True))


def test_unmasking_does_not_open_the_debug_view_to_link_holders(client, stranger, owned):
    canary = CANARIES[0]
    id = owned(openchatml(canary.text, []).encode())
    csrf = re.search(r'name="csrf" value="([^"]+)"', client.get(f"/t/{id}/manage").get_data(as_text=True))[1]
    client.post(f"/t/{id}/manage", data={"csrf": csrf, "action": "unmask-secrets"})
    assert stranger.get(f"/t/{id}?view=debug").status_code == 403
    assert not leaked(canary.secret, stranger.get(f"/t/{id}").get_data(as_text=True))


def test_the_upload_answer_and_the_manage_page_say_what_was_found(client, upload):
    by_kind = {c.kind: c for c in CANARIES}
    text = f"{by_kind['GitHub token'].text} and {by_kind['AWS access key'].text} and {by_kind['Private key'].text}"
    created = upload(openchatml(text, []).encode())
    kinds = created["secrets"]["kinds"]
    assert set(kinds) == {"AWS access key", "GitHub token", "Private key"} and len(set(kinds.values())) == 1
    assert created["secrets"]["count"] == sum(kinds.values()) >= 3 * 8  # 8 places: the YAML header, 7 bodies
    client.get(created["manage_url"])
    page = client.get(f"/t/{created['id']}/manage").get_data(as_text=True)
    assert f'data-secret-count="{created["secrets"]["count"]}"' in page and "(GitHub token, gith…" in page
    assert not any(leaked(c.secret, page) for c in by_kind.values())


SHAPES = {  # random secrets of known shapes, drawn by Hypothesis
    "GitHub token": st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", min_size=36, max_size=36)
    .map(lambda body: "ghp_" + body),
    "AWS access key": st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", min_size=16, max_size=16).map(lambda body: "AKIA" + body),
    "Anthropic API key": st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", min_size=93,
                                 max_size=93).map(lambda body: f"sk-ant-api03-{body}AA"),
}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(sorted(SHAPES)), data=st.data(), format=st.sampled_from(sorted(FORMATS)),
       before=st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=20))
def test_random_secrets_of_known_shapes_reach_no_link_holder(client, stranger, owned, kind, data, format, before):
    secret = data.draw(SHAPES[kind])
    assume(scan_text(f"Here: {secret}"))  # not one the scanner rightly takes for a placeholder (AKIAAAAA…)
    id = owned(FORMATS[format](f"{before} {secret} .", [secret]).encode(), debug="allow")
    for url, body in link_holder_answers(client, stranger, id):
        assert not leaked(secret, body), (kind, format, url)


def test_a_secret_appended_to_a_live_upload_reaches_no_link_holder(client, stranger, monkeypatch):
    from viewer.web.views import live as live_view
    monkeypatch.setattr(live_view, "STREAM_SECONDS", 0.3)
    monkeypatch.setattr(live_view, "POLL_SECONDS", 0.05)
    canary = next(c for c in CANARIES if c.kind == "Private key")
    created = client.post("/api/transcripts", data=b"<|start|>user<|message|>Deploy it.<|end|>",
                          query_string={"live": "1", "debug": "allow"}).get_json()
    id, key = created["id"], created["manage_url"].split("key=")[1]
    assert client.get(created["manage_url"]).status_code == 303  # the uploader's browser
    pieces = [b"<|start|>assistant<|channel|>final<|message|>Reading the key: " + canary.secret[:40].encode(),
              canary.secret[40:].encode() + b" done.<|end|>",  # the secret split between two appends
              b"<|start|>user<|message|>Thanks, that was all.<|end|>"]
    for piece in pieces:
        assert client.post(f"/api/transcripts/{id}/append", data=piece, query_string={"key": key}).status_code == 200
        for url in (f"/t/{id}", f"/t/{id}?view=debug", f"/t/{id}.json?view=debug", f"/t/{id}/raw",
                    f"/t/{id}/events?view=debug&start=0"):
            body = stranger.get(url).get_data(as_text=True)
            assert not leaked(canary.secret, body) and canary.secret[:40] not in body, url
    assert client.post(f"/api/transcripts/{id}/finish", query_string={"key": key}).status_code == 200
    assert "[secret: Private key]" in stranger.get(f"/t/{id}?view=debug").get_data(as_text=True)
    assert canary.secret in client.get(f"/t/{id}/raw").get_data(as_text=True)
    assert not leaked(canary.secret, stranger.get(f"/t/{id}/raw").get_data(as_text=True))


def test_when_the_scan_fails_link_holders_read_nothing_of_the_upload(client, stranger, upload, monkeypatch):
    from viewer.ingest import masking

    def broken(transcript):
        raise RuntimeError("scanner bug")
    monkeypatch.setattr(masking, "scan_transcript", broken)
    canary = CANARIES[0]
    created = upload(openchatml(canary.text, []).encode(), debug="allow")
    id = created["id"]
    for url in (f"/t/{id}", f"/t/{id}?view=debug", f"/t/{id}.json?view=debug", f"/t/{id}/raw", f"/t/{id}.md"):
        answer = stranger.get(url)
        assert answer.status_code == 200 and not leaked(canary.secret, answer.get_data(as_text=True)), url
    assert "W-SCAN-FAILED" in stranger.get(f"/t/{id}?view=debug").get_data(as_text=True)
    assert client.get(created["manage_url"]).status_code == 303
    assert canary.secret in client.get(f"/t/{id}/raw").get_data(as_text=True)  # the uploader's bytes are kept


def test_a_secret_kept_in_what_a_log_recorded_beside_the_text_reaches_no_link_holder(client, stranger, owned):
    token = "ghp_" + "R8mZq2Lx7Vt4Nc9Kp3Wy6Hd1Js5Bf0Ga8Eu2"
    common = {"isSidechain": False, "userType": "external", "cwd": "/w", "sessionId": "s1", "version": "1.0.98"}
    lines = [
        {**common, "parentUuid": None, "type": "user", "uuid": "u1", "timestamp": "2025-09-14T09:00:00Z",
         "message": {"role": "user", "content": "Check the deploy script."}},
        {**common, "parentUuid": "u1", "type": "assistant", "uuid": "a1", "timestamp": "2025-09-14T09:00:01Z",
         "message": {"id": "m1", "role": "assistant", "model": "claude-sonnet-4-20250514", "content": [
             {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "cat deploy.sh"}}]}},
        # The tool's own display holds the token; the reply's text does not: the reader keeps it in details.
        {**common, "parentUuid": "a1", "type": "user", "uuid": "u2", "timestamp": "2025-09-14T09:00:02Z",
         "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]},
         "toolUseResult": {"stdout": f"export GITHUB_TOKEN={token}", "stderr": "", "interrupted": False}}]
    id = owned("\n".join(map(json.dumps, lines)).encode() + b"\n", debug="allow")
    assert token in client.get(f"/t/{id}.json?view=debug").get_data(as_text=True)  # kept, for the uploader
    for url, body in link_holder_answers(client, stranger, id):
        assert not leaked(token, body), url
