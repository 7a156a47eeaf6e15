"""Command line: `parse`, `lint`, `render` (a view exported as the web app exports it), `convert` (another
dialect) and `formats` (every format the viewer reads), none needing a server; `serve`, and what an operator runs beside it: `reparse`, `prune`,
`check-config`; `open`, a file or an agent's session in the viewer on this machine."""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import sqlite3
import sys
from typing import TYPE_CHECKING, Iterable, Sequence

from viewer import formats
from viewer.model.words import VIEWS

if TYPE_CHECKING:
    from viewer.model import Transcript
    from viewer.present.exports import Export

# Each command imports what it uses when it runs (issue 40): `render`, `parse`, `convert`, `lint` and `formats`
# start without the database's library, its migrations or the web app (tests/cli/test_imports.py).

EXPORT_FORMATS = ("html", "md", "json")
_EXTENSIONS = {".html": "html", ".htm": "html", ".md": "md", ".markdown": "md", ".json": "json"}
_SURROGATE = re.compile("[\ud800-\udfff]")
"""What UTF-8 cannot hold (a JSON transcript can: `"\\ud800"`): written as U+FFFD."""


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

    render = commands.add_parser("render", help="export a view as HTML, Markdown or its JSON twin, as the web "
                                                "app's download links do")
    render.add_argument("file", help="transcript file, or - for standard input")
    render.add_argument("-o", "--output", metavar="OUT", help="file to write (default: standard output)")
    render.add_argument("--view", choices=VIEWS, default="default", help="the view to export (default: default)")
    render.add_argument("--show-secrets", action="store_true",
                        help="write the secrets found as they are (default: masked, as link holders see them)")
    render.add_argument("--format", choices=sorted(EXPORT_FORMATS),
                        help="html, md or json (default: from OUT's extension, else html)")
    _add_parse_options(render)
    render.set_defaults(run=_run_render)

    convert = commands.add_parser("convert", help="rewrite a transcript in another dialect; what the target "
                                                  "cannot express is reported on standard error")
    convert.add_argument("file", help="transcript file, or - for standard input")
    convert.add_argument("--to", required=True, choices=[writer.target for writer in formats.writers()],
                         help="the dialect to write")
    convert.add_argument("-o", "--output", metavar="OUT", help="file to write (default: standard output)")
    _add_parse_options(convert)
    convert.set_defaults(run=_run_convert)

    serve = commands.add_parser("serve", help="run the web viewer")
    serve.add_argument("--host", help="address to listen on (default from VIEWER_HOST, else 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (default from VIEWER_PORT, else 8000)")
    _add_database_option(serve)
    serve.set_defaults(run=_run_serve)

    opening = commands.add_parser("open", help="show a transcript file in the viewer on this machine (started if "
                                                "needed); or list the sessions of every agent it reads in their "
                                                "default places, or under a folder, newest first, and open the one "
                                                "chosen")
    opening.add_argument("path", nargs="?", help="a transcript file, or a folder such as ~/.claude/projects/<project> "
                                                 "or ~/.codex/sessions (default: every agent's own folders)")
    opening.add_argument("--pick", type=int, metavar="N", help="open the N-th session of the list without asking")
    opening.add_argument("--no-browser", action="store_true", help="print the link instead of opening a browser")
    opening.add_argument("--port", type=int, help="the local viewer's port (default from VIEWER_PORT, else 8000)")
    _add_database_option(opening)
    opening.set_defaults(run=_run_open)

    reparse = commands.add_parser("reparse", help="parse stored transcripts again: those stored by another "
                                                  "parser or policy version, or with --all every one")
    _add_database_option(reparse)
    reparse.add_argument("--all", action="store_true", help="parse every stored transcript again")
    reparse.set_defaults(run=_run_reparse)

    prune = commands.add_parser("prune", help="delete uploads whose link expired, and with --older-than those "
                                              "made longer ago (samples are kept)")
    _add_database_option(prune)
    prune.add_argument("--older-than", type=_age, metavar="AGE", help="an age such as 30d, 12h, 90m or 2w")
    prune.set_defaults(run=_run_prune)

    check = commands.add_parser("check-config", help="print the settings in force and where each comes from")
    _add_database_option(check)
    check.set_defaults(run=_run_check_config)

    listing = commands.add_parser("formats", help="list every format the viewer reads: what writes it, an example, "
                                                  "whether a transcript can be written in it")
    listing.add_argument("--markdown", action="store_true", help="as the README's Markdown table")
    listing.set_defaults(run=_run_formats)
    return parser


