"""Checks on the parsed model that every dialect shares: constraints, required channels, call schemas and
tool errors reported in replies.

This runs on every message of every upload, so it is written for speed: one plain loop, each body read as JSON
at most once (by jsontext.loads, json.loads five times faster), and the full schema report only built for
arguments that fail validation.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from viewer.analysis.jsontext import loads
from viewer.analysis.pairing import is_assistant_call
from viewer.model import Diagnostic, Message, Transcript, make_diagnostic

if TYPE_CHECKING:
    import jsonschema

TOOL_ERROR_CODES = ("E-TOOL-TIMEOUT", "E-TOOL-CANCELLED")

_NOT_JSON = object()
"""What `_read_json` returns for a body that is not JSON."""


def check(transcript: Transcript) -> list[Diagnostic]:
    """Diagnostics the model shows once every message is parsed."""
    required = _required_channels(transcript.header)
    validators = _validators(transcript.tools)
    found: list[Diagnostic] = []
    add = found.append
    problems: dict[tuple[str, str], str | None] = {}
    for message in transcript.messages:
        role = message.role
        if (role != "tool" and not message.constrained
                and (role != "assistant" or not required and not is_assistant_call(message))):
            continue  # most messages: nothing below applies to them
        is_call = role == "assistant" and is_assistant_call(message)
        recipient = message.recipient
        validator = validators.get(recipient) if is_call and recipient is not None else None
        wants_json = validator is not None or role == "tool"
        value: Any = _NOT_JSON
        if message.constrained and (message.content_type or "").lower() == "json":
            value, problem = _constraint(message.content)
            if problem is not None:
                add(_diagnostic(message, "E-BODY-CONSTRAINT-VIOLATION", problem))
        elif wants_json:
            value = _read_json(message.content)
        if wants_json and isinstance(value, str):
            value = _unwrap(value)
        if required and role == "assistant" and not message.channel_explicit:
            add(_diagnostic(message, "E-PARSE-CHANNEL-MISSING"))
        if validator is not None and recipient is not None:  # a validator is found by the recipient
            problem = _call_problem_once(recipient, message.content, value, validator, problems)
            if problem is not None:
                add(_diagnostic(message, "E-CALL-SCHEMA", problem))
        elif role == "tool" and isinstance(value, dict):
            diagnostic = _tool_error(message, value)
            if diagnostic is not None:
                add(diagnostic)
    return found


def _diagnostic(message: Message, code: str, text: str | None = None) -> Diagnostic:
    return make_diagnostic(code, message.span, text, message.index)


def _constraint(content: str) -> tuple[Any, str | None]:
    """A `<|constrain|>json` body's value and what is wrong with it, if anything."""
    try:
        return loads(content), None
    except ValueError as error:
        return _NOT_JSON, f"The body is marked <|constrain|>json but is not valid JSON: {error}."
    except RecursionError:
        return _NOT_JSON, "The body is marked <|constrain|>json but nests too deeply to read."


def _read_json(text: str) -> Any:
    try:
        return loads(text)
    except (ValueError, RecursionError):
        return _NOT_JSON


def _unwrap(value: str) -> Any:
    """Some producers JSON-encode a JSON document once more; read through one level of that."""
    inner = _read_json(value)
    if isinstance(inner, str):
        inner = _unwrap(inner)
    return value if inner is _NOT_JSON else inner


def _required_channels(header: dict[str, Any]) -> bool:
    profiles = header.get("profiles")
    harmony = profiles.get("harmony") if isinstance(profiles, dict) else None
    if not isinstance(harmony, dict) or harmony.get("enabled") is False:
        return False
    return bool(harmony.get("require_channels"))


def _validators(tools: dict[str, Any]) -> dict[str, jsonschema.protocols.Validator]:
    schemas = {name: schema for name, schema in tools.items() if isinstance(schema, dict)}
    if not schemas:
        return {}
    # Imported here, where a schema is checked, not with the module: most transcripts declare no tool, and
    # jsonschema (with its referencing and format checkers) was a twentieth of a second of every command's start.
    import jsonschema

    validators = {}
    for name, schema in schemas.items():
        schema = _without_patterns(schema)
        try:
            cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
            cls.check_schema(schema)
        except (jsonschema.SchemaError, RecursionError, TypeError):
            continue
        validators[name] = cls(schema)
    return validators


def _without_patterns(schema: Any) -> Any:
    """Drop regex keywords: a hostile transcript could declare a pattern that backtracks for ever."""
    if isinstance(schema, dict):
        return {key: _without_patterns(value) for key, value in schema.items()
                if key not in ("pattern", "patternProperties")}
    if isinstance(schema, list):
        return [_without_patterns(item) for item in schema]
    return schema


_REMEMBERED_CALLS = 10_000
"""How many distinct short calls `_call_problem_once` remembers per transcript."""
_REMEMBERED_LENGTH = 1024
"""The longest arguments it remembers (longer ones are rarely repeated word for word)."""


def _call_problem_once(tool: str, content: str, arguments: Any, validator: jsonschema.protocols.Validator,
                       problems: dict[tuple[str, str], str | None]) -> str | None:
    """`_call_problem`, asked once per distinct short call: agents repeat calls word for word (polling, the same
    lookup), and validating a call took more than everything else this module does."""
    if len(content) > _REMEMBERED_LENGTH:
        return _call_problem(tool, arguments, validator)
    key = (tool, content)
    if key in problems:
        return problems[key]
    problem = _call_problem(tool, arguments, validator)
    if len(problems) < _REMEMBERED_CALLS:
        problems[key] = problem
    return problem


def _call_problem(tool: str, arguments: Any, validator: jsonschema.protocols.Validator) -> str | None:
    """Why a call's arguments break the tool's schema, or None when they fit."""
    if arguments is _NOT_JSON:
        return f"The arguments to {tool} are not JSON."
    try:
        if validator.is_valid(arguments):  # most calls: skip building and ranking every error
            return None
        from jsonschema.exceptions import best_match  # loaded by _validators, which made `validator`

        error = best_match(validator.iter_errors(arguments))
    except RecursionError:
        return None
    if error is None:
        return None
    where = "/".join(str(part) for part in error.absolute_path) or "(top level)"
    return f"The arguments to {tool} do not match its declared schema at {where}: {error.message}."


def _tool_error(message: Message, reply: dict[str, Any]) -> Diagnostic | None:
    code = _error_code(reply.get("error"))
    tool = f"The tool {message.name} " if message.name else "The tool "
    if code in TOOL_ERROR_CODES:
        return _diagnostic(message, code, f"{tool}reported {code}.")
    if reply.get("ok") is False:
        return _diagnostic(message, "W-TOOL-ERROR", f"{tool}reported a failure (ok: false).")
    return None


def _error_code(error: Any) -> str | None:
    if isinstance(error, str):
        return error
    if isinstance(error, dict):
        code = error.get("code")
        return code if isinstance(code, str) else None
    return None
