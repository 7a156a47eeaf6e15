"""Hypothesis strategies for the API records (viewer/parse/json/records.py): Gemini requests and responses (REST
camelCase and SDK snake_case dumps), Chat Completions responses, OpenAI and Anthropic batch lines, Ollama
requests, responses and streams, preference pairs, LLaMA-Factory's v1 rows and preference rows, and streamed Chat
Completions and Gemini answers; each with a unique canary (`CANARY<n>Q`) in every part
the default view must hide and a unique word (`SHOWN<n>`) in every part it must show. Registered in
tests/parse/json/shapes.py's SHAPES, so the parse-level property tests and tests/system/test_leaks_json_shapes.py
check them."""
from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

from tests.parse.json.shapes import TOOL, Draw, Marks

# -- Gemini ---------------------------------------------------------------------------------------------------

GEMINI_FIELDS = ("video_metadata", "thought", "inline_data", "file_data", "thought_signature",
                 "code_execution_result", "executable_code", "function_call", "function_response", "text")


def _gemini_part(sdk: bool, **fields: Any) -> dict[str, Any]:
    """A part in the REST API's camelCase, or as the Python SDK dumps it (every field, most null)."""
    if not sdk:
        return {"".join(word if at == 0 else word.capitalize() for at, word in enumerate(key.split("_"))): value
                for key, value in fields.items()}
    return {key: fields.get(key) for key in GEMINI_FIELDS}


def _gemini_turns(draw: Draw, m: Marks, sdk: bool) -> list[dict[str, Any]]:
    part = lambda **fields: _gemini_part(sdk, **fields)  # noqa: E731
    turns = [{"role": "user", "parts": [part(text=m.shown())]}]
    kinds = ["answer", "thought", "signed", "call", "code", "media", "unknown", "user"]
    for at, kind in enumerate(draw(st.lists(st.sampled_from(kinds), min_size=1, max_size=6))):
        if kind == "answer":
            turns.append({"role": "model", "parts": [part(text=m.shown())]})
        elif kind == "thought":
            turns.append({"role": "model", "parts": [part(text=m.canary(), thought=True), part(text=m.shown())]})
        elif kind == "signed":
            turns.append({"role": "model", "parts": [part(text=m.shown(), thought_signature=m.canary()),
                                                     part(thought_signature=m.canary())]})
        elif kind == "call":
            call_id = f"fc_{at}" if draw(st.booleans()) else None
            turns.append({"role": "model", "parts": [part(function_call={"id": call_id, "name": TOOL,
                                                                         "args": {"q": m.canary()}},
                                                          thought_signature=m.canary())]})
            turns.append({"role": "user", "parts": [part(function_response={
                "id": call_id, "name": TOOL, "response": {"output": m.canary()}})]})
        elif kind == "code":
            turns.append({"role": "model", "parts": [
                part(executable_code={"language": "PYTHON", "code": m.canary()}),
                part(code_execution_result={"outcome": "OUTCOME_OK", "output": m.canary()}),
                part(text=m.shown())]})
        elif kind == "media":
            turns.append({"role": "user", "parts": [
                part(text=m.shown()), part(inline_data={"mime_type": "image/png", "data": m.base64()}),
                part(file_data={"mime_type": "application/pdf", "file_uri": f"gs://b/{m.canary()}"})]})
        elif kind == "unknown":
            turns.append({"role": "model", "parts": [{"toolCall": {"args": m.canary()}}]})
        else:
            turns.append({"role": "user", "parts": [part(text=m.shown())]})
    return turns


