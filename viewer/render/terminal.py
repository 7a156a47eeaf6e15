"""A tool's output as the terminal showed it: a small state machine over its text, each line a row of cells with
a style, written as escaped HTML with the styles as classes (`term-fg1`, `term-b`), never `style=`.

- SGR escapes (`ESC [ … m`): bold, dim, italic, underline, inverse, strike; the 8 + 8 colours, 256-colour and
  true colour codes (true colour taken to the nearest of the 256, so that a class names it); resets.
- `\\r` returns to the line's start and later text overwrites it (a progress bar ends as its last state);
  `ESC [ K` erases to the line's end, `ESC [ 2K` the line; `\\b` steps back; cursor moves left and right within a
  line; other escapes (cursor up, screen clearing, titles) are dropped, as a log has no screen to move on.
- Any other control character is shown visibly as its Unicode picture (`␇`), in a class of its own.

Why not ansi2html (a kept library, with class output): it passes `\\r`, `\\b` and erasing through untouched, so a
progress bar would still be a hundred bars, and applying those first needs the very parse of escapes it does;
this does both in one pass, in time linear in the text, and writes classes only (the CSP forbids inline styles).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from markupsafe import Markup, escape

ESCAPE = re.compile(r"\x1b(?:\[([0-?]*)([ -/]*)([@-~])|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_]|)")
"""A CSI sequence (parameters, intermediates, final byte), an OSC string (a title, a link: dropped), a two-byte
escape, or a lone ESC."""
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
MAX_COLUMNS = 100_000
"""A cursor move never takes the column past this (a hostile `ESC [ 999999999 C`)."""


@dataclass(frozen=True, slots=True)
class Style:
    bold: bool = False
    dim: bool = False
    italic: bool = False
    underline: bool = False
    inverse: bool = False
    strike: bool = False
    fg: int | None = None
    """A colour of the 256 (0–15 the terminal's own)."""
    bg: int | None = None

    def classes(self) -> str:
        names = [name for name, on in (("term-b", self.bold), ("term-dim", self.dim), ("term-i", self.italic),
                                       ("term-u", self.underline), ("term-inv", self.inverse),
                                       ("term-s", self.strike)) if on]
        if self.fg is not None:
            names.append(f"term-fg{self.fg}")
        if self.bg is not None:
            names.append(f"term-bg{self.bg}")
        return " ".join(names)


PLAIN = Style()
CONTROL_STYLE = "term-ctl"


class Screen:
    """Lines of cells being written."""

    def __init__(self) -> None:
        self.lines: list[list[tuple[str, str]]] = [[]]
        """Each line's cells: (character, classes)."""
        self.column = 0
        self.style = PLAIN

    @property
    def line(self) -> list[tuple[str, str]]:
        return self.lines[-1]

    def write(self, text: str, classes: str | None = None) -> None:
        line, cls = self.line, self.style.classes() if classes is None else classes
        for character in text:
            if self.column < len(line):
                line[self.column] = (character, cls)
            else:
                line.extend([(" ", "")] * (self.column - len(line)))
                line.append((character, cls))
            self.column += 1

    def newline(self) -> None:
        self.lines.append([])
        self.column = 0

    def erase(self, how: int) -> None:
        """`ESC [ n K`: 0 to the line's end, 1 to the cursor, 2 the whole line."""
        line = self.line
        if how == 0:
            del line[self.column:]
        elif how == 1:
            line[:min(self.column + 1, len(line))] = [(" ", "")] * min(self.column + 1, len(line))
        else:
            line.clear()

    def move(self, columns: int) -> None:
        self.column = min(max(self.column + columns, 0), MAX_COLUMNS)


def terminal_html(text: str) -> Markup:
    """The text as the terminal showed it, as escaped HTML lines with class spans (no `<pre>` of its own)."""
    return Markup("\n".join(_line_html(line) for line in _shown(text)))


def terminal_text(text: str) -> str:
    """The text as the terminal showed it, as plain text (for a Markdown file): rewrites applied, escapes gone,
    other control characters shown as their pictures."""
    return "\n".join("".join(character for character, _ in line) for line in _shown(text))


def _shown(text: str) -> list[list[tuple[str, str]]]:
    """The screen's lines once the text has played on it: each a list of (character, classes)."""
    screen = Screen()
    at = 0
    for found in ESCAPE.finditer(text):
        _plain(screen, text[at:found.start()])
        at = found.end()
        if found.group(3) is not None:
            _csi(screen, found.group(1), found.group(2), found.group(3))
    _plain(screen, text[at:])
    return _trimmed(screen.lines)


def _trimmed(lines: list[list[tuple[str, str]]]) -> list[list[tuple[str, str]]]:
    """Without the empty line a final newline leaves."""
    return lines[:-1] if len(lines) > 1 and not lines[-1] else lines


def _plain(screen: Screen, text: str) -> None:
    """Text between escapes: printable runs written, `\\n` `\\r` `\\b` `\\t` acted on, other controls shown."""
    start = 0
    for index, character in enumerate(text):
        if character not in "\n\r\b\t" and not CONTROL.match(character):
            continue
        screen.write(text[start:index])
        start = index + 1
        if character == "\n":
            screen.newline()
        elif character == "\r":
            if text[index + 1:index + 2] != "\n":  # a CRLF line end is one end, not a rewrite
                screen.column = 0
        elif character == "\b":
            screen.move(-1)
        elif character == "\t":
            screen.write(" " * (8 - screen.column % 8))
        else:
            screen.write(chr(0x2421) if character == "\x7f" else chr(0x2400 + ord(character)), CONTROL_STYLE)
    screen.write(text[start:])


def _csi(screen: Screen, parameters: str, intermediates: str, final: str) -> None:
    if intermediates or (parameters[:1] in ("?", ">", "<", "=")):
        return  # private modes (cursor shown, bracketed paste): nothing a log can show
    numbers = [int(part) if part.isdigit() else 0 for part in parameters.split(";")] if parameters else []
    first = numbers[0] if numbers else 0
    if final == "m":
        screen.style = _sgr(screen.style, numbers or [0])
    elif final == "K":
        screen.erase(first)
    elif final == "C":
        screen.move(max(first, 1))
    elif final == "D":
        screen.move(-max(first, 1))
    elif final == "G":
        screen.column = min(max(first, 1) - 1, MAX_COLUMNS)


def _sgr(style: Style, numbers: list[int]) -> Style:
    fields = {name: getattr(style, name) for name in Style.__dataclass_fields__}
    at = 0
    while at < len(numbers):
        code = numbers[at]
        at += 1
        if code == 0:
            fields = {name: getattr(PLAIN, name) for name in fields}
        elif code in FLAGS:
            fields[FLAGS[code]] = True
        elif code in UNFLAGS:
            for name in UNFLAGS[code]:
                fields[name] = False
        elif 30 <= code <= 37 or 90 <= code <= 97:
            fields["fg"] = code - 30 if code < 90 else code - 90 + 8
        elif 40 <= code <= 47 or 100 <= code <= 107:
            fields["bg"] = code - 40 if code < 100 else code - 100 + 8
        elif code == 39:
            fields["fg"] = None
        elif code == 49:
            fields["bg"] = None
        elif code in (38, 48):
            colour, at = _extended(numbers, at)
            if colour is not None:
                fields["fg" if code == 38 else "bg"] = colour
    return Style(**fields)


FLAGS = {1: "bold", 2: "dim", 3: "italic", 4: "underline", 7: "inverse", 9: "strike"}
UNFLAGS = {22: ("bold", "dim"), 23: ("italic",), 24: ("underline",), 27: ("inverse",), 29: ("strike",)}


def _extended(numbers: list[int], at: int) -> tuple[int | None, int]:
    """A 256-colour (`5;n`) or true colour (`2;r;g;b`, taken to the nearest of the 6×6×6 cube) colour."""
    if at < len(numbers) and numbers[at] == 5 and at + 1 < len(numbers):
        return min(numbers[at + 1], 255), at + 2
    if at < len(numbers) and numbers[at] == 2 and at + 3 < len(numbers):
        red, green, blue = (min(value, 255) for value in numbers[at + 1:at + 4])
        return 16 + 36 * _cube(red) + 6 * _cube(green) + _cube(blue), at + 4
    return None, len(numbers)


def _cube(value: int) -> int:
    return 0 if value < 48 else min((value - 35) // 40, 5)


def _line_html(line: list[tuple[str, str]]) -> str:
    """A line's cells as escaped text, each run of one style in a span."""
    html: list[str] = []
    run: list[str] = []
    current = ""
    for character, classes in line:
        if classes != current and run:
            html.append(_span("".join(run), current))
            run = []
        current = classes
        run.append(character)
    if run:
        html.append(_span("".join(run), current))
    return "".join(html)


def _span(text: str, classes: str) -> str:
    return f'<span class="{classes}">{escape(text)}</span>' if classes else str(escape(text))


def has_terminal_codes(text: str) -> bool:
    """Whether the text holds an escape, a carriage return that rewrites a line, or another control character."""
    return "\x1b" in text or bool(re.search(r"\r(?!\n)", text)) or bool(CONTROL.search(text))


def palette_css() -> str:
    """The classes' colours: the 16 terminal colours in a light and a dark scheme, the 240 others of the 256,
    and the text styles."""
    rules = [".term-b { font-weight: 700; }", ".term-dim { opacity: .7; }", ".term-i { font-style: italic; }",
             ".term-u { text-decoration: underline; }", ".term-s { text-decoration: line-through; }",
             ".term-inv { filter: invert(1); }",
             ".term-ctl { color: var(--warning); background: var(--analysis-soft); border-radius: 2px; }"]
    for number in range(256):
        colour = _colour(number, LIGHT) if number < 16 else _colour(number)
        rules.append(f".term-fg{number} {{ color: {colour}; }}")
        rules.append(f".term-bg{number} {{ background-color: {colour}; }}")
    dark = [f"  .term-fg{number} {{ color: {_colour(number, DARK)}; }}\n"
            f"  .term-bg{number} {{ background-color: {_colour(number, DARK)}; }}" for number in range(16)]
    return "\n".join(rules) + "\n@media (prefers-color-scheme: dark) {\n" + "\n".join(dark) + "\n}\n"


LIGHT = ("#000000", "#b42318", "#1a7f37", "#8a6100", "#1d4ed8", "#9333ea", "#0e7490", "#6b7280",
         "#4b5563", "#dc2626", "#16a34a", "#a16207", "#2563eb", "#c026d3", "#0891b2", "#111827")
DARK = ("#1f2430", "#ff7b72", "#7ee787", "#e3b341", "#79c0ff", "#d2a8ff", "#56d4dd", "#c9d1d9",
        "#8b949e", "#ffa198", "#aff5b4", "#f8e3a1", "#a5d6ff", "#e2c5ff", "#b3f0ff", "#f0f6fc")


def _colour(number: int, scheme: tuple[str, ...] = LIGHT) -> str:
    if number < 16:
        return scheme[number]
    if number < 232:
        cube = number - 16
        levels = (0, 95, 135, 175, 215, 255)
        red, green, blue = levels[cube // 36], levels[cube // 6 % 6], levels[cube % 6]
        return f"#{red:02x}{green:02x}{blue:02x}"
    grey = 8 + (number - 232) * 10
    return f"#{grey:02x}{grey:02x}{grey:02x}"
