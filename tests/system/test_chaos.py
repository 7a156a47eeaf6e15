"""The fault harness (tests/harness/chaos.py; the long run with its table: bench/chaos.py) in small, each fault's
answer checked on a real gunicorn: kill -9 and SIGTERM lose nothing acknowledged (SIGTERM's handed-back uploads
are finished by the other server), a full disk answers 507 and never 500 and stores again once room returns
(as root only: it mounts a tmpfs), PostgreSQL stopped and started gives 503 to reads while it is down and loses
nothing, a client trickling bytes is refused past its uploads at once while another reads, and a flood from one
client gets 429 while another client is answered. No timing is asserted: the harness reports it."""
from __future__ import annotations

import os

import pytest

from tests.harness import chaos

SMALL = 0.2


def _sound(outcome: chaos.Outcome) -> None:
    assert outcome.lost == [], outcome.row()
    assert 500 not in outcome.statuses, outcome.row()
    assert not any("server errors" in note and not note.startswith("0 ") for note in outcome.notes), outcome.row()


def test_kill_9_loses_no_acknowledged_upload(tmp_path):
    outcome = chaos.kill9(tmp_path, SMALL)
    _sound(outcome)
    assert outcome.acknowledged and outcome.recover_seconds is not None


def test_sigterm_hands_back_what_it_processes_and_the_other_server_finishes_it(tmp_path):
    outcome = chaos.sigterm(tmp_path, SMALL)
    _sound(outcome)
    assert outcome.acknowledged and "handing back" in outcome.notes[0]


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")
def test_a_full_disk_answers_507_never_500_and_stores_again_once_room_returns(tmp_path):
    outcome = chaos.full_disk(tmp_path, 0.75)
    _sound(outcome)
    assert outcome.statuses[507] > 0 and set(outcome.statuses) <= {201, 202, 503, 507}, outcome.row()
    assert outcome.recover_seconds is not None and "healthz 503" in outcome.notes[0]


def test_postgresql_stopped_and_started_gives_503_while_down_and_loses_nothing(tmp_path):
    outcome = chaos.postgres_restart(tmp_path, SMALL, down_seconds=3.0)
    _sound(outcome)
    assert "503" in outcome.notes[0] and outcome.notes[0].endswith("a read after: 200"), outcome.row()


def test_a_slow_client_is_refused_past_its_uploads_at_once_while_another_reads(tmp_path):
    outcome = chaos.slow_clients(tmp_path, 1.0, connections=5, seconds=6.0)
    _sound(outcome)
    assert outcome.statuses[429] == 2 and outcome.statuses[200] > 0, outcome.row()


def test_a_flood_from_one_client_gets_429_while_another_client_is_answered(tmp_path):
    outcome = chaos.flood(tmp_path, 1.0, threads=2, seconds=4.0)
    _sound(outcome)
    assert outcome.statuses[429] > 0 and outcome.statuses[200] > 0 and outcome.ratio is not None, outcome.row()
