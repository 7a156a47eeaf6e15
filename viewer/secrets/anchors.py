"""Where detectors run: anchors, short shapes found in the whole text, and the windows of the lines around them
are all a detector sees.

Every anchor and every secret-sounding name is found by one engine (`engines/`): Hyperscan, one pass for them
all, where it is installed, else Python's `re`, one search each, with the same findings. Hyperscan reads bytes,
so both read `ascii_view(text)`: the text with each other character as `?`, the codec's own replacement (a
handler of ours, called once per run of such characters, took twice as long on text with dashes and accents).
Offsets stay the text's and the shapes are ASCII; where a shape takes a word character it takes `?` too, so no
anchor that Python's `\\w` would find is lost (a few more are found, which only opens a window).
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator, Pattern

from viewer.secrets import engines

RUN = r"[\w.-]{0,40}+"
"""The rest of a name before what gives it a value. Possessive: nothing that may follow it is a character of a
name, so giving characters back never helps a match, and a name with no value (the common case) fails at once."""
GIVEN = re.compile(rf"""{RUN}["'\]]{{0,2}}[ \t]*(?P<given>[:=!(]|[ \t]["'`])""")
"""Where a name is given a value: the rest of the name, then `:`, `=`, `(` or a quote. A name counts as an anchor
only where this matches after its letter, so that `the key idea` or `each token costs` opens no window (the
keyword patterns are the slowest of all). detect-secrets' reversed comparison (`"…" == password`) and its AWS
pattern's free text between name and value (`aws key is "…"`) are the forms of its patterns this leaves out. Its
C++ form `secret.assign("…")` is here as `(`, the run taking `.assign`."""
GIVEN_24 = re.compile(GIVEN.pattern + r"""\s*["'`]?[\w+/-]{24}""")
"""A name given a value of at least 24 characters, as the assignment patterns of Cloudant, IBM and SoftLayer
need (`RegexBasedDetector.build_assignment_regex`)."""
GIVEN_40 = re.compile(GIVEN.pattern + r"""\s*["'`][0-9a-zA-Z/+]{40}""")
"""A name given a quoted value of 40 characters, as the AWS secret access key pattern needs."""

GITLAB = ("pat", "dt", "ft", "soat", "rt", "cbt", "imt", "ptt", "agent", "oas")
SHAPES: dict[str, tuple[tuple[str, int], ...]] = {
    # name: (shape, where the anchor is in it), a window being placed around the anchor. Each key's prefix is
    # an anchor of its own, so that a GitHub token wakes the detectors of GitHub tokens and no other.
    "AWS": ((r"A(?:3T|BIA|CCA|KIA|SIA)", 0),),
    "Twilio": ((r"AC[a-z0-9]", 0), (r"SK[a-z0-9]", 0)),
    "Artifactory": ((r"AKC", 0), (r"AP[0-9A-F]", 0)),
    "Google": ((r"AIza", 0),),
    "Azure": ((r"AccountKey=", 0),),
    "PyPI": ((r"AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)", 0),),
    "SendGrid": ((r"SG\.", 0),),
    "private key": ((r"PRIVATE KEY", 0), (r"PuTTY-User-Key-File", 0)),
    "JWT": ((r"eyJ", 2),),
    "xAI": ((r"xai-", 0),),
    "Slack": ((r"xox[abposr]-", 0),),
    "Stripe": ((r"_live_", 0),),
    "npm": ((r"_authToken", 0),),
    "GitHub": ((r"gh[pousr]_", 3),),
    "GitHub fine-grained": ((r"github_pat_", 6),),
    "Hugging Face": ((r"hf_", 2),),
    "Replicate": ((r"r8_", 2),),
    "Groq": ((r"gsk_", 3),),
    "sk-": ((r"sk-", 2),),  # OpenAI, Anthropic, OpenRouter and the OpenAI-compatible APIs
    "Mailchimp": ((r"-us[0-9]", 0),),
    "Square": ((r"sq0csp-", 6),),
    "GitLab": ((r"GR1348941", 0), *((f"gl{prefix}-", 2 + len(prefix)) for prefix in GITLAB)),
    "URL": ((r"://", 2),),  # passwords in URLs
    "Slack webhook": ((r"hooks\.slack\.com", 0),),
    "Cloudant URL": ((r"\.cloudant\.com", 0),),
    "SoftLayer URL": ((r"api.softlayer.com", 0),),  # detect-secrets' pattern has `.`, not `\.`
    "Telegram": ((r"[0-9?]{8}:[\w?-]{35}", 8),),  # a bot's number (`\d`, so a non-ASCII digit too) and `:`
    "Discord": ((r"\.[\w?-]{6}\.[\w?-]{27}", 0),),
}
"""Where a secret with a shape of its own may be, by the anchor's name."""
KEYWORDS = ("api_?key", "auth_?key", "service_?key", "account_?key", "db_?key", "database_?key", "priv_?key",
            "private_?key", "client_?key", "db_?pass", "database_?pass", "key_?pass", "password", "passwd", "pwd",
            "secret", "contraseña", "contrasena")
"""detect-secrets' list of secret-sounding names (`detect_secrets.plugins.keyword.DENYLIST`: tests/secrets checks
that this is the same list), written out here so that a scan imports the library only when a window needs one of
its detectors (viewer/secrets/detectors.py): the library takes longer to import than a small file takes to parse
and scan."""
CLOSE_LETTERS = {"\u212a": "k", "\u017f": "s", "\u0130": "i", "\u0131": "i"}
"""The non-ASCII characters that Python's case-insensitive matching takes for ASCII letters: the Kelvin sign,
the long s, and the dotted capital and dotless small i."""


def as_ascii_letters(text: str) -> str:
    """The text with each of the `CLOSE_LETTERS` as the ASCII letter it is taken for (same offsets). An ASCII
    text is returned at once: it cannot hold them."""
    for letter, ascii_letter in CLOSE_LETTERS.items():
        if letter in text:
            text = text.replace(letter, ascii_letter)
    return text


def ascii_view(text: str) -> bytes:
    """The text as Hyperscan reads it: one byte per character, each non-ASCII one as `?` but for the
    `CLOSE_LETTERS` (see the module)."""
    return as_ascii_letters(text).encode("ascii", "replace")


def _ascii_pattern(name: str) -> str:
    """A name as it reads in the ASCII view (`contrase\\?a`)."""
    return "".join(character if character.isascii() else r"\?" for character in name)


NAME_WORDS: dict[str, tuple[tuple[str, int], ...]] = {
    "k": (("key", 0), ("token", 2)),
    "p": (("pass", 0), ("pw", 0)),  # password, passwd, pwd, db_pass
    "c": (("secret", 2), ("contrase", 0)),  # contraseña
    "u": (("auth", 1),),  # auth, Authorization
    "bearer": (("bearer", 0),),  # a token after the scheme alone (`-H "Bearer …"`), with no name before it
    "keyword": tuple((_ascii_pattern(name), 0) for name in KEYWORDS),
}
"""Secret-sounding names, in any case, by the letter a name anchor stands on (`GIVEN` is matched after it).
detect-secrets' keyword list and the assignment patterns of Cloudant, IBM, SoftLayer and AWS secret access
keys all contain key, pass, pw, token, secret or contraseña. `keyword` is that list itself (`api_?key`,
`password` …), each name's anchor on its first letter: its detector runs around those names only, not around
every `key =` or `token:` in code."""
ASSIGNMENT_NAMES = ("k", "p", "c")
GIVEN_AFTER: dict[str, Pattern[str]] = {"bearer": re.compile(rf"(?i:earer)\s|{GIVEN.pattern}")}
"""Where a name of the group is given a value, if not `GIVEN`: the `Bearer` scheme also by the space after it."""

_PATTERNS = [(expression, False, ("shape", name), at)
             for name, shapes in SHAPES.items() for expression, at in shapes]
_PATTERNS += [(word, True, ("name", letter), at) for letter, words in NAME_WORDS.items() for word, at in words]
EXPRESSIONS = [(expression, caseless) for expression, caseless, *_ in _PATTERNS]
"""Every anchor pattern as the engines read it (`engines.AnchorPattern`), in the order of their answers."""
SLICE = 1 << 20
"""Characters of the text viewed at a time by `find_anchors`."""
WIDEST = 64
"""What the widest anchor may match, in characters (the Telegram shape, 44, is the widest now); checked below."""


def _widest(expressions: list[tuple[str, bool]]) -> int:
    """The most characters any anchor pattern can match (an unbounded one would be an error here)."""
    return max(re._parser.parse(expression).getwidth()[1]  # type: ignore[attr-defined]  # the stub omits it
               for expression, _ in expressions)


if _widest(EXPRESSIONS) > WIDEST:  # a slice's view must hold every match that starts in it
    raise ValueError(f"an anchor pattern matches up to {_widest(EXPRESSIONS)} characters; WIDEST is {WIDEST}")
_FASTEST = engines.fastest(EXPRESSIONS)
DEFAULT_ENGINE = _FASTEST.name
"""The engine a scan uses unless told otherwise: `hyperscan`, or `re` where Hyperscan cannot be imported."""
_ENGINES: dict[str, engines.Engine] = {DEFAULT_ENGINE: _FASTEST}
"""The engines built so far, by name: the fastest one at import, another once asked for (`using`)."""
_IN_USE: ContextVar[str] = ContextVar("anchor engine", default=DEFAULT_ENGINE)


@contextmanager
def using(name: str) -> Iterator[None]:
    """Scans in this context (this thread, this task) find their anchors with the engine called `name`."""
    if name not in _ENGINES:
        _ENGINES[name] = engines.build(name, EXPRESSIONS)
    token = _IN_USE.set(name)
    try:
        yield
    finally:
        _IN_USE.reset(token)


def anchors(*names: str) -> tuple[str, ...]:
    """Anchor names, checked: a detector that named no anchor would never run."""
    return tuple(name for name in names if SHAPES[name])


def names(*letters: str) -> tuple[str, ...]:
    return tuple(letter for letter in letters if NAME_WORDS[letter])


def find_anchors(text: str) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """Where each shape's anchor is (by anchor name), and where each name's letter is with `GIVEN` after it (by
    letter): positions in the text, in no order.

    The text is read a slice at a time, each slice's view reaching `WIDEST` characters into the next, and a slice
    keeps the matches that start in it: every anchor is at most that wide and looks at nothing before it, so the
    positions are those of one view of the whole text, without a copy of a big upload's text as bytes."""
    shapes: dict[str, list[int]] = {name: [] for name in SHAPES}
    letters: dict[str, list[int]] = {letter: [] for letter in NAME_WORDS}
    found = {"shape": shapes, "name": letters}
    engine = _ENGINES[_IN_USE.get()]
    for begin in range(0, len(text), SLICE):
        view = ascii_view(text[begin:begin + SLICE + WIDEST])
        for (_, _, (kind, key), at), starts in zip(_PATTERNS, engine.starts(view)):
            if starts:
                found[kind][key] += [begin + start + at for start in starts if start < SLICE]
    for letter, positions in letters.items():
        given = GIVEN_AFTER.get(letter, GIVEN).match
        letters[letter] = [at for at in positions if given(text, at + 1)]
    return shapes, letters


def gated(text: str, positions: list[int], gate: Pattern[str]) -> list[int]:
    """The name positions where `gate` matches from the letter too."""
    allows = gate.match
    return [at for at in positions if allows(text, at)]
