"""Claude Code's screen (1.0 words, where 2.x words differ they are the older ones): each tool call a line, its
display name and main argument, the outcome under it (`⎿  Read 44 lines`).

| tool | line | outcome |
| --- | --- | --- |
| Read | `Read(src/a.py)` | `Read 44 lines` |
| Edit, MultiEdit | `Update(src/a.py)` | `Updated src/a.py with 1 addition and 1 removal` |
| Write | `Write(a.py)` | `Wrote 35 lines to a.py` |
| Bash | `Bash(npx vitest run)` | `Error: Exit code 1`, a test run's counts, `(No content)` |
| Grep, Glob | `Search(pattern: "x", path: "src")` | `Found 12 lines`, `Found 2 files` |
| WebFetch | `Fetch(https://…)` | `Received 412KB (200 OK)` |
| WebSearch | `Web Search("query")` | `Did 1 search` |
| Task, Agent | `Task(description)` | `Done (34 tool uses · 62.4k tokens · 2m 42s)` |
| TodoWrite | `Update Todos` | the list, `☒ done` / `☐ to do` |
| AskUserQuestion | `User answered Claude's questions:` | `· question → answer` |
| ExitPlanMode | `User approved Claude's plan:` | the plan |
| an MCP tool | `server - tool (MCP)(key: value)` | |

The numbers come from the reply and from the structured copy Claude Code keeps beside it on the same line
(`toolUseResult`: `numLines`, `structuredPatch`, `totalToolUseCount` …), read from the reply's source.
"""
from __future__ import annotations

import json
import re
from typing import Any

from viewer.policy.edits import FileEdit, Hunk, Replacement
from viewer.policy.said import Exchange, Said, bounded, cut
from viewer.policy.screens import common
from viewer.policy.screens.common import arguments, dict_of, list_of, plural, relative, text_of

INTERRUPTED = "Interrupted by user"
"""Claude Code's words under an interrupted call or prompt (1.0; 2.x: `Interrupted · What should Claude do
instead?`)."""
REJECTED = "The user doesn't want to proceed with this tool use."
"""How Claude Code's reply to a call the user declined (Esc, or "No" at a permission prompt) begins."""
TOLD = "the user said:\n"
"""What precedes the user's own words in such a reply when they told Claude what to do instead."""
_ANSWER = re.compile(r'"((?:[^"\\]|\\.)*)"\s*=\s*"((?:[^"\\]|\\.)*)"')
_NUMBERED = re.compile(r"^\s*\d+[→\t]")
_FOUND = re.compile(r"^Found (\d+) (files?|lines?|matches|match)\b", re.MULTILINE)
PATH_KEYS = ("file_path", "notebook_path", "path")


def said(exchange: Exchange) -> Said:
    """The line Claude Code's screen showed for this call."""
    tool = (exchange.call.recipient or "").removeprefix("functions.")
    values = arguments(exchange)
    result = recorded_result(exchange)
    if exchange.call.recipient and not exchange.call.recipient.startswith("functions."):
        return _settled(exchange, _mcp(exchange.call.recipient, values))
    wording = WORDINGS.get(tool)
    if wording is None:
        return _settled(exchange, Said(tool or "Tool", cut(common.first_of(values, ("description", *PATH_KEYS,
                                                                                    "command", "url", "query")))))
    return _settled(exchange, wording(exchange, values, result))


def recorded_result(exchange: Exchange) -> Any:
    """The `toolUseResult` Claude Code wrote on the reply's line, or None (a reply read from a block of a line
    that holds several, or a log without it)."""
    recorded = exchange.recorded.strip()
    if not recorded.startswith("{") or '"toolUseResult"' not in recorded:
        return None
    try:
        line = json.loads(recorded)
    except (ValueError, RecursionError):
        return None
    return line.get("toolUseResult") if isinstance(line, dict) else None


