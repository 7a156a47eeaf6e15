"""Secrets known only by the name they are given: `"password": "…"`, `API_KEY=…`, `Authorization: Bearer …`.

Two detectors. detect-secrets' KeywordDetector patterns (its list of names: password, secret, api_key …) take
any value in quotes, and an unquoted value (`.env` files, YAML) only when it looks like a password rather than
a word of prose (`Password: required`). The entropy detector takes a value after a token-ish name (token,
secret, api key, authorization, bearer …) only when detect-secrets' Shannon entropy calls it random: its
context-free entropy detectors flag every hash, UUID and base64 blob in tool output (see bench/secret_scan.py).
"""
from __future__ import annotations

import base64
import functools
import re
from typing import TYPE_CHECKING, Iterator

from viewer.secrets.anchors import GIVEN, KEYWORDS, RUN, as_ascii_letters, names
from viewer.secrets.detectors import CONTEXT, KEYWORD, Detector, Hit, name_kind, plain_secret
from viewer.secrets.names import Names

if TYPE_CHECKING:
    from detect_secrets.plugins.high_entropy_strings import HighEntropyStringsPlugin

BASE64_LIMIT = 3.5
"""Shannon entropy (bits per character, detect-secrets' calculation) above which a value after a token-ish
name is a secret. detect-secrets defaults to 4.5 with no context, which no string under 23 characters can
reach; random letters and digits score a median 3.75 at 16 characters, 4.0 at 20 and 4.5 at 32 (1% of them
under 3.33, 3.65 and 4.2), so 3.5 keeps nearly all keys of 20 characters and more. Words, paths and dates
after such a name are left out by the other rules (letters and digits both, not `WORDY`), not by entropy."""
HEX_LIMIT = 3.0
"""The same for hexadecimal values (detect-secrets' default; random hex scores a median 3.2 at 16 digits and
3.6 at 32, 1% under 3.27)."""
MINIMUM = 16
"""Characters a value after a token-ish name needs (shorter ones are counts, flags and words)."""
REACH, UNQUOTED_REACH = 1024, 256
"""How far after the start of its name a value may end (an unquoted one, which ends at a space); patterns are
matched no further, so that a long line without a closing quote costs each name this much, not the rest of
the line."""

NAMES = re.compile("|".join(KEYWORDS))
"""detect-secrets' secret-sounding names, found in a window `folded` to lower case; its patterns are then tried
only where one starts (they begin with the same names, case-insensitively, and are the slowest patterns of all
when searched)."""
Patterns = dict[str, tuple[tuple[re.Pattern[str], int | tuple[int, int]], ...]]


@functools.cache
def keyword_patterns() -> Patterns:
    """detect-secrets' KeywordDetector patterns that can match a name given a value by `:`, `=`, `!=` or a space:
    (pattern, value group), or (pattern, (quote group, value group)) for its configuration-file patterns, whose
    quotes are optional. Its patterns for source code (a value in quotes) are the plugin's default; the reversed
    comparison (`"…" == password`) is left out: it starts with its value, not a name. Read from the library when
    a window first needs them (viewer/secrets/detectors.py, `plugin`, says why)."""
    from detect_secrets.plugins import keyword

    colon = keyword.FOLLOWED_BY_COLON_QUOTES_REQUIRED_REGEX
    equals = keyword.FOLLOWED_BY_EQUAL_SIGNS_QUOTES_REQUIRED_REGEX
    semicolon = keyword.FOLLOWED_BY_QUOTES_AND_SEMICOLON_REGEX
    arrow = keyword.FOLLOWED_BY_ARROW_FUNCTION_SIGN_QUOTES_REQUIRED_REGEX
    return {
        ":": ((colon, 5), (semicolon, 3), (keyword.FOLLOWED_BY_COLON_REGEX, (3, 4))),
        "=": ((equals, 5), (semicolon, 3), (arrow, 4), (keyword.FOLLOWED_BY_EQUAL_SIGNS_REGEX, (4, 5))),
        "!": ((equals, 5), (keyword.FOLLOWED_BY_EQUAL_SIGNS_REGEX, (4, 5))),
        " ": ((semicolon, 3),),
    }


PLACEHOLDER = re.compile(
    r"(?i)^(?:[x*•.…_-]+|your[\w-]*|<.*>|\{.*\}|\[.*\]|\(.*\)|%.*%|changeme|change[_-]?me|example[\w-]*"
    r"|dummy[\w-]*|fake[\w-]*|placeholder[\w-]*|redacted|hidden|masked|removed|none|null|nil|undefined|true"
    r"|false|yes|no|on|off|enabled|disabled|required|optional|todo|tbd|secret|password|passw0rd|sample[\w-]*"
    r"|test|testing|[\w.-]*(?:_here|_key|_token|_secret|_password)"
    r"|(?:process|os|env|config|settings|self|this)\.[\w.]+)$")
