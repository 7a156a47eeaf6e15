"""Where detectors run: anchors, cheap patterns searched in the whole text, and the windows of the lines
around them are all a detector sees.

Python's regular expressions find a pattern that starts with one literal character as fast as `str.find`
(some 3 ms for 10 MB); one that starts with several literal characters or a character class is several
times slower. So each anchor starts with one character and looks around it, and detectors share them: a scan
searches a text 11 times for shapes and 8 times for names, not once per pattern of every detector.
"""
from __future__ import annotations

import re
from typing import Pattern

GIVEN = re.compile(r"""[\w.-]{0,40}["'\]]{0,2}[ \t]*(?P<given>[:=!(]|(?i:\.assign)|[ \t]["'`])""")
"""Where a name is given a value: the rest of the name, then `:`, `=`, `(` or a quote. A name counts as an
anchor only there (`NAMES` end with it), so that `the key idea` or `each token costs` opens no window (the
keyword patterns are the slowest of all). detect-secrets' reversed comparison (`"…" == password`) and its AWS
pattern's free text between name and value (`aws key is "…"`) are the forms of its patterns this leaves out."""
GIVEN_24 = re.compile(GIVEN.pattern + r"""\s*["'`]?[\w+/-]{24}""")
"""A name given a value of at least 24 characters, as the assignment patterns of Cloudant, IBM and SoftLayer
need (`RegexBasedDetector.build_assignment_regex`)."""
GIVEN_40 = re.compile(GIVEN.pattern + r"""\s*["'`][0-9a-zA-Z/+]{40}""")
"""A name given a quoted value of 40 characters, as the AWS secret access key pattern needs."""

GITLAB = ("pat", "dt", "ft", "soat", "rt", "cbt", "imt", "ptt", "agent", "oas")
ANCHORS: dict[str, Pattern[str]] = {name: re.compile(pattern) for name, pattern in {
    # AWS, Twilio, Artifactory, Google, Azure, PyPI
    "A": r"A(?:3T|BIA|CCA|KIA|SIA|C[a-z0-9]|KC|P[0-9A-F]|Iza|ccountKey=|gE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw))",
    "S": r"S(?:K[a-z0-9]|G\.)",  # Twilio, SendGrid
    "P": r"P(?:RIVATE KEY|uTTY-User-Key-File)",  # private keys
    "G": r"G(?=R1348941)",  # GitLab runners
    "J": r"J(?<=eyJ)",  # JWT
    "x": r"x(?:ai-|ox[abposr]-)",  # xAI, Slack
    # Stripe, npm, GitHub, Hugging Face, Replicate, Groq
    "_": r"_(?:live_|authToken|pat_(?<=github_pat_)|(?<=hf_)|(?<=r8_)|(?<=gh[pousr]_)|(?<=gsk_))",
    # Mailchimp, OpenAI, Anthropic and the other `sk-` keys, Square, GitLab
    "-": r"-(?:us\d|(?<=sk-)|(?<=sq0csp-)|" + "|".join(f"(?<=gl{prefix}-)" for prefix in GITLAB) + ")",
    "/": r"/(?<=://)",  # URLs: passwords, Slack webhooks, Cloudant, SoftLayer
    ":": r":(?=[\w-]{35})",  # Telegram
    ".": r"\.(?=[\w-]{6}\.[\w-]{27})",  # Discord
}.items()}
"""Where a secret with a shape of its own may be."""
NAME_LETTERS = {
    "k": r"{first}(?:(?=(?i:ey))|(?<=[tT][oO]{first})(?=(?i:en)))",  # key, token
    "p": r"{first}(?=(?i:ass|w))",  # password, passwd, pwd, db_pass
    "c": r"{first}(?:(?<=[sS][eE]{first})(?=(?i:ret))|(?=(?i:ontrase)))",  # secret, contraseña
    "u": r"{first}(?<=[aA]{first})(?=(?i:th))",  # auth, Authorization
}
NAMES: dict[str, tuple[Pattern[str], ...]] = {
    letter: tuple(re.compile(f"{pattern.format(first=first)}(?={GIVEN.pattern})")
                  for first in (letter, letter.upper()))
    for letter, pattern in NAME_LETTERS.items()}
"""Secret-sounding names given a value (`GIVEN`), in either case, each found from its rarest letter.
detect-secrets' keyword list and the assignment patterns of Cloudant, IBM, SoftLayer and AWS secret access
keys all contain key, pass, pw, token, secret or contraseña."""


def anchors(*names: str) -> tuple[Pattern[str], ...]:
    return tuple(ANCHORS[name] for name in names)


def names(*letters: str) -> tuple[Pattern[str], ...]:
    return tuple(pattern for letter in letters for pattern in NAMES[letter])


ASSIGNMENT_NAMES = names("k", "p", "c")
