"""Canary transcripts for the JSON shapes of frameworks and evaluation tools (test_leaks.py runs every leak test
on each): an OpenTelemetry trace, an Inspect AI sample and its .eval archive, LangChain messages, a LangGraph
state, Vercel AI SDK messages and LLaMA-Factory's v1 rows. Each has a unique canary in every place the default
view hides (system prompts, reasoning, opaque reasoning, tool arguments and replies, citations, app data, the
header) and the shown texts in the places it shows."""
from __future__ import annotations

import io
import json
import zipfile
from typing import Callable

SHOWN = ("SHOWN-QUESTION", "SHOWN-ANSWER", "SHOWN-FOLLOWUP")


def _canaries(shape: str) -> Callable[[str], str]:
    return lambda place: f"CANARY-{shape}-{place}-Q7"


def _in_source_only(shape: str, place: str) -> str:
    """A canary for what the raw source holds and the debug view shows only in its header or not at all (opaque
    data, whose size it names; a sample's metadata): test_leaks.py's list of canaries (which the debug view's
    messages must show) leaves it out, while no default-view response may hold it, as no response may hold
    "CANARY"."""
    return f"CANARY-{shape}-{place}-source-only"


def _otel_body(shape: str) -> str:
    c = _canaries(shape)

    def text(role: str, content: str) -> dict:
        return {"role": role, "parts": [{"type": "text", "content": content}]}

    call = {"role": "assistant", "parts": [{"type": "reasoning", "content": c("analysis")},
                                           {"type": "tool_call", "id": "k1", "name": "lookup",
                                            "arguments": {"q": c("arguments")}}]}
    spans = [
        {"gen_ai.operation.name": "chat", "gen_ai.system_instructions": json.dumps([{"type": "text",
                                                                                      "content": c("system")}]),
         "gen_ai.input.messages": json.dumps([text("user", SHOWN[0])]), "gen_ai.output.messages": json.dumps([call])},
        {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup", "gen_ai.tool.call.id": "k1",
         "gen_ai.tool.call.result": c("reply")},
        {"gen_ai.operation.name": "chat", "gen_ai.input.messages": json.dumps([text("user", SHOWN[0]), call]),
         "gen_ai.output.messages": json.dumps([{"role": "assistant", "parts": [
             {"type": "reasoning", "content": c("analysis2")}, {"type": "text", "content": SHOWN[1]}]}])},
        {"gen_ai.prompt.0.role": "system", "gen_ai.prompt.0.content": c("flatsystem"),
         "gen_ai.prompt.1.role": "user", "gen_ai.prompt.1.content": SHOWN[2],
         "gen_ai.completion.0.role": "assistant", "gen_ai.completion.0.tool_calls.0.id": "k2",
         "gen_ai.completion.0.tool_calls.0.name": "lookup",
         "gen_ai.completion.0.tool_calls.0.arguments": json.dumps({"q": c("arguments2")})},
    ]
    otlp = [{"traceId": "ab" * 16, "spanId": f"{at:016x}", "name": "span", "startTimeUnixNano": str(1000 + at),
             "attributes": [{"key": key, "value": {"stringValue": value}} for key, value in attributes.items()]}
            for at, attributes in enumerate(spans)]
    return json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": otlp}]}]}, indent=1)


