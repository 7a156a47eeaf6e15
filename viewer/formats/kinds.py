"""The record types of the format registry (registry.py): what the viewer knows of one format, as plain data.

Code is named, not imported (`"viewer.parse.harmony:parse_harmony"`), as Pygments' mapping names its lexers'
modules: the registry is a leaf that every stage may read (the parser, the policy, the writers, the web app),
and a command that only lists formats imports no reader. `viewer.formats.load` turns a name into the object.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

Reference = str
"""Where a function or module is: `"package.module:attribute"`, or `"package.module"` for a module."""


class Pairing(StrEnum):
    """How a tool reply that names no call id finds its call (viewer.analysis.pairing)."""

    BY_NAME = "name"
    """The latest unanswered call to the tool the reply names."""
    BY_ORDER = "order"
    """The earliest unanswered call: the format's replies may not name their tool (ChatML, raw templates)."""


class Preambles(StrEnum):
    """Which assistant text the policy shows as a preamble (a plan note) though no `intent=preamble` marks it."""

    MARKED = "marked"
    """Only what is marked `intent=preamble` (OpenChatML 2.2 §5): every format."""
    HARMONY = "harmony"
    """Also commentary with no recipient, in a transcript without an OpenChatML header (HARMONY.md)."""
    AGENT = "agent"
    """Also the text an agent wrote before a tool call of the same response, which its importer puts on
    `commentary` (docs/architecture.md, "Threads and metadata")."""


class Threads(StrEnum):
    """How a format keeps sub-agents' conversations, which become `thread`s of one transcript."""

    NONE = "none"
    """It has no sub-agents."""
    SIDE_LINES = "side lines"
    """A sub-agent's lines stand in the session's own file, marked (Claude Code's `isSidechain`)."""
    OWN_FILES = "own files"
    """A sub-agent writes a log of its own beside the session's, naming the session and the call that started it;
    read after the session's (joined to it), its messages are a thread of the session."""
    SESSIONS = "sessions"
    """A sub-agent's conversation is a session of its own that names its parent (a file or rows of its own): a
    bundle of them is read as one transcript."""


class Level(StrEnum):
    """Where in a JSON text a shape is recognised (viewer/parse/json/shapes.py tries each level's readers in the
    registry's order, and says what a module provides at each)."""

    FILE = "file"
    """A whole upload, read before anything else: it may be a dataset (OpenTelemetry traces)."""
    DOCUMENT = "document"
    """A whole document a framework or tool writes: read before the plain reading of a conversation."""
    RECORD = "record"
    """One object that is a whole conversation though no list of messages stands at its top."""
    FAST_RECORD = "fast record"
    """A record of a dataset read straight from its text, without spans two levels down: the bulk of big files."""
    STREAM = "stream"
    """The chunks of a streamed answer, merged into one element per answer or choice."""
    ELEMENT = "element"
    """One element of a conversation's list: a message, an item, a turn."""


@dataclass(frozen=True, slots=True)
class Line:
    """One way the first JSON object line of a line-oriented format looks; everything given must hold. The line's
    `type` (or, without one, `event`) must be a string."""

    types: tuple[str, ...] = ()
    """Its `type` is one of these (none given: any)."""
    type_prefixes: tuple[str, ...] = ()
    """Its `type` starts with one of these (none given: any)."""
    with_any: tuple[str, ...] = ()
    """It has at least one of these members (none given: no condition)."""
    with_all: tuple[str, ...] = ()
    """It has every one of these members."""
    without: tuple[str, ...] = ()
    """It has none of these members."""
    objects: tuple[str, ...] = ()
    """These members hold objects."""
    test: Reference | None = None
    """`(first: dict) -> bool`, asked of the whole first object when the rest holds: for what the fields above
    cannot say."""


@dataclass(frozen=True, slots=True)
class Opens:
    """A text whose first characters (after blanks) match one of these regular expressions: a log whose first
    line names its producer (`# aider chat started at`). Asked before any other way."""

    patterns: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Tokens:
    """A text format told by its marker tokens: the first mark found in the text decides between formats (so a
    template quoted inside another's prompt does not), a pattern at the same place winning over a plain mark;
    with no mark at all, what the text opens with decides."""

    marks: tuple[str, ...] = ()
    patterns: tuple[str, ...] = ()
    """Regular expressions that mark the format where they match (Phi-4's `<|im_start|>user<|im_sep|>`)."""
    openings: tuple[str, ...] = ()
    """What a text with no mark of any format may open with (`<|begin_of_text|>`)."""


