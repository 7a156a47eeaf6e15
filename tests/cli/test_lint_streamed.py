"""`viewer lint` of a big agent session, read a batch at a time (viewer/lint.py), prints what a whole parse prints:
the same lines (positions, codes, messages, secrets) in the same order, but for what only the end of the session
decides about an earlier batch, which comes last; and its memory follows the batch, not the file. The size from
which a session is read so is lowered here, and its pieces made small, so that the samples take that path
across many pieces."""
from __future__ import annotations

import json
import subprocess
import sys
import tracemalloc

import pytest

from tests.conftest import SAMPLES
from tests.harness.workday import workday
from viewer import lint
from viewer.cli import main
from viewer.model import make_diagnostic
from viewer.parse import pieces, streamed, thinning

SESSIONS = sorted(SAMPLES.glob("claude-code-*.jsonl"))
GITHUB_TOKEN = "ghp_" + "aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2zA4"  # assembled, so the repository holds no secret
PASSWORD = "Wq8Lm2Rt7Zp4Xk9Vb3N"


@pytest.fixture
def small_pieces(monkeypatch):
    """Pieces of a few lines; each image of a few KiB cut out as it is read."""
    monkeypatch.setattr(pieces, "PIECE_BYTES", 700)
    monkeypatch.setattr(thinning, "CUT_FROM", 1024)


def _lint(path, capsys, monkeypatch, *, batches: bool) -> tuple[int, list[str]]:
    monkeypatch.setattr(streamed, "STREAM_FROM", 0 if batches else 1 << 62)
    assert (lint.read_streamed(str(path)) is not None) == batches
    status = main(["lint", str(path)])
    return status, capsys.readouterr().out.splitlines()


def _both(path, capsys, monkeypatch) -> tuple[tuple[int, list[str]], tuple[int, list[str]]]:
    """The lint of the file parsed whole, and read a batch at a time."""
    return (_lint(path, capsys, monkeypatch, batches=False), _lint(path, capsys, monkeypatch, batches=True))


@pytest.mark.parametrize("piece_bytes", [1, 700], ids=["a-line-a-piece", "a-few-lines-a-piece"])
@pytest.mark.parametrize("path", SESSIONS, ids=lambda path: path.name)
def test_each_claude_code_sample_lints_as_its_whole_parse_does(path, piece_bytes, capsys, monkeypatch, small_pieces):
    monkeypatch.setattr(pieces, "PIECE_BYTES", piece_bytes)
    whole, batches = _both(path, capsys, monkeypatch)
    assert batches == whole


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def _with(line: str, **changes) -> str:
    value = json.loads(line)
    value.update(changes)
    return json.dumps(value) + "\n"


