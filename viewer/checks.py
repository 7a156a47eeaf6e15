"""Checks on the parsed model that every dialect shares: constraints, required channels, call schemas and
tool errors reported in replies."""
from __future__ import annotations

import json
from typing import Any, Iterator

import jsonschema

from viewer.model import Diagnostic, Message, Transcript

TOOL_ERROR_CODES = ("E-TOOL-TIMEOUT", "E-TOOL-CANCELLED")


def check(transcript: Transcript) -> list[Diagnostic]:
    """Diagnostics the model shows once every message is parsed."""
    required = _required_channels(transcript.header)
    validators = _validators(transcript.tools)
    found: list[Diagnostic] = []
    for message in transcript.messages:
        found.extend(_constraint(message))
        if required and not message.channel_explicit and message.role == "assistant":
            found.append(_diagnostic(message, "E-PARSE-CHANNEL-MISSING", "error",
                                     "The header's harmony profile requires a channel on every assistant message."))
        if message.is_call and message.recipient in validators:
            found.extend(_call_schema(message, validators[message.recipient]))
        if message.is_reply:
            found.extend(_tool_error(message))
    return found


def _diagnostic(message: Message, code: str, severity: str, text: str) -> Diagnostic:
    return Diagnostic(code=code, severity=severity, message=text, span=message.span, message_index=message.index)


def _constraint(message: Message) -> Iterator[Diagnostic]:
    if not message.constrained or (message.content_type or "").lower() != "json":
        return
    try:
        json.loads(message.content)
    except ValueError as error:
        yield _diagnostic(message, "E-BODY-CONSTRAINT-VIOLATION", "error",
                          f"The body is marked <|constrain|>json but is not valid JSON: {error}.")
    except RecursionError:
        yield _diagnostic(message, "E-BODY-CONSTRAINT-VIOLATION", "error",
                          "The body is marked <|constrain|>json but nests too deeply to read.")


def _required_channels(header: dict[str, Any]) -> bool:
    profiles = header.get("profiles")
    harmony = profiles.get("harmony") if isinstance(profiles, dict) else None
    if not isinstance(harmony, dict) or harmony.get("enabled") is False:
        return False
    return bool(harmony.get("require_channels"))


def _validators(tools: dict[str, Any]) -> dict[str, jsonschema.protocols.Validator]:
    validators = {}
    for name, schema in tools.items():
        if not isinstance(schema, dict):
            continue
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


def _call_schema(message: Message, validator: jsonschema.protocols.Validator) -> Iterator[Diagnostic]:
    arguments = _loads(message.content)
    if arguments is _NOT_JSON:
        yield _diagnostic(message, "E-CALL-SCHEMA", "error",
                          f"The arguments to {message.recipient} are not JSON.")
        return
    try:
        error = jsonschema.exceptions.best_match(validator.iter_errors(arguments))
    except RecursionError:
        error = None
    if error is not None:
        where = "/".join(str(part) for part in error.absolute_path) or "(top level)"
        yield _diagnostic(message, "E-CALL-SCHEMA", "error",
                          f"The arguments to {message.recipient} do not match its declared schema at {where}: "
                          f"{error.message}.")


_NOT_JSON = object()


def _loads(text: str) -> Any:
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return _NOT_JSON
    if isinstance(value, str):
        # Some producers JSON-encode a JSON document once more; read through one level of that.
        inner = _loads(value)
        return value if inner is _NOT_JSON else inner
    return value


def _tool_error(message: Message) -> Iterator[Diagnostic]:
    reply = _loads(message.content)
    if not isinstance(reply, dict):
        return
    code = _error_code(reply.get("error"))
    if code in TOOL_ERROR_CODES:
        yield _diagnostic(message, code, "error", f"The tool {message.name or ''} reported {code}.".replace("  ", " "))
    elif reply.get("ok") is False:
        yield _diagnostic(message, "W-TOOL-ERROR", "warning",
                          f"The tool {message.name or ''} reported a failure (ok: false).".replace("  ", " "))


def _error_code(error: Any) -> str | None:
    if isinstance(error, str):
        return error
    if isinstance(error, dict):
        code = error.get("code")
        return code if isinstance(code, str) else None
    return None
