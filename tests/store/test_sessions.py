"""A big agent session read and stored a piece at a time (viewer/ingest/sessions.py) stores what parsing it whole
stores: every row a page, the JSON twin or a search reads, at the file's offsets, lines and columns; its images;
with secrets, the masked text link holders download, byte for byte. What later lines decide about rows stored
before (a call's pair, a response's usage moving on, a branch aside, a thread's call, the end's diagnostics) is
applied to them. On SQLite and PostgreSQL."""
from __future__ import annotations

import io
import json
from pathlib import Path

import msgspec
import pytest
from sqlalchemy import text

from tests.harness.antigravity_session import antigravity_session
from tests.harness.codex_rollout import rollout
from tests.harness.qwen_session import session as qwen_session
from tests.harness.copilot_session import copilot_session
from tests.harness.cursor_transcript import cursor_transcript
from tests.harness.droid_session import droid_session
from tests.harness.event_log import event_log
from tests.harness.gemini_cli_session import gemini_cli_session
from tests.harness.pi_session import pi_session
from tests.harness.kimi_cli_session import kimi_cli_session
from tests.harness.kimi_code_session import kimi_code_session
from tests.harness.vscode_chat_session import vscode_chat_session
from tests.harness.workday import workday
from tests.parse.agents.test_thinning import claude_lines
from tests.secrets.canaries import canaries
from tests.store.test_live import snapshot
from viewer import ingest
from viewer.ingest import sessions as session_ingest
from viewer.parse import pieces, streamed, thinning
from viewer.parse.agents import online
from viewer.parse.agents.vscode_chat import VSCodeChatReader
from viewer.parse.events.reader import EventsReader
from viewer.store import Store
from viewer.store import sessions as store_sessions

SAMPLES = Path(__file__).resolve().parents[2] / "sample_transcripts"
GITHUB = next(canary.secret for canary in canaries(seed=5) if canary.secret.startswith("ghp_"))
PASSWORD = "Wq8Lm2Rt7Zp4Xk9Vb3N"
"""A password the scan finds only beside its name: written bare first, it is found where it is named later."""


@pytest.fixture
def small_pieces(monkeypatch):
    """Every session streams, a few lines a piece; each image of a few KiB cut out as it is read."""
    monkeypatch.setattr(streamed, "STREAM_FROM", 0)
    monkeypatch.setattr(pieces, "PIECE_BYTES", 700)
    monkeypatch.setattr(thinning, "CUT_FROM", 1024)


def samples() -> bytes:
    """Every Claude Code sample but the broken ones, one after another (their trees and threads apart by id)."""
    return b"".join((SAMPLES / name).read_bytes() for name in sorted(p.name for p in SAMPLES.glob("claude-code-1*"))
                    if name.endswith(".jsonl"))


def line(**value) -> str:
    return json.dumps(value) + "\n"


def secret_line(uuid: str, parent: str | None) -> str:
    return line(type="user", uuid=uuid, parentUuid=parent, sessionId="s1",
                message={"role": "user", "content": f"deploy with {GITHUB} now"})