def _settled(exchange: Exchange, made: Said) -> Said:
    """The line with how the call ended: declined by the user (with their words), interrupted, failed, or
    never answered."""
    output = exchange.output
    if exchange.reply is None:
        status = "interrupted" if exchange.interrupted else "waiting"
        return made.but(status=status, outcome="Interrupted by user" if exchange.interrupted else made.outcome)
    if output.startswith(REJECTED):
        told = output.split(TOLD, 1)[1].strip() if TOLD in output else ""
        return made.but(status="rejected", outcome="Rejected by user" if made.kind == "call" else made.outcome,
                         items=made.items + ((f"The user said: {told}",) if told else ()))
    if exchange.failed and made.status == "done":
        return made.but(status="failed", outcome=made.outcome or "Error")
    return made


def _path(exchange: Exchange, values: dict[str, Any]) -> str:
    return relative(common.first_of(values, PATH_KEYS), exchange.cwd)


def _read(exchange: Exchange, values: dict[str, Any], result: Any) -> Said:
    counted = dict_of(dict_of(result).get("file")).get("numLines")
    if not isinstance(counted, int):  # a log without the count it recorded: the lines as numbered on screen
        counted = _numbered_lines(exchange.output) or common.lines_of(exchange.output)
    return Said("Read", cut(_path(exchange, values)), f"Read {plural(counted, 'line')}" if exchange.reply else "")


def _numbered_lines(output: str) -> int:
    """The lines of a Read's output that Claude Code numbered."""
    return sum(1 for line in output.splitlines() if _NUMBERED.match(line))


def _update(exchange: Exchange, values: dict[str, Any], result: Any) -> Said:
    path = _path(exchange, values)
    added, removed = _patch_counts(result)
    if added is None:
        added = removed = 0
        for replacement in replacements(values):
            more, fewer = common.changed_lines(replacement.old, replacement.new)
            added, removed = added + more, removed + fewer
    outcome = (f"Updated {path} with {plural(added, 'addition')} and {plural(removed or 0, 'removal')}"
               if exchange.reply is not None and not exchange.failed else "")
    return Said("Update", cut(path), "Error editing file" if exchange.failed else outcome)


def _write(exchange: Exchange, values: dict[str, Any], result: Any) -> Said:
    path = _path(exchange, values)
    lines = common.lines_of(text_of(values.get("content")))
    outcome = f"Wrote {plural(lines, 'line')} to {path}" if exchange.reply is not None and not exchange.failed else ""
    return Said("Write", cut(path), outcome)


def _bash(exchange: Exchange, values: dict[str, Any], result: Any) -> Said:
    command = cut(text_of(values.get("command")))
    if exchange.reply is None:
        return Said("Bash", command)
    output = exchange.output
    stdout = result.get("stdout") if isinstance(result, dict) and isinstance(result.get("stdout"), str) else None
    printed = output if stdout is None else stdout + "\n" + str(result.get("stderr") or "")
    words = []
    code = common.exit_code(output)
    if code not in (None, 0) or exchange.failed:
        words.append(f"Error: Exit code {code}" if code is not None else "Error")
    counts = common.test_counts(printed)
    if counts:
        words.append(common.tests_said(counts))
    elif not words:
        count = common.lines_of(printed.strip())
        words.append(f"{plural(count, 'line')} of output" if count else "(No content)")
    interrupted = isinstance(result, dict) and result.get("interrupted") is True
    return Said("Bash", command, " · ".join(words), "interrupted" if interrupted else
                "failed" if code not in (None, 0) or (counts.get("failed") or counts.get("errors")) else "done")


def _search(exchange: Exchange, values: dict[str, Any], result: Any) -> Said:
    parts = [f"{key}: {json.dumps(values[key], ensure_ascii=False)}" for key in ("pattern", "path", "glob", "type")
             if isinstance(values.get(key), str)]
    found = _FOUND.search(exchange.output)
    if isinstance(result, dict) and isinstance(result.get("numFiles"), int) and result.get("mode") != "content":
        outcome = f"Found {plural(result['numFiles'], 'file')}"
    elif found:
        noun = "line" if found.group(2).startswith("line") else "file" if found.group(2).startswith("file") else \
            "match"
        outcome = f"Found {plural(int(found.group(1)), noun, 'matches' if noun == 'match' else None)}"
    elif exchange.reply is not None:
        outcome = "No matches found" if "No " in exchange.output[:40] or not exchange.output.strip() else \
            f"Found {plural(common.lines_of(exchange.output.strip()), 'line')}"
    else:
        outcome = ""
    return Said("Search", cut(", ".join(parts)), outcome)


