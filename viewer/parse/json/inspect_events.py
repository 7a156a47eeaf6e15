"""An Inspect AI sample's `events` (`inspect_ai.event`): the run's own record of what happened, beside the
conversation its `messages` hold. Each event but the spans is a hidden entry of its own after the messages, in
the order written: a system message named after its kind (`model_call`, `tool`, `score`, `state_change`,
`sample_init` …), its body the event as JSON, its time, model, stop reason and tokens its meta. A scorer's own
model call (a model-graded scorer's prompt and the grader's reply, `role: grader`) is such an entry, as is its
score.

`span_begin` and `span_end` events are frame: the spans an event stands in are named in its body (`"span":
"scorers › scorer model_graded_fact"`); legacy `step` events (`action: begin | end`) likewise.

Inspect moves long strings into the sample's `attachments` (`attachment://<hash>` left in their place) and, since
2026, pools the model calls' inputs in `events_data` (`input_refs` and `call.call_refs`: ranges of its `messages`
and `calls`). An entry shows them resolved, with one exception: the conversation so far that each of the
solver's model calls was given (`input`, and the raw request's messages) repeats the messages already shown, so
it stays as written (references and ranges), which keeps a long run's entries as long as its file. A scorer's
model call is shown whole.
"""
from __future__ import annotations

import re
from typing import Any, TypeGuard

from viewer.model import Meta, Usage
from viewer.parse.common import shown_json
from viewer.parse.json.fields import list_in, object_in
from viewer.parse.json.positions import Node
from viewer.parse.json.response_meta import NOTHING, stop_reason
from viewer.parse.json.source import Draft

ATTACHMENT = "attachment://"
BOOKKEEPING = ("event", "timestamp", "working_start", "uuid", "span_id", "pending")
"""Members of every event that say where and when it stands, read into the entry's name and meta."""
SPANS = ("span_begin", "span_end", "step")


def read_events(events: list[Node], sample: dict[str, Any], builder: Any) -> None:
    """Each event of a sample as a hidden entry of its own (see the module's docstring), one turn each."""
    attachments, pools = object_in(sample, "attachments"), object_in(sample, "events_data")
    spans: dict[str, tuple[str | None, str]] = {}
    opened: list[str] = []
    for node in events:
        event = node.value
        if not isinstance(event, dict):
            continue  # kept in the source; nothing to name
        kind = event.get("event")
        if kind in SPANS:
            _follow(event, spans, opened)
            continue
        within = _within(event, spans, opened)
        builder.add_pieces([_entry(event, within, attachments, pools)], node.span)


def _follow(event: dict[str, Any], spans: dict[str, tuple[str | None, str]], opened: list[str]) -> None:
    """Remember a span (its parent and its words, `solver generate`), and which spans are open, in order, for
    events that do not name theirs (legacy steps, logs without span ids)."""
    kind = event.get("event")
    begins = kind == "span_begin" or kind == "step" and event.get("action") == "begin"
    key = str(event.get("id") if kind != "step" else f"step:{event.get('type')}:{event.get('name')}")
    if begins:
        said = [part for part in (event.get("type"), event.get("name")) if isinstance(part, str) and part]
        words = " ".join(dict.fromkeys(said))
        parent = event.get("parent_id") if isinstance(event.get("parent_id"), str) else (opened[-1] if opened
                                                                                           else None)
        spans[key] = (parent, words)
        opened.append(key)
    elif key in opened:
        opened.remove(key)


def _within(event: dict[str, Any], spans: dict[str, tuple[str | None, str]], opened: list[str]) -> list[str]:
    """The words of the spans an event stands in, innermost first (`scorer model_graded_fact`, `scorers`)."""
    key = event.get("span_id") if isinstance(event.get("span_id"), str) else (opened[-1] if opened else None)
    found: list[str] = []
    while key is not None and key in spans and len(found) < 64:
        parent, words = spans[key]
        if words:
            found.append(words)
        key = parent
    return found


