"""Pair every tool call with the reply that answers it.

Rules, in order: a shared `call_id`; else the dialect's rule for replies without an id, which its importer
hands over: `BY_NAME` (Harmony, JSON, events), a reply from tool X answers the earliest unanswered call to X
before it; `BY_ORDER` (ChatML 0.1, whose outputs need not name their tool), outputs answer calls in order.
Calls without an id are preferred for replies without an id. Each reply costs amortised constant time, however
many calls stay open.
"""
from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from viewer.formats import Pairing as Rule
from viewer.model import Diagnostic, Message, Pair, Span, make_diagnostic

BY_NAME = Rule.BY_NAME
BY_ORDER = Rule.BY_ORDER
"""The rules for a reply without a call id (a format's record names its rule); also the `Pair.by` of the pairs
they make."""


@dataclass(frozen=True, slots=True)
class _Call:
    """What pairing keeps of an open call: not the message, whose body may be long and long gone."""

    index: int
    call_id: str | None
    recipient: str | None


PRUNE_FROM = 1024
"""Calls held in the queues before the answered ones are first taken out."""


class _OpenCalls:
    """Unanswered calls, findable by id, by tool name and in order. Answered calls are skipped lazily.

    Sized for a transcript of a million messages: whether a call is answered is a byte by message index (a set of
    indices took 16 MB for 256 MB of Harmony), and the calls of an id, nearly always one, a list (a deque of
    its own took 776 bytes per call); a call is kept as its index, id and tool alone."""

    def __init__(self) -> None:
        self.answered = bytearray()
        self.by_id: dict[str, list[_Call]] = {}
        self.by_tool: dict[tuple[bool, str | None], deque[_Call]] = defaultdict(deque)
        self.in_order: dict[bool, deque[_Call]] = {True: deque(), False: deque()}
        self._pruned_at = PRUNE_FROM
        """How many calls the queues hold when the answered ones are next taken out of them."""

    def add(self, message: Message) -> None:
        call = _Call(message.index, message.call_id, message.recipient)
        if len(self.answered) <= call.index:
            self.answered.extend(bytes(call.index + 1 - len(self.answered)))
        call_id = call.call_id
        has_id = call_id is not None
        if call_id is not None:
            self.by_id.setdefault(call_id, []).append(call)
        self.by_tool[(has_id, call.recipient)].append(call)
        self.in_order[has_id].append(call)
        held = len(self.in_order[True]) + len(self.in_order[False])
        if held >= self._pruned_at:
            self._prune()

    def _prune(self) -> None:
        """Take the answered calls out of the queues. Calls answered by id are never at a queue's front when the
        replies name their calls (Claude Code, Codex …), so lazily skipped they would be kept to the end; taken
        out whenever the queues have doubled, a call costs a constant time and the queues follow the open calls."""
        answered = self.answered
        for tool, queue in self.by_tool.items():  # a key a tool: few
            self.by_tool[tool] = deque(call for call in queue if not answered[call.index])
        for has_id, queue in self.in_order.items():
            self.in_order[has_id] = deque(call for call in queue if not answered[call.index])
        held = len(self.in_order[True]) + len(self.in_order[False])
        self._pruned_at = max(PRUNE_FROM, 2 * held)

    def answer(self, call: _Call) -> None:
        self.answered[call.index] = 1
        if call.call_id is not None:  # an id's calls, once all answered, are not kept for ever
            calls = self.by_id.get(call.call_id)
            if calls is not None and all(self.answered[other.index] for other in calls):
                del self.by_id[call.call_id]

    def first(self, queue: deque[_Call] | None) -> _Call | None:
        while queue and self.answered[queue[0].index]:
            queue.popleft()
        return queue[0] if queue else None

    def first_with_id(self, call_id: str) -> _Call | None:
        calls = self.by_id.get(call_id)
        while calls and self.answered[calls[0].index]:
            del calls[0]  # a list of one or two: ids are seldom used twice
        return calls[0] if calls else None

    def earliest(self, without_id: deque[_Call] | None, with_id: deque[_Call] | None) -> _Call | None:
        return self.first(without_id) or self.first(with_id)

    def remaining(self) -> list[_Call]:
        calls = [call for queue in self.in_order.values() for call in queue if not self.answered[call.index]]
        return sorted(calls, key=lambda call: call.index)


