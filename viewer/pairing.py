"""Pair every tool call with the reply that answers it.

Rules, in order: a shared `call_id`; else (ChatML 0.1) outputs answer calls in order; else (Harmony) a reply
from tool X answers the earliest unanswered call to X before it.
"""
from __future__ import annotations

from viewer.model import Diagnostic, Message, Pair


def pair_calls(messages: tuple[Message, ...], dialect: str) -> tuple[list[Pair], list[Diagnostic]]:
    """Pairs and the diagnostics about duplicates, orphans and unanswered calls."""
    pairs: list[Pair] = []
    diagnostics: list[Diagnostic] = []
    open_calls: list[Message] = []
    calls_by_id: dict[str, Message] = {}
    for message in messages:
        if message.is_call:
            _note_call(message, calls_by_id, diagnostics)
            open_calls.append(message)
        elif message.is_reply:
            call, by = _find_call(message, open_calls, calls_by_id, dialect)
            if call is None:
                diagnostics.append(_orphan(message))
                continue
            open_calls.remove(call)
            pairs.append(Pair(call=call.index, reply=message.index, by=by))
    last_index = messages[-1].index if messages else -1
    diagnostics.extend(_unanswered(call, last_index) for call in open_calls)
    return pairs, diagnostics


def _note_call(call: Message, calls_by_id: dict[str, Message], diagnostics: list[Diagnostic]) -> None:
    if call.call_id is None:
        return
    if call.call_id in calls_by_id:
        first = calls_by_id[call.call_id]
        diagnostics.append(Diagnostic(
            code="W-DUPLICATE-CALL-ID", severity="warning",
            message=f"call_id {call.call_id!r} was already used by message {first.index}; "
                    "replies pair with the earliest unanswered one.",
            span=call.header or call.span, message_index=call.index))
        return
    calls_by_id[call.call_id] = call


def _find_call(reply: Message, open_calls: list[Message], calls_by_id: dict[str, Message],
               dialect: str) -> tuple[Message | None, str]:
    if reply.call_id is not None:
        for call in open_calls:
            if call.call_id == reply.call_id:
                return call, "call_id"
        return None, "call_id"
    unnamed = [call for call in open_calls if call.call_id is None] or open_calls
    if dialect == "chatml":
        return (unnamed[0] if unnamed else None), "order"
    for call in unnamed:
        if reply.name is not None and call.recipient == reply.name:
            return call, "name"
    return None, "name"


def _orphan(reply: Message) -> Diagnostic:
    if reply.call_id is not None:
        why = f"no open call has call_id {reply.call_id!r}"
    else:
        why = f"no earlier unanswered call to {reply.name or 'this tool'}"
    return Diagnostic(code="W-ORPHAN-REPLY", severity="warning", message=f"Tool reply answers nothing: {why}.",
                      span=reply.header or reply.span, message_index=reply.index)


def _unanswered(call: Message, last_index: int) -> Diagnostic:
    # A call that ends the transcript is waiting for its tool, which is normal for a completion.
    waiting = call.index == last_index
    return Diagnostic(
        code="W-UNANSWERED-CALL", severity="info" if waiting else "warning",
        message=f"Call to {call.recipient or 'a tool'} has no reply"
                + (" yet (it ends the transcript)." if waiting else "."),
        span=call.header or call.span, message_index=call.index)