"""Values that stand for a secret rather than being one: `YOUR_API_KEY`, `<token>`, `****`, `os.environ.x`; and
the settings of a secret-sounding name (`'MODULE_PWD_STATE': 'yes'`)."""
WORDY = re.compile(r"[a-z]+\d*(?:[-_./][a-z]+\d*)+")
"""Lowercase words joined by `-_./` (`oauth2-client-credentials`): a name for something, not a key."""
PATH = re.compile(r"[a-z0-9_.~-]*(?:/[a-z0-9_.~-]+)+/?$")
"""A lowercase path (`prod/db/password`, `/etc/app/secret.key`): where a secret is kept, not the secret."""
CODE = re.compile(r"[A-Za-z_]+(?:\.[A-Za-z_]\w*)*")
"""A name or a dotted name without digits: a variable or an attribute, in code."""
VALUE_END = re.compile(r"[\s&;,]|\\[nrt]")
"""Where an unquoted value ends: a space (or one escaped, as in the text of a JSON document: `self.secret\\n`),
or the next parameter of a URL query or connection string."""
CLOSING = "`'\")]}>"
"""What an unquoted value does not end with: the end of inline code or of brackets around it (and it is judged
without the punctuation that may end a sentence after it)."""

NAME = (r"(?:token|secret|password|passwd|pwd|apikey|authorization|auth|(?:api|access|secret|private"
        r"|auth|client|signing|encryption|master|license|account|service|subscription)[-_.]?key)")
VALUE_CHARACTERS = r"[A-Za-z0-9+/=_.~-]"
VALUE = rf"(?P<value>{VALUE_CHARACTERS}{{{MINIMUM},}})"
NAME_TO_VALUE = r"(?:[\"'\]]{0,2}\s*(?::=|=>|[:=])\s*[\"'`]?(?i:(?:bearer|basic|token)\s+)?|(?<=(?i:bearer))\s+)"
"""From the end of a name to its value: an assignment and maybe an auth scheme, or the space after `Bearer`."""
TOKEN_NAMES = Names(re.compile(rf"bearer|{NAME}"), (
    "bearer", "token", "secret", "pass", "pwd", "api", "auth", "access", "private", "client", "signing", "encryption",
    "master", "license", "account", "service", "subscription"))
TOKEN_NAMED = re.compile(rf"(?i)(?<![a-z])(?:bearer|{NAME}){NAME_TO_VALUE}{VALUE}")
"""A value after a token-ish name that ends the name (`token` but not `tokenizer` or `max_tokens`), or after
`Bearer`; tried where `TOKEN_NAMES` finds a name in the lowercased window."""
BASIC = re.compile(r"(?i)\bbasic\s+$")
"""The `Basic` scheme before a value: base64 of `user:password`."""
NOT_SECRET_NAMES = re.compile(r"(?i)(?:page|cursor|continuation|next|csrf_?)[-_]?token")
"""Token-ish names of values that are not credentials (pagination cursors)."""

HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
DIGIT, LETTER = re.compile(r"\d"), re.compile(r"[A-Za-z]")


def _keywords(window: str) -> Iterator[Hit]:
    """detect-secrets' KeywordDetector patterns, every match (the plugin reports the first per line)."""
    for name in NAMES.finditer(folded(window)):
        at = name.start()
        given = GIVEN.match(window, at)
        for pattern, group in keyword_patterns().get(given["given"][0].replace("\t", " ") if given else "", ()):
            match = pattern.match(window, at, at + (REACH if isinstance(group, int) else UNQUOTED_REACH))
            if match is None:
                continue
            if isinstance(group, int):
                if plausible(match[group], _name(match, group)):
                    yield Hit(*match.span(group), name_kind(_name(match, group)))
                continue
            quote, group = group
            if match[quote]:
                continue  # quoted: the patterns above had it
            start = match.start(group)
            value = VALUE_END.split(match[group], 1)[0].rstrip(CLOSING)
            if plausible(value, _name(match, group)) and _password_like(value.rstrip(".:!?")):
                yield Hit(start, start + len(value), name_kind(_name(match, group)))


def folded(window: str) -> str:
    """The window in lower case, with the same offsets, where the letters that case-insensitive patterns take
    for ASCII ones (`ſ`, `ı`, `İ`, Kelvin's `K`) are those ASCII letters."""
    return as_ascii_letters(window).lower()


