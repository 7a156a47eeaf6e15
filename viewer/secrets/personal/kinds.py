"""The kinds of personal data the scan finds: a short key each (the uploader's choices and the stored counts
name kinds by it), the words a person reads, and what stands in a text where one was masked."""
from __future__ import annotations

import re
from dataclasses import dataclass

REDACTED = "redacted"
"""The kind of a passage the uploader redacted (viewer/ingest/masking.py): masked as personal data is, never
found by the scan."""


@dataclass(frozen=True, slots=True)
class Kind:
    key: str
    """What choices, forms and stored counts call it: `email`, `card` …"""
    name: str
    """For a person: `e-mail address`, `payment card number` …"""
    placeholder: str
    """What stands where one was masked (a card's adds its last four digits)."""


KINDS: dict[str, Kind] = {kind.key: kind for kind in (
    Kind("email", "e-mail address", "[email]"),
    Kind("phone", "phone number", "[phone]"),
    Kind("card", "payment card number", "[card]"),
    Kind("iban", "IBAN", "[IBAN]"),
    Kind("us-ssn", "US Social Security number", "[US SSN]"),
    Kind("uk-nino", "UK National Insurance number", "[UK NI number]"),
    Kind("uk-nhs", "NHS number", "[NHS number]"),
    Kind("ca-sin", "Canadian Social Insurance Number", "[SIN]"),
    Kind("es-dni", "Spanish DNI or NIE", "[DNI]"),
    Kind("it-cf", "Italian codice fiscale", "[codice fiscale]"),
    Kind("ip", "IP address", "[IP address]"),
    Kind(REDACTED, "passage redacted by the uploader", "[redacted]"),
)}
"""Every kind, in the order the manage page lists them."""
FOUND = tuple(key for key in KINDS if key != REDACTED)
"""The kinds the scan finds (a redaction is the uploader's, not found)."""
_DIGIT = re.compile(r"\d")


def placeholder(kind: str, value: str) -> str:
    """What a link holder reads where personal data of `kind` was: a card keeps its last four digits, as a
    receipt prints it (`[card …6467]`), so that a reader can tell two cards apart; nothing else keeps any."""
    if kind == "card":
        digits = "".join(_DIGIT.findall(value))
        return f"[card …{digits[-4:]}]" if len(digits) >= 12 else KINDS[kind].placeholder
    return KINDS[kind].placeholder if kind in KINDS else "[personal data]"


def name(kind: str) -> str:
    return KINDS[kind].name if kind in KINDS else kind
