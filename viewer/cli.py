"""Command line: `parse`, `lint`, `serve` and `reparse`."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from viewer.model import Transcript
from viewer.parse import DIALECTS, parse


class UsageError(Exception):
    """A problem with the command itself (missing file, unreadable input): one line, exit 2."""


def main(argv: Sequence[str] | None = None) -> int:
    args = _arguments().parse_args(argv)
    try:
        return args.run(args)
    except UsageError as error:
        print(f"openchatml-viewer: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


def _arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="openchatml-viewer", description=__doc__)
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    parse_command = commands.add_parser("parse", help="print the JSON model of a transcript")
    parse_command.add_argument("file", help="transcript file, or - for standard input")
    _add_parse_options(parse_command)
    parse_command.set_defaults(run=_run_parse)

    lint = commands.add_parser("lint", help="print diagnostics as file:line:col: CODE message")
    lint.add_argument("files", nargs="+", metavar="FILE", help="transcript files, or - for standard input")
    _add_parse_options(lint)
    lint.set_defaults(run=_run_lint)

    serve = commands.add_parser("serve", help="run the web viewer")
    serve.add_argument("--host", help="address to listen on (default from VIEWER_HOST, else 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (default from VIEWER_PORT, else 8000)")
    serve.add_argument("--db", help="SQLite path or database URL (default from VIEWER_DATABASE)")
    serve.set_defaults(run=_run_serve)

    reparse = commands.add_parser("reparse", help="parse stored transcripts again: those stored by another "
                                                  "parser or policy version, or with --all every one")
    reparse.add_argument("--db", help="SQLite path or database URL (default from VIEWER_DATABASE)")
    reparse.add_argument("--all", action="store_true", help="parse every stored transcript again")
    reparse.set_defaults(run=_run_reparse)
    return parser


def _add_parse_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--dialect", default="auto", choices=("auto", *DIALECTS),
                         help="read the input as this dialect instead of guessing")
    command.add_argument("--primed-role", metavar="ROLE",
                         help="the input is a completion after a prefilled <|start|>ROLE header")


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror or error}") from None


def _parse_file(path: str, args: argparse.Namespace) -> Transcript:
    return parse(_read(path), args.dialect, primed_role=args.primed_role)


def _run_parse(args: argparse.Namespace) -> int:
    transcript = _parse_file(args.file, args)
    json.dump(transcript.to_json(), sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return 0


def _run_lint(args: argparse.Namespace) -> int:
    any_error = False
    for path in args.files:
        transcript = _parse_file(path, args)
        for diagnostic in transcript.diagnostics:
            line, column = transcript.position(diagnostic.span[0])
            print(f"{path}:{line}:{column}: {diagnostic.code} {diagnostic.message}")
            any_error |= diagnostic.severity == "error"
    return 1 if any_error else 0


def _run_serve(args: argparse.Namespace) -> int:
    from viewer.web import create_app

    overrides = {key: value for key, value in
                 (("HOST", args.host), ("PORT", args.port), ("DATABASE", args.db)) if value is not None}
    app = create_app(overrides)
    app.run(host=app.config["HOST"], port=int(app.config["PORT"]), threaded=True)
    return 0


def _run_reparse(args: argparse.Namespace) -> int:
    from viewer import ingest
    from viewer.web import create_app

    # The app resolves the database exactly as the server does (environment, instance folder).
    app = create_app({"PRELOAD_SAMPLES": False, **({"DATABASE": args.db} if args.db else {})})
    count = ingest.reparse_stale(app.extensions["viewer.store"], everything=args.all)
    print(f"parsed again: {count} transcript{'' if count == 1 else 's'} (now {ingest.STORED_VERSION})")
    return 0
