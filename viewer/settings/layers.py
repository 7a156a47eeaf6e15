"""The app's configuration in layers, each setting remembering where its value came from: the defaults, then a
TOML file (`CONFIG_FILE`), then the environment (`VIEWER_<NAME>`), then the caller's overrides. `check-config`
prints the result, so an operator sees which layer won."""
from __future__ import annotations

import json
import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from viewer.settings.declared import SECRET_SETTINGS, SETTINGS, defaults

PREFIX = "VIEWER_"
DEFAULT_FILE_NAME = "viewer.toml"


class ConfigError(Exception):
    """A configuration file that cannot be read or names no known setting."""


@dataclass(frozen=True, slots=True)
class Layered:
    """Every setting's value and, by name, where it came from (`default`, `file <path>`, `environment`,
    `argument`)."""

    values: dict[str, Any]
    sources: dict[str, str]


def load(instance_path: str, overrides: Mapping[str, Any] | None = None,
         environ: Mapping[str, str] | None = None) -> Layered:
    environ = os.environ if environ is None else environ
    overrides = dict(overrides or {})
    values, sources = defaults(), {setting.name: "default" for setting in SETTINGS}
    environment = _from_environment(environ)
    path = _config_file(instance_path, overrides.get("CONFIG_FILE") or environment.get("CONFIG_FILE"))
    for layer, source in ((_from_file(path) if path else {}, f"file {path}"), (environment, "environment"),
                          (overrides, "argument")):
        values.update(layer)
        sources.update({name: source for name in layer})
    return Layered(values, sources)


def _from_environment(environ: Mapping[str, str]) -> dict[str, Any]:
    # As Flask's from_prefixed_env: a value that parses as JSON is that JSON (`VIEWER_PORT=8080` is a number).
    found = {}
    for key, text in environ.items():
        if key.startswith(PREFIX):
            try:
                found[key.removeprefix(PREFIX)] = json.loads(text)
            except ValueError:
                found[key.removeprefix(PREFIX)] = text
    return found


def _config_file(instance_path: str, named: str | None) -> Path | None:
    if named:
        return Path(named)
    default = Path(instance_path) / DEFAULT_FILE_NAME
    return default if default.is_file() else None


def _from_file(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"cannot read the configuration file {path}: {error}") from None
    known = {setting.name for setting in SETTINGS}
    values = {key.upper(): value for key, value in data.items()}
    unknown = sorted(set(values) - known)
    if unknown:
        raise ConfigError(f"{path} names no setting called {', '.join(unknown)}")
    return values


def shown(name: str, value: Any) -> str:
    """A setting's value as `check-config` prints it: secrets hidden, a database URL without its password."""
    if name in SECRET_SETTINGS:
        return "(set, hidden)" if value else "(not set)"
    if name == "DATABASE" and isinstance(value, str) and "://" in value:
        # Imported here, for `check-config` alone: the settings are read by the command line's `render` too.
        from sqlalchemy.engine import make_url
        from sqlalchemy.exc import ArgumentError

        try:
            return make_url(value).render_as_string(hide_password=True)
        except ArgumentError:
            return "(not a valid URL)"
    if value == "":
        return "(empty)"
    return json.dumps(value) if not isinstance(value, str) else value