@st.composite
def gemini_transcripts(draw: Draw) -> str:
    m = Marks()
    sdk = draw(st.booleans())
    turns = _gemini_turns(draw, m, sdk)
    system = {"parts": [_gemini_part(sdk, text=m.canary())]}
    if draw(st.booleans()):  # a request
        if sdk:
            return json.dumps({"model": "gemini", "contents": turns, "config": {"system_instruction": system}})
        return json.dumps({"systemInstruction": system, "contents": turns}, indent=draw(st.sampled_from([None, 1])))
    history = turns
    answer = {"role": "model", "parts": [_gemini_part(sdk, text=m.canary(), thought=True),
                                         _gemini_part(sdk, text=m.shown())]}
    if sdk:
        return json.dumps({"candidates": [{"content": answer, "finish_reason": "STOP"}],
                           "automatic_function_calling_history": history, "model_version": "gemini"})
    return json.dumps({"candidates": [{"content": answer, "finishReason": "STOP"}], "modelVersion": "gemini"})


# -- Chat Completions responses and batch lines ----------------------------------------------------------------

def _completion_message(draw: Draw, m: Marks) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": m.shown()}
    for extra in draw(st.lists(st.sampled_from(["reasoning_content", "reasoning", "details", "calls"]),
                               min_size=1, unique=True)):
        if extra == "details":
            message["reasoning_details"] = [{"type": "reasoning.text", "text": m.canary()},
                                            {"type": "reasoning.encrypted", "data": m.canary()},
                                            {"type": f"reasoning.{m.canary()}", "x": m.canary()}]
        elif extra == "calls":
            message["tool_calls"] = [{"id": "call_1", "type": "function",
                                      "function": {"name": TOOL, "arguments": json.dumps({"q": m.canary()})}}]
        else:
            message[extra] = m.canary()
    return message


@st.composite
def completion_transcripts(draw: Draw) -> str:
    m = Marks()
    response = {"id": "chatcmpl-1", "object": "chat.completion", "model": "m",
                "choices": [{"index": 0, "message": _completion_message(draw, m), "finish_reason": "stop"}]}
    form = draw(st.sampled_from(["response", "batch-output", "batch-input", "anthropic-result"]))
    if form == "response":
        return json.dumps(response, indent=draw(st.sampled_from([None, 2])))
    if form == "batch-output":
        return json.dumps({"id": "batch_req_1", "custom_id": "r1", "error": None,
                           "response": {"status_code": 200, "request_id": "req_1", "body": response}})
    if form == "batch-input":
        return json.dumps({"custom_id": "r1", "method": "POST", "url": "/v1/chat/completions", "body": {
            "model": "m", "messages": [{"role": "system", "content": m.canary()}, {"role": "user", "content": m.shown()}]}})
    return json.dumps({"custom_id": "r1", "result": {"type": "succeeded", "message": {
        "type": "message", "role": "assistant", "content": [{"type": "thinking", "thinking": m.canary(),
                                                             "signature": m.canary()},
                                                            {"type": "text", "text": m.shown()}]}}})


# -- Ollama ---------------------------------------------------------------------------------------------------

@st.composite
def ollama_transcripts(draw: Draw) -> str:
    m = Marks()
    form = draw(st.sampled_from(["request", "response", "stream"]))
    if form == "stream":
        chunks = [{"model": "q", "message": {"role": "assistant", "content": "", "thinking": m.canary()}, "done": False}
                  for _ in range(draw(st.integers(1, 3)))]
        if draw(st.booleans()):
            chunks.append({"model": "q", "message": {"role": "assistant", "content": "", "tool_calls": [
                {"function": {"name": TOOL, "arguments": {"q": m.canary()}}}]}, "done": False})
        chunks += [{"model": "q", "message": {"role": "assistant", "content": f"{m.shown()} "}, "done": False}
                   for _ in range(draw(st.integers(1, 3)))]
        chunks.append({"model": "q", "message": {"role": "assistant", "content": ""}, "done": True})
        return "".join(json.dumps(chunk) + "\n" for chunk in chunks)
    answer = {"role": "assistant", "content": m.shown(), "thinking": m.canary()}
    if form == "response":
        return json.dumps({"model": "q", "created_at": "t", "message": answer, "done": True, "done_reason": "stop"})
    messages = [{"role": "system", "content": m.canary()},
                {"role": "user", "content": m.shown(), "images": [m.base64()]},
                {"role": "assistant", "content": "", "thinking": m.canary(), "tool_calls": [
                    {"function": {"name": TOOL, "arguments": {"q": m.canary()}}}]},
                {"role": "tool", "content": m.canary(), "tool_name": TOOL}, answer]
    return json.dumps({"model": "q", "messages": messages, "stream": False}, indent=1)


