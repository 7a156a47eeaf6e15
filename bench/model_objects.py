"""What making a message costs: a frozen dataclass's `__init__`, the draft classes the model used until
msgspec (a mutable object with the dataclass's slots whose class is then swapped), and the msgspec Struct that
`Message` now is (viewer/model/transcript.py), tracked by the cyclic collector or not.

Each way makes the same messages (Message's fields, given as keywords), as many as a 30 MB transcript holds, and keeps them all, as a parse
does: with the cyclic collector running, and paused (viewer/model/collector.py). The first row, the frozen
dataclass with the collector running, is the baseline of the ratios. Prints figures; asserts nothing.
Run: `.venv/bin/python bench/model_objects.py [--count 300000] [--runs 5]`.
"""
from __future__ import annotations

import argparse
import dataclasses
import gc
import sys
import time
from pathlib import Path
from typing import Any, Callable

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from viewer.model import Message  # noqa: E402
from viewer.model.collector import collector_paused  # noqa: E402

MESSAGE_FIELDS = Message.__struct_fields__
DataclassMessage = dataclasses.make_dataclass(
    "DataclassMessage", [(name, Any) for name in MESSAGE_FIELDS], frozen=True, slots=True)
"""Message's fields as the frozen dataclass with slots it was."""


class _Draft:
    """A mutable object with DataclassMessage's slots, so that it may become one."""

    __slots__ = MESSAGE_FIELDS


def drafted(**fields: Any) -> Any:
    """A DataclassMessage made as the model's drafts made one: fields set on a draft, then its class swapped."""
    draft = _Draft()
    for name, value in fields.items():
        setattr(draft, name, value)
    draft.__class__ = DataclassMessage
    return draft


TrackedStructMessage = msgspec.defstruct("TrackedStructMessage", [(name, Any) for name in MESSAGE_FIELDS],
                                         frozen=True)
"""Message's fields as a Struct the collector tracks, as it tracks a dataclass."""


def values(index: int) -> dict[str, Any]:
    return dict(index=index, turn=index // 2, role="assistant", body=f"body {index}", span_start=index * 40,
                span_end=index * 40 + 39, name=None, recipient=None, channel="final", channel_explicit=True,
                content_type=None, constrained=False, intent=None, call_id=None, end="end", segments=(),
                header_start=index * 40, header_end=index * 40 + 12, thread=None, parent=None, meta=None, aside=False,
                media=(), source=None, body_at=0, body_length=0)


WAYS: dict[str, Callable[..., Any]] = {
    "frozen dataclass": DataclassMessage,
    "frozen dataclass through a draft": drafted,
    "Message: msgspec Struct, frozen, gc=False": Message,
    "msgspec Struct, frozen, tracked": TrackedStructMessage,
}


def timed(make: Callable[..., Any], rows: list[dict[str, Any]], paused: bool) -> float:
    gc.collect()
    started = time.perf_counter()
    if paused:
        with collector_paused:
            kept = [make(**row) for row in rows]
    else:
        kept = [make(**row) for row in rows]
    elapsed = time.perf_counter() - started
    del kept
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rows = [values(index) for index in range(args.count)]
    baseline = None
    print(f"{args.count:,} messages kept, best of {args.runs} (CPython {sys.version.split()[0]})")
    for paused in (False, True):
        for name, make in WAYS.items():
            best = min(timed(make, rows, paused) for _ in range(args.runs))
            baseline = baseline or best
            label = f"{name}, collector {'paused' if paused else 'running'}"
            print(f"  {label:<58} {best * 1000:8.1f} ms  {best / args.count * 1e9:6.0f} ns each  "
                  f"{best / baseline:5.2f}x")


if __name__ == "__main__":
    main()
