"""Preference pairs: two answers to one prompt, one preferred. Each record is one conversation whose default view
shows the prompt and the chosen answer; the rejected answer is hidden there (its messages carry `intent:
rejected`, which the policy hides) and shown in the debug view. The chosen answer's messages carry `intent:
chosen`, so that a compare page can set the two side by side: chosen = every message not `rejected`, rejected =
every message not `chosen`.

- TRL (`prompt`, `chosen`, `rejected`): each text (the standard form) or a list of messages (the conversational
  form). Without `prompt` (the implicit-prompt form) both answers repeat the conversation that led to them; when
  `chosen` repeats it though `prompt` is there too (UltraFeedback), the prompt is read once, from `chosen`.
  Scores (`score_chosen`, `score_rejected`) and ids stay in the header. LLaMA-Factory's ShareGPT form keeps the
  prompt in `conversations` and each answer as one turn.
- OpenAI preference fine-tuning (`input: {messages, tools}`, `preferred_output`, `non_preferred_output`: lists
  of assistant messages).
- LLaMA-Factory's v1 rows (`chosen_messages`, `rejected_messages`: each the whole conversation, its messages of
  content parts read by llamafactory.py; `tools` as JSON text beside them): the messages both sides begin with
  alike are the prompt, read once (from the chosen side), and the rest of each side is its answer.
"""
from __future__ import annotations

from viewer.parse.json.positions import Node
from viewer.parse.json.record_helpers import envelope, items, member, said
from viewer.parse.json.unpacked import Unpacked

TRL = ("prompt", "chosen", "rejected")
OPENAI = ("input", "preferred_output", "non_preferred_output")
LLAMAFACTORY = ("chosen_messages", "rejected_messages")
CHOSEN = {"intent": "chosen"}
REJECTED = {"intent": "rejected"}


def is_record(value: dict) -> bool:
    return ("chosen" in value and "rejected" in value) or ("preferred_output" in value
                                                           and "non_preferred_output" in value) \
        or all(isinstance(value.get(key), list) for key in LLAMAFACTORY)


def in_datasets(value: dict) -> bool:
    return is_record(value)


def reading(node: Node, text: str, inner: object = None) -> Unpacked:
    if "preferred_output" in node.value:
        return _openai(node, text)
    if "chosen_messages" in node.value:
        return _both_whole(node, text)
    found = Unpacked([], envelope(node, *TRL))
    if not repeats_prompt(node.value.get("chosen")):
        _add(found, text, node, _prompt_key(node.value), "user", None)
    _add(found, text, node, "chosen", "assistant", CHOSEN)
    _add(found, text, node, "rejected", "assistant", REJECTED)
    return found


def _openai(node: Node, text: str) -> Unpacked:
    found = Unpacked([], envelope(node, *OPENAI))
    request = member(text, node, "input")
    if request is not None and isinstance(request.value, dict):
        found.envelope.update(envelope(request, "messages"))
        found.elements.extend(items(text, member(text, request, "messages", 1), 0))
    elif request is not None:
        _add(found, text, node, "input", "user", None)
    _add(found, text, node, "preferred_output", "assistant", CHOSEN)
    _add(found, text, node, "non_preferred_output", "assistant", REJECTED)
    return found


def _both_whole(node: Node, text: str) -> Unpacked:
    """Two whole conversations that share their beginning (LLaMA-Factory's v1 rows): that beginning once, then
    each side's own messages, marked."""
    found = Unpacked([], envelope(node, *LLAMAFACTORY))
    chosen = items(text, member(text, node, "chosen_messages", 1), 0)
    rejected = items(text, member(text, node, "rejected_messages", 1), 0)
    shared = 0
    while shared < min(len(chosen), len(rejected)) and chosen[shared].value == rejected[shared].value:
        shared += 1
    found.elements.extend(chosen[:shared])
    for side, mark in ((chosen, CHOSEN), (rejected, REJECTED)):
        for element in side[shared:]:
            found.marks[len(found.elements)] = mark
            found.elements.append(element)
    return found


def repeats_prompt(chosen: object) -> bool:
    """Whether the chosen answer is a conversation that holds its prompt (UltraFeedback writes `prompt` and
    also the whole conversation in `chosen`): then the prompt is read from there, once."""
    return isinstance(chosen, list) and any(isinstance(m, dict) and m.get("role") == "user" for m in chosen)


def _prompt_key(record: dict) -> str:
    """`prompt`, or (LLaMA-Factory's ShareGPT preference records) the conversation list before the answers."""
    if "prompt" in record:
        return "prompt"
    return next((key for key in ("conversations", "messages") if isinstance(record.get(key), list)), "prompt")


def _add(found: Unpacked, text: str, node: Node, key: str, role: str, mark: dict | None) -> None:
    """The member's messages as elements: a text is one message of `role`, a list its messages, an object one."""
    written = node.members.get(key)
    if written is None or written.node.value is None:
        return
    value = written.node.value
    if isinstance(value, str):
        elements = [said(role, written)]
    elif isinstance(value, list):
        elements = items(text, written.node, 0)
    else:
        elements = [written.node]
    for element in elements:
        if mark is not None:
            found.marks[len(found.elements)] = mark
        found.elements.append(element)