def _inspect_sample(shape: str) -> dict:
    c = _canaries(shape)
    return {"id": 1, "epoch": 1, "input": SHOWN[0], "target": "SHOWN-TARGET", "messages": [
        {"role": "system", "content": c("system")},
        {"role": "user", "content": SHOWN[0], "source": "input"},
        {"role": "assistant", "source": "generate", "content": [
            {"type": "reasoning", "reasoning": c("analysis"), "signature": _in_source_only(shape, "signature")},
            {"type": "reasoning", "reasoning": _in_source_only(shape, "redacted"), "redacted": True}],
         "tool_calls": [{"id": "k1", "function": "lookup", "arguments": {"q": c("arguments")}, "type": "function"}]},
        {"role": "tool", "tool_call_id": "k1", "function": "lookup", "content": c("reply")},
        {"role": "assistant", "source": "generate", "content": [{"type": "text", "text": SHOWN[1]}]},
        {"role": "user", "content": SHOWN[2]},
        {"role": "assistant", "content": [{"type": "data", "data": {"x": c("data")}}],
         "tool_calls": [{"id": "k2", "function": "lookup", "arguments": {"q": c("arguments2")}}]},
        {"role": "tool", "tool_call_id": "k2", "content": "", "error": {"type": "unknown", "message": c("error")}}],
        "scores": {"match": {"value": "C", "answer": SHOWN[1], "explanation": _in_source_only(shape, "explanation")}},
        "metadata": {"note": _in_source_only(shape, "metadata")}}


def _inspect_body(shape: str) -> str:
    return json.dumps(_inspect_sample(shape), indent=1)


def _eval_body(shape: str) -> bytes:
    """The .eval archive, its members stored uncompressed so that the canaries can be found in its bytes."""
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("header.json", json.dumps({"version": 2, "status": "success", "eval": {"task": "t"}}))
        archive.writestr("samples/1_epoch_1.json", json.dumps(_inspect_sample(shape)))
    return data.getvalue()


