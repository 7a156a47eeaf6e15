"""Tool calls written as code rather than JSON: Python call expressions (Llama 3.1's built-in
`brave_search.call(query="…")`, Llama 3.2's `[get_weather(city="Oslo"), …]`) and FunctionGemma's argument
notation (`{city:<escape>Oslo<escape>,days:3}`). Both are read into a tool name and a JSON-able arguments
object, never run: Python through `ast` and `ast.literal_eval`."""
from __future__ import annotations

import ast
import re
from typing import Any

PythonCall = tuple[str, dict[str, Any], tuple[int, int]]
"""A dotted name, its keyword arguments, and where the call stands in the source (character offsets)."""


def python_calls(source: str, *, as_list: bool) -> list[PythonCall] | None:
    """The calls of `[f(a=1), g(b="x")]` (`as_list`) or of one `f.call(a=1)`, each a dotted name and its keyword
    arguments (literals only); None when the text is anything else."""
    lead = len(source) - len(source.lstrip())
    source = source.strip()  # a leading blank is an "unexpected indent" to the parser
    try:
        tree = ast.parse(source, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    node = tree.body
    items = node.elts if as_list and isinstance(node, ast.List) else [node] if not as_list else None
    if not items:
        return None
    calls = []
    lines = _line_starts(source)
    for item in items:
        found = _call(item)
        if found is None:
            return None
        calls.append((*found, (lead + _offset(source, lines, item.lineno, item.col_offset),
                               lead + _offset(source, lines, item.end_lineno, item.end_col_offset))))
    return calls


def _line_starts(source: str) -> list[int]:
    starts = [0]
    position = source.find("\n")
    while position != -1:
        starts.append(position + 1)
        position = source.find("\n", position + 1)
    return starts


def _offset(source: str, lines: list[int], lineno: int | None, column: int | None) -> int:
    """A character offset from ast's line number and UTF-8 byte column."""
    if lineno is None or column is None:
        return 0
    start = lines[lineno - 1]
    line = source[start:lines[lineno] - 1] if lineno < len(lines) else source[start:]
    return start + len(line.encode("utf-8")[:column].decode("utf-8", errors="ignore"))


def _call(node: ast.AST) -> tuple[str, dict[str, Any]] | None:
    if not isinstance(node, ast.Call) or node.args:
        return None
    name = _dotted(node.func)
    arguments: dict[str, Any] = {}
    for keyword in node.keywords:
        if keyword.arg is None:
            return None
        try:
            arguments[keyword.arg] = ast.literal_eval(keyword.value)
        except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
            return None
    return (name, arguments) if name else None


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return f"{inner}.{node.attr}" if inner else None
    return None


_GEMMA_TOKEN = re.compile(r"<escape>(.*?)<escape>|([{}\[\],:])|([^{}\[\],:<]+|<(?!escape>))", re.DOTALL)


def gemma_value(text: str) -> Any:
    """A FunctionGemma value (`{key:<escape>text<escape>,n:15,list:[…]}`) as JSON data; ValueError when it is not
    one. Strings stand between `<escape>` tokens; keys, numbers and booleans are bare."""
    tokens = []
    covered = 0
    # findall reads every token in one call; the tokens cover the text exactly when their lengths add up to it
    # (an `<escape>` that is never closed matches nothing, and leaves a gap).
    for string, punct, bare in _GEMMA_TOKEN.findall(text):
        if punct:
            tokens.append(("punct", punct))
            covered += 1
        elif bare:
            covered += len(bare)
            if bare.strip():
                tokens.append(("bare", bare.strip()))
        else:
            tokens.append(("string", string))
            covered += len(string) + 2 * len("<escape>")
    if covered != len(text):
        raise ValueError("unreadable FunctionGemma value")
    value, stop = _value(tokens, 0)
    if stop != len(tokens):
        raise ValueError("text after a FunctionGemma value")
    return value


def _value(tokens: list[tuple[str, str]], at: int) -> tuple[Any, int]:
    if at >= len(tokens):
        raise ValueError("a FunctionGemma value ends early")
    kind, text = tokens[at]
    if kind == "string":
        return text, at + 1
    if kind == "bare":
        return _bare(text), at + 1
    if text == "{":
        return _sequence(tokens, at + 1, "}", keyed=True)
    if text == "[":
        return _sequence(tokens, at + 1, "]", keyed=False)
    raise ValueError(f"unexpected {text!r}")


def _sequence(tokens: list[tuple[str, str]], at: int, closer: str, *, keyed: bool) -> tuple[Any, int]:
    items: Any = {} if keyed else []
    while at < len(tokens) and tokens[at] != ("punct", closer):
        if keyed:
            if tokens[at][0] == "punct" or at + 1 >= len(tokens) or tokens[at + 1] != ("punct", ":"):
                raise ValueError("a FunctionGemma key needs a value")
            key = tokens[at][1]
            items[key], at = _value(tokens, at + 2)
        else:
            value, at = _value(tokens, at)
            items.append(value)
        if at < len(tokens) and tokens[at] == ("punct", ","):
            at += 1
    if at >= len(tokens):
        raise ValueError(f"no closing {closer!r}")
    return items, at + 1


def _bare(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("null", "none"):
        return None
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text
