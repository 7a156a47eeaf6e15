"""Batch files: one request or one result per line, each a conversation of its own (a dataset), its `custom_id`
in the conversation's header (the dataset's index shows it).

- OpenAI Batch input: `{"custom_id", "method", "url", "body": <a Chat Completions or Responses request>}`.
- OpenAI Batch output: `{"id", "custom_id", "response": {"status_code", "request_id", "body": <the response>},
  "error"}`; an error, or a status of 400 or more, is W-API-ERROR.
- Anthropic Message Batches: requests `{"custom_id", "params": <a Messages request>}`, results `{"custom_id",
  "result": {"type": "succeeded", "message": <a Messages response>}}` (`errored`, `canceled`, `expired`:
  W-API-ERROR).

The request or response inside is read as any JSON conversation, by the reader the caller gives.
"""
from __future__ import annotations

from viewer.model import make_diagnostic
from viewer.parse.common import shown_json
from viewer.parse.json.positions import Node
from viewer.parse.json.record_helpers import envelope, member
from viewer.parse.json.unpacked import InnerReader, Unpacked

INNER = ("body", "params", "response", "result")
"""The member of a batch line that holds its request or its result."""


def is_record(value: dict) -> bool:
    return isinstance(value.get("custom_id"), str) and any(isinstance(value.get(key), dict) for key in INNER) or (
        "custom_id" in value and value.get("error") is not None)


def in_datasets(value: dict) -> bool:
    return is_record(value)


def reading(node: Node, text: str, read_inner: InnerReader) -> Unpacked:
    outer = envelope(node, *INNER, "error")
    inner, wrapper = _inner(node, text)
    found = read_inner(inner, text) if inner is not None else Unpacked([])
    found.envelope.update(outer)
    if wrapper is not None:
        found.envelope.update(envelope(wrapper, "body", "message", "error", "type"))
    _errors(node, wrapper, found)
    return found


def _inner(node: Node, text: str) -> tuple[Node | None, Node | None]:
    """The conversation a line holds, and the result wrapper around it (OpenAI's `response`, Anthropic's
    `result`) when there is one."""
    for key in ("body", "params"):
        found = member(text, node, key)
        if found is not None and isinstance(found.value, dict):
            return found, None
    for key, inner in (("response", "body"), ("result", "message")):
        wrapper = member(text, node, key, 1)
        if wrapper is not None and isinstance(wrapper.value, dict):
            found = member(text, wrapper, inner, 3)  # a response's choices with their members: read once
            answered = found is not None and isinstance(found.value, dict) and not failed(wrapper.value)
            return (found if answered else None), wrapper
    return None, None


def _errors(node: Node, wrapper: Node | None, found: Unpacked) -> None:
    """W-API-ERROR for a line's `error`, a failed status, or an Anthropic result that did not succeed."""
    problems = []
    error = node.members.get("error")
    if error is not None and error.node.value is not None:
        problems.append((error.span, error.node.value))
    if wrapper is not None and failed(wrapper.value):
        body = wrapper.value.get("body")
        detail = wrapper.value.get("error") or (body.get("error") if isinstance(body, dict) else None)
        problems.append((wrapper.span, detail or wrapper.value.get("type") or wrapper.value.get("status_code")))
    for span, detail in problems:  # the API's own words, cut short
        found.notes.append(make_diagnostic("W-API-ERROR", span, f"The API answered with an error: "
                                                                f"{shown_json(detail)[:300]}"))

def failed(wrapper: dict) -> bool:
    """Whether a result wrapper says the request failed: an HTTP status of 400 or more (its body is then the
    error), or an Anthropic result that did not succeed."""
    status, kind = wrapper.get("status_code"), wrapper.get("type")
    return isinstance(status, int) and status >= 400 or isinstance(kind, str) and kind != "succeeded"
