"""Hypothesis strategies for JSON transcripts in the shapes real producers write (Anthropic Messages, OpenAI
Responses API, ShareGPT, OpenAI chat with `<think>` left in the content), with a unique canary
(`CANARY<n>Q`) in every part the default view must hide and a unique word (`SHOWN<n>`) in every part it must
show. Used by the parse-level property tests and by tests/system/test_leaks_json_shapes.py."""
from __future__ import annotations

import json
from typing import Any, Callable

from hypothesis import strategies as st

TOOL = "lookup"
"""The one tool name: the default view names tools in its markers, so a tool's name is never a canary."""


class Marks:
    """Unique canaries and shown words for one transcript."""

    def __init__(self) -> None:
        self.count = 0

    def canary(self) -> str:
        self.count += 1
        return f"CANARY{self.count}Q"

    def shown(self) -> str:
        self.count += 1
        return f"SHOWN{self.count}"

    def base64(self) -> str:
        return "iVBORw0K" + self.canary() + "AAAA=="


Draw = Callable[[st.SearchStrategy], Any]


# -- Anthropic Messages --------------------------------------------------------------------------------------

def _anthropic_user(draw: Draw, m: Marks) -> dict[str, Any]:
    blocks: list[Any] = [{"type": "text", "text": m.shown()}]
    for extra in draw(st.lists(st.sampled_from(["image", "document", "unknown", "text"]), max_size=3)):
        if extra == "image":
            blocks.append({"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                                       "data": m.base64()}})
        elif extra == "document":
            blocks.append({"type": "document", "title": "report", "source": {
                "type": draw(st.sampled_from(["base64", "text"])), "media_type": "application/pdf",
                "data": m.base64()}})
        elif extra == "unknown":
            blocks.append({"type": f"widget_{m.canary()}", "text": m.canary()})
        else:
            blocks.append({"type": "text", "text": m.shown()})
    return {"role": "user", "content": draw(st.sampled_from([blocks, blocks[0]["text"]])) if len(blocks) == 1
            else blocks}


def _anthropic_assistant(draw: Draw, m: Marks, number: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """An assistant message and the tool results its calls get."""
    blocks: list[dict[str, Any]] = []
    results: list[dict[str, Any]] = []
    for kind in draw(st.lists(st.sampled_from(["thinking", "redacted", "text", "think-text", "tool_use",
                                                "server_tool", "unknown"]), min_size=1, max_size=5)):
        if kind == "thinking":
            blocks.append({"type": "thinking", "thinking": m.canary(), "signature": m.canary()})
        elif kind == "redacted":
            blocks.append({"type": "redacted_thinking", "data": m.canary()})
        elif kind == "text":
            blocks.append({"type": "text", "text": m.shown()})
        elif kind == "think-text":
            blocks.append({"type": "text", "text": f"<think>\n{m.canary()}\n</think>\n\n{m.shown()}"})
        elif kind == "tool_use":
            call_id = f"toolu_{number}_{len(blocks)}"
            blocks.append({"type": "tool_use", "id": call_id, "name": TOOL, "input": {"q": m.canary()}})
            content: Any = m.canary()
            if draw(st.booleans()):
                content = [{"type": "text", "text": content}, {"type": "image", "source": {
                    "type": "base64", "media_type": "image/png", "data": m.base64()}}]
            results.append({"type": "tool_result", "tool_use_id": call_id, "is_error": draw(st.booleans()),
                            "content": content})
        elif kind == "server_tool":
            call_id = f"srvtoolu_{number}_{len(blocks)}"
            blocks.append({"type": "server_tool_use", "id": call_id, "name": "web_search",
                           "input": {"query": m.canary()}})
            blocks.append({"type": "web_search_tool_result", "tool_use_id": call_id, "content": [
                {"type": "web_search_result", "url": "https://example.com/", "title": m.canary(),
                 "encrypted_content": m.canary()}]})
        else:
            blocks.append({"type": f"gadget_{m.canary()}", "payload": m.canary()})
    return {"role": "assistant", "content": blocks}, results


@st.composite
def anthropic_transcripts(draw: Draw) -> str:
    m = Marks()
    messages: list[dict[str, Any]] = []
    for number in range(draw(st.integers(1, 3))):
        messages.append(_anthropic_user(draw, m))
        assistant, results = _anthropic_assistant(draw, m, number)
        messages.append(assistant)
        if results:
            messages.append({"role": "user", "content": results})
    form = draw(st.sampled_from(["request", "list", "response"]))
    if form == "response":
        return json.dumps({"id": "msg_1", "type": "message", "role": "assistant",
                           "content": messages[1]["content"], "stop_reason": "end_turn"})
    if form == "list":
        return json.dumps(messages, indent=1)
    system = draw(st.sampled_from(["text", "blocks"]))
    return json.dumps({"model": "claude", "system": m.canary() if system == "text" else [
        {"type": "text", "text": m.canary()}, {"type": "text", "text": m.canary()}], "messages": messages},
        indent=draw(st.sampled_from([None, 2])))


# -- OpenAI Responses API ------------------------------------------------------------------------------------

def _responses_items(draw: Draw, m: Marks) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = [{"role": "user", "content": m.shown()}]
    kinds = ["user", "developer", "assistant", "refusal", "think-text", "commentary", "reasoning", "function",
             "custom", "web_search", "code", "image", "mcp", "computer", "unknown", "unknown-part"]
    for at, kind in enumerate(draw(st.lists(st.sampled_from(kinds), min_size=1, max_size=8))):
        call_id = f"call_{at}"
        if kind == "user":
            items.append({"type": "message", "role": "user", "content": [
                {"type": "input_text", "text": m.shown()},
                {"type": "input_image", "image_url": f"data:image/png;base64,{m.base64()}"}]})
        elif kind == "developer":
            items.append({"type": "message", "role": "developer", "content": m.canary()})
        elif kind == "assistant":
            items.append({"type": "message", "role": "assistant", "content": [
                {"type": "output_text", "text": m.shown(), "annotations": []}]})
        elif kind == "refusal":
            items.append({"type": "message", "role": "assistant", "content": [
                {"type": "refusal", "refusal": m.shown()}]})
        elif kind == "think-text":
            items.append({"type": "message", "role": "assistant", "content": [
                {"type": "output_text", "text": f"<think>{m.canary()}</think>{m.shown()}"}]})
        elif kind == "commentary":
            items.append({"type": "message", "role": "assistant", "phase": "commentary", "content": [
                {"type": "output_text", "text": m.canary()}]})
        elif kind == "reasoning":
            items.append({"type": "reasoning", "id": f"rs_{at}", "summary": [
                {"type": "summary_text", "text": m.canary()}], "content": [
                {"type": "reasoning_text", "text": m.canary()}], "encrypted_content": m.canary()})
        elif kind == "function":
            items.append({"type": "function_call", "call_id": call_id, "name": TOOL,
                          "arguments": json.dumps({"q": m.canary()})})
            items.append({"type": "function_call_output", "call_id": call_id, "output": m.canary()})
        elif kind == "custom":
            items.append({"type": "custom_tool_call", "call_id": call_id, "name": TOOL, "input": m.canary()})
            items.append({"type": "custom_tool_call_output", "call_id": call_id, "output": [
                {"type": "input_text", "text": m.canary()}]})
        elif kind == "web_search":
            items.append({"type": "web_search_call", "id": f"ws_{at}", "status": "completed",
                          "action": {"type": "search", "query": m.canary()}})
        elif kind == "code":
            items.append({"type": "code_interpreter_call", "id": f"ci_{at}", "code": m.canary(),
                          "outputs": [{"type": "logs", "logs": m.canary()}]})
        elif kind == "image":
            items.append({"type": "image_generation_call", "id": f"ig_{at}", "result": m.base64(),
                          "revised_prompt": m.canary()})
        elif kind == "mcp":
            items.append({"type": "mcp_call", "id": f"mcp_{at}", "server_label": "dice", "name": "roll",
                          "arguments": json.dumps({"x": m.canary()}), "output": m.canary(), "error": None})
        elif kind == "computer":
            items.append({"type": "computer_call", "call_id": call_id, "action": {"type": "type",
                                                                                  "text": m.canary()}})
            items.append({"type": "computer_call_output", "call_id": call_id, "output": {
                "type": "computer_screenshot", "image_url": f"data:image/png;base64,{m.base64()}"}})
        elif kind == "unknown":
            items.append({"type": f"future_{m.canary()}", "secret": m.canary()})
        else:
            items.append({"type": "message", "role": "user", "content": [
                {"type": "input_text", "text": m.shown()}, {"type": f"input_{m.canary()}", "x": m.canary()}]})
    return items


@st.composite
def responses_transcripts(draw: Draw) -> str:
    m = Marks()
    items = _responses_items(draw, m)
    if draw(st.booleans()):
        return json.dumps({"id": "resp_1", "object": "response", "instructions": m.canary(), "output": items})
    return json.dumps({"model": "gpt", "instructions": m.canary(), "input": items}, indent=1)


# -- ShareGPT ------------------------------------------------------------------------------------------------

@st.composite
def sharegpt_transcripts(draw: Draw) -> str:
    m = Marks()
    turns: list[dict[str, Any]] = [{"from": "human", "value": m.shown()}]
    kinds = ["human", "gpt", "think", "calls", "system", "unknown", "user", "assistant"]
    for kind in draw(st.lists(st.sampled_from(kinds), min_size=1, max_size=8)):
        if kind in ("human", "user"):
            turns.append({"from": kind, "value": m.shown()})
        elif kind in ("gpt", "assistant"):
            turns.append({"from": kind, "value": m.shown()})
        elif kind == "think":
            turns.append({"from": "gpt", "value": f"<think>\n{m.canary()}\n</think>\n\n{m.shown()}"})
        elif kind == "calls":
            calls = [{"name": TOOL, "arguments": {"q": m.canary()}} for _ in range(draw(st.integers(1, 2)))]
            value = json.dumps(calls if len(calls) > 1 else calls[0])
            if draw(st.booleans()):
                value = f"<think>\n{m.canary()}\n</think>\n\n{value}"
            turns.append({"from": "function_call", "value": value})
            turns.extend({"from": "observation", "value": m.canary()} for _ in calls)
        elif kind == "system":
            turns.append({"from": "system", "value": m.canary()})
        else:
            turns.append({"from": f"speaker_{m.canary()}", "value": m.canary()})
    tools = json.dumps([{"name": TOOL, "description": m.canary(), "parameters": {"type": "object"}}])
    return json.dumps({"conversations": turns, "system": m.canary(), "tools": tools}, indent=1)


# -- OpenAI chat with <think> --------------------------------------------------------------------------------

@st.composite
def chat_think_transcripts(draw: Draw) -> str:
    m = Marks()
    messages: list[dict[str, Any]] = [{"role": "system", "content": m.canary()}]
    for _ in range(draw(st.integers(1, 4))):
        question: Any = m.shown()
        if draw(st.booleans()):
            question = [{"type": "text", "text": question},
                        {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{m.base64()}"}},
                        {"type": f"mystery_{m.canary()}", "data": m.canary()}]
        messages.append({"role": "user", "content": question})
        shape = draw(st.sampled_from(["think", "opened-in-prompt", "empty", "reasoning_content", "parts"]))
        if shape == "think":
            content = f"<think>\n{m.canary()}\n</think>\n\n{m.shown()}"
        elif shape == "opened-in-prompt":
            content = f"{m.canary()}\n</think>\n\n{m.shown()}"
        elif shape == "empty":
            content = f"<think>\n\n</think>\n\n{m.shown()}"
        elif shape == "parts":
            content = [{"type": "text", "text": f"<think>{m.canary()}"},
                       {"type": "text", "text": f"</think>{m.shown()}"}]
        else:
            content = m.shown()
        message: dict[str, Any] = {"role": "assistant", "content": content}
        if shape == "reasoning_content":
            message["reasoning_content"] = m.canary()
        messages.append(message)
    if draw(st.booleans()):
        messages.append({"role": "assistant", "content": f"<think>\n{m.canary()}"})  # a cut stream
    return json.dumps({"model": "Qwen/Qwen3-8B", "messages": messages}, indent=draw(st.sampled_from([None, 1])))


SHAPES = {"anthropic": anthropic_transcripts, "responses": responses_transcripts, "sharegpt": sharegpt_transcripts,
          "chat-think": chat_think_transcripts}
"""Each shape's strategy, by name."""

from tests.parse.json.api_shapes import API_SHAPES  # noqa: E402 (it imports Marks and TOOL from here)

SHAPES.update(API_SHAPES)
from tests.parse.json.eval_shapes import EVAL_SHAPES  # noqa: E402 (it imports Marks and TOOL from here)

SHAPES.update(EVAL_SHAPES)
