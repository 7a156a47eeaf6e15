"""How each kind of personal data is recognised in a window of a line around one of its anchors: a pattern of
its shape, then a check that the shape alone cannot pass (a checksum, a numbering plan, a public address), so
that version numbers, hashes, UUIDs, timestamps and code identifiers are left alone.

The checks are kept libraries': phone numbers by libphonenumber's metadata (`phonenumbers`: a number valid in its
country's numbering plan), cards by the Luhn digit (`stdnum.luhn`) and their networks' prefixes and lengths,
IBANs by their country's length and the ISO 7064 mod 97 check (`stdnum.iban`), national identifiers by
python-stdnum's own validators (US SSN area, group and serial rules and its list of numbers never issued, NHS
mod 11, Canadian SIN Luhn, Spanish DNI/NIE check letter, Italian codice fiscale check character) or by their
fixed shape (the UK NI number, whose prefixes HMRC publishes), IP addresses by the standard library's
`ipaddress` (public ones only: a private or reserved address names no one). Numbers that checks cannot tell
from ids (an NHS number and a US phone number share 3-3-4 digits) count only after a word naming them.
"""
from __future__ import annotations

import ipaddress
import re
from importlib import import_module
from typing import Callable, Iterator

from viewer.secrets.detectors import Detector, Hit


def _check(module: str) -> Callable[[str], bool]:
    """python-stdnum's check of a number (`stdnum.<module>.is_valid`), imported when a number is first checked:
    the library imports `ssl` and `pydoc`, and takes longer to import than most texts take to scan (issue 40)."""
    def is_valid(number: str) -> bool:
        return bool(import_module(f"stdnum.{module}").is_valid(number))
    return is_valid


valid_luhn, valid_iban, valid_ssn = _check("luhn"), _check("iban"), _check("us.ssn")
valid_nhs, valid_sin, valid_dni, valid_nie = _check("gb.nhs"), _check("ca.sin"), _check("es.dni"), _check("es.nie")
valid_codice_fiscale = _check("it.codicefiscale")

CHECKED, SHAPED, NUMBERED, ADDRESS = range(4)
"""Ranks: where two findings overlap, the lowest names them (a card number is not also a phone number)."""
START = r"(?<![\w.+/@:-])"
"""What may not come just before a number: part of a word, a decimal or version, a path, an address."""
END = r"(?![\w@]|[.,:/-]\w)"
"""What may not come just after one: more of a word, or a separator with more after it (`1.2.3`, `12:30`)."""

LOCAL = r"(?:[\w%+-]|\\+u[0-9A-Fa-f]{4})"
"""A character of a mailbox's name, or one written as a JSON escape (`jos\\u00e9` in a tool's arguments, escaped
again where the arguments are a string of a JSON file)."""
EMAIL = re.compile(r"(?<![\w.+%'-])" + LOCAL + "+(?:[.']" + LOCAL + r"+)*@"
                   r"((?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+([A-Za-z]{2,24}))(?![\w-]|\.[A-Za-z0-9])")
RESERVED_DOMAINS = re.compile(r"(?:^|\.)(?:example\.(?:com|net|org)|example|test|invalid|localhost|local)$", re.I)
"""RFC 2606's and RFC 6761's names: documentation and code use them because they belong to no one."""
FILE_ENDINGS = frozenset("png jpg jpeg gif svg webp ico bmp tif tiff pdf js mjs ts tsx jsx css scss html htm json "
                         "md txt py rb go rs java kt c h cpp hpp cs php sh yml yaml toml xml lock log zip gz".split())
"""What follows `@2x.` in a file name (`icon@2x.png`), never a top-level domain a mailbox is under."""
SERVICE_MAILBOXES = frozenset({"git", "noreply", "no-reply", "donotreply", "do-not-reply", "mailer-daemon"})
"""Mailboxes that are a service's, not a person's (`git@github.com:owner/repo.git`)."""


def _emails(window: str) -> Iterator[Hit]:
    for match in EMAIL.finditer(window):
        domain, ending = match[1].lower(), match[2].lower()
        local = match[0][:match.start(1) - match.start() - 1].lower()
        if RESERVED_DOMAINS.search(domain) or ending in FILE_ENDINGS or local in SERVICE_MAILBOXES:
            continue
        yield Hit(match.start(), match.end(), "email")


PHONE = re.compile(START + r"(?:"
                   r"(?:\+|00)[1-9](?:[ .-]?\(?\d\)?){6,14}"  # international: +44 20 7946 0958, 0044 …
                   r"|\(?0\d{2,4}\)?[ .-]?\d{3,4}[ .-]?\d{3,4}"  # a national number with its trunk 0: 020 7946 0958
                   r"|\(?[2-9]\d{2}\)?[ .-]?[2-9]\d{2}[ .-]\d{4}"  # North American: (415) 555-0132, 415.555.0132
                   r")" + END)