# -- Preference pairs -----------------------------------------------------------------------------------------

@st.composite
def preference_transcripts(draw: Draw) -> str:
    m = Marks()
    form = draw(st.sampled_from(["standard", "conversational", "implicit", "openai"]))
    if form == "standard":
        record: dict[str, Any] = {"prompt": m.shown(), "chosen": m.shown(), "rejected": m.canary()}
    elif form == "conversational":
        record = {"prompt": [{"role": "system", "content": m.canary()}, {"role": "user", "content": m.shown()}],
                  "chosen": [{"role": "assistant", "content": f"<think>{m.canary()}</think>{m.shown()}"}],
                  "rejected": [{"role": "assistant", "content": m.canary(), "tool_calls": [
                      {"id": "c1", "function": {"name": TOOL, "arguments": json.dumps({"q": m.canary()})}}]}],
                  "score_chosen": 8.0, "score_rejected": 2.5}
    elif form == "implicit":
        question = m.shown()
        record = {"chosen": [{"role": "user", "content": question}, {"role": "assistant", "content": m.shown()}],
                  "rejected": [{"role": "user", "content": m.canary()}, {"role": "assistant", "content": m.canary()}]}
    else:
        record = {"input": {"messages": [{"role": "user", "content": m.shown()}], "tools": []},
                  "preferred_output": [{"role": "assistant", "content": m.shown()}],
                  "non_preferred_output": [{"role": "assistant", "content": m.canary()}]}
    wrapped = draw(st.sampled_from(["line", "array"]))
    return json.dumps([record] if wrapped == "array" else record)


# -- LLaMA-Factory v1 rows ----------------------------------------------------------------------------------------

def _parts(*parts: tuple[str, str]) -> list[dict[str, str]]:
    return [{"type": kind, "value": value} for kind, value in parts]


def _llamafactory_exchange(draw: Draw, m: Marks) -> list[dict[str, Any]]:
    """A question, then a turn of reasoning and parallel calls, their replies, and an answer."""
    calls = draw(st.integers(0, 3))
    messages: list[dict[str, Any]] = [{"role": "user", "content": _parts(("text", m.shown()))}]
    if calls:
        messages.append({"role": "assistant", "content": _parts(("reasoning", m.canary()), *(
            ("tool_call", json.dumps({"name": TOOL, "arguments": {"q": m.canary()}})) for _ in range(calls)))})
        results = [{"q": m.canary()} for _ in range(calls)]
        together = calls > 1 and draw(st.booleans())  # LLaMA-Factory's demo writes parallel results as one list
        for written in ([json.dumps(results)] if together else [json.dumps(result) for result in results]):
            messages.append({"role": "tool", "content": _parts(("text", written))})
    messages.append({"role": "assistant", "content": _parts(("reasoning", m.canary()), ("text", m.shown()))})
    if draw(st.booleans()):
        for message in messages:
            message["loss_weight"] = 1.0 if message["role"] == "assistant" else 0.0
    return messages


