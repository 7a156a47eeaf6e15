"""What a session's model responses cost, priced from their usage with genai-prices' table, which ships inside the
package (nothing is fetched: its `UpdatePrices` is never started): each response at the prices in force on its
day, its input, output, cache reads and cache writes apart; per message in the debug view, per model and for the
session in its header. A model the table does not know is said plainly ("unknown model"), never priced as zero;
a producer's own record of a cost (`Usage.cost`) is shown beside the table's.

The model's `Usage` counts input without the cache (`input`), as Anthropic does; genai-prices wants the whole
input with the cache reads and writes inside it (OpenAI's way), so they are added back before pricing.
"""
from __future__ import annotations

import datetime as dt
import threading
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Iterable

from cachetools import LRUCache

from viewer.model import Usage

PER_TOKENS = 1_000_000
"""genai-prices' prices are per million tokens."""
PARTS = (("input", "input_mtok"), ("cache read", "cache_read_mtok"), ("cache write", "cache_write_mtok"),
         ("output", "output_mtok"))


@dataclass(frozen=True, slots=True)
class Priced:
    """One response's (or a sum's) price in US dollars, by part."""

    input: Decimal = Decimal(0)
    """Input read afresh (not from the cache)."""
    cache_read: Decimal = Decimal(0)
    cache_write: Decimal = Decimal(0)
    output: Decimal = Decimal(0)
    total: Decimal = Decimal(0)
    """The table's total (the parts' sum, and anything else it prices)."""

    def __add__(self, other: Priced) -> Priced:
        return Priced(self.input + other.input, self.cache_read + other.cache_read,
                      self.cache_write + other.cache_write, self.output + other.output, self.total + other.total)

    @property
    def parts(self) -> list[tuple[str, Decimal]]:
        return [("input", self.input), ("cache read", self.cache_read), ("cache write", self.cache_write),
                ("output", self.output)]


@dataclass(frozen=True, slots=True)
class Price:
    """A response priced, or why it could not be."""

    priced: Priced | None
    matched: str | None = None
    """The table's model (and provider) the response's model was matched to."""
    unknown: str | None = None
    """Why it is not priced: the model the table does not know, or a response that names no model."""


def table_version() -> str:
    import genai_prices  # noqa: PLC0415 - its table takes a fifth of a second to load: only when pricing
    return str(genai_prices.__version__)


def price(usage: Usage, model: str | None, timestamp: str | None = None) -> Price:
    """One response's price from its usage and model, at the prices of its day when its time is known."""
    if not model:
        return Price(None, unknown="a response that names no model")
    from genai_prices import Usage as Counted, calc_price  # noqa: PLC0415 - see table_version
    from genai_prices.types import calc_unit_price  # noqa: PLC0415
    whole_input = usage.input + usage.cache_read + usage.cache_write
    counted = Counted(input_tokens=whole_input, cache_read_tokens=usage.cache_read,
                      cache_write_tokens=usage.cache_write, output_tokens=usage.output)
    try:
        found = calc_price(counted, model_ref=model, genai_request_timestamp=_time(timestamp))
    except (LookupError, ValueError):
        return Price(None, unknown=f"unknown model {model}")
    prices = found.model_price
    counts = {"input_mtok": usage.input, "cache_read_mtok": usage.cache_read, "cache_write_mtok": usage.cache_write,
              "output_mtok": usage.output}
    parts = {key: calc_unit_price(getattr(prices, key, None), count, whole_input, PER_TOKENS)
             for key, count in counts.items()}
    return Price(Priced(parts["input_mtok"], parts["cache_read_mtok"], parts["cache_write_mtok"], parts["output_mtok"],
                        found.total_price), matched=f"{found.provider.id} {found.model.id}")


def _time(timestamp: str | None) -> dt.datetime | None:
    if not timestamp:
        return None
    try:
        when = dt.datetime.fromisoformat(timestamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=dt.timezone.utc)


def dollars(amount: Decimal | float) -> str:
    """`$0.0122`: four decimals under a dollar, two above."""
    value = Decimal(str(amount)) if isinstance(amount, float) else amount
    return f"${value:,.4f}" if abs(value) < 1 else f"${value:,.2f}"