def _langchain_body(shape: str) -> str:
    c = _canaries(shape)

    def lc(name: str, **kwargs: object) -> dict:
        return {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", name], "kwargs": kwargs}

    messages = [
        {"type": "system", "data": {"content": c("system"), "type": "system"}},
        lc("HumanMessage", content=SHOWN[0], type="human"),
        {"type": "ai", "data": {"content": "", "type": "ai", "additional_kwargs": {"reasoning_content": c("reasoning")},
                                "tool_calls": [{"name": "lookup", "args": {"q": c("arguments")}, "id": "k1"}]}},
        lc("ToolMessage", content=c("reply"), tool_call_id="k1", type="tool"),
        lc("AIMessage", type="ai", content=[
            {"type": "thinking", "thinking": c("thinking"), "signature": _in_source_only(shape, "sig")},
            {"type": "text", "text": SHOWN[1]}]),
        {"type": "human", "content": SHOWN[2]},
        {"type": "ai", "content": [{"type": "reasoning", "reasoning": c("analysis")}],
         "invalid_tool_calls": [{"name": "lookup", "args": c("arguments2"), "id": "k2", "error": "bad"}]},
    ]
    return json.dumps(messages, indent=1)


def _langgraph_body(shape: str) -> str:
    c = _canaries(shape)
    messages = [
        {"type": "system", "content": c("system")},
        {"type": "human", "content": SHOWN[0]},
        {"type": "ai", "content": "", "additional_kwargs": {"reasoning": {"type": "reasoning", "summary": [
            {"type": "summary_text", "text": c("summary")}]}},
         "tool_calls": [{"name": "lookup", "args": {"q": c("arguments")}, "id": "k1"}]},
        {"type": "tool", "content": c("reply"), "tool_call_id": "k1", "status": "error"},
        {"type": "ai", "content": SHOWN[1]},
        {"type": "human", "content": SHOWN[2]},
        {"type": "ai", "content": "", "additional_kwargs": {"reasoning_content": c("reasoning")},
         "tool_calls": [{"name": "lookup", "args": {"q": c("arguments2")}, "id": "k2"}]},
    ]
    return json.dumps({"values": {"messages": messages, "notes": _in_source_only(shape, "values")}, "next": [],
                       "metadata": {"step": 3, "note": _in_source_only(shape, "header")}}, indent=1)


def _ai_sdk_body(shape: str) -> str:
    c = _canaries(shape)
    messages = [
        {"id": "s", "role": "system", "parts": [{"type": "text", "text": c("system")}]},
        {"id": "u1", "role": "user", "parts": [{"type": "text", "text": SHOWN[0]}]},
        {"id": "a1", "role": "assistant", "parts": [
            {"type": "step-start"}, {"type": "reasoning", "text": c("analysis")},
            {"type": "tool-lookup", "toolCallId": "k1", "state": "output-available", "input": {"q": c("arguments")},
             "output": {"r": c("reply")}},
            {"type": "source-url", "sourceId": "s1", "url": "https://example.org/" + c("source"), "title": c("title")},
            {"type": "data-note", "data": {"x": c("data")}},
            {"type": "text", "text": SHOWN[1]}]},
        {"id": "u2", "role": "user", "parts": [{"type": "text", "text": SHOWN[2]}]},
        {"id": "a2", "role": "assistant", "content": "", "reasoning": c("reasoning"),
         "toolInvocations": [{"state": "result", "toolCallId": "k2", "toolName": "lookup",
                              "args": {"q": c("arguments2")}, "result": c("reply2")}]},
        {"id": "a3", "role": "assistant", "parts": [
            {"type": "dynamic-tool", "toolName": "lookup", "toolCallId": "k3", "state": "output-error",
             "input": {"q": c("arguments3")}, "errorText": c("error")}]},
    ]
    return json.dumps({"id": "chat", "messages": messages}, indent=1)


def _llamafactory_body(shape: str) -> str:
    """A LLaMA-Factory v1 row: a conversation of content parts, loss weights and tools as JSON text."""
    c = _canaries(shape)

    def said(role: str, *parts: tuple[str, str], weight: float = 1.0) -> dict:
        return {"role": role, "content": [{"type": kind, "value": value} for kind, value in parts],
                "loss_weight": weight}

    tools = json.dumps([{"type": "function", "function": {"name": "lookup", "description": _in_source_only(
        shape, "tools"), "parameters": {"type": "object"}}}])
    row = {"messages": [
        said("system", ("text", c("system")), weight=0.0), said("user", ("text", SHOWN[0]), weight=0.0),
        said("assistant", ("reasoning", c("analysis")), ("tool_call", json.dumps(
            {"name": "lookup", "arguments": {"q": c("arguments")}}))),
        said("tool", ("text", json.dumps({"r": c("reply")})), weight=0.0),
        said("assistant", ("reasoning", c("analysis2")), ("text", SHOWN[1])),
        said("user", ("text", SHOWN[2]), weight=0.0)], "tools": tools}
    return json.dumps(row) + "\n"


def _llamafactory_pair_body(shape: str) -> str:
    """A LLaMA-Factory v1 preference row: both sides repeat the prompt; the rejected answer is hidden."""
    c = _canaries(shape)

    def said(role: str, text: str) -> dict:
        return {"role": role, "content": [{"type": "text", "value": text}], "loss_weight": 1.0}

    prompt = [said("system", c("system")), said("user", SHOWN[0])]
    calling = {"role": "assistant", "content": [{"type": "reasoning", "value": c("analysis")}, {
        "type": "tool_call", "value": json.dumps({"name": "lookup", "arguments": {"q": c("arguments")}})}]}
    return json.dumps({"chosen_messages": [*prompt, calling, said("tool", c("reply")), said("assistant", SHOWN[1]),
                                           said("user", SHOWN[2])],
                       "rejected_messages": [*prompt, said("assistant", c("rejected"))]}) + "\n"


TEXT_SHAPES = {"otel": _otel_body, "inspect": _inspect_body, "langchain": _langchain_body,
               "langgraph": _langgraph_body, "aisdk": _ai_sdk_body, "llamafactory": _llamafactory_body,
               "llamafactorydpo": _llamafactory_pair_body}
"""Shapes written as text (a live transcript can be appended in pieces)."""
JSON_SHAPES: dict[str, Callable[[str], str | bytes]] = {**TEXT_SHAPES, "inspecteval": _eval_body}
