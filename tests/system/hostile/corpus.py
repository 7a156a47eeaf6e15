"""The hostile corpus: every payload of payloads.txt placed in every field a transcript carries, per dialect.

A transcript is built per (payload, dialect): one message (or event, or envelope key) per field, each carrying
the payload in that field and harmless text everywhere else. A payload that breaks one message's structure
(a `<|` in a header, a quote in JSON) therefore cannot stop the other fields from being exercised: every
dialect's parser resynchronises at the next message. Header words cannot hold whitespace, so there the
payload's whitespace runs become `/` (which HTML also reads as an attribute separator).
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

PAYLOADS_FILE = Path(__file__).resolve().parent / "payloads.txt"
DIALECTS = ("harmony", "openchatml", "chatml", "json", "events", "llama3", "gemma", "mistral", "deepseek", "phi")
TOOL = "functions.lookup"


@dataclass(frozen=True, slots=True)
class Payload:
    """One hostile string and where it stands in payloads.txt."""

    number: int
    text: str

    @property
    def id(self) -> str:
        return f"p{self.number:03d}"


def load_payloads(path: Path = PAYLOADS_FILE) -> tuple[Payload, ...]:
    """Every payload of the data file; each line is a JSON string, `#` lines and blank lines are comments."""
    payloads = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            payloads.append(Payload(len(payloads), json.loads(line)))
    return tuple(payloads)


def word(payload: str) -> str:
    """The payload as one header word (no whitespace), never empty."""
    return re.sub(r"\s+", "/", payload.strip()) or "x"


def encode(text: str) -> bytes:
    # Lone surrogates in a payload become invalid UTF-8 on purpose: decoding them is part of the attack surface.
    return text.encode("utf-8", "surrogatepass")


def _dump(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


# ---- OpenChatML 2.x / Harmony ------------------------------------------------------------------------------

def _harmony_fields(p: str) -> dict[str, str]:
    w = word(p)
    args = _dump({"q": p})
    return {
        "system body": f"<|start|>system<|message|>{p}<|end|>",
        "developer body": f"<|start|>developer<|message|>{p}<|end|>",
        "user body": f"<|start|>user<|message|>{p}<|end|>",
        "user name=": f"<|start|>user name={w}<|message|>hello<|end|>",
        "role word": f"<|start|>{w}<|message|>hello<|end|>",
        "analysis body": f"<|start|>assistant<|channel|>analysis<|message|>{p}<|end|>",
        "preamble body": f"<|start|>assistant intent=preamble<|channel|>commentary<|message|>{p}<|end|>",
        "commentary body": f"<|start|>assistant<|channel|>commentary<|message|>{p}<|end|>",
        "intent=": f"<|start|>assistant<|channel|>commentary intent={w}<|message|>a plan<|end|>",
        "channel word": f"<|start|>assistant<|channel|>{w}<|message|>some text<|end|>",
        "to=": f"<|start|>assistant to={w}<|channel|>commentary<|constrain|>json<|message|>{{\"q\": 1}}<|call|>",
        "call_id=": (f"<|start|>assistant to={TOOL} call_id={w}<|channel|>commentary<|constrain|>json<|message|>"
                     f"{{\"q\": 2}}<|call|><|start|>tool name={TOOL} call_id={w} to=assistant<|channel|>commentary"
                     f"<|message|>{{\"ok\": true}}<|end|>"),
        "name= of a tool": (f"<|start|>tool name={w} to=assistant<|channel|>commentary<|message|>"
                            f"{{\"ok\": true}}<|end|>"),
        "call arguments (JSON)": (f"<|start|>assistant to={TOOL}<|channel|>commentary<|constrain|>json<|message|>"
                                  f"{args}<|call|>"),
        "call arguments (raw)": f"<|start|>assistant<|channel|>commentary to={TOOL} json<|message|>{p}<|call|>",
        "tool reply body": f"<|start|>{TOOL} to=assistant<|channel|>commentary<|message|>{p}<|end|>",
        "tool author word": f"<|start|>functions.{w} to=assistant<|channel|>commentary<|message|>{{}}<|end|>",
        "content_type=": f"<|start|>assistant<|channel|>final content_type={w}<|message|>x = 1<|end|>",
        "constrain word": f"<|start|>assistant<|channel|>final<|constrain|>{w}<|message|>{{\"a\": 1}}<|end|>",
        "bare content type": f"<|start|>assistant<|channel|>commentary {w}<|message|>text<|end|>",
        "fence info": f"<|start|>assistant<|channel|>final<|message|>```{w}\n{p}\n```<|end|>",
        "table cell": f"<|start|>assistant<|channel|>final<|message|>| a | b |\n|:-|-:|\n| {p} | x |<|end|>",
        "final body": f"<|start|>assistant<|channel|>final<|message|>{p}<|return|>",
    }


def _harmony(p: str) -> str:
    return "".join(_harmony_fields(p).values())


def _openchatml(p: str) -> str:
    header = f"---\nversion: 2.2\nmodel: {_dump(p)}\n{_dump(p)}: {_dump(p)}\n---\n"
    return header + "".join(_harmony_fields(p).values())


# ---- ChatML / OpenChatML 0.1 -------------------------------------------------------------------------------

def _chatml(p: str) -> str:
    w = word(p)
    definition = {"type": "function", "function": {"name": w, "description": p, "parameters": {
        "type": "object", "properties": {p: {"type": "string", "description": p}}}}}
    messages = [
        "[BOS]",
        f"<|im_start|>system\n{p}<|im_end|>\n",
        f"<|im_start|>system\nTools:\n<|function_list|>\n{_dump(definition)}\n<|im_end|>\n",
        f"<|im_start|>user\n{p}<|im_end|>\n",
        f"<|im_start|>user name={w}\nhello<|im_end|>\n",
        f"<|im_start|>{w}\nhello<|im_end|>\n",
        f"<|im_start|>assistant\n<|start_reason|>{p}<|end_reason|>\nsee above<|im_end|>\n",
        f"<|im_start|>assistant\n<|reflect|>{p}<|im_end|>\n",
        f"<|im_start|>assistant\n<|function_call|>\n{_dump({'arguments': {'q': p}, 'name': 'lookup'})}\n<|im_end|>\n",
        f"<|im_start|>assistant\n<|function_call|>\n{_dump({'arguments': {}, 'name': p})}\n<|im_end|>\n",
        f"<|im_start|>assistant\n<|function_call|>\n{p}\n<|im_end|>\n",
        f"<|im_start|>tool\n<|function_output|>\n{_dump({'name': p, 'content': p})}\n<|im_end|>\n",
        f"<|im_start|>tool\n<|function_output|>\n{p}\n<|im_end|>\n",
        f"<|im_start|>user\n<|fim_prefix|>{p}<|fim_suffix|>{p}<|fim_middle|><|im_end|>\n",
        f"<|im_start|>user\n<|file_separator|>{w}\n{p}\n<|file_separator|>b.py\n{p}<|im_end|>\n",
        f"{p}\n",  # stray text between envelopes
        f"<|im_start|>assistant\n```{w}\n{p}\n```\n{p}<|im_end|>\n",
        "[EOS]",
    ]
    return "".join(messages)


# ---- JSON --------------------------------------------------------------------------------------------------

def _json(p: str) -> str:
    tool = {"type": "function", "function": {"name": p, "description": p, "parameters": {
        "type": "object", "properties": {p: {"type": "string", "description": p}}, "required": [p]}}}
    messages = [
        {"role": "system", "content": p},
        {"role": "developer", "content": p, "name": p},
        {"role": "user", "content": p},
        {"role": "user", "name": p, "content": "hello"},
        {"role": p, "content": "hello"},
        {"role": "user", "content": [{"type": "text", "text": p}, {"type": p, "text": p}]},
        {"role": "assistant", "channel": "analysis", "content": p},
        {"role": "assistant", "thinking": p, "content": "answer"},
        {"role": "assistant", "reasoning_content": p, "content": "answer"},
        {"role": "assistant", "channel": "commentary", "intent": "preamble", "content": p},
        {"role": "assistant", "channel": "commentary", "intent": p, "content": "text"},
        {"role": "assistant", "channel": p, "content": "text"},
        {"role": "assistant", "channel": "final", "content_type": p, "content": "x = 1"},
        {"role": "assistant", "recipient": p, "channel": "commentary", "content": "{}"},
        {"role": "assistant", "channel": "commentary", "content": p,
         "tool_call": {"id": p, "recipient": p, "content_type": p, "arguments": p}},
        {"role": "tool", "name": p, "call_id": p, "recipient": p, "channel": "commentary", "content_type": p,
         "content": p},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": p, "type": "function", "function": {"name": p, "arguments": _dump({"q": p})}},
            {"id": "c2", "type": "function", "function": {"name": "lookup", "arguments": p}}]},
        {"role": "tool", "tool_call_id": p, "content": p},
        {"role": "tool", "tool_call_id": "c2", "content": _dump({"result": p})},
        {"role": "function", "name": p, "content": p},
        {"author": {"role": "tool", "name": p}, "recipient": p, "channel": "commentary",
         "content": [{"type": "text", "text": p}]},
        {"author": {"role": "assistant"}, "channel": "final", "content_type": f"<|constrain|>{p}",
         "content": [{"type": "text", "text": p}]},
        {"role": "assistant", "channel": "final", "content": p},
    ]
    return _dump({"model": p, p: p, "tools": [tool], "messages": messages})


# ---- streaming events --------------------------------------------------------------------------------------

def _events(p: str) -> str:
    events = [
        {"type": "response.created", "response_id": p},
        {"type": "response.reasoning_text.delta", "delta": p},
        {"type": "response.reasoning_text.done"},
        {"type": "response.reasoning_summary_text.delta", "delta": p},
        {"type": "response.reasoning_summary_text.done"},
        {"type": "response.function_call_arguments.delta", "call_id": p, "name": p, "delta": p},
        {"type": "response.function_call_arguments.done", "call_id": p, "arguments": p},
        {"type": "response.function_call_arguments.delta", "call_id": "c2", "name": "lookup",
         "delta": _dump({"q": p})},
        {"type": "response.function_call_arguments.done", "call_id": "c2"},
        {"type": "response.done"},
        {"type": "tool.result", "call_id": p, "name": p, "output": p},
        {"type": "tool.result", "call_id": "c2", "name": "lookup", "output": {"ok": p}},
        {"type": "tool.cancel", "call_id": p, "reason": p},
        {"type": "response.delta", "delta": p, "message_id": p},
        {"type": "response.delta.flush", "message_id": p},
        {"type": "response.output_text.done", "message_id": p, "text": p + p},
        {"type": "response.done", "message_id": p},
        {"type": "response.delta", "delta": p},
        {"type": "response.cancel", "reason": p},
        {"type": "response." + p, "delta": p},
        {"type": p},
        {"event": "response.delta", "delta": p},
        {"type": "response.done"},
    ]
    lines = [_dump(event) for event in events]
    lines.append(p.replace("\n", " "))  # a line that is not JSON
    return "\n".join(lines) + "\n"


# ---- raw prompt templates ------------------------------------------------------------------------------------

def _llama3(p: str) -> str:
    w, h = word(p), "<|start_header_id|>{}<|end_header_id|>\n\n".format
    return ("<|begin_of_text|>" + h("system") + p + "<|eot_id|>" + h("user") + p + "<|eot_id|>" + h(w)
            + "hello<|eot_id|>" + h("assistant") + _dump({"name": p, "parameters": {"q": p}}) + "<|eot_id|>"
            + h("assistant") + f"[{w.replace('(', '')}(q={_dump(p)})]<|eot_id|>"
            + h("assistant") + f"<|python_tag|>{p}<|eom_id|>" + h("ipython") + p + "<|eot_id|>"
            + h("assistant") + p + "<|eot_id|>")


def _gemma(p: str) -> str:
    w, turn = word(p), "<start_of_turn>{}\n{}<end_of_turn>\n".format
    call = f"<start_function_call>call:{w}{{q:<escape>{p}<escape>}}<end_function_call>"
    reply = f"<start_function_response>response:{w}{{r:<escape>{p}<escape>}}<end_function_response>"
    return ("<bos>" + turn("developer", p) + turn("user", p + "\n\n" + p) + turn(w, "hello")
            + turn("user", f"<start_of_image>{p}") + turn("model", call + reply + p) + turn("model", p))


def _mistral(p: str) -> str:
    w = word(p)
    return (f"<s>[SYSTEM_PROMPT]{p}[/SYSTEM_PROMPT][AVAILABLE_TOOLS]{_dump([{'function': {'name': p}}])}"
            f"[/AVAILABLE_TOOLS][INST]{p}[/INST][THINK]{p}[/THINK][TOOL_CALLS]{w}[CALL_ID]{w}[ARGS]{_dump({'q': p})}"
            f"</s>[TOOL_RESULTS]{w}[TOOL_CONTENT]{p}[/TOOL_RESULTS]{p}</s>[INST]{p}[/INST]"
            f"[TOOL_CALLS][{_dump({'name': p, 'arguments': {'q': p}, 'id': p})}]</s>"
            f"[TOOL_RESULTS]{_dump({'content': p, 'call_id': p})}[/TOOL_RESULTS]{p}</s>")


def _deepseek(p: str) -> str:
    bar = lambda name: "<\uff5c" + name.replace(" ", "\u2581") + "\uff5c>"  # noqa: E731
    return (bar("begin of sentence") + p + bar("User") + p + bar("Assistant") + f"<think>{p}</think>"
            + bar("tool calls begin") + bar("tool call begin") + word(p) + bar("tool sep") + _dump({"q": p})
            + bar("tool call end") + bar("tool calls end") + bar("end of sentence")
            + bar("tool output begin") + p + bar("tool output end") + p + bar("end of sentence")
            + bar("User") + p + bar("Assistant") + p + bar("end of sentence") + bar("User") + word(p))


def _phi(p: str) -> str:
    w = word(p)
    return (f"<|system|>{p}<|tool|>{_dump([{'name': p}])}<|/tool|><|end|><|user|>{p}<|end|>"
            f"<|im_start|>{w}<|im_sep|>hello<|im_end|><|assistant|><think>{p}</think>"
            f"<|tool_call|>{_dump([{'name': p, 'arguments': {'q': p}}])}<|/tool_call|><|end|>"
            f"<|tool|>{p}<|end|><|assistant|>{p}<|end|><|user|>{w}<|end|><|assistant|>{p}<|end|>")


BUILDERS: dict[str, Callable[[str], str]] = {
    "harmony": _harmony, "openchatml": _openchatml, "chatml": _chatml, "json": _json, "events": _events,
    "llama3": _llama3, "gemma": _gemma, "mistral": _mistral, "deepseek": _deepseek, "phi": _phi}


def build(payload: str, dialect: str) -> bytes:
    """The transcript of one dialect carrying the payload in every field."""
    return encode(BUILDERS[dialect](payload))


def harmony_field_names() -> tuple[str, ...]:
    return tuple(_harmony_fields("x"))