NATIONAL_REGIONS = ("GB", "DE", "FR", "NL", "IT", "ES", "AU", "IN")
"""Countries whose national numbers (with their trunk 0) are tried, in this order: the UK first, since a national
number belongs to one plan only as far as it is valid there."""


SEQUENTIAL = "01234567890123456789"
"""A row of digits in order (`string.digits`, a test's `0123456789`) is no one's number."""
LAST_GROUP = re.compile(r"\d{2,}\)?$")
"""A number ends with a group of two digits or more: `+35236450.6` is a decimal."""


def in_order(text: str) -> bool:
    digits = re.sub(r"\D", "", text)
    return digits in SEQUENTIAL or digits in SEQUENTIAL[::-1]


def _phones(window: str) -> Iterator[Hit]:
    for match in PHONE.finditer(window):
        text = match[0]
        if in_order(text) or not LAST_GROUP.search(text):
            continue
        regions: tuple[str | None, ...] = (None,) if text.startswith(("+", "00")) else \
            NATIONAL_REGIONS if text.lstrip("(").startswith("0") else ("US",)
        if any(_valid_phone(text, region) for region in regions):
            yield Hit(match.start(), match.end(), "phone")


def _valid_phone(text: str, region: str | None) -> bool:
    import phonenumbers  # here: its metadata takes longer to import than most texts take to scan

    try:
        number = phonenumbers.parse("+" + text[2:] if text.startswith("00") else text, region)
    except phonenumbers.NumberParseException:
        return False
    return phonenumbers.is_valid_number(number)


CARD = re.compile(START + r"(?:\d{4}(?P<sep>[ -])\d{4,6}(?:(?P=sep)\d{4,5}){1,3}|\d{13,19})" + END)
NETWORKS: tuple[tuple[re.Pattern[str], tuple[int, ...]], ...] = (
    (re.compile(r"4"), (13, 16, 19)),  # Visa
    (re.compile(r"5[1-5]|2(?:2[2-9][1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720)"), (16,)),  # Mastercard
    (re.compile(r"3[47]"), (15,)),  # American Express
    (re.compile(r"6(?:011|5|4[4-9])"), (16, 17, 18, 19)),  # Discover
    (re.compile(r"35(?:2[89]|[3-8]\d)"), (16, 17, 18, 19)),  # JCB
    (re.compile(r"3(?:0[0-5]|[689])"), (14, 15, 16)),  # Diners Club
    (re.compile(r"62"), (16, 17, 18, 19)),  # UnionPay
)
"""Card networks by their issuer prefixes and the lengths they issue: a number in no network is no card."""


def _cards(window: str) -> Iterator[Hit]:
    for match in CARD.finditer(window):
        digits = re.sub(r"\D", "", match[0])
        if valid_luhn(digits) and any(prefix.match(digits) and len(digits) in lengths
                                         for prefix, lengths in NETWORKS):
            yield Hit(match.start(), match.end(), "card")


IBAN = re.compile(r"(?<![\w])[A-Z]{2}\d{2}(?: ?[A-Z0-9]){10,30}(?![\w])")


def _ibans(window: str) -> Iterator[Hit]:
    for match in IBAN.finditer(window):
        text = match[0]
        while len(text) > 14 and not valid_iban(text):  # a grouped IBAN may run into a word after it
            cut = text.rfind(" ")
            if cut < 0:
                break
            text = text[:cut]
        if valid_iban(text):
            yield Hit(match.start(), match.start() + len(text), "iban")


SSN = re.compile(START + r"\d{3}([- ])\d{2}\1\d{4}" + END)
SSN_BARE = re.compile(r"(?i:\b(?:ssn|social security)\b[^\d\n]{0,24})(\d{9})" + END)
"""Nine digits alone are an SSN only after a word naming one."""


def _ssns(window: str) -> Iterator[Hit]:
    for match in SSN.finditer(window):
        if valid_ssn(match[0]) and not in_order(match[0]):
            yield Hit(match.start(), match.end(), "us-ssn")


def _named_ssns(window: str) -> Iterator[Hit]:
    for match in SSN_BARE.finditer(window):
        if valid_ssn(match[1]) and not in_order(match[1]):
            yield Hit(match.start(1), match.end(1), "us-ssn")


NINO = re.compile(r"(?<![\w])(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]"
                  r"( ?)\d{2}\1\d{2}\1\d{2}\1[A-D](?![\w])")
"""HMRC's shape of a National Insurance number: two prefix letters (neither D, F, I, Q, U nor V; the second not
O; not one of the prefixes never issued), six digits, a suffix letter A to D."""


def _ninos(window: str) -> Iterator[Hit]:
    for match in NINO.finditer(window):
        yield Hit(match.start(), match.end(), "uk-nino")


def _named_number(kind: str, words: str, shape: str, valid: Callable[[str], bool]) -> Callable[[str], Iterator[Hit]]:
    """A number whose checksum alone is too weak (one id in ten or eleven passes): found after its name."""
    pattern = re.compile(rf"(?i:\b(?:{words})\b[^\d\n]{{0,24}}?)({shape})" + END)

    def find(window: str) -> Iterator[Hit]:
        for match in pattern.finditer(window):
            if valid(match[1]) and not in_order(match[1]):
                yield Hit(match.start(1), match.end(1), kind)
    return find


