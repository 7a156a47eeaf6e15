"""What the debug view loses of a JSON input: the share of its string values of 12 characters or more (not ids,
timestamps, type tags or opaque blobs: tests/harness/leaves.py says which) found anywhere in `viewer render
--view debug`, per file and over all files, and the same share outside the messages' source panels (what the
viewer itself made of the input: bodies, fields, header, diagnostics). Prints figures; asserts nothing.

A zip archive or a SQLite database counts by its members' values, as the viewer unpacks it (tests/harness/leaves.py:
`file_leaves`).

Run: `.venv/bin/python bench/nothing_lost.py [FILE_OR_FOLDER ...] [--lost N]` (default: every sample of a dialect
that reads JSON, as the registry lists them: JSON and JSON Lines files, session folders' archives, databases);
`--lost N` lists up to N lost values of each file.
"""
from __future__ import annotations

import argparse
import contextlib
import html
import io
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.harness.leaves import Haystack, file_leaves  # noqa: E402
from viewer import cli, formats  # noqa: E402

SAMPLES = ROOT / "sample_transcripts"
_SOURCE_PANEL = re.compile(r'<details class="source">.*?</details>', re.S)
_TAG = re.compile(r"<[^>]*>")
_STYLE = re.compile(r"<style>.*?</style>", re.S)


def debug_html(path: Path) -> str:
    """`viewer render PATH --view debug` (HTML), as the command writes it."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main(["render", str(path), "--view", "debug", "--format", "html", "--show-secrets"])
    if code:
        raise RuntimeError(f"viewer render {path} exited {code}")
    return _STYLE.sub("", out.getvalue())


def shown_text(page: str) -> str:
    return html.unescape(_TAG.sub(" ", page))


def measure(path: Path) -> dict:
    leaves = file_leaves(path.read_bytes())
    page = debug_html(path)
    anywhere = Haystack(shown_text(page))
    outside = Haystack(shown_text(_SOURCE_PANEL.sub(" ", page)))
    lost = [leaf for leaf in leaves if not anywhere.holds(leaf)]
    return {"leaves": len(leaves), "found": len(leaves) - len(lost),
            "outside": sum(outside.holds(leaf) for leaf in leaves), "lost": lost}


def json_samples(folder: Path) -> list[Path]:
    """The files of a folder that a dialect reading JSON names as its samples (`formats.DIALECTS`)."""
    patterns = {pattern for dialect in formats.DIALECTS if dialect.json_escapes
                for pattern in (*dialect.samples, *(glob for shape in dialect.shapes for glob in shape.samples))}
    return sorted({path for pattern in patterns for path in folder.glob(pattern)})


def files(arguments: list[str]) -> list[Path]:
    if not arguments:
        return json_samples(SAMPLES)
    found: list[Path] = []
    for argument in arguments:
        path = Path(argument)
        found += json_samples(path) if path.is_dir() else [path]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", help="files or folders (default: the JSON samples)")
    parser.add_argument("--lost", type=int, default=0, metavar="N", help="list up to N lost values per file")
    args = parser.parse_args()
    total = found = outside = losing = 0
    chosen = files(args.paths)
    print(f"{'file':60} {'values':>7} {'found':>7} {'share':>7} {'no src':>7}")
    for path in chosen:
        figures = measure(path)
        total += figures["leaves"]
        found += figures["found"]
        outside += figures["outside"]
        losing += bool(figures["lost"])
        share = figures["found"] / figures["leaves"] if figures["leaves"] else 1.0
        bare = figures["outside"] / figures["leaves"] if figures["leaves"] else 1.0
        print(f"{path.name[:60]:60} {figures['leaves']:7,} {figures['found']:7,} {share:7.1%} {bare:7.1%}")
        for leaf in figures["lost"][:args.lost]:
            print(f"    lost {leaf.path}: {leaf.value[:90]!r}")
    print(f"\n{len(chosen)} files, {losing} losing something: {found:,} of {total:,} values found in the debug view "
          f"({found / max(total, 1):.1%}); {outside:,} outside the source panels ({outside / max(total, 1):.1%})")


if __name__ == "__main__":
    main()
