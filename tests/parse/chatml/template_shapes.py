"""A Hypothesis strategy for ChatML transcripts as real chat templates write them (Qwen3, QwQ, DeepSeek-R1,
Hermes, Qwen2.5): `<think>` closed, empty, unclosed at a cut, opened in the prompt; `<tool_call>` one, many,
several in one block, broken; `<tool_response>` in tool turns and in user turns; `<tools>` in the system prompt;
and misplaced blocks. Every part the default view hides holds a unique canary (`CANARY<n>Q`); every part it
shows holds `SHOWN<n>` and no canary. Tool names are never canaries: the default view names the tools used."""
from __future__ import annotations

import json

from hypothesis import strategies as st

TOOLS = ("get_weather", "search")
LAYOUTS = ("\n", "", " \n", "\n\n")
"""What templates and models write around a block's text."""


class Words:
    """Unique canaries and shown words for one transcript."""

    def __init__(self) -> None:
        self.count = 0

    def canary(self) -> str:
        self.count += 1
        return f"CANARY{self.count}Q"

    def shown(self) -> str:
        self.count += 1
        return f"SHOWN{self.count}"


def _tool_definition(words: Words, name: str, bare: bool) -> str:
    function = {"name": name, "description": words.canary(),
                "parameters": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}}
    return json.dumps(function if bare else {"type": "function", "function": function})


@st.composite
def system_turn(draw, words: Words) -> str:
    definitions = [_tool_definition(words, name, draw(st.booleans())) for name in TOOLS]
    as_list = draw(st.booleans())
    inner = f"[{', '.join(definitions)}]" if as_list else "\n".join(definitions)
    return (f"<|im_start|>system\n{words.canary()}\n\n# Tools\n\nYou are provided with function signatures within "
            f"<tools></tools> XML tags:\n<tools>\n{inner}\n</tools>\n\nFor each function call, return a json object "
            "within <tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": "
            "<args-json-object>}\n</tool_call><|im_end|>\n")


def _call_json(draw, words: Words) -> str:
    kind = draw(st.sampled_from(("good", "good", "off-schema", "broken", "no-arguments")))
    name = draw(st.sampled_from(TOOLS))
    if kind == "good":
        return json.dumps({"name": name, "arguments": {"q": words.canary()}})
    if kind == "off-schema":
        return json.dumps({"name": name, "arguments": {"other": words.canary()}})
    if kind == "no-arguments":
        return json.dumps({"name": name, "note": words.canary()})
    return '{"name": "%s", "arguments": {"q": "%s"' % (name, words.canary())  # unreadable JSON


@st.composite
def tool_calls(draw, words: Words) -> str:
    layout = draw(st.sampled_from(LAYOUTS))
    calls = [_call_json(draw, words) for _ in range(draw(st.integers(1, 3)))]
    if len(calls) > 1 and draw(st.booleans()):
        return f"<tool_call>{layout}" + "\n".join(calls) + f"{layout}</tool_call>"
    return "\n".join(f"<tool_call>{layout}{call}{layout}</tool_call>" for call in calls)


def _response(draw, words: Words) -> str:
    layout = draw(st.sampled_from(LAYOUTS))
    body = draw(st.sampled_from(("named", "plain", "content")))
    if body == "named":
        text = json.dumps({"name": draw(st.sampled_from(TOOLS)), "content": {"r": words.canary()}})
    elif body == "content":
        text = json.dumps({"content": words.canary()})
    else:
        text = f"{words.canary()} degrees"
    return f"<tool_response>{layout}{text}{layout}</tool_response>"


@st.composite
def assistant_turn(draw, words: Words) -> str:
    think = draw(st.sampled_from(("none", "closed", "empty", "opened-in-prompt", "closed-twice")))
    parts = []
    if think == "closed":
        parts.append(f"<think>\n{words.canary()}\n</think>\n\n")
    elif think == "closed-twice":  # a second </think> with no <think>: the text before it is reasoning too
        parts.append(f"<think>\n{words.canary()}\n</think>\n\n{words.canary()}\n</think>\n\n")
    elif think == "empty":
        parts.append("<think>\n\n</think>\n\n")
    elif think == "opened-in-prompt":
        parts.append(f"{words.canary()}\n</think>\n\n")
    if draw(st.booleans()):
        parts.append(words.shown())
    if draw(st.booleans()):
        parts.append("\n" + draw(tool_calls(words)))
    if draw(st.integers(0, 5)) == 0:
        parts.append("\n" + _response(draw, words))  # a model writing a tool's answer itself
    return "<|im_start|>assistant\n" + "".join(parts) + "<|im_end|>\n"


@st.composite
def reply_turn(draw, words: Words) -> str:
    responses = "\n".join(_response(draw, words) for _ in range(draw(st.integers(1, 3))))
    shape = draw(st.sampled_from(("tool", "user", "user with text")))
    if shape == "tool":
        return f"<|im_start|>tool\n{responses}<|im_end|>\n"
    text = f"{words.shown()}\n" if shape == "user with text" else ""
    return f"<|im_start|>user\n{text}{responses}<|im_end|>\n"


@st.composite
def user_turn(draw, words: Words) -> str:
    misplaced = draw(st.integers(0, 5)) == 0
    call = "\n" + json.dumps({"name": "search", "arguments": {"q": words.canary()}}) + "\n"
    return f"<|im_start|>user\n{words.shown()}" + (f"\n<tool_call>{call}</tool_call>" if misplaced else "") + \
        "<|im_end|>\n"


@st.composite
def cut_turn(draw, words: Words) -> str:
    """A last assistant turn the stream cut: inside reasoning, or inside a call."""
    if draw(st.booleans()):
        return f"<|im_start|>assistant\n<think>\n{words.canary()}"
    return '<|im_start|>assistant\n<tool_call>\n{"name": "search", "arguments": {"q": "%s' % words.canary()


@st.composite
def template_transcripts(draw) -> str:
    """A whole transcript in the shapes above."""
    words = Words()
    text = draw(system_turn(words)) if draw(st.booleans()) else ""
    for _ in range(draw(st.integers(1, 6))):
        turn = draw(st.sampled_from((user_turn, assistant_turn, assistant_turn, reply_turn)))
        text += draw(turn(words))
    if draw(st.booleans()):
        text += draw(cut_turn(words))
    return text
