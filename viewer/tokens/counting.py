"""Token counts for "what the model saw", exact or none: gpt-oss's `o200k_harmony` (o200k_base and the Harmony
special tokens, as tiktoken_ext/openai_public.py defines it) counts a Harmony transcript's context, when the
`tiktoken` library is installed and the o200k_base vocabulary file is on disk. Nothing is ever downloaded: the
encoding is built here from the local file (checked against tiktoken's pinned SHA-256), never through
`tiktoken.get_encoding`, which would fetch it. Other dialects' models use other tokenizers: no count is guessed.

Where the file is looked for: `$TIKTOKEN_ENCODINGS_BASE/o200k_base.tiktoken` (the folder openai-harmony reads),
tiktoken's cache (`$TIKTOKEN_CACHE_DIR`, under the SHA-1 of the download URL), and var/tiktoken/, where `make setup`
rebuilds it from the npm package js-tiktoken (`vocabulary`)."""
from __future__ import annotations

import base64
import functools
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from viewer.context import Context
from viewer.context.text import ExactText, message_parts
from viewer.model import Message
from viewer.tokens.vocabulary import FILE_NAME, FOLDER, SHA256

CONTEXT_WINDOW = 131_072
"""gpt-oss's context window, in tokens."""
URL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"
"""Where tiktoken would download the vocabulary from: its cache names the file after this address."""
HARMONY_SPECIAL_TOKENS = {"<|startoftext|>": 199998, "<|endoftext|>": 199999, "<|return|>": 200002,
                          "<|constrain|>": 200003, "<|channel|>": 200005, "<|start|>": 200006, "<|end|>": 200007,
                          "<|message|>": 200008, "<|call|>": 200012, "<|endofprompt|>": 200018}
O200K_PATTERN = "|".join([
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""\p{N}{1,3}""",
    r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
    r"""\s*[\r\n]+""",
    r"""\s+(?!\S)""",
    r"""\s+""",
])
"""o200k's pre-tokenizer pattern (tiktoken_ext/openai_public.py)."""
NOT_HARMONY = ("token counts are shown for Harmony (gpt-oss, o200k_harmony) only: this dialect's model and its "
               "tokenizer are unknown")
UNAVAILABLE = "token counts need tiktoken with the o200k vocabulary; not installed"


@dataclass(frozen=True, slots=True)
class TokenCounts:
    available: bool
    note: str = ""
    """Why there are no counts, when there are none."""
    per_message: dict[int, int] | None = None
    """Tokens of each kept message as written (its control tokens included)."""
    prompt: int = 0
    """Tokens of the generation prompt."""
    total: int = 0
    """Tokens of the whole exact text."""
    window: int = CONTEXT_WINDOW

    @property
    def share(self) -> float:
        return self.total / self.window if self.window else 0.0


def count(context: Context, text: ExactText, dialect: str) -> TokenCounts:
    """Exact counts of the context of a Harmony transcript, or why there are none."""
    if dialect != "harmony":
        return TokenCounts(available=False, note=NOT_HARMONY)
    encoding = harmony_encoding()
    if encoding is None:
        return TokenCounts(available=False, note=UNAVAILABLE)
    per_message = {message.index: _message_tokens(encoding, message, dialect) for message in context.kept}
    prompt = len(encoding.encode(text.prompt, allowed_special="all"))
    # every message starts and ends with a special token, so no token spans two: the total is the sum
    return TokenCounts(available=True, per_message=per_message, prompt=prompt, total=sum(per_message.values()) + prompt)


def _message_tokens(encoding: Any, message: Message, dialect: str) -> int:
    """A message's tokens as openai-harmony renders it: header and stop token with their special tokens, the
    body as ordinary text (a control token spelled in a body was text to the model)."""
    head, body, stop = message_parts(message, dialect)
    return (len(encoding.encode(head, allowed_special="all")) + len(encoding.encode_ordinary(body))
            + len(encoding.encode(stop, allowed_special="all")))


def vocabulary_file() -> Path | None:
    """The o200k_base vocabulary on disk, if any."""
    candidates = []
    if base := os.environ.get("TIKTOKEN_ENCODINGS_BASE"):
        candidates.append(Path(base) / FILE_NAME)
    if cache := os.environ.get("TIKTOKEN_CACHE_DIR"):
        candidates.append(Path(cache) / hashlib.sha1(URL.encode()).hexdigest())
    candidates.append(FOLDER / FILE_NAME)
    return next((path for path in candidates if path.is_file()), None)


@functools.lru_cache(maxsize=1)
def harmony_encoding() -> Any | None:
    """o200k_harmony built from the local vocabulary, or None without tiktoken or the file (or a wrong file)."""
    try:
        import tiktoken
    except ImportError:
        return None
    path = vocabulary_file()
    if path is None:
        return None
    data = path.read_bytes()
    if hashlib.sha256(data).hexdigest() != SHA256:
        return None
    ranks = {base64.b64decode(token): int(rank) for token, rank in (line.split() for line in data.splitlines() if line)}
    return tiktoken.Encoding(name="o200k_harmony", pat_str=O200K_PATTERN, mergeable_ranks=ranks,
                             special_tokens=HARMONY_SPECIAL_TOKENS)