@dataclass(frozen=True, slots=True)
class YamlHeader:
    """A text that opens with a YAML header holding `version:` (OpenChatML 2.x)."""


@dataclass(frozen=True, slots=True)
class JsonKeys:
    """A JSON document whose first 64 KiB hold every one of these members (their keys outside strings): a chat
    app's export."""

    keys: tuple[str, ...] = ()
    objects: tuple[str, ...] = ()
    """Members whose value is an object."""
    arrays: tuple[str, ...] = ()
    """Members whose value is an array."""
    patterns: tuple[str, ...] = ()
    """Regular expressions that must each be found in the head too (a key's value: `"schema_version":
    "ATIF-v1.`)."""


@dataclass(frozen=True, slots=True)
class JsonLines:
    """JSON Lines whose first whole object line looks one of these ways."""

    lines: tuple[Line, ...]


@dataclass(frozen=True, slots=True)
class Members:
    """A bundle (several files uploaded as one: a zip archive, files sent at once, a folder, a SQLite database;
    viewer/bundles) with, for each of these regular expressions, a member whose path it finds (a database's tables
    are members `<database path>#<table>`, or `#<table>` for a database uploaded alone). A dialect detected so
    reads bundles itself: the members it knows, the others named in a diagnostic; a bundle no record claims is
    read by the dialect of its first file (viewer/parse/bundles)."""

    patterns: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AnyJson:
    """Any other JSON text, and server-sent events carrying JSON: the JSON dialect's catch-all."""


@dataclass(frozen=True, slots=True)
class AnyText:
    """Any text no other format claims: read as stray text of this format."""


Detection = Members | Opens | Tokens | YamlHeader | JsonKeys | JsonLines | AnyJson | AnyText


@dataclass(frozen=True, slots=True)
class Writer:
    """Writing a transcript in this format: `viewer convert --to <target>`."""

    target: str
    """The name `--to` takes."""
    write: Reference
    """`(Transcript) -> Written` (viewer.write)."""


@dataclass(frozen=True, slots=True)
class Prompt:
    """What the model received, as the context page writes it (viewer.context.text)."""

    target: str
    """The writer (a `Writer.target`) that writes the messages as the model read them: the format's own, or, for
    a log of API calls, the chat API's JSON."""
    generation: str = ""
    """What follows the messages to ask for the next assistant message (`<|start|>assistant`); "" where the API's
    server writes it."""
    history: Reference | None = None
    """`(Message) -> Message`: an earlier message as the format's reference renderer writes it, where that
    differs from the log (Harmony ends an earlier final answer with `<|end|>`)."""
    write: Reference | None = None
    """`(Transcript) -> Written`, where the model read the messages otherwise than `convert` writes them
    (Harmony bodies as received, not escaped); None: the target's own writer."""
    bodies_verbatim: bool = False
    """Each body stands in the written text as it is (so the page may show where it starts and ends)."""
    drops: str = "everything"
    """The rule for the earlier reasoning the model no longer saw (a key of viewer.context.DROP_RULES)."""


