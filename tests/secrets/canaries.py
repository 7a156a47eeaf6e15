"""Fake secrets of every kind the scanner knows, realistic in shape, built at run time from a seeded random
source so that this repository holds no string that a secret scanner (GitHub's push protection …) would flag.

    for canary in canaries(seed=1): text = canary.context.format(canary.secret)
"""
from __future__ import annotations

import base64
import json
import random
import string
from dataclasses import dataclass

UPPER, LOWER, DIGITS = string.ascii_uppercase, string.ascii_lowercase, string.digits
ALNUM = UPPER + LOWER + DIGITS
URLSAFE = ALNUM + "-_"
BASE64 = ALNUM + "+/"
HEX = "0123456789abcdef"
PRIVATE = "PRIVATE" + " KEY"  # written in two halves, like every marker below


@dataclass(frozen=True)
class Canary:
    """A fake secret, the kind it must be found as, and a text it is found in (`{}` marks the secret)."""

    kind: str
    secret: str
    context: str = "Here it is: {} (keep it safe)."
    free: bool = True
    """Found by its own shape in any context (not only after a name such as `password =`)."""

    @property
    def text(self) -> str:
        return self.context.format(self.secret)

    @property
    def start(self) -> int:
        return start_of(self.context)


def start_of(context: str) -> int:
    """Where the secret starts in a context once formatted."""
    return context.format("\0").index("\0")


def draw(rng: random.Random, alphabet: str, count: int) -> str:
    """Random characters with at least one digit and one letter when the alphabet has both (real keys do, and
    detect-secrets' filters drop values without letters)."""
    while True:
        text = "".join(rng.choice(alphabet) for _ in range(count))
        if count < 4 or not (set(alphabet) & set(DIGITS) and set(alphabet) & set(string.ascii_letters)) or (
                set(text) & set(DIGITS) and set(text) & set(string.ascii_letters)):
            return text


