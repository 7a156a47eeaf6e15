"""The line for the agents whose screens were not looked up one by one (Gemini CLI, OpenCode, Cline and its forks,
Copilot, Goose, Crush, Cursor, Kimi, pi, OpenHands, SWE-agent …): the tool as the log names it and its main
argument, read by the names these agents give their arguments (a file's `path`, `file_path`, `filePath`; a
`command`; a `url`; a `query` or `pattern`; a sub-agent's `description`), and an outcome read as numbers (an
exit code, a test run's counts, lines added and removed). What no name says stays out: a call shows its tool
alone rather than an argument that could be anything.

Edits are read the same way: `old_string`/`new_string` and their spellings, a whole file's `content`, a
search-and-replace `diff`, an `apply_patch` envelope."""
from __future__ import annotations

from typing import Any

from viewer.policy.edits import FileEdit, Hunk, Replacement
from viewer.policy.said import Exchange, Said, cut
from viewer.policy.screens import common
from viewer.policy.screens.common import arguments, relative, text_of
from viewer.policy.screens.patches import is_patch, read_patch, search_replace_blocks

PATH_KEYS = ("file_path", "filePath", "absolute_path", "AbsolutePath", "TargetFile", "target_file", "path",
             "notebook_path", "file")
COMMAND_KEYS = ("command", "cmd", "CommandLine", "commands")
TARGET_KEYS = ("url", "query", "q", "pattern", "description", "objective", "intent")
OLD_KEYS = ("old_string", "old_str", "oldString", "oldText", "TargetContent")
NEW_KEYS = ("new_string", "new_str", "newString", "newText", "ReplacementContent")
CONTENT_KEYS = ("content", "file_text", "CodeContent")


def said(exchange: Exchange) -> Said:
    recipient = exchange.call.recipient or "tool"
    tool = recipient.removeprefix("functions.")
    values = arguments(exchange)
    path = relative(common.first_of(values, PATH_KEYS), exchange.cwd)
    command = "" if path and text_of(values.get("command")) in EDITOR_COMMANDS else _command(values)
    if not values and not command and _runs_commands(tool) and not is_patch(exchange.call.content):
        command = exchange.call.content  # a shell tool given its command as the whole body
    target = command or path or common.first_of(values, TARGET_KEYS)
    if not target and exchange.thread is not None and exchange.thread.title:
        target = exchange.thread.title
    patch = exchange.call.content if not values else text_of(values.get("input"))
    if is_patch(patch):
        files = read_patch(patch)
        target = files[0].path if len(files) == 1 else f"{len(files):,} files" if files else ""
    outcome, status = _outcome(exchange, values, bool(command) or _runs_commands(tool))
    return Said(tool, cut(target), outcome, status, thread=exchange.thread.id if exchange.thread else None)


EDITOR_COMMANDS = ("view", "create", "str_replace", "insert", "undo_edit", "write", "append")
"""What an editor tool's `command` names (SWE-agent's and OpenHands' `str_replace_editor`, Goose's
`text_editor`): an action on its `path`, not a command run."""
SHELL_WORDS = ("bash", "shell", "terminal", "command", "exec")


def _runs_commands(tool: str) -> bool:
    """A tool whose name says it runs commands (`bash`, `run_shell_command`, `execute_command`)."""
    name = tool.rsplit(".", 1)[-1].lower()
    return any(word in name for word in SHELL_WORDS)


def _command(values: dict[str, Any]) -> str:
    for key in COMMAND_KEYS:
        text = common.command_text(values.get(key))
        if text:
            return text
        if isinstance(values.get(key), list) and values[key] and isinstance(values[key][0], str):
            return " && ".join(word for word in values[key] if isinstance(word, str))
    return ""


def _outcome(exchange: Exchange, values: dict[str, Any], ran: bool) -> tuple[str, Any]:
    if exchange.reply is None:
        return ("Interrupted", "interrupted") if exchange.interrupted else ("", "waiting")
    words = []
    code = common.exit_code(exchange.output) if ran else None
    if code not in (None, 0):
        words.append(f"exit code {code}")
    counts = common.test_counts(common.command_output(exchange.output)) if ran else {}
    if counts:
        words.append(common.tests_said(counts))
    change = _counted_change(values, exchange.call.content)
    if change is not None:
        words.append(f"+{change[0]} -{change[1]}")
    failed = exchange.failed or code not in (None, 0) or bool(counts.get("failed") or counts.get("errors"))
    if failed and not words:
        words.append("failed")
    return " · ".join(words), "failed" if failed else "done"


def _counted_change(values: dict[str, Any], content: str) -> tuple[int, int] | None:
    made = replacements(values, content)
    if made:
        counted = [common.changed_lines(replacement.old, replacement.new) for replacement in made]
        return sum(added for added, _ in counted), sum(removed for _, removed in counted)
    return None


def replacements(values: dict[str, Any], content: str = "") -> list[Replacement]:
    """A search-and-replace edit's pairs: named arguments (several in a list of `edits`), or the blocks of a
    `diff`."""
    if isinstance(values.get("edits"), list):
        return [made for edit in values["edits"] if isinstance(edit, dict) for made in replacements(edit)]
    old, new = common.first_of(values, OLD_KEYS), None
    for key in NEW_KEYS:
        if isinstance(values.get(key), str):
            new = values[key]
            break
    if new is not None and (old or any(isinstance(values.get(key), str) for key in OLD_KEYS)):
        return [Replacement(old, new, values.get("replace_all") is True or values.get("replaceAll") is True)]
    diff = text_of(values.get("diff"))
    return [Replacement(search, replace) for search, replace in search_replace_blocks(diff)] if diff else []


def edits(exchange: Exchange) -> list[FileEdit]:
    """What the call changed, read by the arguments' names."""
    values = arguments(exchange)
    content = exchange.call.content if not values else text_of(values.get("input")) or text_of(values.get("patch"))
    if is_patch(content):
        return [FileEdit(relative(patch.path, exchange.cwd), patch.action,
                         content=patch.content if patch.action == "create" else None,
                         hunks=tuple(Hunk(tuple(hunk)) for hunk in patch.hunks) if patch.action == "edit" else ())
                for patch in read_patch(content)]
    path = relative(common.first_of(values, PATH_KEYS), exchange.cwd)
    if not path:
        return []
    made = replacements(values)
    if made:
        return [FileEdit(path, "edit", replacements=tuple(made))]
    command = text_of(values.get("command"))
    written = common.first_of(values, CONTENT_KEYS)
    if written and command in ("", "create", "write"):
        return [FileEdit(path, "create", content=written)]
    return []