def _add_database_option(command: argparse.ArgumentParser) -> None:
    command.add_argument("--db", help="SQLite path or database URL (default from VIEWER_DATABASE)")


_AGE_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def _age(text: str) -> dt.timedelta:
    number, unit = text[:-1], text[-1:].lower()
    if unit not in _AGE_UNITS or not number.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not an age such as 30d, 12h, 90m or 2w")
    return dt.timedelta(**{_AGE_UNITS[unit]: int(number)})


def _add_parse_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--dialect", default="auto", choices=("auto", *formats.NAMES),
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
    from viewer.parse import parse

    return parse(_read(path), args.dialect, primed_role=args.primed_role)


def _run_parse(args: argparse.Namespace) -> int:
    transcript = _parse_file(args.file, args)
    json.dump(transcript.to_json(), sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return 0


def _run_lint(args: argparse.Namespace) -> int:
    """Every diagnostic of every file, the secrets found in it among them (W-SECRET: kind and a masked preview,
    never the secret). Exit 1 on any error or any secret, so that a CI job can stop a transcript before it is
    published. A big session is read a batch at a time (viewer/lint.py)."""
    from functools import partial

    from viewer.lint import linted

    stop = False
    for path in args.files:
        try:
            for placed in linted(path, args.dialect, args.primed_role, partial(_parse_file, path, args)):
                print(placed.printed(path))
                stop |= placed.stops
        except BrokenPipeError:
            raise  # the reader went away (main answers 0), not an unreadable file
        except OSError as error:
            raise UsageError(f"cannot read {path}: {error.strerror or error}") from None
    return 1 if stop else 0


def _run_render(args: argparse.Namespace) -> int:
    form = args.format or _format_of(args.output)
    if form == "html":
        from viewer.render import workers

        # Its bodies are drawn by a worker process: it starts before the exports are imported and while the file
        # is parsed, which is the time it takes to start.
        workers.POOL.warm()
    from viewer.present.exports import EXPORTS
    from viewer.render.budget import answering

    chosen = EXPORTS[form]
    if _read_a_piece_at_a_time(args):
        _render_stored(args, chosen)
        return 0
    from viewer.ingest.masking import mask_secrets  # not the package's face, whose other names store
    from viewer.policy import Projection
    from viewer.present.parsed import parsed_document

    title = "standard input" if args.file == "-" else os.path.basename(args.file)
    analysis = mask_secrets(Projection.of(_parse_file(args.file, args)))
    projection = analysis.original if args.show_secrets and analysis.original else analysis.shared
    document = parsed_document(projection, args.view, title)
    with answering():  # the whole file is one answer: its highlighting shares one slack (viewer/render/budget.py)
        _write(chosen.write(document), args.output)
    return 0


RENDER_STORED_FROM = 8 << 20
"""Files at least this big are rendered through a database when their format is read a piece at a time."""


def _read_a_piece_at_a_time(args: argparse.Namespace) -> bool:
    """Whether the file is a big agent session or JSON Lines dataset, which the server stores a batch at a time;
    smaller files, standard input and primed completions are parsed whole, without the database's library."""
    if args.file == "-" or args.primed_role or not os.path.isfile(args.file):
        return False
    if os.path.getsize(args.file) < RENDER_STORED_FROM:
        return False
    from viewer.ingest import sessions, streaming

    with open(args.file, "rb") as spool:
        return sessions.streams(spool, args.dialect) is not None or streaming.streams(spool, args.dialect)


def _render_stored(args: argparse.Namespace, chosen: Export) -> None:
    """Render a big file as the server exports it: stored a batch at a time into a database of its own (a
    temporary SQLite file), then written from its rows a window at a time, so that memory stays bounded by the
    batch, not the file (a whole parse of a 100 MB session peaks at over 600 MB). Images come out as the
    server's exports embed them."""
    import dataclasses
    import tempfile

    from viewer.ingest import store_spooled
    from viewer.present.stored import stored_document
    from viewer.render.budget import answering
    from viewer.store import Store

    with tempfile.TemporaryDirectory(prefix="viewer-render-") as folder:
        store = Store(f"sqlite:///{os.path.join(folder, 'render.sqlite3')}")
        try:
            with open(args.file, "rb") as spool:
                record = store_spooled(store, spool, id="render", name=os.path.basename(args.file),
                                       requested_dialect=args.dialect)
            # No id: the file has none of its own, as a parsed file's document has none.
            document = dataclasses.replace(stored_document(store, record, args.view, unmasked=args.show_secrets),
                                           id=None)
            with answering():
                _write(chosen.write(document), args.output)
        finally:
            store.engine.dispose()


def _format_of(output: str | None) -> str:
    return _EXTENSIONS.get(os.path.splitext(output or "")[1].lower(), "html")


def _run_convert(args: argparse.Namespace) -> int:
    from viewer.write import convert

    written = convert(_parse_file(args.file, args), args.to)
    _write([written.text], args.output)
    for loss in written.losses:
        print(f"openchatml-viewer: convert: {loss}", file=sys.stderr)
    return 0


def _write(chunks: Iterable[str], path: str | None) -> None:
    """Write text as UTF-8, whatever the locale says, to `path` or to standard output."""
    if path is None or path == "-":
        out = getattr(sys.stdout, "buffer", None)
        if out is None:  # a text-only stream (a test's StringIO)
            for chunk in chunks:
                sys.stdout.write(chunk)
            return
        sys.stdout.flush()
        for chunk in chunks:
            out.write(_SURROGATE.sub("\ufffd", chunk).encode("utf-8"))
        out.flush()
        return
    try:
        with open(path, "w", encoding="utf-8", newline="") as handle:
            for chunk in chunks:
                handle.write(_SURROGATE.sub("\ufffd", chunk))
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror or error}") from None


