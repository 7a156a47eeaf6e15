"""JSON schemas from the TypeScript-like tool declarations of Harmony developer and system messages.

    namespace functions {
    // Gets the weather.
    type get_weather = (_: { location: string, unit?: "c" | "f" }) => any;
    } // namespace functions

becomes `{"functions.get_weather": {"type": "object", "properties": {...}, "required": ["location"]}}`, which
the shared checks use for E-CALL-SCHEMA. Deliberately small and tolerant: a declaration it cannot read is
skipped, never reported, because the declaration language is informal.
"""
from __future__ import annotations

import json
import re
from typing import Any

_TOKEN = re.compile(r"""\s+|//[^\n]*|/\*.*?(?:\*/|\Z)|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|-?\d+(?:\.\d+)?"""
                    r"""|[A-Za-z_$][\w$]*|=>|\S""", re.DOTALL)
_PRIMITIVES = {"string": "string", "number": "number", "integer": "integer", "boolean": "boolean",
               "null": "null", "object": "object"}
_ANY = ("any", "unknown")
_MAX_DEPTH = 32


class _Unreadable(Exception):
    """A declaration this reader does not understand."""


def read_tool_namespaces(text: str) -> dict[str, dict[str, Any]]:
    """Tool name (`functions.get_weather`) -> JSON schema of its arguments, for every readable declaration."""
    tokens = [token for token in _TOKEN.findall(text) if not token.isspace() and not token.startswith(("//", "/*"))]
    tools: dict[str, dict[str, Any]] = {}
    namespace = None
    depth = 0
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token == "namespace" and index + 2 < len(tokens) and tokens[index + 2] == "{":
            namespace, depth = tokens[index + 1], 1
            index += 3
        elif namespace and token == "type" and depth == 1 and index + 1 < len(tokens):
            name = tokens[index + 1]
            reader = _TypeReader(tokens, index + 2)
            try:
                tools[f"{namespace}.{name}"] = reader.declaration()
                index = reader.index
            except (_Unreadable, IndexError, ValueError):
                index = _after_declaration(tokens, index + 2)
        else:
            if namespace and token == "{":
                depth += 1
            elif namespace and token == "}":
                depth -= 1
                if depth == 0:
                    namespace = None
            index += 1
    return tools


def _after_declaration(tokens: list[str], index: int) -> int:
    """Where an unreadable declaration ends: its `;`, or the `}` that closes the namespace."""
    depth = 0
    while index < len(tokens):
        token = tokens[index]
        if token in ("{", "(", "<", "["):
            depth += 1
        elif token in ("}", ")", ">", "]"):
            depth -= 1
            if depth < 0:
                return index
        elif token == ";" and depth == 0:
            return index + 1
        index += 1
    return index


class _TypeReader:
    """Recursive descent over the token list, from `= (_: {...}) => any;`."""

    def __init__(self, tokens: list[str], index: int) -> None:
        self.tokens = tokens
        self.index = index

    def declaration(self) -> dict[str, Any]:
        self._expect("=")
        self._expect("(")
        if self._peek() == ")":
            schema: dict[str, Any] = {"type": "object", "properties": {}}
        else:
            self._next()  # the parameter's name, `_` by convention
            self._expect(":")
            schema = self._type(0)
        self._expect(")")
        self._expect("=>")
        self._type(0)  # the result type, not needed
        if self._peek() == ";":
            self._next()
        return schema

    def _type(self, depth: int) -> dict[str, Any]:
        if depth > _MAX_DEPTH:
            raise _Unreadable("nested too deeply")
        if self._peek() == "|":
            self._next()
        options = [self._array_of(depth)]
        while self._peek() == "|":
            self._next()
            options.append(self._array_of(depth))
        return _union(options)

    def _array_of(self, depth: int) -> dict[str, Any]:
        schema = self._primary(depth)
        while self._peek() == "[" and self._peek(1) == "]":
            self.index += 2
            schema = {"type": "array", "items": schema}
        return schema

    def _primary(self, depth: int) -> dict[str, Any]:
        token = self._next()
        if token == "{":
            return self._object(depth + 1)
        if token == "(":
            inner = self._type(depth + 1)
            self._expect(")")
            return inner
        if token[0] in "\"'":
            return {"const": _string_literal(token)}
        if token[0] == "-" or token[0].isdigit():
            return {"const": json.loads(token)}
        if token in ("true", "false"):
            return {"const": token == "true"}
        if token == "Array" and self._peek() == "<":
            self._next()
            items = self._type(depth + 1)
            self._expect(">")
            return {"type": "array", "items": items}
        if token in _PRIMITIVES:
            return {"type": _PRIMITIVES[token]}
        if token in _ANY:
            return {}
        raise _Unreadable(f"unknown type {token!r}")

    def _object(self, depth: int) -> dict[str, Any]:
        properties: dict[str, Any] = {}
        required: list[str] = []
        while self._peek() != "}":
            name = self._next()
            if name[0] in "\"'":
                name = _string_literal(name)
            optional = self._peek() == "?"
            if optional:
                self._next()
            self._expect(":")
            properties[name] = self._type(depth)
            if not optional:
                required.append(name)
            if self._peek() in (",", ";"):
                self._next()
        self._next()
        schema: dict[str, Any] = {"type": "object", "properties": properties}
        if required:
            schema["required"] = required
        return schema

    def _peek(self, ahead: int = 0) -> str | None:
        at = self.index + ahead
        return self.tokens[at] if at < len(self.tokens) else None

    def _next(self) -> str:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def _expect(self, wanted: str) -> None:
        if self._next() != wanted:
            raise _Unreadable(f"expected {wanted!r}")


def _string_literal(token: str) -> str:
    body = token[1:-1]
    try:
        return json.loads(f'"{body}"') if token[0] == '"' else body.replace("\\'", "'")
    except ValueError:
        return body


def _union(options: list[dict[str, Any]]) -> dict[str, Any]:
    if len(options) == 1:
        return _enum_of_one(options[0])
    constants = [option["const"] for option in options if set(option) == {"const"}]
    if len(constants) == len(options):
        kinds = {type(value) for value in constants}
        if kinds == {str}:
            return {"type": "string", "enum": constants}
        return {"enum": constants}
    return {"anyOf": [_enum_of_one(option) for option in options]}


def _enum_of_one(schema: dict[str, Any]) -> dict[str, Any]:
    if set(schema) == {"const"} and isinstance(schema["const"], str):
        return {"type": "string", "enum": [schema["const"]]}
    return schema


def declared_tools(messages) -> dict:
    """The tool schemas that the developer and system messages of a transcript declare."""
    tools: dict = {}
    read: set[str] = set()  # long transcripts repeat the same declarations in every conversation
    for message in messages:
        if message.role not in ("developer", "system"):
            continue
        content = message.content
        if "namespace" in content and content not in read:
            read.add(content)
            tools.update(read_tool_namespaces(content))
    return tools