@dataclass(frozen=True, slots=True)
class SessionFiles:
    """An agent's session files on this machine (viewer.sessions, `viewer open`)."""

    agent: str
    """The agent's name as people know it."""
    folders: tuple[str, ...]
    """Where the agent keeps its sessions, `~` for the home folder."""
    pattern: str
    """The session files' names under those folders (a glob, searched at any depth)."""
    companions: str | None = None
    """Where a session's sub-agents' own files (logs, meta files) lie, beside it: a glob under the folder named
    as the session file without its extension; None: it writes none."""
    spawned: Reference | None = None
    """`(session file: Path) -> list[Path]`: the logs of the sub-agents a session spawned, where they are not in
    a folder of its own (Codex writes each beside the others, naming its parent in its first line); None: none."""
    thinned: bool = False
    """Big files are read with their big payloads (pasted screenshots) cut out (viewer.parse.thinning)."""
    joined: Reference | None = None
    """`(Path) -> bytes`: where the agent writes a session as a folder of files, that folder as one upload (a zip
    archive of its files, viewer/bundles); `pattern` then names a folder found in each session's folder
    (`events`), whose parent is the session."""
    lister: Reference | None = None
    """`(Path, dialect) -> Listed | None` (viewer.sessions.listed): how the agent's own list titles and dates the
    session at that path, None for one it does not list (a sub-agent's); None: titled by the first user message the
    default view shows, dated by the last time the file records."""
    database: bool = False
    """`pattern` names a SQLite database holding many sessions (listed by its path, opened read-only, unless a
    `lister` reads them), not one session."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Dialect:
    """A format a whole upload is detected as and read by one importer; its name is stored with the transcript."""

    name: str
    """Stable: stored with every transcript read as it, and given to `--dialect`."""
    title: str
    """What it is, for a person choosing it."""
    written_by: str
    """What writes it, and where."""
    example: str
    """A short transcript in it, detected as it and parsed without diagnostics."""
    samples: tuple[str, ...]
    """Its sample files in sample_transcripts/ (globs), each with a golden."""
    detection: tuple[Detection, ...]
    """Each way it is told apart (viewer/parse/detect.py tries the ways in a fixed order, whatever the format)."""
    priority: int = 0
    """Among formats detected the same way, the higher tries first (ties between token marks at one place)."""
    reader: Reference
    """`(text, ParseOptions) -> Transcript`."""
    lines: Reference | None = None
    """`() -> LineReader` (viewer/parse/agents/online.py): the same reader, taking the lines one at a time, so that a
    big upload is read and stored a piece of lines at a time, in memory that does not grow with it
    (viewer/parse/streamed.py); None: read whole."""
    pairing: Pairing = Pairing.BY_NAME
    replies: bool = True
    """Whether it records its tool calls' replies. False (Cursor's agent transcripts): its calls are not paired nor
    said to be unanswered (W-UNANSWERED-CALL would say it of every call), and a session read a piece at a time keeps
    of a call only its line as an interruption would change it (viewer/policy/onscreen.py)."""
    writer: Writer | None
    """Writing a transcript back in this format; None: it cannot be written (convert to another)."""
    prompt: Prompt
    source_lexer: str | None
    """The Pygments lexer of a message's exact source in the debug view; None: shown as plain text."""
    session: SessionFiles | None = None
    """An agent's session log: where the agent keeps them; None for any other format."""
    preambles: Preambles = Preambles.MARKED
    threads: Threads = Threads.NONE
    tail: bool = False
    """A live upload of it is read message after message, its unfinished tail alone (viewer.parse.tail)."""
    json_escapes: bool = False
    """Read from JSON, whose escapes may spell lone surrogates (viewer.parse.surrogates)."""
    channels_written: bool = False
    """Its reader knows whether each message's channel was written (`Message.channel_explicit`), so a writer
    may leave out a channel the text did not write."""
    versions: bool = False
    """Its app showed a version switcher ("‹ 1/2 ›") at the forks it records (an edited question, a regenerated
    answer), so the default view offers the same switcher; a fork no switcher showed (an agent's rewind) is
    the debug view's alone."""
    shapes: tuple[JsonShape, ...] = ()
    """The JSON shapes its importer reads (the JSON dialect's), in the order they are tried."""
    screen: Reference | None = None
    """An agent's screen as words: the module (viewer/policy/screens) whose `said(Exchange) -> Said` words each
    tool call as the agent's own screen showed it (the line the default view shows) and whose
    `edits(Exchange) -> list[FileEdit]` reads what a call changed in files (the files-changed page); None: calls
    are noted by their tool's name alone."""


@dataclass(frozen=True, slots=True, kw_only=True)
class JsonShape:
    """A shape of JSON the JSON dialect reads (an API's request or response, a framework's log, a dataset's
    record): how it is told apart and read at each level where it stands."""

    name: str
    title: str
    written_by: str
    example: str
    samples: tuple[str, ...]
    readers: dict[Level, Reference] = field(default_factory=dict)
    """Per level, the module that recognises and reads it there (viewer/parse/json/shapes.py says what each
    level's module provides)."""
