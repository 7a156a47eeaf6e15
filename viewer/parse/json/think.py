"""`<think>…</think>` left in an assistant's text by a server that ran no reasoning parser (Qwen3, QwQ,
DeepSeek-R1 and its distills): the reasoning is split out of the answer.

A closing tag with no opening one closes reasoning that began in the generation prompt (DeepSeek-R1 and QwQ
put `<think>\\n` there), so the text before it is reasoning; an opening tag that is never closed (a cut stream)
makes the rest reasoning, with W-UNCLOSED-BLOCK. Empty reasoning (Qwen3 with thinking switched off writes
`<think>\\n\\n</think>`) gives nothing.
"""
from __future__ import annotations

OPEN = "<think>"
CLOSE = "</think>"


def split_think(text: str) -> tuple[list[tuple[bool, str]], bool]:
    """The text as runs of (is reasoning, text), blank runs dropped and edges trimmed, and whether a `<think>`
    was left open. A text without the tags is one run, unchanged."""
    if OPEN not in text and CLOSE not in text:
        return [(False, text)], False
    runs: list[tuple[bool, str]] = []
    position, unclosed = 0, False
    while position < len(text):
        opening, closing = text.find(OPEN, position), text.find(CLOSE, position)
        if closing != -1 and (opening == -1 or closing < opening):
            runs.append((True, text[position:closing]))
            position = closing + len(CLOSE)
        elif opening != -1:
            runs.append((False, text[position:opening]))
            closing = text.find(CLOSE, opening + len(OPEN))
            if closing == -1:
                runs.append((True, text[opening + len(OPEN):]))
                unclosed = True
                break
            runs.append((True, text[opening + len(OPEN):closing]))
            position = closing + len(CLOSE)
        else:
            runs.append((False, text[position:]))
            break
    return [(reasoning, run.strip()) for reasoning, run in runs if run.strip()], unclosed
