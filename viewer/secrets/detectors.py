"""What a detector is, and the detectors detect-secrets provides, each with the kind a person reads.

A detector says which cheap anchors a line must contain for it to run (`anchors.py`: so that a 10 MB upload
is not run through forty regular expressions), and turns a window of such a line into hits: exact offsets of
each secret in the window. The library decides whether there is a secret (`analyze_string`, with its validators such as
the JWT's); its patterns, run again with `finditer`, say where, because the library reports values, not
positions, and some of its values are not the secret (the GitHub pattern yields only `ghp`).
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from importlib import import_module
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Pattern, TypedDict

from viewer.secrets.anchors import ASSIGNMENT_NAMES, GIVEN_24, GIVEN_40, anchors, as_ascii_letters
from viewer.secrets.blocks import key_block

if TYPE_CHECKING:
    from detect_secrets.plugins.base import RegexBasedDetector

Grow = Callable[[str, int, int], tuple[int, int]]
"""Widens a hit's `(start, end)` in the whole scanned text, past the window it was found in."""

PROVIDER, URL_PASSWORD, KEYWORD, CONTEXT = range(4)
"""Ranks: where hits overlap, the lowest rank names the secret (a GitHub token in a URL is a GitHub token)."""

TOKEN_TAIL = re.compile(r"[A-Za-z0-9_-]*")
JWT_TAIL = re.compile(r"[A-Za-z0-9_\-.+/=]*")
@dataclass(frozen=True, slots=True)
class Hit:
    """A secret in a window: offsets in the window, its kind, and how to widen it in the whole text."""

    start: int
    end: int
    kind: str
    grow: Grow | None = None


@dataclass(frozen=True, slots=True)
class Detector:
    """One way of finding secrets, and where it is worth running."""

    name: str
    """For measurements and tests: the detect-secrets plugin or our pattern."""
    find: Callable[[str], Iterable[Hit]]
    """A window of one line to the secrets in it."""
    anchors: tuple[str, ...] = ()
    """Anchors (`SHAPES`, by name) of which a line must contain one."""
    names: tuple[str, ...] = ()
    """Secret-sounding names (`NAME_WORDS`, by group) of which a line must contain one where `gate` matches."""
    rank: int = PROVIDER
    before: int = 256
    """How far before an anchor its secret may start."""
    reach: int = 2048
    """How far after an anchor its secret may end (a window is cut there; `grow` may widen a hit past it)."""
    kinds: tuple[str, ...] = field(default=())
    """Every kind it reports, for the documentation and the tests."""
    gate: Pattern[str] | None = None
    """What more than `GIVEN` must follow a name for the detector to run there (matched from the name's
    anchor)."""


def grow_tail(tail: Pattern[str]) -> Grow:
    """Widen to the end of the token: the library's patterns stop at a fixed length (`sk_live_` and 24
    characters, where Stripe's keys are now 99) or end lazily (the JWT's signature)."""
    def grow(text: str, start: int, end: int) -> tuple[int, int]:
        end = tail.match(text, end).end()  # type: ignore[union-attr]  # a tail matches the empty string too
        return start, end - (tail is JWT_TAIL and text[end - 1] == ".")
    return grow


def plain_secret(secret: str) -> bool:
    """detect-secrets' heuristic filters that judge a secret by itself (the ones that judge a file name or a
    whole line are meant for source files: on a transcript a line is a paragraph or a whole JSON document),
    and ours: a long value of five characters or fewer (`ACxxxxxxxx…`, `sk-000000…`) is a placeholder."""
    from detect_secrets.filters import heuristic  # see `plugin`: the library is imported when first needed

    return not (heuristic.is_sequential_string(secret) or heuristic.is_templated_secret(secret)
                or heuristic.is_not_alphanumeric_string(secret) or (len(secret) >= 12 and len(set(secret)) <= 5))


def name_kind(name: str) -> str:
    """The kind of a secret known by the name it is given (`password = …`, `Authorization: …`)."""
    name = as_ascii_letters(name).lower()
    if any(word in name for word in ("pass", "pwd", "contrase")):
        return "Password"
    if "auth" in name or "bearer" in name or "token" in name:
        return "Token"
    return "Secret" if "secret" in name else "API key"