def _fetch(exchange: Exchange, values: dict[str, Any], result: Any) -> Said:
    outcome = ""
    if isinstance(result, dict) and isinstance(result.get("bytes"), int):
        size = f"{result['bytes'] / 1024:,.0f}KB"
        code = result.get("code")
        outcome = f"Received {size}" + (f" ({code} {text_of(result.get('codeText'))})".replace(" )", ")")
                                         if isinstance(code, int) else "")
    elif exchange.reply is not None and not exchange.failed:
        outcome = "Received"
    return Said("Fetch", cut(text_of(values.get("url"))), outcome)


def _web_search(exchange: Exchange, values: dict[str, Any], result: Any) -> Said:
    query = text_of(values.get("query"))
    return Said("Web Search", cut(json.dumps(query, ensure_ascii=False)) if query else "",
                "Did 1 search" if exchange.reply is not None and not exchange.failed else "")


def _task(exchange: Exchange, values: dict[str, Any], result: Any) -> Said:
    thread = exchange.thread
    title = common.first_of(values, ("description", "subagent_type")) or (thread.title if thread else "") or ""
    facts = []
    if isinstance(result, dict):
        for key, noun in (("totalToolUseCount", "tool use"), ("totalTokens", "token")):
            if isinstance(result.get(key), int):
                facts.append(_tokens(result[key]) if key == "totalTokens" else plural(result[key], noun))
        if isinstance(result.get("totalDurationMs"), int):
            facts.append(_duration(result["totalDurationMs"]))
    outcome = ("Done" + (f" ({' · '.join(facts)})" if facts else "")) if exchange.reply is not None else ""
    return Said("Task", cut(title), outcome, thread=thread.id if thread else None)


def _todos(exchange: Exchange, values: dict[str, Any], result: Any) -> Said:
    items = [("☒ " if todo.get("status") == "completed" else "☐ ") + text_of(todo.get("content"))
             for todo in list_of(values.get("todos")) if isinstance(todo, dict) and text_of(todo.get("content"))]
    return Said("Update Todos", kind="list", items=bounded(items))


def _questions(exchange: Exchange, values: dict[str, Any], result: Any) -> Said:
    asked = [text_of(question.get("question")) for question in list_of(values.get("questions"))
             if isinstance(question, dict)]
    answers = _answers(exchange.output, result)
    if exchange.reply is None or exchange.output.startswith(REJECTED):
        return Said("Claude asked the user:", kind="question", items=bounded([f"· {question}" for question in asked]),
                    outcome="Not answered" if exchange.reply is not None else "")
    items = [f"· {question} → {answers.get(question, '(no answer)')}" for question in asked if question]
    items += [f"· {question} → {answer}" for question, answer in answers.items() if question not in asked]
    return Said("User answered Claude's questions:", kind="question", items=bounded(items))


def _answers(output: str, result: Any) -> dict[str, str]:
    """Each question's answer: the structured copy's `answers`, else the reply's `"question"="answer"` pairs."""
    if isinstance(result, dict) and isinstance(result.get("answers"), dict):
        return {str(question): str(answer) for question, answer in result["answers"].items()}
    found: dict[str, str] = {}
    for question, answer in _ANSWER.findall(output):
        found[_unescaped(question)] = _unescaped(answer)
    return found


def _unescaped(text: str) -> str:
    try:
        return json.loads(f'"{text}"')
    except ValueError:
        return text


def _plan(exchange: Exchange, values: dict[str, Any], result: Any) -> Said:
    plan = text_of(values.get("plan"))
    if exchange.reply is None:
        return Said("Claude's plan, put to the user:", kind="plan", text=plan, status="waiting")
    if exchange.output.startswith(REJECTED) or exchange.failed:
        return Said("User rejected Claude's plan:", kind="plan", text=plan, status="rejected")
    return Said("User approved Claude's plan:", kind="plan", text=plan)