_nhs = _named_number("uk-nhs", "nhs", r"\d{3}[ -]?\d{3}[ -]?\d{4}", valid_nhs)
_sin = _named_number("ca-sin", "sin|social insurance", r"\d{3}[ -]?\d{3}[ -]?\d{3}", valid_sin)
def _dni_or_nie(text: str) -> bool:
    return valid_nie(text) if text[0] in "XYZ" else len(text.replace("-", "")) == 9 and valid_dni(text)


_dnis = _named_number("es-dni", "dni|nie|nif|documento", r"[XYZ]?\d{7,8}-?[A-HJ-NP-TV-Z]", _dni_or_nie)


CODICE_FISCALE = re.compile(r"(?<![\w])[A-Z]{6}[0-9LMNPQRSTUV]{2}[A-EHLMPR-T][0-9LMNPQRSTUV]{2}[A-Z]"
                            r"[0-9LMNPQRSTUV]{3}[A-Z](?![\w])")


def _codici(window: str) -> Iterator[Hit]:
    for match in CODICE_FISCALE.finditer(window):
        if valid_codice_fiscale(match[0]):
            yield Hit(match.start(), match.end(), "it-cf")


IPV4 = re.compile(START + r"(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)" + END)
IPV6 = re.compile(r"(?<![\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f]{0,4}(?![\w:])")
VERSION_WORDS = re.compile(r"(?i:v|ver|version|release|build|==|>=|<=|~=|\^|@)\s*$")
"""What stands before a version of four parts (`version 4.2.1.0`, `pkg==1.2.3.4`), which an address cannot."""


def _ips(window: str) -> Iterator[Hit]:
    for pattern in (IPV4, IPV6):
        for match in pattern.finditer(window):
            if pattern is IPV6 and match[0].count(":") < 2:
                continue
            try:
                address = ipaddress.ip_address(match[0])
            except ValueError:
                continue
            if _personal_address(address, match[0]) \
                    and not VERSION_WORDS.search(window, max(0, match.start() - 12), match.start()):
                yield Hit(match.start(), match.end(), "ip")


def _personal_address(address: ipaddress.IPv4Address | ipaddress.IPv6Address, text: str) -> bool:
    """A public address that could be a person's: not a section number (`7.1.4.34`: three one-digit parts
    first, as the public resolvers 8.8.8.8 and 1.1.1.1 are too, which are no one's), not multicast, and an IPv6
    one of four groups or more (`::2`, `ff00::` are a test's or a mask's)."""
    if not address.is_global or address.is_multicast:
        return False
    if address.version == 4:
        return not all(len(part) == 1 for part in text.split(".")[:3])
    return sum(1 for group in text.split(":") if group) >= 4 and "ffff:ffff" not in text.lower()


NAMED_REACH = 72
"""How far after its name a named number may end: the longest name (16), 24 characters, the number (13), two more."""
RECOGNISERS: tuple[Detector, ...] = (
    Detector("email", _emails, ("at",), rank=SHAPED, before=128, reach=256, kinds=("email",)),
    Detector("card", _cards, ("digits",), rank=CHECKED, before=32, reach=64, kinds=("card",)),
    Detector("iban", _ibans, ("letters and digits",), rank=CHECKED, before=4, reach=64, kinds=("iban",)),
    Detector("us-ssn", _ssns, ("digits",), rank=CHECKED, before=32, reach=64, kinds=("us-ssn",)),
    # A number after its name: the window starts just before the name (whose edge its pattern checks) and reaches
    # past the longest name, the 24 characters allowed between, the number and what may not follow it.
    Detector("us-ssn named", _named_ssns, ("ssn",), rank=CHECKED, before=4, reach=NAMED_REACH, kinds=("us-ssn",)),
    Detector("uk-nino", _ninos, ("letters and digits",), rank=SHAPED, before=4, reach=24, kinds=("uk-nino",)),
    Detector("uk-nhs", _nhs, ("nhs",), rank=CHECKED, before=4, reach=NAMED_REACH, kinds=("uk-nhs",)),
    Detector("ca-sin", _sin, ("sin",), rank=CHECKED, before=4, reach=NAMED_REACH, kinds=("ca-sin",)),
    Detector("es-dni", _dnis, ("dni",), rank=CHECKED, before=4, reach=NAMED_REACH, kinds=("es-dni",)),
    Detector("it-cf", _codici, ("codice fiscale",), rank=CHECKED, before=4, reach=24, kinds=("it-cf",)),
    Detector("phone", _phones, ("digits",), rank=NUMBERED, before=32, reach=64, kinds=("phone",)),
    Detector("ip", _ips, ("dotted", "colons"), rank=ADDRESS, before=48, reach=64, kinds=("ip",)),
)
"""Every recogniser, each run only around its anchors (`anchors.py`)."""