def said(found: Price) -> str:
    """A response's price as the debug view lists it."""
    if found.priced is None:
        return f"not priced: {found.unknown}"
    priced = found.priced
    parts = " · ".join(f"{name} {dollars(amount)}" for name, amount in priced.parts if amount)
    return f"{dollars(priced.total)}" + (f" ({parts})" if parts else "") + f" · {found.matched}"


@dataclass
class ModelCost:
    """What one model's responses cost in a session."""

    model: str
    responses: int = 0
    usage: Usage = field(default_factory=Usage)
    priced: Priced | None = None
    """The sum of its priced responses; None when none could be priced."""
    unpriced: int = 0
    """Responses the table could not price."""
    unknown: str | None = None
    matched: str | None = None


@dataclass
class Costs:
    """A session's cost, per model and in all."""

    models: list[ModelCost]
    version: str
    recorded: float | None = None
    """What the producer itself recorded the responses cost (the sum of `Usage.cost`), where it did."""

    @property
    def total(self) -> Priced | None:
        priced = [model.priced for model in self.models if model.priced is not None]
        return sum(priced[1:], priced[0]) if priced else None

    @property
    def unpriced(self) -> int:
        return sum(model.unpriced for model in self.models)


def session_costs(responses: Iterable[tuple[str | None, Usage, str | None]]) -> Costs | None:
    """The costs of a session's responses, each `(model, usage, time)`; None when it records no usage."""
    by_model: dict[str, ModelCost] = {}
    recorded: list[float] = []
    for model, usage, timestamp in responses:
        named = model or "(no model named)"
        cost = by_model.setdefault(named, ModelCost(named))
        cost.responses += 1
        cost.usage = cost.usage + usage
        if usage.cost is not None:
            recorded.append(usage.cost)
        found = price(usage, model, timestamp)
        if found.priced is None:
            cost.unpriced += 1
            cost.unknown = found.unknown
            continue
        cost.priced = found.priced if cost.priced is None else cost.priced + found.priced
        cost.matched = found.matched
    if not by_model:
        return None
    return Costs(list(by_model.values()), table_version(), sum(recorded) if recorded else None)


_CACHE: LRUCache = LRUCache(maxsize=256)
_LOCK = threading.Lock()


def of_record(store: Any, record: Any) -> Costs | None:
    """A stored session's costs (read once per stored parse: a record's responses do not change until it is
    parsed again)."""
    key = (record.id, record.parser_version, record.message_count)
    with _LOCK:
        if key in _CACHE:
            return _CACHE[key]
    found = session_costs(store.usages(record.id))
    with _LOCK:
        _CACHE[key] = found
    return found


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the header's table of costs."""

    model: str
    responses: int
    tokens: str
    cost: str
    parts: str
    unknown: bool


def rows(costs: Costs) -> list[Row]:
    """The header's table: a row per model, then the session's total."""
    made = []
    for model in costs.models:
        used = model.usage
        tokens = (f"in {used.input:,} · out {used.output:,} · cache read {used.cache_read:,} · "
                  f"cache write {used.cache_write:,}")
        if model.priced is None:
            made.append(Row(model.model, model.responses, tokens, model.unknown or "not priced", "", True))
            continue
        note = f" ({model.unpriced:,} not priced: {model.unknown})" if model.unpriced else ""
        made.append(Row(model.model, model.responses, tokens, dollars(model.priced.total) + note,
                        _parts(model.priced) + (f" · as {model.matched}" if model.matched else ""), bool(note)))
    total = costs.total
    if len(costs.models) > 1 or total is None:
        count = sum(model.responses for model in costs.models)
        made.append(Row("session", count, "", dollars(total.total) if total is not None else "not priced",
                        _parts(total) if total is not None else "", total is None or costs.unpriced > 0))
    return made


def _parts(priced: Priced) -> str:
    return " · ".join(f"{name} {dollars(amount)}" for name, amount in priced.parts)
