"""System and developer prompts are shown as the model saw them: verbatim, tool declarations highlighted."""
from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st
from markupsafe import escape

from viewer.render.prompts import PROMPT_CAP, prompt, tool_blocks

NAMESPACE = ("# Tools\n\n## functions\n\nnamespace functions {\n\n// Weather.\ntype get_weather = (_: {\n"
             "location: string,\n}) => any;\n\n} // namespace functions\n\nBe brief.")


def test_a_prompt_keeps_its_whitespace_and_is_not_markdown():
    html = str(prompt("# Not a heading\n\n  * not a list\n<b>bold?</b>").html)
    assert "<h1>" not in html and "<ul>" not in html and "<b>" not in html
    assert "# Not a heading\n\n  * not a list\n&lt;b&gt;bold?&lt;/b&gt;" in html


def test_a_harmony_namespace_block_is_highlighted_in_place_and_the_rest_stays_verbatim():
    html = str(prompt(NAMESPACE).html)
    assert html.count("<pre") == 1 and 'class="tok-kr"' in html  # TypeScript's `type` keyword
    assert html.index("# Tools") < html.index("namespace") < html.index("Be brief.")


def test_a_tools_json_block_is_highlighted_as_json_in_place():
    text = 'Signatures within <tools></tools> XML tags:\n<tools>\n{"type": "function", "function": {"name": "f"}}\n</tools>\nGo.'
    html = str(prompt(text).html)
    assert html.count("<pre") == 1 and 'class="tok-nt"' in html  # a JSON key
    assert html.count("&lt;tools&gt;") == 2 and "Signatures within &lt;tools&gt;&lt;/tools&gt; XML tags:" in html


def test_an_unclosed_tools_block_is_plain_text():
    html = str(prompt("<tools>\n{\"name\": \"f\"}\nno end").html)
    assert "tok-" not in html and "&lt;tools&gt;" in html


def test_a_prompt_over_the_cap_is_verbatim_without_looking_for_blocks():
    html = str(prompt(NAMESPACE + " " * PROMPT_CAP).html)
    assert "tok-" not in html and "namespace functions {" in html


def test_a_prompt_of_openers_that_never_close_is_shown_verbatim() -> None:
    # One lazy regex over both kinds retried every opener to the end: 6 s for this prompt, 10 s for <tools>.
    for text in ("namespace a {\n" * 7000, "<tools>x" * 12000):
        rendered = prompt(text)
        assert rendered.html == f'<pre class="plain prompt-text"><code>{escape(text)}</code></pre>\n'


_BLOCK_REFERENCE = re.compile(r"^namespace [\w.]+ \{$.*?^\} // namespace [\w.]+$|<tools>(?=\s*\S).*?</tools>",
                              re.MULTILINE | re.DOTALL)
"""The one regex that found tool blocks before: what `tool_blocks` must still find, in linear time."""


@given(st.lists(st.sampled_from(["namespace a {\n", "namespace b.c {", "} // namespace a\n", "\n} // namespace x",
                                 "<tools>", "</tools>", " ", "\n", "x", "<tools></tools>"]), max_size=14))
def test_tool_blocks_are_the_ones_the_lazy_regex_found(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert list(tool_blocks(text)) == [match.span() for match in _BLOCK_REFERENCE.finditer(text)]
