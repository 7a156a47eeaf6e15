"""Codex's screen (its TUI's history cells): `• Ran <command>` with the exit code when it failed, `• Edited
<path> (+1 -1)` (`Added`, `Deleted`, `Edited 2 files`), `• Searched <query>`, `• Updated Plan` with its steps
(`✔` done, `□` to do), `• Called server.tool(arguments)`; an interruption is `■ Conversation interrupted`.

Its rollouts write a command's exit code in the reply's `metadata` (`{"output", "metadata": {"exit_code"}}`), or as
`Process exited with code N` (newer `exec_command`); `codex exec` streams a patch as the files it changed
(`{"changes": [{"path", "kind"}]}`)."""
from __future__ import annotations

import json
from typing import Any

from viewer.policy.edits import FileEdit, Hunk
from viewer.policy.said import Exchange, Said, bounded, cut
from viewer.policy.screens import common
from viewer.policy.screens.common import arguments, dict_of, list_of, relative, text_of
from viewer.policy.screens.patches import FilePatch, is_patch, read_patch

INTERRUPTED = "Conversation interrupted - tell the model what to do differently"
"""Codex's words when the user interrupts a turn (`■ Conversation interrupted …`)."""
SHELLS = ("shell", "exec_command", "local_shell", "container.exec", "shell_command")
KINDS = {"add": "Added", "create": "Added", "delete": "Deleted", "update": "Edited"}


def said(exchange: Exchange) -> Said:
    tool = (exchange.call.recipient or "").removeprefix("functions.")
    values = arguments(exchange)
    if tool in SHELLS:
        made = _ran(exchange, values)
    elif tool == "apply_patch":
        made = _patched(exchange, values)
    elif tool == "web_search":
        action = dict_of(values.get("action"))
        made = Said("Searched", cut(text_of(action.get("query")) or text_of(values.get("query"))))
    elif tool == "update_plan":
        made = _plan(values)
    elif tool in ("spawn_agent", "wait_agent"):
        made = _agent(exchange, tool, values)
    else:
        shown = json.dumps(values, ensure_ascii=False, separators=(",", ":")) if values else ""
        made = Said("Called", cut(f"{exchange.call.recipient or tool}({shown})"))
    made = made.but(bare=True)
    if exchange.reply is None and exchange.interrupted:
        return made.but(outcome="Interrupted", status="interrupted")
    if exchange.failed and made.status == "done":
        return made.but(outcome=made.outcome or "Error", status="failed")
    return made


def _ran(exchange: Exchange, values: dict[str, Any]) -> Said:
    command = cut(common.command_text(values.get("command")) or text_of(values.get("cmd")))
    if exchange.reply is None:
        return Said("Ran", command)
    output = exchange.output
    code = common.exit_code(output)
    printed = common.command_output(output)
    words = []
    if code not in (None, 0):
        words.append(f"exit code {code}")
    counts = common.test_counts(printed)
    if counts:
        words.append(common.tests_said(counts))
    elif not words:
        printed_lines = common.lines_of(_without_preamble(printed).strip())
        words.append(f"{common.plural(printed_lines, 'line')} of output" if printed_lines else "(no output)")
    failed = code not in (None, 0) or bool(counts.get("failed") or counts.get("errors"))
    return Said("Ran", command, " · ".join(words), "failed" if failed or exchange.failed else "done")


def _without_preamble(printed: str) -> str:
    """An `exec_command` reply's output after its header lines (`Chunk ID`, `Wall time`, `Process exited…`)."""
    head, marker, rest = printed.partition("\nOutput:\n")
    return rest if marker and "Process exited" in head else printed


def _patched(exchange: Exchange, values: dict[str, Any]) -> Said:
    files = patch_files(exchange.call.content, values)
    if not files:
        changes = list_of(values.get("changes"))
        named = [(KINDS.get(text_of(change.get("kind")), "Edited"), text_of(change.get("path")))
                 for change in changes if isinstance(change, dict) and text_of(change.get("path"))]
        if len(named) == 1:
            return Said(named[0][0], cut(relative(named[0][1], exchange.cwd)))
        return Said("Edited", f"{len(named):,} files" if named else "",
                    items=bounded([f"{verb} {relative(path, exchange.cwd)}" for verb, path in named]))
    added, removed = sum(patch.added for patch in files), sum(patch.removed for patch in files)
    if len(files) == 1:
        patch = files[0]
        verb = KINDS.get(patch.action if patch.action != "edit" else "update", "Edited")
        target = relative(patch.path, exchange.cwd) + (f" → {patch.moved_to}" if patch.moved_to else "")
        return Said(verb, cut(target), f"+{added} -{removed}")
    items = [_file_item(patch, exchange.cwd) for patch in files]
    return Said("Edited", f"{len(files):,} files", f"+{added} -{removed}", items=bounded(items))


def _file_item(patch: FilePatch, cwd: str | None) -> str:
    """One file of a patch of several, as the TUI lists it under `Edited N files`."""
    verb = {"create": "Added ", "delete": "Deleted "}.get(patch.action, "")
    moved = f" → {relative(patch.moved_to, cwd)}" if patch.moved_to else ""
    return f"{verb}{relative(patch.path, cwd)}{moved} (+{patch.added} -{patch.removed})"


def patch_files(content: str, values: dict[str, Any]) -> list[FilePatch]:
    """The files of the call's patch: its text as the call's body (a custom tool call) or its `input`."""
    text = content if is_patch(content) else text_of(values.get("input")) or text_of(values.get("patch"))
    return read_patch(text)


def _plan(values: dict[str, Any]) -> Said:
    steps = list_of(values.get("plan"))
    items = [("✔ " if step.get("status") == "completed" else "□ ") + text_of(step.get("step"))
             for step in steps if isinstance(step, dict) and text_of(step.get("step"))]
    return Said("Updated Plan", kind="list", items=bounded(items))


def _agent(exchange: Exchange, tool: str, values: dict[str, Any]) -> Said:
    thread = exchange.thread
    if tool == "wait_agent":
        return Said("Waited for agents", outcome="Done" if exchange.reply is not None else "")
    name = (thread.title if thread and thread.title else "") or text_of(values.get("agent_type")) or "agent"
    return Said("Spawned", cut(name), "Done" if exchange.reply is not None else "",
                thread=thread.id if thread else None)


def edits(exchange: Exchange) -> list[FileEdit]:
    """The files a patch changed, each with its hunks (placed by their context)."""
    tool = (exchange.call.recipient or "").removeprefix("functions.")
    if tool != "apply_patch":
        return []
    found = []
    for patch in patch_files(exchange.call.content, arguments(exchange)):
        path = relative(patch.path, exchange.cwd)
        moved = relative(patch.moved_to, exchange.cwd) if patch.moved_to else None
        if patch.action == "create":
            found.append(FileEdit(path, "create", content=patch.content))
        elif patch.action == "delete":
            found.append(FileEdit(path, "delete"))
        else:
            found.append(FileEdit(path, "edit", hunks=tuple(Hunk(tuple(hunk)) for hunk in patch.hunks),
                                  moved_to=moved))
    return found