def _name(match: re.Match[str], group: int | str) -> str:
    """The match less its value: the name the value is given."""
    start, end = match.start(group) - match.start(), match.end(group) - match.start()
    return match[0][:start] + match[0][end:]


def plausible(value: str, name: str) -> bool:
    """Not a placeholder, a template, a reference, a path or an ID, by detect-secrets' filters and ours.
    detect-secrets' `is_likely_id_string` looks for an `_id` name anywhere before the value on its line; here
    it reads the value's own name (`"api_key_id": "…"`), a line being a whole JSON document at times."""
    from detect_secrets.filters import heuristic  # when first needed (viewer/secrets/detectors.py, `plugin`)

    return bool(value) and len(value) < 1000 and plain_secret(value) and not (
        PLACEHOLDER.match(value) or PATH.match(value) or heuristic.is_potential_uuid(value)
        or heuristic.is_prefixed_with_dollar_sign(value) or heuristic.is_likely_id_string(value, name + value))


def _password_like(value: str) -> bool:
    """An unquoted value: a password has letters, and digits or symbols; it is not a word ending a sentence
    (`Password: required.`), nor code (`password = password_input`, `secret == self.secret:`, a call)."""
    return (len(value) >= 6 and not any(character in value for character in "()[]{}<>")
            and not CODE.fullmatch(value) and any(character.isalpha() for character in value)
            and any(character.isdigit() or not (character.isalnum() or character == "_") for character in value))


def _token_named(window: str) -> Iterator[Hit]:
    done = 0
    for start in TOKEN_NAMES.starts(folded(window)):
        match = TOKEN_NAMED.match(window, start, start + REACH) if start >= done else None
        if match is None:
            continue
        done = match.end()  # a name inside this value is part of it
        value, name = match["value"].rstrip("."), _name(match, "value")
        if BASIC.search(name) and user_and_password(value):
            yield Hit(match.start("value"), match.start("value") + len(value), "Basic auth credentials")
            continue
        if NOT_SECRET_NAMES.search(window, max(0, match.start() - 24), match.start("value")) \
                or not random_looking(value) or not plausible(value, name):
            continue
        kind = "Bearer token" if "bearer" in name.lower() else name_kind(name)
        yield Hit(match.start("value"), match.start("value") + len(value), kind)


def user_and_password(value: str) -> bool:
    """Whether a `Basic` value is base64 of `user:password` (such values are often too plain for entropy)."""
    try:
        decoded = base64.b64decode(value, validate=True).decode("utf-8")
    except ValueError:
        return False
    user, colon, password = decoded.partition(":")
    return bool(colon and user and password) and decoded.isprintable()


def random_looking(value: str, base64_limit: float = BASE64_LIMIT, hex_limit: float = HEX_LIMIT) -> bool:
    """Long enough, letters and digits both, not words, and detect-secrets' Shannon entropy over the limit."""
    if len(value) < MINIMUM or not DIGIT.search(value) or not LETTER.search(value) or WORDY.fullmatch(value):
        return False
    base64_plugin, hex_plugin = entropy_plugins()
    if HEX_DIGITS.issuperset(value):
        return hex_plugin.calculate_shannon_entropy(value) > hex_limit
    return base64_plugin.calculate_shannon_entropy(value) > base64_limit


@functools.cache
def entropy_plugins() -> tuple[HighEntropyStringsPlugin, HighEntropyStringsPlugin]:
    """detect-secrets' entropy plugins, for base64 and hexadecimal values (their Shannon entropy), made when a
    value is first judged (viewer/secrets/detectors.py, `plugin`, says why)."""
    from detect_secrets.plugins.high_entropy_strings import Base64HighEntropyString, HexHighEntropyString

    return Base64HighEntropyString(BASE64_LIMIT), HexHighEntropyString(HEX_LIMIT)


KEYWORD_DETECTOR = Detector("KeywordDetector", _keywords, names=names("keyword"), rank=KEYWORD, before=64, reach=REACH,
                            kinds=("Password", "Secret", "API key", "Token"))
TOKEN_DETECTOR = Detector("token-named entropy", _token_named, names=names("k", "p", "c", "u", "bearer"), rank=CONTEXT,
                          before=64, reach=REACH, kinds=("Bearer token", "Basic auth credentials", "Token", "Password",
                                                         "Secret", "API key"),
                          gate=re.compile(rf"{RUN}{NAME_TO_VALUE}{VALUE_CHARACTERS}{{{MINIMUM}}}"))
ASSIGNMENTS = (KEYWORD_DETECTOR, TOKEN_DETECTOR)
