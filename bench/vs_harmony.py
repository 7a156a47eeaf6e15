"""Our `parse()` beside openai-harmony's own text → messages, on the same generated Harmony transcript.

Run: `.venv/bin/python bench/vs_harmony.py [--megabytes 10] [--runs 3]` after `pip install -e '.[bench]'` (which
brings openai-harmony) and `make setup` (which rebuilds the o200k vocabulary that openai-harmony needs into
var/tiktoken/ from the npm package js-tiktoken, offline, checked against tiktoken's SHA-256: viewer/tokens/vocabulary.py;
nothing is downloaded).

The text is tests/harness/gen.py's, in its `reference` form: what openai-harmony renders and reads itself
(nothing between messages, no `call_id=`). openai-harmony reads tokens, not text, so its side is the whole way
from text to messages: `encode` (special tokens allowed), then `parse_messages_from_completion_tokens`. Ours is
`viewer.parse.parse` on the same `str`, with everything it does beyond reading (checks, call pairing). The runs
alternate between the two so that both see the same load on a shared machine; the best of each is shown, with
the ratio. Both must read the same messages (role, channel, recipient, text), or the figures mean nothing.
"""
from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from viewer.tokens.vocabulary import ensure  # noqa: E402
from tests.harness.gen import generate  # noqa: E402
from viewer.parse import parse  # noqa: E402


def load_encoding():
    """openai-harmony's gpt-oss encoding, its vocabulary read from the rebuilt file (never downloaded)."""
    os.environ["TIKTOKEN_ENCODINGS_BASE"] = str(ensure())
    try:
        from openai_harmony import HarmonyEncodingName, load_harmony_encoding
    except ImportError:
        raise SystemExit("openai-harmony is not installed: .venv/bin/pip install -e '.[bench]'") from None
    return load_harmony_encoding(HarmonyEncodingName.HARMONY_GPT_OSS)


def same_messages(ours, theirs) -> bool:
    """Whether both read the same messages: role, channel, recipient and text, in order."""
    if len(ours) != len(theirs):
        return False
    for mine, reference in zip(ours, theirs):
        text = "".join(part.text for part in reference.content)
        if (mine.role, mine.channel if mine.channel_explicit else None, mine.recipient, mine.content) != (
                reference.author.role.value, reference.channel, reference.recipient, text):
            return False
    return True


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--megabytes", type=float, default=10.0)
    arguments.add_argument("--runs", type=int, default=3)
    options = arguments.parse_args()

    encoding = load_encoding()
    text = generate(options.megabytes, reference=True)
    megabytes = len(text.encode("utf-8")) / 1_000_000

    def reference():
        tokens = encoding.encode(text, allowed_special="all")
        return encoding.parse_messages_from_completion_tokens(tokens), len(tokens)

    best = {"ours": float("inf"), "openai-harmony": float("inf")}
    for _ in range(options.runs):
        for name, function in (("openai-harmony", reference), ("ours", lambda: parse(text))):
            result = None
            gc.collect()  # neither side pays for the other's garbage
            started = time.perf_counter()
            result = function()
            best[name] = min(best[name], time.perf_counter() - started)
            if name == "ours":
                transcript = result
            else:
                (messages, tokens) = result
    agree = same_messages(transcript.messages, messages)
    del messages

    ratio = best["openai-harmony"] / best["ours"]
    rows = [
        ("input", f"{megabytes:.1f} MB", f"{len(transcript.messages):,} messages, {tokens:,} tokens (o200k_harmony)"),
        ("openai-harmony: encode + parse", f"{best['openai-harmony'] * 1000:,.0f} ms",
         f"{megabytes / best['openai-harmony']:.2f} MB/s"),
        ("ours: parse()", f"{best['ours'] * 1000:,.0f} ms", f"{megabytes / best['ours']:.1f} MB/s"),
        ("ratio openai-harmony / ours", f"{ratio:.1f}x", "target >= 50x"),
        ("same messages", "yes" if agree else "NO", "role, channel, recipient, text"),
    ]
    width = max(len(row[0]) for row in rows)
    print(f"best of {options.runs}, alternating")
    for label, figure, note in rows:
        print(f"{label:<{width}}  {figure:>10}  {note}")


if __name__ == "__main__":
    main()
