"""What the reading tests share: transcripts uploaded once per server (a long one that spans several windows, the
weather transcript with the debug view allowed and locked, a dataset), and small page helpers."""
from __future__ import annotations

import functools
import json
import urllib.request
from dataclasses import dataclass

from playwright.sync_api import Page

from tests.harness.datasets import dataset
from tests.web.conftest import WEATHER, harmony

LONG_ROUNDS = 130
"""Questions in the long transcript: 260 messages the default view shows (windows of 100), and reasoning."""
DATASET_SIZE = 120
"""Conversations in the dataset: two pages of its index."""
ANSWER_7 = 'It is **20 °C** and clear in Tokyo.\n\n```python\nprint("umbrella not needed")\n```'
"""Message #7 of the weather transcript, as written."""


@dataclass(frozen=True)
class Uploads:
    weather: str
    """The weather transcript, debug view allowed for link holders."""
    weather_locked: str
    """The same, debug view not allowed."""
    long: str
    """260 shown messages and 13 reasoning messages, debug view allowed."""
    dataset: str
    """A dataset of `DATASET_SIZE` conversations, debug view allowed."""


def upload(server: str, raw: bytes, *, debug: bool = True) -> str:
    """Upload through the API (the browser gets no owner cookie: it is a link holder); the share URL."""
    request = urllib.request.Request(f"{server}/api/transcripts?debug={'allow' if debug else 'deny'}", data=raw,
                                     method="POST")
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)["url"]


def long_transcript() -> bytes:
    messages = []
    for n in range(LONG_ROUNDS):
        messages.append(("user", "", f"Question {n}: is it sunny in Tokyo?"))
        if n % 10 == 0:
            messages.append(("assistant", "analysis", f"Reasoning {n}: look at the sky."))
        messages.append(("assistant", "final", f"Answer {n}: it is **sunny**.\n\n```python\nprint({n})\n```"))
    return harmony(*messages)


@functools.cache
def uploads(server: str) -> Uploads:
    return Uploads(weather=upload(server, WEATHER.read_bytes()),
                   weather_locked=upload(server, WEATHER.read_bytes(), debug=False),
                   long=upload(server, long_transcript()),
                   dataset=upload(server, dataset(DATASET_SIZE).encode()))


def watch_console(page: Page) -> list[str]:
    """Console errors and uncaught exceptions (a CSP violation is one) seen by `page` from now on."""
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    return problems


def focused_id(page: Page) -> str:
    """The id of the element in focus ('' for none)."""
    return page.evaluate("document.activeElement ? document.activeElement.id : ''")


def focus_quietly(page: Page, selector: str) -> None:
    """Put the focus on an entry the way a click on it would, without scrolling (so that no "Next messages"
    link is revealed by it)."""
    page.eval_on_selector(selector, "element => { element.tabIndex = -1; element.focus({preventScroll: true}); }")
