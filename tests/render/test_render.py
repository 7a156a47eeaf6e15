"""Safe rendering: the hostile-markdown catalogue, the structure of every output, caps, JSON, code and CSS."""
from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markdown_it.utils import read_fixture_file
from markupsafe import Markup

from viewer import render
from viewer.render import highlight as render_highlight

FIXTURES = Path(__file__).parent / "fixtures"
SAFETY_CASES = read_fixture_file(FIXTURES / "markdown_safety.txt")

ALLOWED_ELEMENTS = {"p", "a", "em", "strong", "code", "pre", "span", "ul", "ol", "li", "blockquote",
                    "h1", "h2", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "th", "td",
                    "hr", "br", "del", "s", "div"}
ALLOWED_ATTRIBUTES = {"href", "title", "rel", "class", "start"}
ALLOWED_SCHEMES = {"", "http", "https", "mailto"}


class Structure(HTMLParser):
    """Every start tag of a fragment, with its attributes, as a browser's tokenizer reads them."""

    def __init__(self, fragment: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.feed(fragment)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    handle_startendtag = handle_starttag


def browser_scheme(href: str) -> str:
    # What a browser does before it reads a scheme: drop tabs and newlines, trim controls and spaces.
    url = re.sub(r"[\t\n\r]", "", href).strip("".join(map(chr, range(0x21))))
    return urlsplit(url).scheme.lower()


def code_text(fragment: str) -> str:
    """The text of the one code block in a fragment, as a person reads it."""
    inner = re.fullmatch(r'<pre class="\w+"><code[^>]*>(.*)</code></pre>\n', fragment, re.DOTALL)
    assert inner, fragment
    return html.unescape(re.sub(r"<[^>]+>", "", inner.group(1)))


def assert_safe(fragment: str) -> None:
    for tag, attrs in Structure(fragment).tags:
        assert tag in ALLOWED_ELEMENTS, f"<{tag}> in {fragment!r}"
        assert set(attrs) <= ALLOWED_ATTRIBUTES, f"{attrs} on <{tag}>"
        if tag == "div":
            assert attrs.get("class"), "a div must carry a class"
        if tag == "a":
            assert browser_scheme(attrs.get("href") or "") in ALLOWED_SCHEMES, attrs
            assert attrs.get("rel") == render.LINK_REL
        else:
            assert "href" not in attrs


# ---- the catalogue --------------------------------------------------------------------------------------

def test_catalogue_has_at_least_forty_hostile_inputs() -> None:
    assert len(SAFETY_CASES) >= 40


@pytest.mark.parametrize(("line", "title", "text", "expected"), SAFETY_CASES,
                         ids=[case[1] for case in SAFETY_CASES])
def test_markdown_safety_catalogue(line: int, title: str, text: str, expected: str) -> None:
    assert render.markdown(text) == expected


@pytest.mark.parametrize(("line", "title", "text", "expected"), SAFETY_CASES,
                         ids=[case[1] for case in SAFETY_CASES])
def test_catalogue_output_has_only_allowlisted_structure(line: int, title: str, text: str, expected: str) -> None:
    assert_safe(render.markdown(text))


FRAGMENTS = ["<script>", "</script>", "<img src=x onerror=alert(1)>", "<div hx-get='/x'>", "hx-on:click=",
             "[x](", "](", ")", "![i](", "javascript:", "java&#x09;script:", "jav\tascript:", "&#58;", "%3A",
             "<", ">", "\"", "'", "`", "```", "```\"><b>\n", "\n", "\n\n", "|", "|:-|", "-", "*", "_", "#",
             "http://a/", "mailto:a@b", "data:text/html,", "{{7*7}}", " ", "style=", "\x00", "\ud800", "\\"]


@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join))
def test_markdown_from_hostile_fragments_stays_safe(text: str) -> None:
    out = render.markdown(text)
    assert isinstance(out, Markup)
    out.encode("utf-8")
    assert_safe(out)


