"""A deterministic Antigravity CLI transcript of any size (`~/.gemini/antigravity-cli/brain/<conversation>/
.system_generated/logs/transcript.jsonl`), for the tests of a transcript read a piece at a time and for the memory
benchmark: written in the shape of sample_transcripts/antigravity-*.jsonl, one step a line, `{step_index, source,
type, status, created_at, content?}`.

Tasks: the user's `USER_INPUT` (the request inside `<USER_REQUEST>`, the `<ADDITIONAL_METADATA>` the agent
appends, now and then a `<USER_SETTINGS_CHANGE>` naming the model chosen), the `SYSTEM` steps without content
around it (`CONVERSATION_HISTORY`, `KNOWLEDGE_ARTIFACTS`) and now and then an `EPHEMERAL_MESSAGE`; then the model's
`PLANNER_RESPONSE` steps: thinking now and then, a preamble, `tool_calls` without ids whose argument values are
JSON text (`view_file`, `grep_search`, `run_command`, `replace_file_content`, `write_to_file`), `usage`; each
followed by the result steps that answer its calls in order (`VIEW_FILE`, `GREP_SEARCH`, `RUN_COMMAND`,
`CODE_ACTION`: file reads and test runs, most of the bytes, each opening with its `Created At` / `Completed At`
lines; now and then one `ERROR` or `CANCELLED`); the answer. Every few tasks a `CHECKPOINT` summary, a
`SYSTEM_MESSAGE` the user sent while the agent worked, a response that names its model, or a step from a source of
a later version (shown hidden, W-JSON-UNKNOWN-ITEM), so that a small transcript has each.

    from tests.harness.antigravity_session import antigravity_lines
    for line in antigravity_lines(megabytes=100): ...
"""
from __future__ import annotations

import json
import random
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

from tests.harness.workday import NAMES, VERBS, WORDS

WORKSPACE = "/home/ana/src/ledger"
MODELS = ("Gemini 3.5 Flash (High)", "Gemini 3 Pro (High)", "Claude Sonnet 4.5 (Thinking)")


class _Writer:
    """The transcript's steps, numbered in order, each stamped a little after the one before."""

    def __init__(self, pick: random.Random) -> None:
        self.pick = pick
        self.now = datetime(2026, 8, 3, 18, 2, 40, tzinfo=timezone.utc)
        self.step = 0
        self.model = MODELS[0]

    def stamp(self, seconds: int = 3) -> str:
        self.now += timedelta(seconds=self.pick.randint(0, seconds))
        return self.now.strftime("%Y-%m-%dT%H:%M:%SZ")

    def line(self, source: str, kind: str, status: str = "DONE", **members) -> str:
        value = {"step_index": self.step, "source": source, "type": kind, "status": status,
                 "created_at": self.stamp(), **members}
        self.step += 1
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False) + "\n"

    def words(self, low: int, high: int) -> str:
        return " ".join(self.pick.choices(WORDS, k=self.pick.randint(low, high)))


def _arguments(**values) -> dict[str, str]:
    """A call's arguments as Antigravity writes them: each value JSON text."""
    return {key: json.dumps(value) for key, value in values.items()}


def _module(write: _Writer, name: str) -> list[str]:
    """A Python module of the project, a line a string."""
    pick = write.pick
    lines = [f'"""The {name} of a ledger: {write.words(6, 10)}."""', "from decimal import Decimal", ""]
    for _ in range(pick.randint(4, 20)):
        noun = pick.choice(NAMES)
        lines += [f"def {pick.choice(VERBS)}_{noun}({noun}: Decimal) -> Decimal:",
                  f'    """{write.words(5, 14).capitalize()}."""',
                  *(f"    {pick.choice(NAMES)} = {noun} * Decimal(\"{pick.randint(1, 999)}.{pick.randint(0, 99):02d}\")"
                    for _ in range(pick.randint(2, 8))),
                  f"    return {noun}", ""]
    return lines


