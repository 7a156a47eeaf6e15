"""The o200k_base vocabulary that the context page counts tokens with (`counting`), rebuilt offline.

tiktoken would download `o200k_base.tiktoken` at first use; the viewer never downloads at run time. The npm
package `js-tiktoken` (pinned in package.json, installed by `npm ci`) carries the same ranks in a compact form: in
`dist/ranks/o200k_base.js`, `export default {…, "bpe_ranks": "…"}` whose lines read `<name> <first rank>
<base64 token> <base64 token> …`, the tokens numbered from the first rank on. Written back as one
`<base64 token> <rank>` line each, in rank order, they are tiktoken's file byte for byte, which the SHA-256 that
tiktoken pins (tiktoken_ext/openai_public.py, `o200k_base`) proves.

`make setup` runs this file once, as a script (standard library only, nothing else of the viewer imported), which
writes var/tiktoken/o200k_base.tiktoken, where `counting` looks; the benchmark against openai-harmony points it at
the same folder.
"""
from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
RANKS = ROOT / "node_modules" / "js-tiktoken" / "dist" / "ranks" / "o200k_base.js"
FOLDER = ROOT / "var" / "tiktoken"
FILE_NAME = "o200k_base.tiktoken"
SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"
"""tiktoken_ext/openai_public.py's `expected_hash` for o200k_base.tiktoken (tiktoken 0.14.0)."""


def rebuild(ranks_js: Path = RANKS) -> bytes:
    """The bytes of o200k_base.tiktoken, from js-tiktoken's compact ranks."""
    if not ranks_js.exists():
        raise SystemExit(f"{ranks_js} is missing: run `npm ci` (package.json pins js-tiktoken)")
    source = ranks_js.read_text(encoding="utf-8")
    ranks = json.loads(source[source.index("{"):source.rindex("}") + 1])["bpe_ranks"]
    by_rank: dict[int, str] = {}
    for line in filter(None, ranks.split("\n")):
        _, first, *tokens = line.split(" ")
        for number, token in enumerate(tokens, start=int(first)):
            by_rank[number] = token
    return "".join(f"{by_rank[rank]} {rank}\n" for rank in sorted(by_rank)).encode("ascii")


def ensure(folder: Path = FOLDER) -> Path:
    """The folder holding a verified o200k_base.tiktoken, rebuilt there if it is missing or wrong."""
    target = folder / FILE_NAME
    if target.exists() and hashlib.sha256(target.read_bytes()).hexdigest() == SHA256:
        return folder
    data = rebuild()
    digest = hashlib.sha256(data).hexdigest()
    if digest != SHA256:
        raise SystemExit(f"the rebuilt {FILE_NAME} has SHA-256 {digest}, not tiktoken's {SHA256}")
    folder.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".partial")  # a reader never sees half a file
    partial.write_bytes(data)
    partial.replace(target)
    return folder


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--out", type=Path, default=FOLDER)
    print(ensure(arguments.parse_args().out) / FILE_NAME)


if __name__ == "__main__":
    main()