def _run_serve(args: argparse.Namespace) -> int:
    overrides = {key: value for key, value in (("HOST", args.host), ("PORT", args.port)) if value is not None}
    app = _app(args, **overrides)
    from viewer.web.serving import serve  # a local server, unlimited on loopback, stopped gracefully by SIGTERM

    serve(app, app.config["HOST"], int(app.config["PORT"]))
    return 0


def _server_app(args: argparse.Namespace, **overrides: object):
    """The app as the server would make it (environment, settings file, instance folder), without samples, and
    leaving uploads a stopped server did not finish to the next server (a command exits before it could)."""
    return _app(args, recover=False, PRELOAD_SAMPLES=False, **overrides)


def _app(args: argparse.Namespace, recover: bool = True, **overrides: object):
    from viewer.web import create_app
    from viewer.settings import ConfigError

    if getattr(args, "db", None):
        overrides["DATABASE"] = args.db
    try:
        return create_app(overrides, recover=recover)
    except ConfigError as error:
        raise UsageError(str(error)) from None


def _run_open(args: argparse.Namespace) -> int:
    import webbrowser
    from pathlib import Path

    from viewer import opener, sessions

    if args.path is None:
        found = sessions.everywhere()
        if not found:
            raise UsageError("no session of any agent in their default places; give a file or a folder")
        chosen = _chosen(found, args.pick)
    else:
        path = Path(os.path.expanduser(args.path))
        if path.is_dir():
            found = sessions.sessions_under(path)
            if not found:
                raise UsageError(f"no agent's session under {path}")
            chosen = _chosen(found, args.pick)
        elif path.is_file():
            chosen = path
        else:
            raise UsageError(f"no such file or folder: {path}")
    name = chosen.path.name if isinstance(chosen, sessions.Session) else chosen.name
    port = args.port or int(os.environ.get("VIEWER_PORT") or 8000)
    try:
        data = sessions.session_bytes(chosen)
    except OSError as error:
        raise UsageError(f"cannot read {name}: {error.strerror or error}") from None
    except sqlite3.Error as error:
        raise UsageError(f"cannot read the store {name}: {error}") from None
    try:
        answer = opener.upload(opener.local_viewer(port, args.db), name, data)
    except opener.OpenError as error:
        raise UsageError(str(error)) from None
    print(answer["url"])
    print(f"manage (keep this link to yourself): {answer['manage_url']}")
    if not args.no_browser:
        webbrowser.open(answer["url"])
    return 0