def pair_calls(messages: Sequence[Message], replies_without_id: str = BY_NAME,
               cancelled: frozenset[int] = frozenset()) -> tuple[list[Pair], list[Diagnostic]]:
    """Pairs and the diagnostics about duplicates, orphans and unanswered calls.

    `replies_without_id` is BY_NAME or BY_ORDER (see the module docstring). `cancelled` holds the indices of
    calls the runtime cancelled: they expect no reply, so they are not reported as unanswered (their
    E-TOOL-CANCELLED already says what happened)."""
    pairing = Pairing(replies_without_id)
    pairs, diagnostics = pairing.feed(messages)
    by_index = {message.index: message for message in messages} if messages and messages[0].index else None
    last_index = messages[-1].index if messages else -1
    for index, recipient in pairing.unanswered(cancelled):
        call = by_index[index] if by_index is not None else messages[index]
        diagnostics.append(_unanswered(call.header or call.span, index, recipient, last_index))
    return pairs, diagnostics


class Pairing:
    """Calls paired with their replies as the messages come, in order, a batch at a time (a session read a piece
    at a time: viewer/parse/streamed.py), keeping of each open call its index, id and tool alone."""

    def __init__(self, replies_without_id: str = BY_NAME) -> None:
        self.rule = replies_without_id
        self.open = _OpenCalls()
        self.first_with_id: dict[str, int] = {}
        """Each call id -> the first call that used it."""
        self.last_index = -1

    def feed(self, messages: Iterable[Message]) -> tuple[list[Pair], list[Diagnostic]]:
        """The pairs whose reply is among `messages` (which follow every message fed before), and the
        diagnostics about them: duplicate ids, orphan replies."""
        pairs: list[Pair] = []
        diagnostics: list[Diagnostic] = []
        open_calls = self.open
        for message in messages:
            self.last_index = message.index
            role = message.role  # most messages are neither calls nor replies: skip them cheaply
            if role == "assistant" and is_assistant_call(message):
                self._note_duplicate(message, diagnostics)
                open_calls.add(message)
            elif role == "tool":
                call, by = _find_call(message, open_calls, self.rule)
                if call is None:
                    diagnostics.append(_orphan(message))
                    continue
                open_calls.answer(call)
                pairs.append(Pair(call=call.index, reply=message.index, by=by))
        return pairs, diagnostics

    def unanswered(self, cancelled: frozenset[int] = frozenset()) -> list[tuple[int, str | None]]:
        """The calls never answered (but those the runtime cancelled), in order: their index and tool."""
        return [(call.index, call.recipient) for call in self.open.remaining() if call.index not in cancelled]

    def _note_duplicate(self, call: Message, diagnostics: list[Diagnostic]) -> None:
        if call.call_id is None:
            return
        first = self.first_with_id.setdefault(call.call_id, call.index)
        if first != call.index:
            diagnostics.append(make_diagnostic(
                "W-DUPLICATE-CALL-ID", call.header or call.span,
                f"call_id {call.call_id!r} was already used by message {first}; replies pair with the earliest "
                "unanswered one.", call.index))


def is_assistant_call(message: Message) -> bool:
    """`message.is_call` for an assistant message, without the property's call for the many that end plainly
    and address no one (a third of the time of pairing a long transcript)."""
    return message.end == "call" or message.recipient is not None and message.is_call


def _find_call(reply: Message, open_calls: _OpenCalls, replies_without_id: str) -> tuple[_Call | None, str]:
    if reply.call_id is not None:
        return open_calls.first_with_id(reply.call_id), "call_id"
    named = _earliest_to(reply.name, open_calls) if reply.name is not None else None
    if replies_without_id == BY_NAME:
        return named, BY_NAME
    # In order (ChatML), but a reply that names a tool goes to that tool's earliest open call when the call next
    # in order is to another tool.
    in_order = open_calls.earliest(open_calls.in_order[False], open_calls.in_order[True])
    if named is not None and named is not in_order:
        return named, BY_NAME
    return in_order, BY_ORDER


def _earliest_to(tool: str, open_calls: _OpenCalls) -> _Call | None:
    return open_calls.earliest(open_calls.by_tool.get((False, tool)), open_calls.by_tool.get((True, tool)))


def _orphan(reply: Message) -> Diagnostic:
    if reply.call_id is not None:
        why = f"no open call has call_id {reply.call_id!r}"
    else:
        why = f"no earlier unanswered call to {reply.name or 'this tool'}"
    return make_diagnostic("W-ORPHAN-REPLY", reply.header or reply.span, f"Tool reply answers nothing: {why}.",
                           reply.index)


def _unanswered(span: Span, index: int, recipient: str | None, last_index: int) -> Diagnostic:
    text, expected = unanswered_text(index, recipient, last_index)
    return make_diagnostic("W-UNANSWERED-CALL", span, text, index, expected=expected)


def unanswered_text(index: int, recipient: str | None, last_index: int) -> tuple[str, bool]:
    """What W-UNANSWERED-CALL says of call `index` to `recipient`, and whether it is expected: a call that ends
    the transcript is waiting for its tool, which is normal for a completion."""
    waiting = index == last_index
    return (f"Call to {recipient or 'a tool'} has no reply" + (" yet (it ends the transcript)." if waiting else "."),
            waiting)
