"""Deterministic raw prompts of the open model families, for the importer benchmarks (bench/parse.py).

The same conversations as formats.py (a system prompt, then exchanges of a question, reasoning, tool calls with
their replies and an answer; one message in a thousand long), written as each family's template writes them:
Llama 3.1 (JSON calls, ipython replies), Gemma with FunctionGemma blocks (the system prompt folded into the first
user turn), Mistral V13 (Magistral's [THINK], `name[ARGS]{…}` calls), DeepSeek V3.1 (reasoning, calls and lone
tool outputs) and Phi-4-mini (<think>, <|tool_call|> lists, tool turns). A family's reasoning goes where its
template puts it; Llama and Gemma have none.

    from tests.harness.templates import raw_prompt
    text = raw_prompt("mistral", megabytes=30)
"""
from __future__ import annotations

import json
from typing import Callable

from tests.harness.formats import conversations
from viewer.parse.templates.deepseek import (ASSISTANT, BOS, CALL_BEGIN, CALL_END, CALLS_BEGIN, CALLS_END, EOS,
                                             OUTPUT_BEGIN, OUTPUT_END, SEPARATOR, USER)

Message = dict


def _calls(message: Message) -> list[tuple[str, str]]:
    return [(call["function"]["name"], call["function"]["arguments"]) for call in message.get("tool_calls") or ()]


def _llama3(message: Message, state: dict) -> str:
    role, body = message["role"], message.get("content") or ""
    if role == "tool":
        role = "ipython"
    elif role == "assistant" and message.get("tool_calls"):
        name, arguments = _calls(message)[0]
        body = '{"name": "%s", "parameters": %s}' % (name, arguments)
    return f"<|start_header_id|>{role}<|end_header_id|>\n\n{body}<|eot_id|>"


def _gemma(message: Message, state: dict) -> str:
    role, body = message["role"], message.get("content") or ""
    if role == "system":
        return ""  # folded into the first user turn below
    if role == "tool":
        return (f"<start_function_response>response:get_weather{{value:<escape>{body}<escape>}}"
                "<end_function_response>")
    if role == "assistant":
        calls = "".join(f"<start_function_call>call:{name}{{{_gemma_arguments(arguments)}}}<end_function_call>"
                        for name, arguments in _calls(message))
        opener = "" if state.get("model_open") else "<start_of_turn>model\n"
        state["model_open"] = bool(calls)  # FunctionGemma's replies and the answer follow in the same turn
        return opener + calls if calls else f"{opener}{body}<end_of_turn>\n"
    return f"<start_of_turn>user\n{body}<end_of_turn>\n"


def _gemma_arguments(arguments: str) -> str:
    return ",".join(f"{key}:<escape>{value}<escape>" for key, value in json.loads(arguments).items())


def _mistral(message: Message, state: dict) -> str:
    role, body = message["role"], message.get("content") or ""
    if role == "system":
        return f"[SYSTEM_PROMPT]{body}[/SYSTEM_PROMPT]"
    if role == "user":
        return f"[INST]{body}[/INST]"
    if role == "tool":
        return f"[TOOL_RESULTS]{body}[/TOOL_RESULTS]"
    calls = "".join(f"[TOOL_CALLS]{name}[ARGS]{arguments}" for name, arguments in _calls(message))
    return f"[THINK]{message['reasoning_content']}[/THINK]{calls or body}</s>"


def _deepseek(message: Message, state: dict) -> str:
    role, body = message["role"], message.get("content") or ""
    if role == "system":
        return BOS + body
    if role == "user":
        return USER + body
    if role == "tool":
        state["after_tool"] = True
        return f"{OUTPUT_BEGIN}{body}{OUTPUT_END}"
    calls = "".join(f"{CALL_BEGIN}{name}{SEPARATOR}{arguments}{CALL_END}" for name, arguments in _calls(message))
    opener = "" if state.pop("after_tool", False) else ASSISTANT  # V3.1 answers a tool output with no opener
    answer = f"{CALLS_BEGIN}{calls}{CALLS_END}" if calls else body
    return f"{opener}<think>{message['reasoning_content']}</think>{answer}{EOS}"


def _phi(message: Message, state: dict) -> str:
    role, body = message["role"], message.get("content") or ""
    if role == "assistant":
        calls = [{"name": name, "arguments": json.loads(arguments)} for name, arguments in _calls(message)]
        body = f"<think>{message['reasoning_content']}</think>" + (
            f"<|tool_call|>{json.dumps(calls)}<|/tool_call|>" if calls else body)
    return f"<|{role}|>{body}<|end|>"


RENDERERS: dict[str, Callable[[Message, dict], str]] = {
    "llama3": _llama3, "gemma": _gemma, "mistral": _mistral, "deepseek": _deepseek, "phi": _phi}


def raw_prompt(family: str, megabytes: float = 0, messages: int = 0, seed: int = 7) -> str:
    """A raw prompt of the family of at least `megabytes` and `messages` messages (of the JSON form)."""
    render = RENDERERS[family]
    parts = ["<|begin_of_text|>" if family == "llama3" else "<bos>" if family == "gemma" else ""]
    state: dict = {}
    size = count = 0
    for conversation in conversations(float("inf"), 0, seed):  # endless: stops once this text is big enough
        if size >= megabytes * 1_000_000 and count >= messages:
            break
        system = conversation[0]["content"]
        for number, message in enumerate(conversation):
            if family == "gemma" and number == 1:
                message = {**message, "content": f"{system}\n\n{message['content']}"}
            part = render(message, state)
            parts.append(part)
            size += len(part.encode("utf-8"))
        count += len(conversation)
    return "".join(parts)
