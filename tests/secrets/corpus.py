"""Deterministic text with no secrets in it, shaped like what transcripts hold: prose (that talks about keys,
tokens and passwords), Python and JavaScript, and tool output full of hashes, UUIDs, git SHAs, base64 blobs,
digests and URLs without credentials. The false-positive test and bench/secret_scan.py measure the scanner on it.

    text = corpus(megabytes=1, seed=3)
"""
from __future__ import annotations

import base64
import hashlib
import random
import uuid

WORDS = ("the a model request response cache build test deploy branch commit merge review token key value "
         "password secret session user account service queue worker index table column schema migration "
         "error retry timeout limit budget latency batch prompt context window answer tool call result").split()
SENTENCES = (
    "The key idea is to cache the response and retry on timeout.",
    "Each token costs about four characters of English text.",
    "Reset your password from the settings page, then sign in again.",
    "Password: required. Username: your email address.",
    "Keep the secret out of the repository and read it from the environment.",
    "Use an API key from the dashboard; never paste it into a prompt.",
    "The access token expires after an hour, so refresh it before the batch starts.",
    "A primary key of (user_id, created_at) keeps the index small.",
    "The secret sauce is a good evaluation set.",
    "Set the Authorization header to your token, as the docs say.",
)


class Corpus:
    """Writes blocks of benign text from a seeded random source."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def hex(self, count: int) -> str:
        return "".join(self.random.choice("0123456789abcdef") for _ in range(count))

    def uuid(self) -> str:
        return str(uuid.UUID(int=self.random.getrandbits(128), version=4))

    def blob(self, count: int) -> str:
        return base64.b64encode(self.random.randbytes(count)).decode()

    def sha(self) -> str:
        return hashlib.sha1(self.random.randbytes(8)).hexdigest()

    def prose(self) -> str:
        pick = self.random
        sentences = [pick.choice(SENTENCES) if pick.random() < 0.3 else
                     " ".join(pick.choices(WORDS, k=pick.randint(6, 16))).capitalize() + "."
                     for _ in range(pick.randint(3, 7))]
        return " ".join(sentences)

    def python(self) -> str:
        pick = self.random
        return f'''```python
import hashlib, os, uuid

API_KEY = os.environ["API_KEY"]
password = getpass.getpass("Password: ")
token = request.headers.get("Authorization")
tokenizer = AutoTokenizer.from_pretrained("meta-llama/Llama-3.1-8B-Instruct")
client = OpenAI(api_key=os.getenv("OPENAI_API_KEY"), max_tokens={pick.choice((1024, 4096))})


def check_password(password: str, digest: str = "{self.hex(64)}") -> bool:
    """Compare with the stored digest ({self.sha()})."""
    return hashlib.sha256(password.encode()).hexdigest() == digest


SESSION_ID = "{self.uuid()}"
config = {{"api_key": "YOUR_API_KEY", "password": "<your password>", "secret": settings.SECRET_KEY}}
cache_key = f"user:{{user_id}}:profile"
```'''

    def javascript(self) -> str:
        return f'''```js
const apiKey = process.env.OPENAI_API_KEY;
const res = await fetch(url, {{ headers: {{ Authorization: `Bearer ${{token}}` }} }});
const requestId = "{self.uuid()}";
<script src="https://cdn.example.com/lib.min.js" integrity="sha384-{self.blob(48)}" crossorigin="anonymous"></script>
export const password = document.querySelector("#password").value;
```'''

    def tool_output(self) -> str:
        pick = self.random
        log = "\n".join(f"commit {self.hex(40)}\nAuthor: Ada <ada@example.com>\n\n    {pick.choice(WORDS)} fix\n"
                        for _ in range(pick.randint(1, 3)))
        return f'''{log}
$ docker images --digests
app  latest  sha256:{self.hex(64)}  {self.hex(12)}  2 days ago
{{"request_id": "{self.uuid()}", "etag": "{self.hex(32)}", "checksum": "sha256:{self.hex(64)}",
 "Key": "uploads/2024/05/report-v{pick.randint(1, 9)}.pdf", "next_page_token": "{self.blob(30)}",
 "integrity": "sha512-{self.blob(64)}", "resolved": "https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz",
 "image": "data:image/png;base64,{self.blob(pick.randint(200, 1500))}",
 "url": "https://github.com/acme/app/commit/{self.sha()}", "db": "postgres://localhost:5432/app",
 "clone": "https://ada@git.example.com/acme/app.git", "arn": "arn:aws:iam::{pick.randint(10**11, 10**12)}:role/deploy",
 "max_tokens": 4096, "token_count": {pick.randint(100, 90000)}, "session": "{self.uuid()}"}}'''

    def named(self) -> str:
        """Values with secret-sounding names that are not secrets: IDs, hashes, types, paths, public keys."""
        return f'''{{"token_type": "Bearer", "expires_in": 3600, "api_key_id": "key_{self.hex(26).upper()}",
 "password_hash": "$2b$12${self.blob(40)[:53]}", "secret_name": "prod/db/password", "auth_method": "password",
 "tokenizer": "bert-base-uncased", "public_key": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{self.blob(24)}",
 "session_token_expiry": "2024-05-01T00:00:00Z", "primary_key": "id", "sort_key": "created_at",
 "idempotency_key": "{self.uuid()}", "key_fingerprint": "SHA256:{self.blob(32)[:43]}", "secret_version": 3,
 "PASSWORD_MIN_LENGTH": 12, "secret_key_path": "/etc/app/secret.key", "max_tokens_per_minute": 90000,
 "auth": "oauth2-client-credentials", "token": "{self.uuid()}",
 "secret": "projects/acme/secrets/db-password/versions/2",
 "authorization": "Basic realm=api.example.com", "password": "{{{{vault.db_password}}}}"}}'''

    def block(self) -> str:
        return self.random.choice((self.prose, self.prose, self.prose, self.python, self.javascript,
                                   self.tool_output, self.named))()


def corpus(megabytes: float = 1.0, seed: int = 3) -> str:
    """At least `megabytes` (UTF-8) of benign blocks separated by blank lines."""
    writer = Corpus(seed)
    blocks, size = [], 0
    while size < megabytes * 1_000_000:
        block = writer.block()
        blocks.append(block)
        size += len(block.encode()) + 2
    return "\n\n".join(blocks)
