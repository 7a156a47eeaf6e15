"""What every agent's screen module reads of a call and its reply: its arguments as JSON, a path made relative to
the session's folder, and the few facts an outcome says (an exit code, a test run's counts, lines, additions and
removals), each read as numbers, so that no text of a reply reaches the default view through an outcome."""
from __future__ import annotations

import difflib
import json
import re
from typing import Any

from viewer.policy.said import Exchange

_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]")
SCANNED_LINES = 60
"""A run's counts are looked for in its output's last lines (where every test runner writes its summary)."""


def arguments(exchange: Exchange) -> dict[str, Any]:
    """The call's arguments as a JSON object; {} when they are not one."""
    return json_object(exchange.call.content)


def json_object(text: str) -> dict[str, Any]:
    stripped = text.strip()
    if not stripped.startswith("{"):
        return {}
    try:
        value = json.loads(stripped)
    except (ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}


def list_of(value: Any) -> list[Any]:
    """A list argument, or [] for anything else."""
    return value if isinstance(value, list) else []


def dict_of(value: Any) -> dict[str, Any]:
    """An object argument, or {} for anything else."""
    return value if isinstance(value, dict) else {}


def text_of(value: Any) -> str:
    """A string argument, or "" for anything else."""
    return value if isinstance(value, str) else ""


def relative(path: str, cwd: str | None) -> str:
    """A path under the session's folder written relative to it, as the agents' screens write it."""
    if cwd and path.startswith(cwd.rstrip("/") + "/"):
        return path[len(cwd.rstrip("/")) + 1:]
    return path


def plain(text: str) -> str:
    """Output without its terminal escapes (colours, cursor moves), for reading counts."""
    return _ANSI.sub("", text)


def last_lines(text: str, count: int = SCANNED_LINES) -> list[str]:
    lines = plain(text).replace("\r", "\n").splitlines()
    return lines[-count:]


_EXIT_WORDS = re.compile(r"(?:^|\n)\s*(?:Error: )?(?:Exit code|Process exited with code|exit code:?|exit status)\s+(-?\d+)",
                         re.IGNORECASE)
_EXIT_KEYS = ("exit_code", "exitCode", "returncode", "return_code", "exit_status")


def exit_code(output: str) -> int | None:
    """The exit code a reply states: in a JSON reply's `metadata` or top level (`exit_code`, `exitCode`), or in
    words (`Exit code 1`, `Process exited with code 0`)."""
    value = json_object(output)
    for holder in (value.get("metadata"), value):
        if isinstance(holder, dict):
            for key in _EXIT_KEYS:
                code = holder.get(key)
                if isinstance(code, int) and not isinstance(code, bool):
                    return code
    found = _EXIT_WORDS.search(output[:2000])
    return int(found.group(1)) if found else None


def command_output(output: str) -> str:
    """What a command printed: a JSON reply's `output` (Codex), else the reply as written."""
    value = json_object(output)
    printed = value.get("output") if isinstance(value.get("output"), str) else None
    for key in ("stdout", "aggregated_output"):
        if printed is None and isinstance(value.get(key), str):
            printed = value[key]
    return printed if printed is not None else output


_COUNT = re.compile(r"\b(\d+)\s+(passed|passing|failed|failing|skipped|pending|errors?|xfailed|xpassed)\b",
                    re.IGNORECASE)
_TAP = re.compile(r"^#\s*(pass|fail|skipped)\s+(\d+)\s*$", re.IGNORECASE)
_GO = re.compile(r"^(ok|FAIL)\s+\S+")
WORDS = {"passing": "passed", "failing": "failed", "pending": "skipped", "error": "errors", "xfailed": "xfailed",
         "xpassed": "xpassed", "pass": "passed", "fail": "failed"}
ORDER = ("failed", "errors", "passed", "skipped", "xfailed", "xpassed")


def test_counts(output: str) -> dict[str, int]:
    """A test run's counts from its summary line (pytest, vitest, Jest, Mocha, cargo test, node's TAP, go test),
    the last such line of the output; {} when it has none."""
    lines = last_lines(output)
    for line in reversed(lines):
        found = _COUNT.findall(line)
        if found and any(word.lower() in ("passed", "passing", "failed", "failing") for _, word in found):
            counts: dict[str, int] = {}
            for number, word in found:
                name = WORDS.get(word.lower(), word.lower())
                counts.setdefault(name, int(number))
            return counts
    tap = {WORDS.get(match.group(1).lower(), "skipped"): int(match.group(2))
           for line in lines if (match := _TAP.match(line.strip()))}
    if "passed" in tap or "failed" in tap:
        return tap
    packages = [match.group(1) for line in lines if (match := _GO.match(line))]
    if packages:
        return {"failed": packages.count("FAIL"), "passed": packages.count("ok")}
    return {}


def tests_said(counts: dict[str, int]) -> str:
    """`1 failed, 12 passed` (the counts a run states, failures first)."""
    named = [f"{counts[name]:,} {name}" for name in ORDER if name in counts and (counts[name] or name == "passed")]
    return ", ".join(named)


def lines_of(text: str) -> int:
    return len(text.splitlines())


def plural(count: int, noun: str, many: str | None = None) -> str:
    return f"{count:,} {noun if count == 1 else (many or noun + 's')}"


def changed_lines(old: str, new: str) -> tuple[int, int]:
    """Lines added and removed to turn `old` into `new`."""
    added = removed = 0
    for line in difflib.ndiff(old.splitlines(), new.splitlines()):
        if line.startswith("+ "):
            added += 1
        elif line.startswith("- "):
            removed += 1
    return added, removed


def first_of(values: dict[str, Any], keys: tuple[str, ...]) -> str:
    """The first of these arguments that is a non-blank string."""
    for key in keys:
        value = values.get(key)
        if isinstance(value, str) and value.strip():
            return value
    return ""


def command_text(value: Any) -> str:
    """A command as a person reads it: a string as written; a list of words joined, `bash -lc X` read as X."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(word, str) for word in value):
        if len(value) >= 3 and value[0].rsplit("/", 1)[-1] in ("bash", "sh", "zsh") and value[1] in ("-lc", "-c"):
            return value[2]
        return " ".join(_quoted(word) for word in value)
    return ""


def _quoted(word: str) -> str:
    return word if word and re.fullmatch(r"[\w@%+=:,./-]+", word) else json.dumps(word, ensure_ascii=False)
