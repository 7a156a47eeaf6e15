"""A tool's output as the terminal showed it (viewer/render/terminal.py): colours and styles as classes, never a
style attribute; carriage returns, backspaces and erasing applied; other control characters shown."""
from __future__ import annotations

from bs4 import BeautifulSoup

from viewer import render
from viewer.render.terminal import has_terminal_codes, palette_css, terminal_html


def _spans(text: str) -> list[tuple[str, str]]:
    soup = BeautifulSoup(f"<pre>{terminal_html(text)}</pre>", "html.parser")
    return [(" ".join(span["class"]), span.get_text()) for span in soup.select("span")]


def test_colours_and_styles_become_classes():
    assert _spans("\x1b[1m\x1b[46m RUN \x1b[0m \x1b[31mred\x1b[39m \x1b[38;5;208mhot\x1b[0m") == [
        ("term-b term-bg6", " RUN "), ("term-fg1", "red"), ("term-fg208", "hot")]
    assert _spans("\x1b[38;2;255;0;0mtrue\x1b[m")[0][0] == "term-fg196"  # true colour to the nearest of the 256


def test_a_progress_bar_ends_as_its_last_state():
    html = terminal_html("[==    ] 20%\r[====  ] 60%\r[======] 100%\ndone\n")
    assert BeautifulSoup(html, "html.parser").get_text() == "[======] 100%\ndone"


def test_a_shorter_rewrite_keeps_the_rest_of_the_line_and_erasing_removes_it():
    assert BeautifulSoup(terminal_html("downloading\rDONE"), "html.parser").get_text() == "DONEloading"
    assert BeautifulSoup(terminal_html("downloading\r\x1b[KDONE"), "html.parser").get_text() == "DONE"
    assert BeautifulSoup(terminal_html("abc\bX"), "html.parser").get_text() == "abX"


def test_crlf_line_ends_are_line_ends():
    assert BeautifulSoup(terminal_html("one\r\ntwo\r\n"), "html.parser").get_text() == "one\ntwo"


def test_other_control_characters_are_shown_and_text_is_escaped():
    spans = _spans("bell\x07 <b>&amp;</b>")
    assert spans == [("term-ctl", "\u2407")]
    assert "&lt;b&gt;&amp;amp;&lt;/b&gt;" in str(terminal_html("<b>&amp;</b>"))


def test_a_hostile_cursor_move_is_bounded():
    assert len(terminal_html("\x1b[999999999Cx")) < 200_000


def test_the_rendered_output_keeps_its_newlines_and_draws_no_style_attribute():
    rendered = render.terminal("line one\n\x1b[32mline two\x1b[0m\n")
    soup = BeautifulSoup(rendered.html, "html.parser")
    assert soup.pre["class"] == ["code", "terminal"] and soup.get_text() == "line one\nline two\n"
    assert not soup.select("[style]")
    assert ".term-fg2 {" in palette_css() and "style=" not in palette_css()


def test_terminal_codes_are_told_apart_from_plain_text():
    assert has_terminal_codes("\x1b[0m") and has_terminal_codes("50%\r60%") and not has_terminal_codes("a\r\nb")


def test_the_plain_text_of_a_screen_is_what_the_terminal_showed():
    from viewer.render.terminal import terminal_text
    assert terminal_text("\x1b[32m50%\r100%\x1b[0m\nok\x07") == "100%\nok\u2407"
