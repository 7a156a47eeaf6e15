"""The YAML document header of OpenChatML 2.x (`version: 2.2` …) that stands before the first message."""
from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from viewer.model import Diagnostic, LineIndex, Span, make_diagnostic
from viewer.parse.harmony.tokens import TOKEN_RE

if TYPE_CHECKING:
    import yaml

_OPEN_FENCE = re.compile(r"[ \t\r\n]*---[ \t]*\r?(?:\n|\Z)")
_CLOSE_FENCE = re.compile(r"^(?:---|\.\.\.)[ \t]*\r?$", re.MULTILINE)
_VERSION_LINE = re.compile(r"^version[ \t]*:", re.MULTILINE)
_VERSION_2X = re.compile(r"^version[ \t]*:[ \t]*[\"']?2(?:\.\d+)*[\"']?[ \t]*(?:#.*)?\r?$", re.MULTILINE)
_MAX_NODES = 10_000
_MAX_DEPTH = 64


@dataclass(frozen=True, slots=True)
class YamlHeader:
    """Where the header is and what it says."""

    span: Span
    """The header region in the source, fences included."""
    yaml_text: str
    """The YAML between the fences (or the whole region when there are none)."""
    values: dict[str, Any]
    """The loaded mapping, made JSON-safe; empty when it failed to load."""
    diagnostics: tuple[Diagnostic, ...]
    """E-PARSE-HEADER when the YAML does not load as a mapping."""
    openchatml_version: bool
    """Whether it declares a 2.x version (then the transcript is OpenChatML rather than raw Harmony)."""


def read_yaml_header(text: str) -> YamlHeader | None:
    """The header before the first message, or None when the text does not start with one.

    A header is YAML that opens with a `---` fence or has a top-level `version:` key. It ends at its closing
    fence (`---` or `...`), else at the first control token that starts a line: a header may quote control
    tokens (2.2 §2 lists them under `capabilities.tokens`), so the first token alone does not end it.
    """
    first_line_token = _first_token_at_line_start(text)
    before = text[:first_line_token]
    opening = _OPEN_FENCE.match(before)
    if opening:
        inner_start = opening.end()
        closing = _CLOSE_FENCE.search(before, inner_start)
        inner_end = closing.start() if closing else len(before)
        region_end = closing.end() if closing else len(before.rstrip())
    elif _VERSION_LINE.search(before):
        inner_start, inner_end = 0, len(before)
        region_end = len(before.rstrip())
    else:
        return None
    region_start = len(before) - len(before.lstrip())
    yaml_text = text[inner_start:inner_end]
    values, diagnostics = _load(yaml_text, inner_start, (region_start, region_end))
    version = values.get("version") if values else None
    if values:
        is_2x = isinstance(version, (int, float, str)) and re.fullmatch(r"2(?:\.\d+)*", str(version)) is not None
    else:
        is_2x = _VERSION_2X.search(yaml_text) is not None
    return YamlHeader((region_start, region_end), yaml_text, values, diagnostics, is_2x)


def _first_token_at_line_start(text: str) -> int:
    fallback = None
    for match in TOKEN_RE.finditer(text):
        at = match.start()
        line_start = text.rfind("\n", 0, at) + 1
        if not text[line_start:at].strip():
            return line_start
        if fallback is None:
            fallback = at
        if at > 1_000_000:
            break  # a header is small; past this it is plain text with tokens in it
    return fallback if fallback is not None else len(text)


def _load(yaml_text: str, offset: int, region: Span) -> tuple[dict[str, Any], tuple[Diagnostic, ...]]:
    import yaml  # here: most transcripts have no header, and PyYAML takes longer to import than one to parse

    try:
        loaded = yaml.safe_load(yaml_text)
    except yaml.YAMLError as error:
        return {}, (_load_error(error, yaml_text, offset, region),)
    except (ValueError, OverflowError, RecursionError, TypeError) as error:
        # PyYAML constructs dates and numbers with Python, which can refuse (`2025-13-45`).
        return {}, (_error(region, f"The YAML header does not load: {error}."),)
    if loaded is None:
        return {}, ()
    if not isinstance(loaded, dict):
        return {}, (_error(region, "The YAML header is not a mapping of keys to values."),)
    budget = [_MAX_NODES]
    values = _json_safe(loaded, 0, budget)
    if budget[0] < 0:
        return {}, (_error(region, "The YAML header is too large or too deeply nested to read."),)
    return values, ()


def _load_error(error: yaml.YAMLError, yaml_text: str, offset: int, region: Span) -> Diagnostic:
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    index = getattr(mark, "index", None)
    if index is None:
        index = getattr(error, "position", None)  # ReaderError (a forbidden character) has only this
    problem = getattr(error, "problem", None) or str(error).splitlines()[0]
    if index is None:
        return _error(region, f"The YAML header does not load: {problem}.")
    index = min(max(index, 0), len(yaml_text))
    line_end = yaml_text.find("\n", index)
    line_end = len(yaml_text) if line_end == -1 else line_end
    start = offset + index
    end = max(offset + line_end, min(start + 1, offset + len(yaml_text)))
    line, _ = LineIndex(yaml_text).position(index)
    return _error((start, end), f"The YAML header does not load ({problem} at header line {line}).")


def _error(span: Span, message: str) -> Diagnostic:
    return make_diagnostic("E-PARSE-HEADER", span, message)


def _json_safe(value: Any, depth: int, budget: list[int]) -> Any:
    """The loaded YAML as JSON-ready data; aliases can make it huge or cyclic, so a budget bounds the walk."""
    budget[0] -= 1
    if budget[0] < 0 or depth > _MAX_DEPTH:
        budget[0] = -1
        return None
    if isinstance(value, dict):
        return {_key(key): _json_safe(item, depth + 1, budget) for key, item in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_json_safe(item, depth + 1, budget) for item in value]
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return str(value)  # JSON has no NaN or infinity
    return value


def _key(key: Any) -> str:
    if isinstance(key, str):
        return key
    if isinstance(key, bool) or key is None:
        return str(key).lower() if key is not None else "null"
    return str(key)