def plugin(reference: str) -> Callable[[], RegexBasedDetector]:
    """The detect-secrets plugin `module:Class` (a module of `detect_secrets.plugins`), made when first asked
    for. A scan imports the library when a window first needs one of its detectors, not when the scan is
    imported: the library takes longer to import (it brings `requests`) than a small file takes to parse and
    scan, and most texts open no window (issue 40)."""
    module, _, name = reference.partition(":")

    @functools.cache
    def made() -> RegexBasedDetector:
        made_plugin: RegexBasedDetector = getattr(import_module(f"detect_secrets.plugins.{module}"), name)()
        return made_plugin
    return made


def library(reference: str, kind: str | Callable[[int, re.Match[str]], str], *,
            anchor: tuple[str, ...] = (), named: tuple[str, ...] = (), group: bool = True,
            grow: Grow | None = None, trim: str = "", drop: str = "", kinds: tuple[str, ...] = (),
            before: int = 256, reach: int = 2048, gate: Pattern[str] | None = None,
            rank: int = PROVIDER) -> Detector:
    """A detect-secrets plugin (`module:Class`, made by `plugin`) as a detector. The secret is the pattern's first
    group where it has one (`group`; not for GitHub and GitLab, whose group is the token's prefix), else the whole
    match less the delimiter characters in `trim` and the name `drop` before it. `kind` is a label, or a function
    of the pattern's number and its match."""
    label = kind if callable(kind) else (lambda number, match: kind)
    made = plugin(reference)

    def find(window: str) -> Iterator[Hit]:
        instance = made()
        values = set(instance.analyze_string(window))
        if not values:
            return
        for number, pattern in enumerate(instance.denylist):
            for match in pattern.finditer(window):
                if not values.intersection((match[0], *match.groups())):
                    continue
                start, end = match.span(1) if group and pattern.groups else match.span()
                while start < end and window[start] in trim:
                    start += 1
                if drop and window.startswith(drop, start):
                    start += len(drop)
                while end > start and window[end - 1] in trim:
                    end -= 1
                secret = window[start:end]
                if secret and plain_secret(secret):
                    yield Hit(start, end, label(number, match), grow)

    return Detector(reference.partition(":")[2], find, anchor, named, rank, before, reach, gate=gate,
                    kinds=kinds or ((kind,) if isinstance(kind, str) else ()))


def _aws(number: int, match: re.Match[str]) -> str:
    return "AWS access key" if number == 0 else "AWS secret access key"


def _npm(window: str) -> Iterator[Hit]:
    """npm's pattern (`//.+/:_authToken=\\s*(npm_.+)…`) tries every `//` of what it is given against the rest
    of the line, so it is given one `.npmrc` line's worth: from the last `//` before each `_authToken` to a
    little after it. Its group runs to the end of that (`npm_.+`): the token ends with its characters."""
    at = window.find("_authToken")
    while at >= 0:
        start = max(0, window.rfind("//", max(0, at - 256), at))
        for hit in NPM.find(window[start:at + 128]):
            tail = TOKEN_TAIL.match(window, start + hit.start).end()  # type: ignore[union-attr]  # matches ""
            end = min(hit.end, tail - start)
            yield Hit(start + hit.start, start + end, hit.kind, hit.grow)
        at = window.find("_authToken", at + 1)


def _slack(number: int, match: re.Match[str]) -> str:
    return "Slack token" if number == 0 else "Slack webhook URL"


def _named(kind: str, words: str) -> Callable[[int, re.Match[str]], str]:
    """IBM's patterns make their `ibm_cloud_iam` or `cos_hmac` prefix optional, so that they also take any
    44-character `api_key` or 48-digit `secret_access_key`: those are named after their name instead."""
    words_re = re.compile(words, re.IGNORECASE)
    return lambda number, match: kind if words_re.search(match[0]) else name_kind(match[0][:match.start(1)
                                                                                                 - match.start()])


class Window(TypedDict, total=False):
    """Where a detector runs around its anchor: `Detector`'s and `library`'s arguments of that name."""

    before: int
    reach: int


class NamedWindow(Window, total=False):
    """A window around a secret-sounding name, and what must follow the name (`library`'s arguments)."""

    named: tuple[str, ...]
    gate: Pattern[str] | None


