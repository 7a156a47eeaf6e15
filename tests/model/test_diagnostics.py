"""The registry of diagnostic codes: every code the viewer reports is registered with a severity, and severity
is chosen there, never where a diagnostic is made."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from viewer.model import CODES, SEVERITIES, Diagnostic, make_diagnostic

VIEWER = Path(__file__).resolve().parents[2] / "viewer"
SOURCES = sorted(VIEWER.rglob("*.py"))
CODE_LITERAL = re.compile(r"""["']([EW]-[A-Z0-9]+(?:-[A-Z0-9]+)+)["']""")


def test_every_code_written_in_the_source_is_registered():
    used = {match[1]: path.relative_to(VIEWER.parent) for path in SOURCES
            for match in CODE_LITERAL.finditer(path.read_text(encoding="utf-8"))}
    assert {code: str(path) for code, path in used.items() if code not in CODES} == {}


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_registered_code_has_a_severity_and_a_summary(code):
    entry = CODES[code]
    assert entry.severity in SEVERITIES
    assert entry.when_expected in (None, *SEVERITIES)
    assert entry.summary and entry.summary.endswith(".")


def _literal_severities(path: Path) -> list[int]:
    """Lines where a Diagnostic is built with a severity written out."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "Diagnostic":
            severity = [*node.args[1:2], *(keyword.value for keyword in node.keywords if keyword.arg == "severity")]
            if any(isinstance(value, ast.Constant) for value in severity):
                lines.append(node.lineno)
    return lines


def test_no_module_chooses_a_severity_where_it_makes_a_diagnostic():
    found = {str(path.relative_to(VIEWER.parent)): _literal_severities(path) for path in SOURCES}
    assert {path: lines for path, lines in found.items() if lines} == {}


def test_a_diagnostic_takes_its_severity_and_default_message_from_the_registry():
    made = make_diagnostic("E-PARSE-CHANNEL-MISSING", (3, 9), message_index=2)
    assert made == Diagnostic("E-PARSE-CHANNEL-MISSING", "error", CODES["E-PARSE-CHANNEL-MISSING"].summary, (3, 9), 2)
    assert make_diagnostic("W-JSON-CONTENT-PART", (0, 1), "Here.").severity == "info"


def test_an_expected_case_takes_the_milder_severity_only_where_the_code_has_one():
    assert make_diagnostic("W-UNANSWERED-CALL", (0, 1), expected=True).severity == "info"
    assert make_diagnostic("W-UNANSWERED-CALL", (0, 1)).severity == "warning"
    assert make_diagnostic("W-ORPHAN-REPLY", (0, 1), expected=True).severity == "warning"


def test_an_unregistered_code_is_refused():
    with pytest.raises(KeyError):
        make_diagnostic("W-NOT-A-CODE", (0, 1))
