"""Where the personal data recognisers run: their anchors, found in one pass of the anchor engine (Hyperscan
where it is installed, else `re`: viewer/secrets/engines), over the same ASCII view of the text as the secrets'
anchors. An anchor only opens a window; the recognisers decide."""
from __future__ import annotations

from viewer.secrets import engines
from viewer.secrets.anchors import ascii_view

SHAPES: dict[str, tuple[str, int, bool]] = {
    # name: (shape, where the anchor is in it, whether in any case)
    "at": (r"[A-Za-z0-9_.+%-]@[A-Za-z0-9]", 1, False),  # an e-mail address's @
    # Seven digits close together, the first not glued to a word: a phone, card or SSN number starts there (their
    # patterns let no letter, digit or `_` come before them), never inside an id (`msg_0100…`, `toolu_01…`).
    "digits": (r"\b[0-9](?:[ ().\-/]{0,2}[0-9]){6}", 0, False),
    "dotted": (r"[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]", 0, False),  # an IPv4 address
    "colons": (r"[0-9A-Fa-f]:[0-9A-Fa-f]{0,4}:", 0, False),  # an IPv6 address
    "letters and digits": (r"[A-Z]{2} ?[0-9]{2}", 0, False),  # an IBAN's country and check digits, an NI number
    "codice fiscale": (r"[A-Z]{6}[0-9LMNPQRSTUV]{2}[A-EHLMPR-T]", 0, False),
    # The names that the numbers too weak to count alone come after (recognisers.py `_named_number`), in any case
    # inside word edges (`re`'s engine lowers a caseless pattern whole, which `\b` would not survive).
    "ssn": (r"\b(?i:ssn|social security)\b", 0, False),
    "nhs": (r"\b(?i:nhs)\b", 0, False),
    "sin": (r"\b(?i:sin|social insurance)\b", 0, False),
    "dni": (r"\b(?i:dni|nie|nif|documento)\b", 0, False),
}
"""Every anchor, by name (the recognisers name theirs). `\b` is an ASCII word's edge in the ASCII view, where a
non-ASCII character is `?`: an anchor is never lost to one (an `é` before a number opens a window; its
recogniser, which knows Unicode's letters, decides)."""
SLICE = 1 << 20
"""Characters of the text viewed at a time, as the secrets' anchors are read."""
WIDEST = 64
_ENGINE = engines.fastest([(shape, caseless) for shape, _, caseless in SHAPES.values()])


def find_anchors(text: str) -> dict[str, list[int]]:
    """Where each anchor is in the text, by name (in no order)."""
    found: dict[str, list[int]] = {name: [] for name in SHAPES}
    for begin in range(0, len(text), SLICE):
        view = ascii_view(text[begin:begin + SLICE + WIDEST])
        for (name, (_, at, _)), starts in zip(SHAPES.items(), _ENGINE.starts(view)):
            if starts:
                found[name] += [begin + start + at for start in starts if start < SLICE]
    return found
