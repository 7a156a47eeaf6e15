"""A deterministic streaming event log (dialect `events`) of any size, for the tests of a log read a piece at a
time and for the memory benchmark: JSON Lines of `response.*` and `tool.*` events as OpenChatML 2.2 §9 and the
samples write them, a token slice a delta.

Each response: `response.created` (its `response_id`), reasoning deltas and their done event, now and then a
summary's, then either a tool call (its arguments streamed under its `call_id`, the first delta naming the tool,
the done event with the arguments whole), `response.done` and the tool's result (`tool.result`: a module read or
a test run, most of the bytes), or the answer (output deltas with a `response.delta.flush` between paragraphs,
the done event with the whole text now and then) and `response.done` or `response.completed`. Every few responses
two answers stream at once (each tagged by its `message_id`, so that their messages' spans overlap), a response
the user stops (`response.cancel`), a call the runtime cancels (`tool.cancel`), a heartbeat (an event of a type
no reader knows), so that a small log has each.

    from tests.harness.event_log import event_log_lines
    for line in event_log_lines(megabytes=100): ...
"""
from __future__ import annotations

import json
import random
from collections.abc import Iterator

from tests.harness.codex_rollout import module_lines
from tests.harness.workday import NAMES, VERBS, WORDS


class _Writer:
    def __init__(self, pick: random.Random) -> None:
        self.pick = pick
        self.responses = 0
        self.calls = 0

    def event(self, kind: str, **fields) -> str:
        return json.dumps({"type": kind, **fields}, ensure_ascii=False) + "\n"

    def words(self, low: int, high: int) -> str:
        return " ".join(self.pick.choices(WORDS, k=self.pick.randint(low, high)))

    def slices(self, text: str) -> list[str]:
        """The text as a model streams it: a word or a few at a time, each with the space before the next."""
        words = text.split(" ")
        cut, at = [], 0
        while at < len(words):
            step = self.pick.randint(1, 3)
            cut.append(" ".join(words[at:at + step]) + (" " if at + step < len(words) else ""))
            at += step
        return cut


def _deltas(write: _Writer, kind: str, text: str, **tag) -> Iterator[str]:
    for piece in write.slices(text):
        yield write.event(kind, **tag, delta=piece)


def _thinking(write: _Writer) -> Iterator[str]:
    yield from _deltas(write, "response.reasoning_text.delta", f"{write.words(15, 60)}.")
    yield write.event("response.reasoning_text.done")
    if write.pick.random() < 0.3:
        yield from _deltas(write, "response.reasoning_summary_text.delta", f"{write.words(5, 12).capitalize()}.")
        yield write.event("response.reasoning_summary_text.done")


def _call(write: _Writer) -> Iterator[str]:
    """A tool call streamed, its response's end, and the tool's result (or the runtime's cancel)."""
    pick = write.pick
    write.calls += 1
    call = f"call_{write.calls:05d}"
    name, arguments = pick.choice((("read_file", {"path": f"ledger/{pick.choice(NAMES)}.py"}),
                                   ("run_tests", {"command": "python -m pytest -q", "timeout": 120})))
    text = json.dumps(arguments)
    slices = [text[at:at + 12] for at in range(0, len(text), 12)]
    yield write.event("response.function_call_arguments.delta", call_id=call, name=name, delta=slices[0])
    for piece in slices[1:]:
        yield write.event("response.function_call_arguments.delta", call_id=call, delta=piece)
    yield write.event("response.function_call_arguments.done", call_id=call, arguments=text)
    yield write.event("response.done")
    if pick.random() < 0.05:
        yield write.event("tool.cancel", call_id=call, reason="deadline_ms exceeded")
        return
    if name == "read_file":
        output = "\n".join(module_lines(write, arguments["path"][7:-3]))
    else:
        output = {"exit_code": 0, "stdout": f"{pick.randint(4, 90)} passed in {pick.random() * 9:.2f}s"}
    yield write.event("tool.result", call_id=call, name=name, output=output)


def _answer(write: _Writer, **tag) -> Iterator[str]:
    pick = write.pick
    paragraphs = [f"{pick.choice(VERBS).capitalize()} the {pick.choice(NAMES)}: {write.words(10, 40)}."
                  for _ in range(pick.randint(1, 3))]
    for number, paragraph in enumerate(paragraphs):
        yield from _deltas(write, "response.output_text.delta", paragraph + ("\n\n" if number < len(paragraphs) - 1
                                                                             else ""), **tag)
        if number < len(paragraphs) - 1:
            yield write.event("response.delta.flush", **tag)
    whole = {"text": "\n\n".join(paragraphs)} if pick.random() < 0.5 else {}
    yield write.event("response.output_text.done", **tag, **whole)


def _two_at_once(write: _Writer) -> Iterator[str]:
    """Two answers streamed at once, their deltas interleaved, each tagged by its message."""
    first, second = (list(_answer(write, message_id=f"msg_{write.responses}{side}")) for side in "ab")
    while first or second:
        for stream in (first, second):
            if stream:
                yield stream.pop(0)
    for side in "ab":
        yield write.event("response.done", message_id=f"msg_{write.responses}{side}")


def _response(write: _Writer) -> Iterator[str]:
    pick = write.pick
    write.responses += 1
    yield write.event("response.created", response_id=f"resp_{write.responses:06d}")
    yield from _thinking(write)
    way = pick.random()
    if way < 0.5:
        yield from _call(write)
        return
    if way < 0.55:
        yield from _two_at_once(write)
        return
    if way < 0.58:
        yield from _deltas(write, "response.output_text.delta", f"{write.words(5, 20)} ")
        yield write.event("response.cancel", reason="user pressed stop")
        return
    if way < 0.6:
        yield write.event("response.heartbeat")
    yield from _answer(write)
    yield write.event(pick.choice(("response.done", "response.completed")))


def event_log_lines(megabytes: float, seed: int = 1) -> Iterator[str]:
    """A log's lines, until they hold at least `megabytes` (MB; `float("inf")`: without end)."""
    write = _Writer(random.Random(seed))
    size = 0
    while size < megabytes * 1_000_000:
        for line in _response(write):
            size += len(line.encode())
            yield line


def event_log(megabytes: float, seed: int = 1) -> str:
    """A whole log of at least `megabytes` MB."""
    return "".join(event_log_lines(megabytes, seed))