def _chosen(found: list, pick: int | None):
    """The session the person picks from the list (numbered from 1, newest first): by `--pick`, else asked on the
    terminal; with no terminal to ask on, the list and how to pick."""
    if pick is None:
        _list_sessions(found)
        if not sys.stdin.isatty():
            raise UsageError(f"no terminal to ask which session to open: run again with --pick N (1–{len(found)})")
        try:
            answer = input(f"Open which (1–{len(found)}) [1]? ").strip() or "1"
        except (EOFError, KeyboardInterrupt):
            print(file=sys.stderr)
            raise UsageError(f"nothing picked: run again with --pick N (1–{len(found)})") from None
        pick = int(answer) if answer.isdigit() else 0
    if not 1 <= pick <= len(found):
        raise UsageError(f"choose a session from 1 to {len(found)}")
    return found[pick - 1]


def _list_sessions(found: list) -> None:
    """Each session as its agent's list shows it: when it was last active, the agent, its title, its size."""
    from viewer.sessions import human_size

    agent_width = max(len(session.agent) for session in found)
    for number, session in enumerate(found, start=1):
        when = session.when.astimezone().strftime("%Y-%m-%d %H:%M") + (" " if session.timed else "*")
        print(f"{number:>3}. {when} {session.agent:<{agent_width}}  {session.title or '(no message)'}  "
              f"({human_size(session.size)})")
    if not all(session.timed for session in found):
        print("     * the file's time: the session records no time of its own")


def _run_reparse(args: argparse.Namespace) -> int:
    from viewer import ingest

    count = ingest.reparse_stale(_server_app(args).extensions["viewer.store"], everything=args.all)
    print(f"parsed again: {count} transcript{'' if count == 1 else 's'} (now {ingest.STORED_VERSION})")
    return 0


def _run_prune(args: argparse.Namespace) -> int:
    store = _server_app(args).extensions["viewer.store"]
    before = dt.datetime.now(dt.timezone.utc) - args.older_than if args.older_than else None
    deleted = store.prune(created_before=before)
    print(f"deleted: {len(deleted)} upload{'' if len(deleted) == 1 else 's'}")
    return 0


def _run_formats(args: argparse.Namespace) -> int:
    from viewer.formats import listing
    if args.markdown:
        sys.stdout.write(listing.markdown_table())
    else:
        sys.stdout.writelines(listing.text_listing())
    return 0


def _run_check_config(args: argparse.Namespace) -> int:
    """Prints the layers as the server would read them, without opening the database or writing anything."""
    from flask import Flask

    from viewer.settings import layers as config
    from viewer.settings import SETTINGS, database_url

    instance = Flask("viewer.web", instance_relative_config=True).instance_path
    try:
        layered = config.load(instance, {"DATABASE": args.db} if args.db else {})
    except config.ConfigError as error:
        raise UsageError(str(error)) from None
    width = max(len(setting.name) for setting in SETTINGS)
    for setting in SETTINGS:
        value = layered.values[setting.name]
        if setting.name == "DATABASE":  # the database the server opens, not the empty default
            value = database_url(str(value), instance)
        text = config.shown(setting.name, value)
        if setting.name == "SECRET_KEY" and not value:
            text = f"(generated once, kept in {instance}/secret_key)"
        print(f"{setting.name:<{width}}  {text}  ({layered.sources[setting.name]})")
    return 0