def _tests_run(write: _Writer, passing: bool) -> str:
    """What `python -m pytest -q` printed."""
    pick = write.pick
    count = pick.randint(4, 60)
    failed = 0 if passing else pick.randint(1, 3)
    lines = [f"tests/test_{pick.choice(NAMES)}.py {'.' * pick.randint(1, 12)}" for _ in range(pick.randint(3, 10))]
    for _ in range(failed):
        noun = pick.choice(NAMES)
        lines += ["", f"___ test_{noun}_{pick.choice(NAMES)} ___",
                  f"    assert {noun}(Decimal(\"0.125\")) == Decimal(\"0.13\")",
                  f"E   AssertionError: {write.words(4, 9)}"]
    lines.append(f"{count - failed} passed" + (f", {failed} failed" if failed else "") + " in 0.4s")
    return "\n".join(lines)


def _call(write: _Writer, files: list[str]) -> tuple[dict, str, str]:
    """A call as a response lists it, the type of the step that answers it and what that step says."""
    pick = write.pick
    path = pick.choice(files)
    way = pick.random()
    if way < 0.4:
        lines = _module(write, path.rsplit("/", 1)[-1][:-3])
        shown = "\n".join(f"{number}: {text}" for number, text in enumerate(lines, start=1))
        return ({"name": "view_file", "args": _arguments(AbsolutePath=path, toolAction="Reading module",
                                                         toolSummary=f"View {path.rsplit('/', 1)[-1]}")},
                "VIEW_FILE", f"File Path: `file://{path}`\nTotal Lines: {len(lines)}\n"
                             f"Showing lines 1 to {len(lines)}\n{shown}\n")
    if way < 0.5:
        noun = pick.choice(NAMES)
        found = "\n".join(f"{pick.choice(files)}:{pick.randint(1, 300)}: def {pick.choice(VERBS)}_{noun}({noun}):"
                          for _ in range(pick.randint(1, 12)))
        return ({"name": "grep_search", "args": _arguments(SearchPath=WORKSPACE, Query=f"def .*_{noun}",
                                                           IsRegex=True, MatchPerLine=True)},
                "GREP_SEARCH", f"Found matches:\n{found}\n")
    if way < 0.75:
        passing = pick.random() < 0.6
        output = "\n".join("\t\t\t\t" + line for line in _tests_run(write, passing).splitlines())
        how = "The command completed successfully." if passing else "The command failed with exit code: 1"
        return ({"name": "default_api:run_command",
                 "args": _arguments(CommandLine="python -m pytest -q", Cwd=WORKSPACE, WaitMsBeforeAsync=5000,
                                    SafeToAutoRun=True, toolAction="Running tests", toolSummary="Run the tests")},
                "RUN_COMMAND", f"\n\t\t\t\t{how}\n\t\t\t\tOutput:\n{output}\n")
    if way < 0.92:
        noun = pick.choice(NAMES)
        line = pick.randint(1, 300)
        old, new = f"    return {noun}", f"    return {noun}.quantize(Decimal(\"0.01\"))"
        return ({"name": "default_api:replace_file_content",
                 "args": _arguments(TargetFile=path, StartLine=line, EndLine=line, TargetContent=old,
                                    ReplacementContent=new, Instruction=f"Round the {noun}",
                                    toolAction="Editing module", toolSummary=f"Round {noun}")},
                "CODE_ACTION", f"The following changes were made by the replace_file_content tool to: {path}\n"
                               f"[diff_block_start]\n@@ -{line},1 +{line},1 @@\n-{old}\n+{new}\n[diff_block_end]")
    lines = _module(write, path.rsplit("/", 1)[-1][:-3])
    return ({"name": "write_to_file", "args": _arguments(TargetFile=path, CodeContent="\n".join(lines),
                                                         Overwrite=True, toolAction="Writing module",
                                                         toolSummary="Rewrite module")},
            "CODE_ACTION", f"Created file {path} with requested content.\n[diff_block_start]\n"
                           f"@@ -0,0 +1,{len(lines)} @@\n" + "\n".join(f"+{text}" for text in lines)
                           + "\n[diff_block_end]")


def _usage(write: _Writer) -> dict:
    pick = write.pick
    cached = pick.randint(0, 40000)
    return {"input_tokens": cached + pick.randint(200, 20000), "output_tokens": pick.randint(20, 900),
            "cached_content_token_count": cached}


