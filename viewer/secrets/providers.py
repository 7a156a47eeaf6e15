"""Our own patterns, for keys that transcripts are full of and detect-secrets 1.5 does not know, each with the
reason the library misses it. A pattern's whole match is the secret."""
from __future__ import annotations

import re
from typing import Iterator

from viewer.secrets.anchors import anchors
from viewer.secrets.blocks import key_block
from viewer.secrets.detectors import PREFIXED, PROVIDER, TOKEN, Detector, Hit, plain_secret

END = r"(?![A-Za-z0-9_-])"
"""A key ends where token characters end (a longer run is something else, or a key we would cut in two)."""

PATTERNS: tuple[tuple[str, str, str], ...] = (
    # (kind, anchor: a name in anchors.SHAPES, pattern)
    # detect-secrets' OpenAI pattern needs the `T3BlbkFJ` marker of legacy keys and stops 20 characters after
    # it; project, service-account and admin keys are longer and some carry no marker.
    ("OpenAI API key", "sk-", r"\bsk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}" + END),
    # Anthropic's keys (`sk-ant-api03-…`, `sk-ant-admin01-…`, `sk-ant-oat01-…`): not in detect-secrets.
    ("Anthropic API key", "sk-", r"\bsk-ant-[a-z]{2,8}\d{0,3}-[A-Za-z0-9_-]{20,}" + END),
    # OpenRouter's keys (`sk-or-v1-` and 64 hex digits): not in detect-secrets.
    ("OpenRouter API key", "sk-", r"\bsk-or-v\d-[a-f0-9]{32,}" + END),
    # The `sk-` and 32 or more letters and digits that OpenAI's legacy keys and the OpenAI-compatible APIs
    # (DeepSeek, Moonshot, vLLM servers…) use; detect-secrets knows only the legacy form with its marker. A
    # digit is required, so that `sk-` words in prose and code are not keys.
    ("OpenAI-style API key", "sk-", r"\bsk-(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{32,}" + END),
    # Hugging Face user and organisation tokens (`hf_` and 34 letters): not in detect-secrets.
    ("Hugging Face token", "Hugging Face", r"\bhf_[A-Za-z0-9]{30,}" + END),
    # Google API keys (Gemini, Maps…): `AIza` and 35 characters; not in detect-secrets.
    ("Google API key", "Google", r"\bAIza[0-9A-Za-z_-]{35}" + END),
    # Groq (`gsk_`), xAI (`xai-`) and Replicate (`r8_`) keys: not in detect-secrets.
    ("Groq API key", "Groq", r"\bgsk_[A-Za-z0-9]{40,}" + END),
    ("xAI API key", "xAI", r"\bxai-[A-Za-z0-9]{40,}" + END),
    ("Replicate API token", "Replicate", r"\br8_[A-Za-z0-9]{30,}" + END),
    # GitHub's fine-grained personal access tokens: detect-secrets knows only the `ghp_`-style classic ones.
    ("GitHub token", "GitHub fine-grained", r"\bgithub_pat_[A-Za-z0-9_]{40,}" + END),
    # Encrypted PKCS #8 keys: detect-secrets lists the marker of unencrypted PKCS #8 keys, not this one.
    ("Private key", "private key", r"BEGIN ENCRYPTED PRIVATE KEY"),
)


def _detector(kind: str, anchor: str, pattern: str) -> Detector:
    compiled = re.compile(pattern)
    grow = key_block if kind == "Private key" else TOKEN

    def find(window: str) -> Iterator[Hit]:
        for match in compiled.finditer(window):
            if plain_secret(match[0]):
                yield Hit(*match.span(), kind, grow)

    return Detector(f"ours: {kind}", find, anchors(anchor), rank=PROVIDER, kinds=(kind,), **PREFIXED)


OURS: tuple[Detector, ...] = tuple(_detector(*entry) for entry in PATTERNS)