def late_secret() -> bytes:
    """A password written bare in a tool's output near the start (no scan finds it there), then named near the
    end, where the scan finds it; and a token typed."""
    text = workday(0.02).splitlines(keepends=True)
    echoed = line(type="user", uuid="echo", parentUuid=None, sessionId="s1", message={"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "t1", "content": f"the value {PASSWORD} here"}]})
    named = line(type="user", uuid="named", parentUuid=None, sessionId="s1",
                 message={"role": "user", "content": f'password = "{PASSWORD}"'})
    return ("".join(text[:3]) + echoed + "".join(text[3:]) + named + secret_line("late", None)).encode()


def secret_in_a_reply() -> bytes:
    """A token first written in a tool's result whose call is in the piece before: the lines as written part from
    the lines link holders read there, with that call still waiting for its reply."""
    text = workday(0.05).splitlines(keepends=True)
    at = next(number for number, written in enumerate(text) if number > 5 and '"tool_result"' in written)
    value = json.loads(text[at])
    value["message"]["content"][0]["content"] = f"pushed with {GITHUB}"
    return ("".join(text[:at]) + line(**value) + "".join(text[at + 1:])).encode()


def rewound() -> bytes:
    """A session rewound near its end to a line near its start: the lines between are a branch left aside."""
    text = workday(0.03).splitlines(keepends=True)
    value = json.loads(text[-1])
    value["parentUuid"] = json.loads(text[2])["uuid"]
    value["uuid"] = "rewound"
    return ("".join(text) + json.dumps(value) + "\n").encode()


def kept_whole() -> bytes:
    """Sessions whose lines hold what no reader reads (kept in the header's `unread`), tool results beside the
    replies' text, long enough to be kept by their span (`$source`), and usage beside its counts; sub-agents
    whose calls are named late, questions, a plan, interruptions and declined calls (2.0's sample)."""
    found = []
    for name in ("claude-code-1.0-task-sidechain.jsonl", "claude-code-2.0-edits-questions-plan.jsonl",
                 "claude-code-2.1-subagent-agent-id.jsonl"):
        for number, text in enumerate((SAMPLES / name).read_text().splitlines()):
            value = json.loads(text)
            if number % 3 == 1:
                value["someNewMember"] = {"read": False, "number": number}
            if isinstance(value.get("toolUseResult"), dict):
                value["toolUseResult"]["log"] = "a line of the tool's log " * 60
            body = value.get("message")
            if isinstance(body, dict) and isinstance(body.get("usage"), dict):
                body["usage"]["service_tier"] = "standard"
            found.append(line(**value))
    return "".join(found).encode()


def comparable(found: dict) -> dict:
    """A snapshot with each entry's source left out (a thin parse's says in words where a payload was)."""
    return {**found, "entries": [msgspec.structs.replace(entry, source="") for entry in found["entries"]]}


CASES = {
    "samples": samples,
    "workday": lambda: workday(0.05).encode(),
    "screenshots": lambda: claude_lines(4),
    "secret": lambda: claude_lines(2) + secret_line("s", "r1").encode(),
    "late-secret": late_secret,
    "secret-in-a-reply": secret_in_a_reply,
    "rewound": rewound,
    "unfinished": lambda: workday(0.02).encode()[:-200],
    "kept-whole": kept_whole,
}
CODEX_SAMPLES = sorted(path.name for path in SAMPLES.glob("codex-*.jsonl"))
CODEX_ROLLOUTS = [name for name in CODEX_SAMPLES if "-rollout-" in name]
CODEX_CASES = {
    **{name: lambda name=name: (SAMPLES / name).read_bytes() for name in CODEX_SAMPLES},
    "codex-generated": lambda: rollout(0.3).encode(),
    "codex-unfinished": lambda: rollout(0.05, seed=2).encode()[:-200],
}
"""Codex rollouts (a `codex exec --json` stream is a separate shape, read whole: stored whole here too)."""


def qwen_late() -> bytes:
    """A Qwen Code session where later records change what earlier ones gave: a response's fragment again after
    its calls' results, with no parts and its final usage (the usage moves on; a record whose parent it names
    goes through it), and records written before the record they name as their parent."""
    records = [json.loads(text) for text in qwen_session(0.1, seed=4).splitlines()]
    done: list[dict] = []
    for record in records:
        done.append(record)
        if record["type"] == "tool_result" and len(done) % 3 == 0:
            fragment = next(made for made in reversed(done) if made.get("usageMetadata"))
            done.append({**fragment, "message": {"role": "model", "parts": []},
                         "usageMetadata": {**fragment["usageMetadata"], "candidatesTokenCount": 999}})
    for at in range(5, len(done) - 1, 17):
        done[at], done[at + 1] = done[at + 1], done[at]
    return "".join(line(**record) for record in done).encode()


QWEN_SAMPLES = sorted(path.name for path in SAMPLES.glob("qwen-code-*.jsonl"))
QWEN_CASES = {
    **{name: lambda name=name: (SAMPLES / name).read_bytes() for name in QWEN_SAMPLES},
    "qwen-generated": lambda: qwen_session(0.3).encode(),
    "qwen-unfinished": lambda: qwen_session(0.05, seed=2).encode()[:-200],
    "qwen-late": qwen_late,
}


def named_late(log: str) -> str:
    """A Copilot CLI log whose sub-agents' `subagent.started` events (which name their call) come after the
    sub-agents' events: their messages are stored before their thread's call is known."""
    lines = log.splitlines(keepends=True)
    started = [line for line in lines if '"type":"subagent.started"' in line]
    assert started
    done = []
    for line in lines:
        if '"type":"subagent.started"' in line:
            continue
        if '"type":"subagent.completed"' in line:
            done.append(started.pop(0))
        done.append(line)
    return "".join(done)


COPILOT_SAMPLES = sorted(path.name for path in SAMPLES.glob("copilot-cli-*.jsonl"))
COPILOT_CASES = {
    **{name: lambda name=name: (SAMPLES / name).read_bytes() for name in COPILOT_SAMPLES},
    "copilot-generated": lambda: copilot_session(0.3).encode(),
    "copilot-unfinished": lambda: copilot_session(0.05, seed=2).encode()[:-200],
    "copilot-named-late": lambda: named_late(copilot_session(0.2, seed=4)).encode(),
}
"""Copilot CLI session logs: every sample, a generated one (tests/harness/copilot_session.py), one cut short (no
`session.shutdown`: the totals are the messages'), one whose sub-agents' calls are named after their messages."""
DROID_SAMPLES = sorted(path.name for path in SAMPLES.glob("factory-droid-*.jsonl"))
DROID_CASES = {
    **{name: lambda name=name: (SAMPLES / name).read_bytes() for name in DROID_SAMPLES},
    "droid-generated": lambda: droid_session(0.3).encode(),
    "droid-unfinished": lambda: droid_session(0.05, seed=2).encode()[:-200],
}
"""Factory Droid sessions: every sample, a generated one with its sub-agents' sessions after it
(tests/harness/droid_session.py), one cut short."""
def gemini_cli_cancelled() -> bytes:
    """A Gemini CLI log whose last response is followed by the note of its request cancelled: both decided only at
    the end (the CLI may yet rewrite the response), in pieces of their own."""
    said = {"id": "r-last", "timestamp": "2026-08-03T17:02:11.020Z", "type": "gemini", "model": "gemini-3-pro-preview",
            "content": "I'll read the ledger's rounding helpers first. " * 30}
    cancelled = {"id": "n-last", "timestamp": "2026-08-03T17:02:12.020Z", "type": "info",
                 "content": "Request cancelled."}
    return (gemini_cli_session(0.05, seed=4) + line(**said) + line(**{"$set": {"lastUpdated": "x"}})
            + line(**cancelled)).encode()


def gemini_cli_rewound_to_start() -> bytes:
    """A Gemini CLI log rewound to its first request, long after it was stored: the request the record quotes
    (its snippet) is set aside, and the one typed after the rewind is quoted instead."""
    text = gemini_cli_session(0.05, seed=5)
    first = next(value["id"] for value in map(json.loads, text.splitlines()) if value.get("type") == "user")
    request = {"id": "u-again", "timestamp": "2026-08-03T18:00:00.000Z", "type": "user",
               "content": [{"text": "Start over: round every amount half up."}]}
    return (text + line(**{"$rewindTo": first}) + line(**request)).encode()


GEMINI_CLI_SAMPLES = sorted(path.name for path in SAMPLES.glob("gemini-cli-*.jsonl"))
GEMINI_CLI_CASES = {
    **{name: lambda name=name: (SAMPLES / name).read_bytes() for name in GEMINI_CLI_SAMPLES},
    "gemini-cli-generated": lambda: gemini_cli_session(0.3).encode(),
    "gemini-cli-unfinished": lambda: gemini_cli_session(0.05, seed=2).encode()[:-200],
    "gemini-cli-cancelled": gemini_cli_cancelled,
    "gemini-cli-rewound-to-start": gemini_cli_rewound_to_start,
}
"""Gemini CLI logs: every sample, a generated one with its rewrites, rewinds, checkpoints and its sub-agents' logs
after it (tests/harness/gemini_cli_session.py), one cut short."""
KIMI_CLI_SAMPLES = sorted(path.name for path in SAMPLES.glob("kimi-cli-*.jsonl"))
KIMI_CLI_CASES = {
    **{name: lambda name=name: (SAMPLES / name).read_bytes() for name in KIMI_CLI_SAMPLES},
    "kimi-cli-generated": lambda: kimi_cli_session(0.3).encode(),
    "kimi-cli-unfinished": lambda: kimi_cli_session(0.05, seed=2).encode()[:-200],
}
"""Kimi CLI wires: every sample, a generated one with its sub-agents' events (tests/harness/kimi_cli_session.py),
one cut short."""
KIMI_CODE_SAMPLES = sorted(path.name for path in SAMPLES.glob("kimi-code-*.jsonl"))
KIMI_CODE_CASES = {
    **{name: lambda name=name: (SAMPLES / name).read_bytes() for name in KIMI_CODE_SAMPLES},
    "kimi-code-generated": lambda: kimi_code_session(0.3).encode(),
    "kimi-code-unfinished": lambda: kimi_code_session(0.05, seed=2).encode()[:-200],
}
"""Kimi Code agents' wires: every sample, a generated one (tests/harness/kimi_code_session.py), one cut short."""
VSCODE_SAMPLES = sorted(path.name for path in SAMPLES.glob("vscode-chat-*.jsonl"))
VSCODE_CASES = {
    **{name: lambda name=name: (SAMPLES / name).read_bytes() for name in VSCODE_SAMPLES},
    "vscode-chat-generated": lambda: vscode_chat_session(0.3).encode(),
    "vscode-chat-unfinished": lambda: vscode_chat_session(0.05, seed=2).encode()[:-200],
    "vscode-chat-asked-again": lambda: vscode_log_and(
        {"kind": 2, "k": ["requests"], "v": [{"message": {"text": "Again, shorter."}, "response": [{"value": "Ok."}]}],
         "i": 4}, {"kind": 3, "k": ["requests", 4, "followups"]}),
    "vscode-chat-pending-changed": lambda: vscode_log_and(
        {"kind": 1, "k": ["pendingRequests"], "v": [{"text": "and the docs"}]}, pending=[{"text": "the docs"}]),
}
"""VS Code chat session logs: every sample, a generated one (tests/harness/vscode_chat_session.py), one cut short
(mid-line, its last request unanswered), one whose last request is asked again (cut away and appended anew), one
whose session changes what it leaves unread but not its names."""


def vscode_log_and(*changes: dict, pending: list | None = None, seed: int = 5) -> bytes:
    """A generated VS Code chat log of five requests, its session's pending requests as given, then `changes`."""
    log = vscode_chat_session(0.12, seed=seed)
    assert log.count('{"kind":2,"k":["requests"]') == 5
    if pending is not None:
        log = log.replace('"pendingRequests":[]', f'"pendingRequests":{json.dumps(pending)}', 1)
    return (log + "".join(json.dumps(change) + "\n" for change in changes)).encode()


def pi_late() -> bytes:
    """A pi session whose later entries change what earlier ones gave: entries written before the entry they name
    as their parent, and message entries written again further on (an id met again: the entries below it follow
    its last message)."""
    entries = [json.loads(text) for text in pi_session(0.1, seed=4).splitlines()]
    for at in range(5, len(entries) - 1, 17):
        entries[at], entries[at + 1] = entries[at + 1], entries[at]
    for at in range(len(entries) - 20, 3, -23):
        if entries[at]["type"] == "message":
            entries.insert(at + 9, entries[at])
    return "".join(line(**entry) for entry in entries).encode()


PI_SAMPLES = sorted(path.name for path in SAMPLES.glob("pi-*.jsonl"))
PI_CASES = {
    **{name: lambda name=name: (SAMPLES / name).read_bytes() for name in PI_SAMPLES},
    "pi-generated": lambda: pi_session(0.3).encode(),
    "pi-unfinished": lambda: pi_session(0.15, seed=2).encode()[:-200],
    "pi-late": pi_late,
}
"""Pi sessions: every sample, a generated one with its /tree jumps (tests/harness/pi_session.py), one cut short, one
whose later entries change the parents of earlier ones."""
CURSOR_SAMPLES = sorted(path.name for path in SAMPLES.glob("cursor-agent-*.jsonl"))
CURSOR_CASES = {
    **{name: lambda name=name: (SAMPLES / name).read_bytes() for name in CURSOR_SAMPLES},
    "cursor-generated": lambda: cursor_transcript(0.3).encode(),
    "cursor-unfinished": lambda: cursor_transcript(0.05, seed=2).encode()[:-200],
}
"""Cursor agent transcripts: every sample, a generated one (tests/harness/cursor_transcript.py), one cut short."""


def antigravity_unanswered() -> bytes:
    """An Antigravity transcript with every seventh result step left out: the calls before it stay open, and the
    results after them are paired past them, across batches as in the whole parse."""
    lines = antigravity_session(0.2, seed=4).splitlines(keepends=True)
    results = [at for at, line in enumerate(lines) if '"source":"MODEL"' in line and "PLANNER_RESPONSE" not in line]
    left_out = set(results[3::7])
    return "".join(line for at, line in enumerate(lines) if at not in left_out).encode()


ANTIGRAVITY_SAMPLES = sorted(path.name for path in SAMPLES.glob("antigravity-*.jsonl"))
ANTIGRAVITY_CASES = {
    **{name: lambda name=name: (SAMPLES / name).read_bytes() for name in ANTIGRAVITY_SAMPLES},
    "antigravity-generated": lambda: antigravity_session(0.3).encode(),
    "antigravity-unfinished": lambda: antigravity_session(0.05, seed=2).encode()[:-200],
    "antigravity-unanswered": antigravity_unanswered,
}
"""Antigravity transcripts: every sample, a generated one whose results answer calls without ids in order
(tests/harness/antigravity_session.py), one cut short, one with results left out."""


EVENT_SAMPLES = sorted(path.name for path in SAMPLES.glob("events-*.jsonl"))
EVENT_CASES = {
    **{name: lambda name=name: (SAMPLES / name).read_bytes() for name in EVENT_SAMPLES},
    "events-generated": lambda: event_log(0.3).encode(),
    "events-unfinished": lambda: event_log(0.05, seed=2).encode()[:-40],
}
"""Streaming event logs: every sample, a generated one whose messages span many lines and, now and then, overlap
(tests/harness/event_log.py), one cut short mid-line."""


def assert_stored_alike(store, data: bytes) -> None:
    """`data` stored from a spool (a piece at a time, when it streams) stores what it stores parsed whole."""
    ingest.store_upload(store, data, id="whole")  # bytes in memory: parsed whole
    record = ingest.store_spooled(store, io.BytesIO(data), id="pieces")
    assert record.ready and store.raw("pieces") == data
    whole, found = comparable(snapshot(store, "whole")), comparable(snapshot(store, "pieces"))
    for number, (expected, got) in enumerate(zip(whole["entries"], found["entries"], strict=True)):
        assert got == expected, number
    assert found == whole
    assert store.secrets.shared_raw("pieces") == store.secrets.shared_raw("whole")
    for view in ("default", "debug"):  # and as the uploader reads it, secrets unmasked
        assert as_written(store, "pieces", view) == as_written(store, "whole", view)


def as_written(store, id: str, view: str) -> list:
    return [msgspec.structs.replace(entry, source="") for entry in store.iter_entries(id, view, unmasked=True)]


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_session_stored_a_piece_at_a_time_stores_what_the_whole_parse_stores(store, small_pieces, case):
    assert_stored_alike(store, CASES[case]())


LOGS = {
    "antigravity": (ANTIGRAVITY_CASES, lambda: antigravity_session(0.5, seed=3)),
    "codex": (CODEX_CASES, lambda: rollout(0.5, seed=3)),
    "copilot-cli": (COPILOT_CASES, lambda: copilot_session(0.5, seed=3)),
    "cursor-agent": (CURSOR_CASES, lambda: cursor_transcript(0.5, seed=3)),
    "events": (EVENT_CASES, lambda: event_log(0.5, seed=3)),
    "factory-droid": (DROID_CASES, lambda: droid_session(0.5, seed=3)),
    "gemini-cli": (GEMINI_CLI_CASES, lambda: gemini_cli_session(0.5, seed=3)),
    "pi": (PI_CASES, lambda: pi_session(0.5, seed=3)),
    "kimi-cli": (KIMI_CLI_CASES, lambda: kimi_cli_session(0.5, seed=3)),
    "kimi-code": (KIMI_CODE_CASES, lambda: kimi_code_session(0.5, seed=3)),
    "qwen-code": (QWEN_CASES, lambda: qwen_session(0.5, seed=3)),
    "vscode-chat": (VSCODE_CASES, lambda: vscode_chat_session(0.5, seed=3)),
}
"""The agents' logs and event logs read a piece at a time beside Claude Code's, by dialect: their cases, and a
generated log of about half a megabyte."""
ONE_PIECE = {path.name for path in SAMPLES.glob("*.jsonl") if path.stat().st_size < 700}
"""The samples smaller than one of `small_pieces`' pieces (a sub-agent's wire of one answer)."""
READ_IN_PIECES = [(dialect, case) for dialect, (cases, _) in LOGS.items() for case in sorted(cases)
                  if (dialect != "codex" or case not in CODEX_SAMPLES or case in CODEX_ROLLOUTS)
                  and case not in ONE_PIECE]
"""Every case but Codex's exec streams (read whole, by `test_a_codex_exec_stream_is_parsed_whole`) and the
samples of one piece."""


@pytest.mark.parametrize("dialect, case", [(dialect, case) for dialect, (cases, _) in LOGS.items()
                                           for case in sorted(cases)])
def test_an_agent_log_stored_a_piece_at_a_time_stores_what_the_whole_parse_stores(store, small_pieces, dialect,
                                                                                     case):
    assert_stored_alike(store, LOGS[dialect][0][case]())


@pytest.mark.parametrize("piece_bytes", [200, 4096, 100_000])
@pytest.mark.parametrize("dialect", sorted(LOGS))
def test_an_agent_log_stores_the_same_at_any_piece_size(store, small_pieces, monkeypatch, dialect, piece_bytes):
    monkeypatch.setattr(pieces, "PIECE_BYTES", piece_bytes)
    assert_stored_alike(store, LOGS[dialect][1]().encode())


@pytest.mark.parametrize("dialect, case", READ_IN_PIECES)
def test_an_agent_log_is_read_a_piece_at_a_time(small_pieces, dialect, case):
    """Not read whole instead (which the tests above could not tell from the pieces read alike)."""
    data = LOGS[dialect][0][case]()
    assert session_ingest.streams(io.BytesIO(data)) == dialect
    read = list(streamed.read_session(io.BytesIO(data), dialect))
    assert len(read) > 2 and isinstance(read[-1], streamed.SessionEnd)


@pytest.mark.parametrize("name", [name for name in CODEX_SAMPLES if name not in CODEX_ROLLOUTS])
def test_a_codex_exec_stream_is_parsed_whole(small_pieces, name):
    with pytest.raises(pieces.Unstreamable):
        list(streamed.read_session(io.BytesIO((SAMPLES / name).read_bytes()), "codex"))


def late_arguments() -> bytes:
    """A Kimi CLI wire whose last call gets a piece of its arguments after the model wrote on: the call is stored
    by then."""
    said = {"type": "text", "text": "Now the rest of the report. " * 40}
    events = [{"type": "StepBegin", "payload": {"n": 9}}, *[{"type": "ContentPart", "payload": said}] * 3,
              {"type": "ToolCallPart", "payload": {"arguments_part": " --verbose"}}]
    return (kimi_cli_session(0.05, seed=4) + "".join(
        json.dumps({"timestamp": 1783060000.5, "message": event}) + "\n" for event in events)).encode()


def test_a_kimi_cli_call_s_arguments_streamed_after_it_was_stored_read_the_wire_whole(store, small_pieces):
    data = late_arguments()
    with pytest.raises(pieces.Unstreamable):
        list(streamed.read_session(io.BytesIO(data), "kimi-cli"))
    assert_stored_alike(store, data)


@pytest.mark.parametrize("data", [
    pytest.param(lambda: vscode_log_and({"kind": 1, "k": ["requests", 1, "isHidden"], "v": True}), id="old-request"),
    pytest.param(lambda: vscode_log_and({"kind": 2, "k": ["requests"], "v": [{"message": {"text": "Again."}}], "i": 2}),
                 id="old-requests-cut"),
    pytest.param(lambda: vscode_log_and({"kind": 0, "v": {"version": 3, "requests": []}}), id="written-again"),
    pytest.param(lambda: vscode_log_and({"kind": 2, "k": ["pendingRequests"], "v": [{"text": "the docs"}]}),
                 id="unread-named-late"),
    pytest.param(lambda: (SAMPLES / "vscode-chat-2026-subagent-cancelled.json").read_bytes(), id="document"),
])
def test_a_vscode_chat_log_that_changes_a_request_read_out_already_is_read_whole(store, small_pieces, data):
    """A request is read out once a later one is appended: a change to it after that (or to the session's unread
    members, or the session written again; or a whole document, no log) makes the log read whole."""
    with pytest.raises(pieces.Unstreamable):
        list(streamed.read_session(io.BytesIO(data()), "vscode-chat"))
    assert_stored_alike(store, data())


def test_a_vscode_chat_session_written_whole_is_read_whole(small_pieces):
    data = (SAMPLES / "vscode-chat-2026-subagent-cancelled.json").read_bytes()
    assert session_ingest.streams(io.BytesIO(data)) is None
    assert session_ingest.streams(io.BytesIO(VSCODE_CASES["vscode-chat-generated"]())) == "vscode-chat"


def test_a_vscode_chat_log_s_pieces_hold_whole_requests():
    """Each piece but the first starts at a line that appends a request, however small the pieces."""
    data = vscode_chat_session(0.1, seed=6).encode()
    read = list(pieces.pieces(io.BytesIO(data), piece_bytes=100, starts=VSCodeChatReader.starts))
    assert "".join(piece.text for piece in read).encode() == data
    assert len(read) == data.count(b'{"kind":2,"k":["requests"],') + 1  # the session's line alone first
    assert all(piece.text.startswith('{"kind":2,"k":["requests"],') for piece in read[1:])
    assert [piece.lines for piece in read] == [data[:piece.at_byte].count(b"\n") for piece in read]


def test_an_event_log_s_pieces_end_after_a_response_s_end():
    data = event_log(0.1, seed=6).encode()
    read = list(pieces.pieces(io.BytesIO(data), piece_bytes=100, ends=EventsReader.ends))
    assert "".join(piece.text for piece in read).encode() == data
    ends = ('"type": "response.done"', '"type": "response.completed"', '"type": "response.cancel"',
            '"type": "tool.result"')
    assert all(any(end in piece.text.splitlines()[-1] for end in ends) for piece in read)
    assert [piece.lines for piece in read] == [data[:piece.at_byte].count(b"\n") for piece in read]


def interleaved_past_the_ends() -> bytes:
    """An event log whose every fifth answer streams beside another and ends first: a piece that ends after its end
    has the other still open."""
    lines = []
    for number in range(300):
        streams = (f"m{number}a", f"m{number}b") if number % 5 == 0 else (f"m{number}",)
        for word in range(4):
            lines += [{"type": "response.output_text.delta", "message_id": stream, "delta": f"{stream} {word} "}
                      for stream in streams]
        lines.append({"type": "response.done", "message_id": streams[0]})
        if len(streams) > 1:
            lines += [{"type": "response.output_text.delta", "message_id": streams[1], "delta": "late"},
                      {"type": "response.done", "message_id": streams[1]}]
    return "".join(json.dumps(line) + "\n" for line in lines).encode()


def test_an_event_log_piece_that_ends_inside_a_message_has_the_next_joined_to_it(store, small_pieces, monkeypatch):
    joined, join = [], online.joined
    monkeypatch.setattr(online, "joined", lambda first, then: joined.append(1) or join(first, then))
    items = list(streamed.read_session(io.BytesIO(interleaved_past_the_ends()), "events", piece_bytes=500))
    assert joined and len(items) > 2
    assert sum(len(item.transcript.messages) for item in items[:-1]) == 360
    assert_stored_alike(store, interleaved_past_the_ends())


def gemini_cli_rewritten_late() -> bytes:
    """A Gemini CLI log one of whose responses is written again after the user's next request: its messages go
    where the last copy stands, after the request's, which a log read a piece at a time has stored by then."""
    lines = gemini_cli_session(0.1, seed=6).splitlines(keepends=True)
    responses = [at for at, text in enumerate(lines) if '"type":"gemini"' in text and "toolCalls" not in text]
    again = responses[len(responses) // 3]
    after = next(at for at in range(again + 1, len(lines)) if '"type":"user"' in lines[at])
    return "".join([*lines[:after + 1], lines[again], *lines[after + 1:]]).encode()


def gemini_cli_recording() -> bytes:
    """A whole recording of Gemini CLI before 0.39 (one `ConversationRecord`, pretty-printed), of a log's records."""
    values = [json.loads(text) for text in gemini_cli_session(0.05, seed=7).splitlines()]
    records = {value["id"]: value for value in values if "id" in value}  # the last copy of each
    return json.dumps({**values[0], "messages": list(records.values())}, indent=2).encode()


@pytest.mark.parametrize("data", [gemini_cli_rewritten_late, gemini_cli_recording],
                         ids=["rewritten-late", "whole-recording"])
def test_a_gemini_cli_log_that_cannot_be_read_in_pieces_is_read_whole(store, small_pieces, data):
    """A record rewritten after later messages, or a whole recording (pretty-printed: not a log)."""
    with pytest.raises(pieces.Unstreamable):
        list(streamed.read_session(io.BytesIO(data()), "gemini-cli"))
    assert_stored_alike(store, data())


@pytest.mark.parametrize("case", ["rewound", "pi-generated", "pi-late"])
def test_what_the_end_changes_is_stored_again_a_few_rows_at_a_time(store, small_pieces, monkeypatch, case):
    """The rows of the messages the end changed (a branch set aside) are read back and written again a bounded
    number at a time: a session with many keeps no more of them in memory at once."""
    monkeypatch.setattr(store_sessions, "AMENDED_AT_ONCE", 3)
    batches = []
    rows_of = store_sessions.Amending._rows
    monkeypatch.setattr(store_sessions.Amending, "_rows",
                        lambda self, table, indices: batches.append(len(indices)) or rows_of(self, table, indices))
    assert_stored_alike(store, {**CASES, **PI_CASES}[case]())
    assert len(batches) > 2 and max(batches) == 3


def test_the_spool_is_read_in_pieces_and_never_whole(store, small_pieces, monkeypatch):
    sizes = []
    for name in ("_cut_pieces", "_read_pieces"):  # a session whose payloads are cut, or not
        made = getattr(pieces, name)
        monkeypatch.setattr(pieces, name, lambda *args, made=made: (
            sizes.append(piece.end_byte - piece.at_byte) or (piece, breaks) for piece, breaks in made(*args)))
    data = workday(0.3).encode()
    ingest.store_spooled(store, io.BytesIO(data), id="pieces")
    assert len(sizes) > 20 and max(sizes) < len(data) / 5


@pytest.mark.sqlite_only("FTS5's own check of an index against its content")
def test_the_search_index_agrees_with_the_rows_after_a_branch_is_set_aside(store, small_pieces):
    record = ingest.store_spooled(store, io.BytesIO(rewound()), id="rewound-index")
    assert record.ready
    with store.engine.begin() as conn:
        conn.execute(text("INSERT INTO message_search (message_search, rank) VALUES ('integrity-check', 1)"))


def test_a_secret_found_late_but_written_earlier_stores_the_session_again_masked_from_its_start(
        store, small_pieces, monkeypatch):
    restarts = []
    real = session_ingest.Restart.__init__
    monkeypatch.setattr(session_ingest.Restart, "__init__",
                        lambda self, masker: restarts.append(1) or real(self, masker))
    ingest.store_spooled(store, io.BytesIO(late_secret()), id="pieces")
    shared = store.secrets.shared_raw("pieces")
    assert restarts and PASSWORD.encode() not in shared and GITHUB.encode() not in shared


@pytest.mark.parametrize("raw", [
    pytest.param(workday(0.02).encode().replace(b"a", b"\xff", 1), id="not-utf-8"),
    pytest.param(b"\xef\xbb\xbf" + workday(0.02).encode(), id="bom"),
])
def test_what_cannot_be_read_a_piece_at_a_time_is_parsed_whole(store, small_pieces, raw):
    ingest.store_upload(store, raw, id="whole")
    record = ingest.store_spooled(store, io.BytesIO(raw), id="pieces")
    assert record.ready
    assert snapshot(store, "pieces") == snapshot(store, "whole")


def test_a_sub_agent_s_own_log_that_turns_out_otherwise_is_parsed_whole(store, small_pieces):
    text = workday(0.02).replace('"isSidechain":false', '"isSidechain":true')
    raw = (text + workday(0.005, seed=3)).encode()
    ingest.store_upload(store, raw, id="whole")
    record = ingest.store_spooled(store, io.BytesIO(raw), id="pieces")
    assert record.ready and snapshot(store, "pieces") == snapshot(store, "whole")


def test_a_small_session_is_parsed_whole(store, monkeypatch):
    monkeypatch.setattr(streamed, "STREAM_FROM", 1 << 30)
    assert session_ingest.streams(io.BytesIO(samples())) is None


def store_of(tmp_path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'viewer.sqlite3'}")
