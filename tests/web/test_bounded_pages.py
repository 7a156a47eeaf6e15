"""Pages, fragments and exports of a transcript whose code would take hours to highlight: every one answers,
the block shown plain with a note, and the rest of the page as usual."""
from __future__ import annotations

from typing import Callable, Iterator

import pytest
from flask.testing import FlaskClient

from tests.render.slow_lexers import EXPONENTIAL, LEXERS
from viewer.render import highlight, workers

# The issue's block: a double quote and 48 backslashes, tagged scala (ScalaLexer backtracks for minutes).
SCALA = '```scala\n"' + "\\" * 48 + "\n```"


def harmony(answer: str) -> bytes:
    return ("<|start|>user<|message|>Show me the code<|end|>"
            f"<|start|>assistant<|channel|>final<|message|>{answer}<|return|>").encode()


@pytest.fixture
def slow_lexers() -> Iterator[None]:
    workers.POOL.use_lexers(LEXERS)
    yield
    workers.POOL.use_lexers({})


def test_a_page_with_a_block_slow_on_purpose_answers_with_the_block_plain(
        client: FlaskClient, owned: Callable[..., str], slow_lexers: None) -> None:
    block = "a" * 60 + "page"
    id = owned(harmony(f"Here:\n\n```{EXPONENTIAL}\n{block}\n```\n\n```python\nx = 1\n```\n"))
    for path in (f"/t/{id}", f"/t/{id}?view=debug", f"/t/{id}.html", f"/t/{id}.html?view=debug"):
        response = client.get(path)
        page = response.get_data(as_text=True)
        assert response.status_code == 200, path
        assert f'<code class="language-{EXPONENTIAL}">{block}\n</code>' in page, path
        assert highlight.HIGHLIGHT_SLOW in page, path
        assert '<span class="tok-n">x</span>' in page, path  # the other block is highlighted


def test_the_issues_scala_block_answers_every_view_and_export(client: FlaskClient, owned: Callable[..., str]) -> None:
    id = owned(harmony(SCALA))
    for path in (f"/t/{id}", f"/t/{id}?view=debug", f"/t/{id}.html", f"/t/{id}.html?view=debug", f"/t/{id}.md",
                 f"/t/{id}.json", f"/t/{id}/messages/1?view=debug&part=source", f"/t/{id}/window?start=0",
                 f"/t/{id}/window?start=0&view=debug", f"/t/{id}/context/1"):
        response = client.get(path, headers={"HX-Request": "true"})
        assert response.status_code == 200, path
    page = client.get(f"/t/{id}").get_data(as_text=True)
    assert '<code class="language-scala">&#34;' + "\\" * 48 in page
    assert highlight.HIGHLIGHT_SLOW in page
