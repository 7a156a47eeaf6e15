"""Where the personal data recognisers run: their anchors, found in one pass of the anchor engine (Hyperscan
where it is installed, else `re`: viewer/secrets/engines), over the same ASCII view of the text as the secrets'
anchors. An anchor only opens a window; the recognisers decide."""
from __future__ import annotations

from viewer.secrets import engines
from viewer.secrets.anchors import ascii_view

SHAPES: dict[str, tuple[str, int]] = {
    # name: (shape, where the anchor is in it)
    "at": (r"[A-Za-z0-9_.+%-]@[A-Za-z0-9]", 1),  # an e-mail address's @
    "digits": (r"[0-9](?:[ ().\-/]{0,2}[0-9]){6}", 0),  # seven digits close together: phone, card, id numbers
    "dotted": (r"[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]", 0),  # an IPv4 address
    "colons": (r"[0-9A-Fa-f]:[0-9A-Fa-f]{0,4}:", 0),  # an IPv6 address
    "letters and digits": (r"[A-Z]{2} ?[0-9]{2}", 0),  # an IBAN's country and check digits, an NI number
    "codice fiscale": (r"[A-Z]{6}[0-9LMNPQRSTUV]{2}[A-EHLMPR-T]", 0),
}
"""Every anchor, by name (the recognisers name theirs)."""
SLICE = 1 << 20
"""Characters of the text viewed at a time, as the secrets' anchors are read."""
WIDEST = 64
_ENGINE = engines.fastest([(shape, False) for shape, _ in SHAPES.values()])


def find_anchors(text: str) -> dict[str, list[int]]:
    """Where each anchor is in the text, by name (in no order)."""
    found: dict[str, list[int]] = {name: [] for name in SHAPES}
    for begin in range(0, len(text), SLICE):
        view = ascii_view(text[begin:begin + SLICE + WIDEST])
        for (name, (_, at)), starts in zip(SHAPES.items(), _ENGINE.starts(view)):
            if starts:
                found[name] += [begin + start + at for start in starts if start < SLICE]
    return found