def b64url(data: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


def pem(rng: random.Random, label: str, lines: int = 6) -> str:
    body = "\n".join("MII" + draw(rng, BASE64, 61) if number == 0 else draw(rng, BASE64, 64)
                     for number in range(lines))
    return f"-----BEGIN {label}-----\n{body}\n{draw(rng, BASE64, 20)}==\n-----END {label}-----"


def putty(rng: random.Random) -> str:
    lines = "\n".join(draw(rng, BASE64, 64) for _ in range(2))
    return ("PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nComment: rsa-key-20240101\nPublic-Lines: 2\n"
            f"{lines}\nPrivate-Lines: 2\n{lines[::-1]}\nPrivate-MAC: {draw(rng, HEX, 40)}")


def canaries(seed: int = 1) -> list[Canary]:
    """One canary of every kind (several for kinds with several shapes)."""
    rng = random.Random(seed)
    d = lambda alphabet, count: draw(rng, alphabet, count)  # noqa: E731
    jwt = ".".join((b64url({"alg": "HS256", "typ": "JWT"}),
                    b64url({"sub": d(DIGITS, 10), "name": "Ada", "iat": 1700000000}), d(URLSAFE, 43)))
    password = d(LOWER, 4) + d(DIGITS, 3) + "!" + d(UPPER, 4)
    return [
        Canary("AWS access key", "AKIA" + d(UPPER + DIGITS, 16)),
        Canary("AWS secret access key", d(BASE64, 40), 'aws_secret_access_key = "{}"', free=False),
        Canary("GitHub token", "ghp_" + d(ALNUM, 36)),
        Canary("GitHub token", "github_pat_" + d(ALNUM, 22) + "_" + d(ALNUM, 59)),
        Canary("GitLab token", "glpat-" + d(URLSAFE, 20)),
        Canary("Slack token", f"xoxb-{d(DIGITS, 11)}-{d(DIGITS, 12)}-{d(LOWER + DIGITS, 24)}"),
        Canary("Slack webhook URL", f"https://hooks.slack.com/services/T{d(UPPER + DIGITS, 8)}/B{d(UPPER + DIGITS, 10)}"
                                    f"/{d(ALNUM, 24)}"),
        Canary("Stripe key", "sk_live_" + d(ALNUM, 99)),
        Canary("Stripe key", "rk_live_" + d(ALNUM, 24)),
        Canary("JSON Web Token", jwt),
        Canary("Private key", pem(rng, "RSA " + PRIVATE)),
        Canary("Private key", pem(rng, "OPENSSH " + PRIVATE, 4)),
        Canary("Private key", pem(rng, "EC " + PRIVATE, 2)),
        Canary("Private key", pem(rng, PRIVATE, 3)),
        Canary("Private key", pem(rng, "ENCRYPTED " + PRIVATE, 3)),
        Canary("Private key", putty(rng)),
        Canary("Password in URL", d(ALNUM, 16), "Connect with postgres://deploy:{}@db.example.com:5432/app now.",
               free=False),
        Canary("Twilio key", "SK" + d(LOWER + DIGITS, 32)),
        Canary("Twilio key", "AC" + d(LOWER + DIGITS, 32)),
        Canary("SendGrid API key", f"SG.{d(URLSAFE, 22)}.{d(URLSAFE, 43)}"),
        Canary("npm token", "npm_" + d(ALNUM, 36), "//registry.npmjs.org/:_authToken={}\n", free=False),
        Canary("Azure storage key", d(BASE64, 86) + "==",
               "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey={};EndpointSuffix=core.windows.net",
               free=False),
        Canary("Discord bot token", f"M{d(URLSAFE, 23)}.{d(URLSAFE, 6)}.{d(URLSAFE, 27)}"),
        Canary("Mailchimp API key", d(HEX, 32) + "-us" + d(DIGITS, 2)),
        Canary("Square OAuth secret", "sq0csp-" + d(URLSAFE, 43)),
        Canary("IBM Cloud IAM key", d(URLSAFE, 44), 'ibm_cloud_iam_api_key = "{}"', free=False),
        Canary("IBM COS HMAC secret", d(HEX, 48), 'cos_hmac_secret_access_key = "{}"', free=False),
        # detect-secrets takes an Artifactory token only between spaces, double quotes, `=` or `:`.
        Canary("Artifactory token", "AKC" + d(ALNUM, 70), 'ARTIFACTORY="{}"', free=False),
        Canary("PyPI token", "pypi-AgEIcHlwaS5vcmc" + d(URLSAFE, 80)),
        Canary("Telegram bot token", f"{d(DIGITS, 9)}:AA{d(URLSAFE, 33)}"),
        Canary("Cloudant password", d(HEX, 64), 'cloudant_password = "{}"', free=False),
        Canary("SoftLayer API key", d(LOWER + DIGITS, 64), 'softlayer_api_key = "{}"', free=False),
        Canary("OpenAI API key", f"sk-{d(ALNUM, 20)}T3BlbkFJ{d(ALNUM, 20)}"),
        Canary("OpenAI API key", f"sk-proj-{d(URLSAFE, 74)}T3BlbkFJ{d(URLSAFE, 74)}"),
        Canary("OpenAI API key", f"sk-svcacct-{d(URLSAFE, 64)}"),
        Canary("Anthropic API key", f"sk-ant-api03-{d(URLSAFE, 93)}AA"),
        Canary("OpenRouter API key", f"sk-or-v1-{d(HEX, 64)}"),
        Canary("OpenAI-style API key", f"sk-{d(HEX, 32)}"),
        Canary("Hugging Face token", "hf_" + d(string.ascii_letters, 34)),
        Canary("Google API key", "AIza" + d(URLSAFE, 35)),
        Canary("Groq API key", "gsk_" + d(ALNUM, 52)),
        Canary("xAI API key", "xai-" + d(ALNUM, 80)),
        Canary("Replicate API token", "r8_" + d(ALNUM, 37)),
        Canary("Password", password, '{{"username": "deploy", "password": "{}"}}', free=False),
        Canary("Password", password[::-1], "DB_PASSWORD={}\nDB_HOST=localhost", free=False),
        Canary("Secret", d(ALNUM, 24), 'client_secret = "{}"', free=False),
        Canary("Token", d(ALNUM, 40), '{{"access_token": "{}", "expires_in": 3600}}', free=False),
        Canary("Bearer token", d(URLSAFE, 40), 'curl -H "Authorization: Bearer {}" https://api.example.com',
               free=False),
        Canary("API key", d(ALNUM, 32), "X-API-Key: {}\nAccept: application/json", free=False),
        Canary("Basic auth credentials", base64.b64encode(f"deploy:{password}".encode()).decode(),
               "Authorization: Basic {}\r\nHost: api.example.com", free=False),
        Canary("Cloudant password", d(HEX, 64), "Replicate from https://acme-admin:{}@acme.cloudant.com/orders",
               free=False),
        Canary("SoftLayer API key", d(LOWER + DIGITS, 64), "GET https://api.softlayer.com/soap/v3.1/{}", free=False),
    ]


CONTEXTS = (
    "{}",
    "My key is {} - please don't share it.",
    '{{"name": "deploy", "arguments": {{"token": "{}", "region": "eu-west-1"}}}}',
    "```bash\nexport SERVICE_CREDENTIAL='{}'\n```",
    "https://api.example.com/v1/items?api_key={}&limit=10",
    "line one\n  {}\nline three",
    "token: {}\n",
)
"""Contexts any canary with a shape of its own (`free`) is found in, with the same span and kind."""