def _entry(event: dict[str, Any], within: list[str], attachments: dict[str, Any], pools: dict[str, Any]) -> Draft:
    kind = event.get("event")
    scorer = next((words.removeprefix("scorer ") for words in within if words.startswith("scorer ")), None)
    shown = {key: value for key, value in event.items() if key not in BOOKKEEPING}
    if kind == "model" and (scorer is not None or event.get("role")):
        shown = _pooled(shown, pools)
        shown = resolved(shown, attachments)
    elif kind == "model":  # the solver's call: the conversation it was given is the messages shown
        given = {key: shown.pop(key) for key in ("input", "input_refs") if key in shown}
        call = shown.pop("call", None)
        shown = resolved(shown, attachments) | given
        if isinstance(call, dict):
            shown["call"] = resolved({key: value for key, value in call.items() if key != "request"},
                                      attachments) | ({"request": call["request"]} if "request" in call else {})
        elif call is not None:
            shown["call"] = call
    else:
        shown = resolved(shown, attachments)
    if within:
        shown = {"span": " › ".join(reversed(within)), **shown}
    return Draft(dict(role="system", name=_name(kind), channel="final", content_type="json",
                      content=shown_json(shown), end="end", meta=_meta(event)), None)


NAMES = {"model": "model_call", "state": "state_change", "store": "store_change", "score_edit": "score_edit"}
"""An entry's name: its event's kind (a word of letters, digits and `_`, as every dialect's `name=` is), the model
call's shortened."""


def _name(kind: Any) -> str:
    if not isinstance(kind, str) or not re.fullmatch(r"[A-Za-z0-9_]{1,40}", kind):
        return "event"
    return NAMES.get(kind, kind)


def _meta(event: dict[str, Any]) -> Meta | None:
    """An event's time, and a model call's model, stop reason and tokens (on its entry: one call, one response)."""
    output = object_in(event, "output") if event.get("event") == "model" else {}
    choices = list_in(output, "choices")
    first = choices[0] if choices and isinstance(choices[0], dict) else {}
    model = output.get("model") or event.get("model") if event.get("event") == "model" else None
    timestamp = event.get("timestamp")
    meta = Meta(timestamp=timestamp if isinstance(timestamp, str) else None,
                model=model if isinstance(model, str) and model else None,
                stop_reason=stop_reason(first.get("stop_reason")), usage=inspect_usage(output.get("usage")))
    return None if meta == NOTHING else meta


def inspect_usage(figures: Any) -> Usage | None:
    """Inspect's ModelUsage (`input_tokens`, `output_tokens`, `input_tokens_cache_read`,
    `input_tokens_cache_write`, `total_cost`)."""
    if not isinstance(figures, dict) or not _is_count(figures.get("input_tokens")):
        return None
    counts = [figures.get(key) for key in ("output_tokens", "input_tokens_cache_read", "input_tokens_cache_write")]
    cost = figures.get("total_cost")
    output, cache_read, cache_write = (count if _is_count(count) else 0 for count in counts)
    return Usage(figures["input_tokens"], output, cache_read, cache_write,
                 cost=cost if isinstance(cost, (int, float)) and not isinstance(cost, bool) else None)


def _pooled(shown: dict[str, Any], pools: dict[str, Any]) -> dict[str, Any]:
    """A model event whose input and raw request were pooled (`input_refs`, `call.call_refs`), given back whole."""
    shown = dict(shown)
    refs = shown.get("input_refs")
    if refs and not shown.get("input"):
        shown["input"] = _ranges(pools.get("messages"), refs)
        del shown["input_refs"]
    call = shown.get("call")
    if isinstance(call, dict) and call.get("call_refs") and isinstance(call.get("request"), dict):
        key = call.get("call_key") if isinstance(call.get("call_key"), str) else "messages"
        request = {**call["request"], key: _ranges(pools.get("calls"), call["call_refs"])}
        shown["call"] = {name: value for name, value in call.items() if name not in ("call_refs", "call_key")} | {
            "request": request}
    return shown


def _ranges(pool: Any, refs: Any) -> Any:
    """The items of a pool that `[[start, end], …]` name, in order; the ranges as written when they cannot be
    read."""
    if not isinstance(pool, list) or not isinstance(refs, list):
        return refs
    found = []
    for ref in refs:
        if not (isinstance(ref, list) and len(ref) == 2 and all(_is_count(end) for end in ref)):
            return refs
        found.extend(pool[ref[0]:ref[1]])
    return found


def resolved(value: Any, attachments: dict[str, Any]) -> Any:
    """A value with every `attachment://<hash>` string that names an attachment replaced by its text."""
    if isinstance(value, str):
        if value.startswith(ATTACHMENT):
            found = attachments.get(value[len(ATTACHMENT):])
            return found if isinstance(found, str) else value
        return value
    if isinstance(value, dict):
        return {key: resolved(item, attachments) for key, item in value.items()}
    if isinstance(value, list):
        return [resolved(item, attachments) for item in value]
    return value


def _is_count(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