def _mcp(recipient: str, values: dict[str, Any]) -> Said:
    server, _, tool = recipient.partition(".")
    shown = ", ".join(f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in values.items())
    return Said(f"{server} - {tool} (MCP)", cut(shown))


def _tokens(count: int) -> str:
    return f"{count / 1000:,.1f}k tokens" if count >= 1000 else plural(count, "token")


def _duration(milliseconds: int) -> str:
    seconds = milliseconds / 1000
    if seconds < 60:
        return f"{seconds:.1f}s"
    return f"{int(seconds // 60)}m {seconds % 60:.1f}s"


def _patch_counts(result: Any) -> tuple[int | None, int | None]:
    patch = result.get("structuredPatch") if isinstance(result, dict) else None
    if not isinstance(patch, list) or not patch:
        return None, None
    lines = [line for hunk in patch if isinstance(hunk, dict) for line in hunk.get("lines") or []
             if isinstance(line, str)]
    return sum(1 for line in lines if line.startswith("+")), sum(1 for line in lines if line.startswith("-"))


WORDINGS = {"Read": _read, "Edit": _update, "MultiEdit": _update, "Write": _write, "Bash": _bash, "Grep": _search,
            "Glob": _search, "LS": _search, "WebFetch": _fetch, "WebSearch": _web_search, "Task": _task,
            "Agent": _task, "TodoWrite": _todos, "AskUserQuestion": _questions, "ExitPlanMode": _plan,
            "NotebookEdit": _update}
"""Claude Code's own tools, by the names its log gives them."""


# ---- edits, for the files-changed page ------------------------------------------------------------------------

def replacements(values: dict[str, Any]) -> list[Replacement]:
    """An Edit's or a MultiEdit's replacements, in order."""
    edits = list_of(values.get("edits")) if "edits" in values else [values]
    return [Replacement(text_of(edit.get("old_string")), text_of(edit.get("new_string")),
                        edit.get("replace_all") is True)
            for edit in edits if isinstance(edit, dict) and isinstance(edit.get("new_string"), str)]


def edits(exchange: Exchange) -> list[FileEdit]:
    """What the call changed (or read whole), with the log's own patch of it where it kept one."""
    tool = (exchange.call.recipient or "").removeprefix("functions.")
    values = arguments(exchange)
    path = relative(common.first_of(values, PATH_KEYS), exchange.cwd)
    if not path:
        return []
    result = recorded_result(exchange)
    record = result if isinstance(result, dict) else {}
    before = record.get("originalFile") if isinstance(record.get("originalFile"), str) else None
    hunks = _hunks(record.get("structuredPatch"))
    if tool in ("Edit", "MultiEdit"):
        return [FileEdit(path, "edit", replacements=tuple(replacements(values)), hunks=hunks, before=before)]
    if tool == "Write" and isinstance(values.get("content"), str):
        return [FileEdit(path, "create", content=values["content"], hunks=hunks, before=before)]
    if tool == "Read" and not exchange.failed and "offset" not in values and "limit" not in values:
        file = dict_of(record.get("file"))
        content = file.get("content") if isinstance(file.get("content"), str) else _numbered(exchange.output)
        whole = file.get("totalLines") in (None, file.get("numLines"))
        return [FileEdit(path, "read", content=content)] if content is not None and whole else []
    return []


def _hunks(patch: Any) -> tuple[Hunk, ...]:
    if not isinstance(patch, list):
        return ()
    return tuple(Hunk(tuple(line for line in hunk.get("lines") or [] if isinstance(line, str)),
                      hunk.get("oldStart") if isinstance(hunk.get("oldStart"), int) else None,
                      hunk.get("newStart") if isinstance(hunk.get("newStart"), int) else None)
                 for hunk in patch if isinstance(hunk, dict))


def _numbered(output: str) -> str | None:
    """A file's text from a Read's reply (`cat -n` lines, `     1→text`), when it is the whole file from its first
    line and the reply says nothing else."""
    lines = output.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    text = []
    for number, line in enumerate(lines, start=1):
        match = re.match(r"\s*(\d+)→(.*)", line, re.DOTALL)
        if match is None or int(match.group(1)) != number:
            return None
        text.append(match.group(2))
    return "".join(line + "\n" for line in text) if text else None
