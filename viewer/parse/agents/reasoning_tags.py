"""Reasoning left in an agent's logged reply as tags: aider wraps streamed reasoning in
`<thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b>` (its reasoning_tags.REASONING_TAG) and leaves a model's own
`<think>` in place; Cline's older prompts asked for `<thinking>`. The text is split into reasoning and the rest; a
tag left open (the reply was cut) makes the rest reasoning."""
from __future__ import annotations

import re

OPENING = re.compile(r"<(thinking-content-[0-9a-f]{8,64}|think|thinking|reasoning)>")


def split_reasoning(text: str) -> list[tuple[bool, str, bool]]:
    """The text as runs of (is reasoning, text without blank edges, left open), blank runs dropped. A text
    without the tags is one run."""
    runs: list[tuple[bool, str, bool]] = []
    position = 0
    while True:
        opening = OPENING.search(text, position)
        if opening is None:
            _add(runs, False, text[position:])
            return runs
        _add(runs, False, text[position:opening.start()])
        closing = text.find(f"</{opening[1]}>", opening.end())
        if closing == -1:
            _add(runs, True, text[opening.end():], unclosed=True)
            return runs
        _add(runs, True, text[opening.end():closing])
        position = closing + len(opening[1]) + 3


def _add(runs: list[tuple[bool, str, bool]], reasoning: bool, text: str, unclosed: bool = False) -> None:
    if text.strip():
        runs.append((reasoning, text.strip(), unclosed))