@pytest.mark.parametrize("url", [
    "https://example.com/a?b#c", "http://x", "mailto:a@example.com", "/t/abc", "relative/path", "#frag",
    "?q=1", "//example.com/x", "a/b:c", "HTTPS://EXAMPLE.COM",
])
def test_allowed_urls(url: str) -> None:
    assert render.is_allowed_url(url)


@pytest.mark.parametrize("url", [
    "javascript:alert(1)", "JavaScript:alert(1)", " javascript:alert(1)", "java\tscript:alert(1)",
    "java\nscript:alert(1)", "jav&#x09;ascript:alert(1)", "jav%09ascript:alert(1)", "javascript%3Aalert(1)",
    "javascript%25253Aalert(1)", "&#106;avascript:alert(1)", "\x01javascript:alert(1)", "vbscript:x",
    "data:text/html,<script>", "data:image/png;base64,AAAA", "file:///etc/passwd", "tel:+1", "ja\u200bvascript:x",
])
def test_rejected_urls(url: str) -> None:
    assert not render.is_allowed_url(url)


# ---- caps -----------------------------------------------------------------------------------------------

def test_fence_over_the_highlight_cap_is_escaped_but_not_highlighted() -> None:
    body = "x = '<b>'\n" * (render.HIGHLIGHT_CAP // 10 + 1)
    rendered = render.render_body(f"```python\n{body}```\n", None)
    assert "tok-" not in rendered.html and "&lt;b&gt;" in rendered.html
    assert rendered.degraded == render.HIGHLIGHT_SKIPPED


def test_highlight_cap_boundary(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render_highlight, "HIGHLIGHT_CAP", 20)
    assert "tok-" in render.code("x = 1\n" * 3, "python")            # 18 characters
    assert "tok-" not in render.code("x = 1\n" * 4, "python")        # 24 characters


def test_body_over_the_markdown_cap_is_plain_escaped_text_with_a_note() -> None:
    text = "**bold** <script>\n" * (render.MARKDOWN_CAP // 18 + 1)
    rendered = render.render_body(text, None)
    assert rendered.html.startswith('<pre class="plain">')
    assert "<strong>" not in rendered.html and "&lt;script&gt;" in rendered.html
    assert rendered.degraded == render.MARKDOWN_SKIPPED
    assert render.markdown(text) == rendered.html


@pytest.mark.parametrize("text", ["[" * 20_000, "[\\]" * 10_000, "![" * 10_000])
def test_bracket_heavy_paragraph_is_plain_text_not_a_quadratic_parse(text: str) -> None:
    rendered = render.render_body(text, None)
    assert rendered.degraded == render.BRACKETS_SKIPPED
    assert rendered.html == f'<pre class="plain"><code>{text}</code></pre>\n'


def test_many_links_in_many_paragraphs_are_still_formatted() -> None:
    text = "".join(f"See [doc {i}](https://example.com/{i}) and [ref][{i}].\n\n" for i in range(1000))
    rendered = render.render_body(text, None)
    assert rendered.degraded is None and rendered.html.count("<a ") == 1000


def test_body_under_the_caps_is_not_degraded() -> None:
    assert render.render_body("**b**\n\n```python\nx = 1\n```\n", None).degraded is None


# ---- code and lexers ------------------------------------------------------------------------------------

def test_lexer_lookup_is_cached() -> None:
    render.lexer_for.cache_clear()
    for _ in range(3):
        render.code("print(1)\n", "Python")
        render.code("x\n", "nosuchlang")
    info = render.lexer_for.cache_info()
    assert (info.misses, info.hits) == (2, 4)


def test_code_without_language_is_escaped_plain() -> None:
    out = render.code("<b>&</b>", None)
    assert out == '<pre class="code"><code>&lt;b&gt;&amp;&lt;/b&gt;</code></pre>\n'


def test_code_with_language_is_highlighted_with_classes_only() -> None:
    out = render.code("def f():\n    return '<x>'\n", "python")
    assert '<code class="language-python">' in out and '<span class="tok-k">def</span>' in out
    assert "style=" not in out and "&lt;x&gt;" in out
    assert_safe(out)


@pytest.mark.parametrize("language", ['python"><script>', "hx-get=/x", "x" * 41, "", "  "])
def test_code_with_a_hostile_or_empty_language_gets_no_class(language: str) -> None:
    assert render.code("<b>", language) == '<pre class="code"><code>&lt;b&gt;</code></pre>\n'


# ---- JSON -----------------------------------------------------------------------------------------------

def test_json_is_pretty_printed_and_highlighted() -> None:
    out = render.json_block('{"city":"Zürich","tags":["<script>"]}')
    assert code_text(out) == '{\n  "city": "Zürich",\n  "tags": [\n    "<script>"\n  ]\n}'
    assert '<span class="tok-nt">' in out
    assert_safe(out)


@pytest.mark.parametrize("text", [
    "{not json", '{"a": 1, "a": 2}', '{"n": 1.50}', '{"n": 1e3}', '{"n": NaN}', "[" * 100_000 + "]" * 100_000,
    "9" * 5000,
])
def test_json_that_cannot_be_reprinted_faithfully_is_shown_as_written(text: str) -> None:
    out = render.json_block(text)
    assert code_text(out) == text


def test_json_over_the_highlight_cap_is_pretty_but_plain() -> None:
    text = "[" + ",".join(['"<x>"'] * (render.HIGHLIGHT_CAP // 6)) + "]"
    rendered = render.render_body(text, "json")
    assert "tok-" not in rendered.html and code_text(rendered.html).startswith('[\n  "<x>",\n  "<x>",\n')
    assert rendered.degraded == render.HIGHLIGHT_SKIPPED


# ---- bodies by content type -----------------------------------------------------------------------------

@pytest.mark.parametrize(("content_type", "marker"), [
    (None, "<h1>"), ("markdown", "<h1>"), ("text", "<h1>"),
    ("json", 'class="language-json"'), ("<|constrain|>json", 'class="language-json"'),
    ("application/json", 'class="language-json"'), ("text/plain", '<pre class="plain">'),
    ("python", '<span class="tok-c1">'), ("code", '<code class="language-code"># {&#34;a&#34;: 1}'),
])
def test_render_body_picks_the_renderer_by_content_type(content_type: str | None, marker: str) -> None:
    rendered = render.render_body('# {"a": 1}\n', content_type)
    assert isinstance(rendered.html, Markup) and marker in rendered.html


@pytest.mark.parametrize("call", [
    lambda t: render.markdown(t), lambda t: render.json_block(t), lambda t: render.code(t, "python"),
    lambda t: render.code(t, None), lambda t: render.render_body(t, "text/plain").html,
], ids=["markdown", "json", "code", "plain-code", "plain-body"])
def test_nul_and_lone_surrogates_are_replaced(call) -> None:
    out = call('"a\x00b\ud800c\udfff"')
    out.encode("utf-8")
    assert out.count("\ufffd") == 3 and "\x00" not in out


# ---- stylesheet -----------------------------------------------------------------------------------------

def test_stylesheet_has_light_and_scoped_dark_rules() -> None:
    css = render.stylesheet()
    light, dark = css.split("@media (prefers-color-scheme: dark) {")
    assert ".code .tok-k" in light and ".code .tok-k" in dark
    rules = [line.strip() for line in css.splitlines() if "{" in line and not line.startswith("@media")]
    assert all(rule.startswith(".code") for rule in rules), "every rule is scoped under .code"
    assert render.stylesheet() is css


def test_a_blank_table_header_cell_is_a_plain_cell_and_a_named_one_stays_a_header():
    html_out = str(render.markdown("| Name | |\n|---|---|\n| a | b |\n\n| | |\n|---|---|\n| c | d |\n"))
    assert html_out.count("<th>Name</th>") == 1 and "<th></th>" not in html_out
    assert html_out.count("<td></td>") == 3