def _leaky(megabytes: float = 0.3) -> list[str]:
    """A generated session with a token typed near its start, a password named in a tool's output in its middle,
    and a call never answered at its end (the end's note about the last batch)."""
    lines = _lines(workday(megabytes))
    requests = [number for number, line in enumerate(lines) if _is_request(line)]
    first, middle = requests[0], requests[len(requests) // 2]
    for number, text in ((first, f"deploy with {GITHUB_TOKEN} please"),
                         (middle, f'the config says password = "{PASSWORD}" there')):
        value = json.loads(lines[number])
        value["message"]["content"] = text
        lines[number] = json.dumps(value) + "\n"
    call = next(line for line in reversed(lines) if '"tool_use"' in line)
    lines.append(_with(call, uuid="last-call", parentUuid=json.loads(lines[-1])["uuid"]))
    return lines


def _is_request(line: str) -> bool:
    """Whether the line is a person's request (not a tool's result)."""
    value = json.loads(line)
    return value["type"] == "user" and isinstance(value["message"]["content"], str)


def test_a_generated_session_with_secrets_and_a_call_left_open_lints_as_its_whole_parse_does(
        tmp_path, capsys, monkeypatch, small_pieces):
    path = tmp_path / "session.jsonl"
    path.write_text("".join(_leaky()), encoding="utf-8")
    whole, batches = _both(path, capsys, monkeypatch)
    assert batches == whole
    status, lines = batches
    assert status == 1
    codes = [line.split(": ", 1)[1].split()[0] for line in lines]
    assert codes.count("W-SECRET") == 2 and codes[-1] == "W-UNANSWERED-CALL"
    assert GITHUB_TOKEN not in "".join(lines) and PASSWORD not in "".join(lines)


def test_what_the_end_says_of_an_earlier_batch_comes_last(tmp_path, capsys, monkeypatch, small_pieces):
    """A call near the start never answered (its reply answers another id): the whole parse places the note at the
    call, the batches print it after every other line."""
    lines = _lines(workday(0.3))
    reply = next(number for number, line in enumerate(lines) if '"tool_result"' in line)
    lines[reply] = lines[reply].replace('"tool_use_id":"', '"tool_use_id":"elsewhere-', 1)
    path = tmp_path / "session.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    (whole_status, whole), (status, batches) = _both(path, capsys, monkeypatch)
    note = next(line for line in whole if " W-UNANSWERED-CALL " in line)
    assert whole.index(note) < len(whole) - 1
    assert batches == [line for line in whole if line != note] + [note]
    assert status == whole_status


def test_a_secret_in_the_sessions_header_comes_last(tmp_path, capsys, monkeypatch, small_pieces):
    """The working folder names a token: the whole parse places the header's finding at the file's start."""
    text = workday(0.1).replace('"cwd":"/home/ada/code/ledger"', f'"cwd":"/home/{GITHUB_TOKEN}/ledger"')
    path = tmp_path / "session.jsonl"
    path.write_text(text, encoding="utf-8")
    (_, whole), (_, batches) = _both(path, capsys, monkeypatch)
    assert whole[0].startswith(f"{path}:1:1: W-SECRET")
    assert batches == whole[1:] + whole[:1]


def test_a_session_found_partway_not_to_read_a_piece_at_a_time_goes_on_as_its_whole_parse(
        tmp_path, capsys, monkeypatch, small_pieces):
    """A byte that is not UTF-8 in the middle: the batches before it are printed once, the rest from the whole
    parse (which reports the byte)."""
    data = "".join(_leaky(0.1)).encode()
    at = data.index(b" there")
    path = tmp_path / "session.jsonl"
    path.write_bytes(data[:at] + b"\xff" + data[at:])
    whole, batches = _both(path, capsys, monkeypatch)
    assert batches == whole
    assert any(" W-DECODE-UTF8 " in line for line in whole[1])
    assert capsys.readouterr().err == ""


def test_lines_printed_that_the_whole_parse_does_not_begin_with_are_printed_again(capsys):
    placed = [lint.Placed(make_diagnostic("W-STRAY-TEXT", (number, number + 1)), (number, number + 1), number + 1, 1)
              for number in range(3)]
    printed = lint._Printed()
    printed.add(placed[1])
    assert list(printed.rest(iter(placed), "f.jsonl", "a reason")) == placed
    assert "f.jsonl read whole (a reason)" in capsys.readouterr().err
    printed = lint._Printed()
    printed.add(placed[0])
    assert list(printed.rest(iter(placed), "f.jsonl", "a reason")) == placed[1:]
    assert capsys.readouterr().err == ""


def _peak(path) -> int:
    """The peak of memory traced while the session is linted a batch at a time."""
    tracemalloc.start()
    try:
        with open(path, "rb") as file:
            for _ in lint.streamed(file, "claude-code", piece_bytes=64 << 10):
                pass
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_linting_a_session_a_batch_at_a_time_peaks_nearly_the_same_at_four_times_the_size(tmp_path):
    small, big = tmp_path / "small.jsonl", tmp_path / "big.jsonl"
    small.write_text(workday(2), encoding="utf-8")
    big.write_text(workday(8), encoding="utf-8")
    _peak(small)  # what the first lint sets up once (patterns, caches) is not the file's
    small_peak, big_peak = _peak(small), _peak(big)
    assert big_peak < 2 * small_peak, (small_peak, big_peak)  # parsed whole, it grows with the file (4×)


IMPORTS = """
import io, sys
from viewer.parse import streamed
streamed.STREAM_FROM = 0
from viewer import lint
from viewer.cli import main
assert lint.read_streamed(sys.argv[1]) is not None
sys.stdout = io.StringIO()
main(["lint", sys.argv[1]])
sys.stdout = sys.__stdout__
print(" ".join(sorted({name.split(".")[0] for name in sys.modules})))
"""


def test_a_session_linted_a_batch_at_a_time_imports_no_database_library():
    done = subprocess.run([sys.executable, "-c", IMPORTS, str(SESSIONS[0])], capture_output=True, text=True,
                          timeout=120, check=True)
    assert set(done.stdout.split()).isdisjoint({"sqlalchemy", "alembic", "flask"})