TOKEN = grow_tail(TOKEN_TAIL)
PREFIXED: Window = {"before": 16, "reach": 256}
"""Where a key that starts with its anchor's prefix (`ghp_`, `sk_live_`) is looked for: its pattern needs far
less than this after the anchor, and `grow` widens a longer key past the window (a window of the default width
made each such detector slow on transcripts full of tokens)."""
NPM = library("npm:NpmDetector", "npm token", anchor=anchors("npm"), trim=" \t", before=512, reach=512)
NAMED: NamedWindow = {"named": ASSIGNMENT_NAMES, "before": 48, "reach": 160, "gate": GIVEN_24}
"""Where the patterns that need a name (`cloudant_password = "…"`) run. Cloudant's and SoftLayer's patterns for
a key in a URL run apart, around their host names."""
AWS_NAMED: NamedWindow = {**NAMED, "reach": 128, "gate": GIVEN_40}
"""Where AWS's patterns run: as `NAMED`, in a shorter reach, gated on the 40 characters of its secret key."""
LIBRARY: tuple[Detector, ...] = (
    library("aws:AWSKeyDetector", _aws, anchor=anchors("AWS"), **AWS_NAMED,
            kinds=("AWS access key", "AWS secret access key")),
    library("github_token:GitHubTokenDetector", "GitHub token", anchor=anchors("GitHub"), group=False, grow=TOKEN,
            **PREFIXED),
    library("gitlab_token:GitLabTokenDetector", "GitLab token", anchor=anchors("GitLab"), group=False, grow=TOKEN,
            **PREFIXED),
    library("slack:SlackDetector", _slack, anchor=anchors("Slack", "Slack webhook"), grow=TOKEN,
            kinds=("Slack token", "Slack webhook URL")),
    library("stripe:StripeDetector", "Stripe key", anchor=anchors("Stripe"), grow=TOKEN, **PREFIXED),
    library("jwt:JwtTokenDetector", "JSON Web Token", anchor=anchors("JWT"), grow=grow_tail(JWT_TAIL)),
    library("private_key:PrivateKeyDetector", "Private key", anchor=anchors("private key"), grow=key_block),
    library("basic_auth:BasicAuthDetector", "Password in URL", anchor=anchors("URL"), rank=URL_PASSWORD),
    library("twilio:TwilioKeyDetector", "Twilio key", anchor=anchors("Twilio"), grow=TOKEN),
    library("sendgrid:SendGridDetector", "SendGrid API key", anchor=anchors("SendGrid"), grow=TOKEN),
    Detector("NpmDetector", _npm, NPM.anchors, before=NPM.before, reach=NPM.reach, kinds=NPM.kinds),
    library("azure_storage_key:AzureStorageKeyDetector", "Azure storage key", anchor=anchors("Azure"),
            drop="AccountKey="),
    library("discord:DiscordBotTokenDetector", "Discord bot token", anchor=anchors("Discord"), grow=TOKEN,
            before=32),
    library("mailchimp:MailchimpDetector", "Mailchimp API key", anchor=anchors("Mailchimp"), grow=TOKEN, before=40),
    library("square_oauth:SquareOAuthDetector", "Square OAuth secret", anchor=anchors("Square"), grow=TOKEN,
            **PREFIXED),
    library("ibm_cloud_iam:IbmCloudIamDetector", _named("IBM Cloud IAM key", "ibm|iam|cloud"),
            kinds=("IBM Cloud IAM key",), **NAMED),
    library("ibm_cos_hmac:IbmCosHmacDetector", _named("IBM COS HMAC secret", "ibm|cos"),
            kinds=("IBM COS HMAC secret",), **NAMED),
    library("artifactory:ArtifactoryDetector", "Artifactory token", anchor=anchors("Artifactory"),
            trim=" \t\r\"=:"),
    library("pypi_token:PypiTokenDetector", "PyPI token", anchor=anchors("PyPI"), grow=TOKEN),
    library("telegram_token:TelegramBotTokenDetector", "Telegram bot token", anchor=anchors("Telegram"), grow=TOKEN,
            before=12),
    library("cloudant:CloudantDetector", "Cloudant password", **NAMED),
    library("cloudant:CloudantDetector", "Cloudant password", anchor=anchors("Cloudant URL"), reach=16),
    library("softlayer:SoftlayerDetector", "SoftLayer API key", **NAMED),
    library("softlayer:SoftlayerDetector", "SoftLayer API key", anchor=anchors("SoftLayer URL"), before=16, reach=128),
    library("openai:OpenAIDetector", "OpenAI API key", anchor=anchors("sk-"), group=False, grow=TOKEN),
)
"""detect-secrets' plugins, less three: IPPublicDetector (a public IP address is not a secret), and the two
context-free entropy detectors (Base64HighEntropyString, HexHighEntropyString: off, see `assignments.py`). Its
KeywordDetector is in `assignments.py`, the private keys' extent in `blocks.py`."""