def _response(write: _Writer, files: list[str], number: int) -> Iterator[str]:
    """One `PLANNER_RESPONSE` with its calls, then the result steps that answer them in order."""
    pick = write.pick
    members: dict = {}
    if pick.random() < 0.5:
        members["content"] = f"I will {pick.choice(VERBS)} the {pick.choice(NAMES)} {write.words(3, 10)}."
    if pick.random() < 0.4:
        members["thinking"] = f"**{pick.choice(VERBS).capitalize()} the {pick.choice(NAMES)}**\n\n" \
                              f"{write.words(10, 50)}.\n\n\n"
    calls = [_call(write, files) for _ in range(pick.randint(1, 3))]
    members["tool_calls"] = [call for call, _, _ in calls]
    if number % 6 == 4:
        members["model"] = write.model
    members["usage"] = _usage(write)
    yield write.line("MODEL", "PLANNER_RESPONSE", **members)
    for _, kind, said in calls:
        made = write.stamp()
        done = write.stamp()
        way = pick.random()
        status = "ERROR" if way < 0.03 else "CANCELLED" if way < 0.05 else "DONE"
        yield write.line("MODEL", kind, status, content=f"Created At: {made}\nCompleted At: {done}\n{said}")


def _request(write: _Writer, number: int, files: list[str]) -> str:
    pick = write.pick
    typed = f"Task {number}: {pick.choice(VERBS)} the {pick.choice(NAMES)} in {pick.choice(files)}; " \
            f"{write.words(6, 30)}."
    local = (write.now + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M:%S+02:00")
    text = f"<USER_REQUEST>\n{typed}\n</USER_REQUEST>\n<ADDITIONAL_METADATA>\nThe current local time is: {local}.\n" \
           "</ADDITIONAL_METADATA>"
    if number == 1 or number % 6 == 0:
        chosen = MODELS[(number // 6) % len(MODELS)]
        text += f"\n<USER_SETTINGS_CHANGE>\nThe user changed setting `Model Selection` from " \
                f"{'None' if number == 1 else write.model} to {chosen}. No need to comment on this change if the " \
                "user doesn't ask about it.\n</USER_SETTINGS_CHANGE>"
        write.model = chosen
    return text


def _task(write: _Writer, number: int, files: list[str]) -> Iterator[str]:
    pick = write.pick
    yield write.line("USER_EXPLICIT", "USER_INPUT", content=_request(write, number, files))
    yield write.line("SYSTEM", "CONVERSATION_HISTORY")
    if number == 1:
        yield write.line("SYSTEM", "KNOWLEDGE_ARTIFACTS")
    if number % 3 == 1:
        yield write.line("SYSTEM", "EPHEMERAL_MESSAGE", content=f"<EPHEMERAL_MESSAGE>\nThe workspace is a git "
                                                                f"repository at {WORKSPACE}. {write.words(4, 20)}.\n"
                                                                "</EPHEMERAL_MESSAGE>")
    for step in range(pick.randint(1, 6)):
        yield from _response(write, files, number + step)
        if number % 3 == 2 and step == 0:  # sent with `agy send-message` while the agent ran
            yield write.line("SYSTEM", "SYSTEM_MESSAGE", content=f"<SYSTEM_MESSAGE>\n[Message] from=user content="
                                                                f"also {write.words(3, 12)}\n</SYSTEM_MESSAGE>")
    yield write.line("MODEL", "PLANNER_RESPONSE", content=f"Done: {write.words(10, 50)}.", usage=_usage(write))
    if number % 4 == 3:
        yield write.line("SYSTEM", "CHECKPOINT", content=f"{{{{ CHECKPOINT {number // 4} }}}}\n**The earlier parts of "
                                                         f"this conversation were summarized.** {write.words(20, 80)}.")
    if number % 5 == 4:  # a step from a source of a later version
        yield write.line("USER_IMPLICIT", "BROWSER_STATE", content=f"Open tab: http://localhost:8000/{number}")


def antigravity_lines(megabytes: float, seed: int = 1) -> Iterator[str]:
    """A transcript's lines, until they hold at least `megabytes` MB (`float("inf")`: without end)."""
    pick = random.Random(seed)
    write = _Writer(pick)
    files = [f"{WORKSPACE}/ledger/{name}.py" for name in pick.sample(NAMES, 12)]
    size, number = 0, 0
    while size < megabytes * 1_000_000:
        number += 1
        for line in _task(write, number, files):
            size += len(line.encode())
            yield line


def antigravity_session(megabytes: float, seed: int = 1) -> str:
    """A whole transcript of at least `megabytes` MB."""
    return "".join(antigravity_lines(megabytes, seed))
