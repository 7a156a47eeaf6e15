"""Highlighting under deadlines: a block that would take hours is cut, shown plain with a note, remembered as
slow; the rest of the body goes on; a worker deaf to its own deadline is killed and replaced."""
from __future__ import annotations

import os
import signal
import threading
import time
from typing import Any, Iterator

import pytest

from tests.render.slow_lexers import DEAF, EXPONENTIAL, LEXERS
from viewer import render
from viewer.render import budget, clock, highlight, workers
from viewer.render.jobs import Job

# 60 `a`s: 2**60 steps for `(a|a)*b`, centuries unbounded.
HOSTILE = "a" * 60


@pytest.fixture
def slow_lexers() -> Iterator[workers.Pool]:
    workers.POOL.use_lexers(LEXERS)
    yield workers.POOL
    workers.POOL.use_lexers({})


def fence(language: str, code: str) -> str:
    return f"```{language}\n{code}\n```\n"


def test_a_block_past_its_deadline_is_shown_plain_with_a_note(slow_lexers: workers.Pool) -> None:
    rendered = render.code(HOSTILE + "0", EXPONENTIAL)
    assert rendered == f'<pre class="code"><code class="language-{EXPONENTIAL}">{HOSTILE}0</code></pre>\n'


def test_a_body_with_a_slow_block_keeps_its_other_blocks_and_says_why(slow_lexers: workers.Pool) -> None:
    text = "Before\n\n" + fence(EXPONENTIAL, HOSTILE + "1") + "\n" + fence("python", "x = 1")
    rendered = render.render_body(text, None)
    assert f"<pre class=\"code\"><code class=\"language-{EXPONENTIAL}\">{HOSTILE}1\n</code></pre>" in rendered.html
    assert '<span class="tok-n">x</span>' in rendered.html  # the next block is highlighted as usual
    assert "<p>Before</p>" in rendered.html
    assert rendered.degraded == highlight.HIGHLIGHT_SLOW
    assert not rendered.transient  # slow by its text: the page may cache it


def test_a_block_found_slow_is_skipped_at_once_in_any_body(slow_lexers: workers.Pool) -> None:
    code = HOSTILE + "2"
    render.code(code, EXPONENTIAL)
    assert slow_lexers.is_slow(Job("lex", code, EXPONENTIAL))
    in_a_body = workers.render([Job("body", "Again:\n\n" + fence(EXPONENTIAL, code), None)])[0]
    assert in_a_body.degraded == highlight.HIGHLIGHT_SLOW
    assert f">{code}\n</code></pre>" in in_a_body.html


def test_a_worker_deaf_to_its_deadline_is_killed_and_replaced(slow_lexers: workers.Pool) -> None:
    assert "tok-" not in render.code("warm up", DEAF)  # a worker is running
    kills = slow_lexers.kills
    before = set(slow_lexers.running)
    rendered = render.code("hang 1", DEAF)
    assert rendered == f'<pre class="code"><code class="language-{DEAF}">hang 1</code></pre>\n'
    assert slow_lexers.kills == kills + 1
    for pid in before - set(slow_lexers.running):
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)  # killed and reaped: its CPU is free
    assert slow_lexers.is_slow(Job("lex", "hang 1", DEAF))
    # The next block gets a worker again, and is highlighted.
    assert '<span class="tok-n">y</span>' in render.code("y = 2", "python")
    assert slow_lexers.running


def test_an_answer_out_of_slack_cuts_hostile_blocks_at_their_expected_time(slow_lexers: workers.Pool) -> None:
    hostile = [Job("body", fence(EXPONENTIAL, HOSTILE + f"3-{n}"), None) for n in range(6)]
    honest = Job("body", fence("python", "z = 3"), None)
    with budget.answering() as answer:
        made = workers.render([*hostile, honest])
    assert answer.extra() < budget.MEANINGFUL
    assert all(HOSTILE in item.html and "tok-" not in item.html for item in made[:-1])
    # The first ones had slack to spend: slow by their text. The last had none: cut for this answer only.
    assert not made[0].transient and made[0].degraded == highlight.HIGHLIGHT_SLOW
    assert made[-2].transient and made[-2].degraded == highlight.ANSWER_SLOW
    assert not slow_lexers.is_slow(Job("lex", HOSTILE + "3-5", EXPONENTIAL))
    # Honest work still gets its expected time: highlighted, or (a busy machine) plain for this answer only.
    assert '<span class="tok-n">z</span>' in made[-1].html or made[-1].transient
    assert not slow_lexers.is_slow(honest)


def test_an_answer_past_its_debt_shows_the_rest_plain_without_trying(slow_lexers: workers.Pool) -> None:
    answer = budget.Budget(slack=-budget.DEBT)
    html, note, transient = slow_lexers.run([Job("body", fence("python", "w = 4"), None)], answer)[0]
    assert html is None and note == highlight.ANSWER_SLOW and transient


def test_an_answer_spends_its_slack_once_whatever_its_number_of_hostile_blocks() -> None:
    answer = budget.Budget()
    for _ in range(3):
        answer.charge(100, budget.expected(100) + budget.DEADLINE)
    assert answer.spent and answer.extra() == 0
    honest = budget.Budget()
    for _ in range(1000):
        honest.charge(10_000, budget.expected(10_000) * 0.9)  # honest work within its expected time
    assert honest.slack == budget.SLACK


def test_a_streamed_answer_shares_one_budget_across_its_chunks() -> None:
    seen: list[budget.Budget] = []

    def app(environ: dict[str, Any], start_response: Any) -> Iterator[bytes]:
        start_response("200 OK", [])
        seen.append(budget.current())

        def chunks() -> Iterator[bytes]:
            for _ in range(3):
                seen.append(budget.current())
                yield b"x"
        return chunks()

    body = budget.BoundedAnswers(app)({}, lambda *args: None)
    assert list(body) == [b"x"] * 3
    assert len({id(item) for item in seen}) == 1
    assert budget.current() is not seen[0]  # outside the answer, a fresh one


def test_nested_deadlines_cut_the_inner_block_and_let_the_outer_go_on() -> None:
    assert threading.current_thread() is threading.main_thread()
    previous = signal.getsignal(signal.SIGALRM)
    clock.install()
    try:
        outer_done = False
        with clock.within(0.3):
            with pytest.raises(clock.Overtime):
                with clock.within(0.05):
                    while True:
                        time.sleep(0.001)
            assert not clock.expired()
            with pytest.raises(clock.Overtime):  # the outer deadline is still kept
                while True:
                    time.sleep(0.001)
            outer_done = True
        assert outer_done
        with clock.within(0.05):
            pass
        time.sleep(0.1)  # its alarm comes after it closed: nothing is raised
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