@st.composite
def llamafactory_transcripts(draw: Draw) -> str:
    m = Marks()
    tools = json.dumps([{"type": "function", "function": {"name": TOOL, "description": m.canary(),
                                                          "parameters": {"type": "object"}}}])
    system = [{"role": "system", "content": _parts(("text", m.canary()))}]
    if draw(st.booleans()):  # a preference row: both sides repeat the prompt
        prompt = system + [{"role": "user", "content": _parts(("text", m.shown()))}]
        record = {"chosen_messages": prompt + [{"role": "assistant", "content": _parts(
                      ("reasoning", m.canary()), ("text", m.shown()))}],
                  "rejected_messages": prompt + [{"role": "assistant", "content": _parts(("text", m.canary()))}],
                  "tools": tools}
    else:
        record = {"messages": system + [message for _ in range(draw(st.integers(1, 3)))
                                        for message in _llamafactory_exchange(draw, m)], "tools": tools}
    if draw(st.booleans()):
        record["_dataset_name"] = "nothing_lost_demo"
    return json.dumps(record) + "\n"  # one row (a file of several is a dataset of such conversations)


# -- Streamed answers -------------------------------------------------------------------------------------------

def _halves(text: str) -> list[str]:
    """A text cut in two, as a stream sends it in pieces (a canary cut so stays whole only once joined)."""
    return [text[:len(text) // 2], text[len(text) // 2:]]


def _completion_chunks(draw: Draw, m: Marks) -> list[dict[str, Any]]:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {"id": "chatcmpl-1", "object": "chat.completion.chunk", "model": "m",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    key = draw(st.sampled_from(["reasoning_content", "reasoning"]))
    chunks = [chunk({"role": "assistant", "content": ""})]
    chunks += [chunk({key: piece}) for piece in _halves(m.canary() + " " + m.canary())]
    chunks += [chunk({"content": f"{m.shown()} "}) for _ in range(draw(st.integers(1, 3)))]
    if draw(st.booleans()):
        chunks.append(chunk({"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                                             "function": {"name": TOOL, "arguments": ""}}]}))
        chunks += [chunk({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]})
                   for piece in _halves(json.dumps({"q": m.canary()}))]
    if draw(st.booleans()):  # else the stream is cut short
        chunks.append(chunk({}, "stop"))
    return chunks


def _gemini_chunks(draw: Draw, m: Marks) -> list[dict[str, Any]]:
    def chunk(parts: list[dict[str, Any]], finish: str | None = None) -> dict[str, Any]:
        candidate = {"content": {"role": "model", "parts": parts}, "index": 0}
        return {"candidates": [{**candidate, "finishReason": finish} if finish else candidate],
                "modelVersion": "gemini"}
    chunks = [chunk([{"text": piece, "thought": True}]) for piece in _halves(m.canary() + " " + m.canary())]
    chunks += [chunk([{"text": f"{m.shown()} "}]) for _ in range(draw(st.integers(1, 3)))]
    if draw(st.booleans()):
        chunks.append(chunk([{"functionCall": {"name": TOOL, "args": {"q": m.canary()}},
                              "thoughtSignature": m.canary()}]))
    if draw(st.booleans()):  # else the stream is cut short
        chunks.append(chunk([{"text": f"{m.shown()}"}], "STOP"))
    return chunks


@st.composite
def stream_transcripts(draw: Draw) -> str:
    """A streamed Chat Completion or Gemini answer as JSON Lines, server-sent events or (Gemini's) an array."""
    m = Marks()
    gemini_stream = draw(st.booleans())
    chunks = _gemini_chunks(draw, m) if gemini_stream else _completion_chunks(draw, m)
    form = draw(st.sampled_from(["lines", "events", "array"] if gemini_stream else ["lines", "events"]))
    if form == "array":
        return json.dumps(chunks, indent=draw(st.sampled_from([None, 2])))
    if form == "events":
        return "".join(f"data: {json.dumps(chunk)}\n\n" for chunk in chunks) + (
            "" if gemini_stream else "data: [DONE]\n\n")
    return "".join(json.dumps(chunk) + "\n" for chunk in chunks)


API_SHAPES = {"gemini": gemini_transcripts, "completions-batches": completion_transcripts,
              "ollama": ollama_transcripts, "preference": preference_transcripts, "streams": stream_transcripts,
              "llamafactory": llamafactory_transcripts}
"""Each API record shape's strategy, by name."""
