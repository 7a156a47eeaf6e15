"""A deterministic text-heavy Claude Code session of any size, for the memory and peer benchmarks: what most of
an agent session's bytes are, written as Claude Code 1.0 writes them.

A project of generated Python modules, and tasks on it. Each task is a user's request, then responses of one
block per line sharing `message.id` (thinking with its signature, a preamble, one tool call; the answer at the
end), and the tools' results as `user` lines with the structured copy Claude Code keeps beside them in
`toolUseResult`:

- Read: the file numbered (`     1→…`) in the `tool_result`, and again as written in `toolUseResult.file.content`
  (with `filePath`, `numLines`, `startLine`, `totalLines`);
- Edit: the `cat -n` snippet in the `tool_result`; `toolUseResult` holds `filePath`, `oldString`, `newString`,
  the whole file before the edit (`originalFile`), the `structuredPatch` hunks, `userModified`, `replaceAll`;
- Bash: test runs and diffs, the output in the `tool_result` and again as `stdout` / `stderr` / `interrupted` /
  `isImage`;
- Grep: matching lines, `toolUseResult` with `mode`, `numFiles`, `filenames`, `content`, `numLines`.

Every line is chained by `parentUuid`; an edit changes the module, so later reads show it.

    from tests.harness.workday import workday_lines
    for line in workday_lines(megabytes=100): ...
"""
from __future__ import annotations

import json
import random
from collections.abc import Iterator

SESSION = "3e1f7c52-9a4b-4d06-8c1e-5b7d2a9f0e64"
CWD = "/home/ada/code/ledger"
VERSION = "1.0.98"
MODEL = "claude-sonnet-4-20250514"
NAMES = ("account balance ledger entry posting journal currency amount rate period report total invoice payment "
         "customer vendor tax discount schedule batch export import record status cache index parser value "
         "window budget").split()
VERBS = "load save parse check build apply merge split round format compute render fetch close open post".split()
WORDS = ("the a this that it we then when if so because rounding order test fails passes value total entry "
         "balance wrong right first last before after each every one two three line file function call returns "
         "expected actual off by cent currency missing extra branch case").split()


class _Project:
    """The modules of the project, as they are after the edits so far."""

    def __init__(self, pick: random.Random) -> None:
        self.pick = pick
        self.files = {f"{CWD}/ledger/{name}.py": self._module(name) for name in pick.sample(NAMES, 14)}

    def _module(self, name: str) -> list[str]:
        pick = self.pick
        lines = [f'"""The {name} of a ledger: {" ".join(pick.choices(WORDS, k=8))}."""',
                 "from __future__ import annotations", "", "from decimal import Decimal, ROUND_HALF_UP", ""]
        for _ in range(pick.randint(6, 40)):
            verb, noun = pick.choice(VERBS), pick.choice(NAMES)
            lines += [f"def {verb}_{noun}({noun}: Decimal, {pick.choice(NAMES)}: int = {pick.randint(0, 99)}) -> "
                      f"Decimal:", f'    """{" ".join(pick.choices(WORDS, k=pick.randint(5, 14))).capitalize()}."""']
            for _ in range(pick.randint(2, 9)):
                lines.append(f"    {pick.choice(NAMES)} = {noun} * Decimal(\"{pick.randint(1, 999)}.{pick.randint(0, 99):02d}\")"
                             if pick.random() < 0.5 else
                             f"    if {noun} > {pick.randint(0, 1000)}:  # {' '.join(pick.choices(WORDS, k=4))}")
            lines += [f"    return {noun}.quantize(Decimal(\"0.01\"), rounding=ROUND_HALF_UP)", "", ""]
        return lines


def numbered(lines: list[str], start: int = 1) -> str:
    """Lines as Claude Code's Read shows them to the model: the number right-aligned in six, an arrow, the line."""
    return "\n".join(f"{number:>6}→{line}" for number, line in enumerate(lines, start=start))


class _Writer:
    def __init__(self) -> None:
        self.count = 0
        self.parent: str | None = None
        self.seconds = 0

    def line(self, kind: str, message: dict, **extra) -> str:
        self.count += 1
        self.seconds += 2
        uuid = f"{self.count:08x}-7c1d-4e2a-9b3f-{self.count * 7919 % 16 ** 12:012x}"
        seconds = self.seconds
        value = {"parentUuid": self.parent, "isSidechain": False, "userType": "external", "cwd": CWD,
                 "sessionId": SESSION, "version": VERSION, "gitBranch": "main", "type": kind, "message": message,
                 "uuid": uuid, "timestamp": f"2025-09-{14 + seconds // 86400 % 14:02d}T{seconds // 3600 % 24:02d}:"
                                            f"{seconds // 60 % 60:02d}:{seconds % 60:02d}.{self.count % 1000:03d}Z",
                 **extra}
        self.parent = uuid
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n"


class _Session:
    def __init__(self, seed: int) -> None:
        self.pick = random.Random(seed)
        self.project = _Project(self.pick)
        self.writer = _Writer()
        self.responses = 0
        self.calls = 0

    def sentence(self, low: int = 6, high: int = 16) -> str:
        return " ".join(self.pick.choices(WORDS, k=self.pick.randint(low, high))).capitalize() + "."

    def paragraph(self, low: int, high: int) -> str:
        return " ".join(self.sentence() for _ in range(self.pick.randint(low, high)))

    def task(self) -> Iterator[str]:
        path = self.pick.choice(sorted(self.project.files))
        test = f"{CWD}/tests/test_{path.rsplit('/', 1)[1]}"
        yield self.writer.line("user", {"role": "user", "content": f"{self.sentence()} Fix `{path.rsplit('/', 1)[1]}`"
                                                                   f" so that {test.rsplit('/', 1)[1]} passes."})
        yield from self.response([self.thinking(), self.text(self.sentence(5, 10))],
                                 self.call("Read", {"file_path": path}), self.read_result(path))
        yield from self.response([self.thinking()], self.call("Bash", {
            "command": f"python -m pytest {test} -q", "description": "Run the failing tests"}), self.test_run(test, False))
        for _ in range(self.pick.randint(1, 2)):
            yield from self.response([self.thinking(), self.text(self.sentence(5, 10))], *self.edit(path))
        if self.pick.random() < 0.4:
            word = self.pick.choice(NAMES)
            yield from self.response([self.thinking()], self.call("Grep", {"pattern": word, "path": CWD,
                                                                          "output_mode": "content"}),
                                     self.grep_result(word))
        yield from self.response([], self.call("Bash", {"command": f"python -m pytest {test} -q",
                                                        "description": "Run the tests again"}),
                                 self.test_run(test, True))
        yield from self.response([self.thinking(), self.text(self.answer(path))], None, None)

    def thinking(self) -> dict:
        return {"type": "thinking", "thinking": self.paragraph(2, 12),
                "signature": f"Eq{self.pick.getrandbits(256):064x}{self.responses:06d}"}

    @staticmethod
    def text(text: str) -> dict:
        return {"type": "text", "text": text}

    def answer(self, path: str) -> str:
        return (f"Fixed `{path.rsplit('/', 1)[1]}`:\n\n- {self.sentence()}\n- {self.sentence()}\n\n"
                f"{self.paragraph(1, 4)}\n\n```python\n{self.pick.choice(self.project.files[path])}\n```")

    def call(self, name: str, arguments: dict) -> dict:
        self.calls += 1
        return {"type": "tool_use", "id": f"toolu_01{self.calls:022d}", "name": name, "input": arguments}

    def response(self, blocks: list[dict], call: dict | None, result: tuple[str | list, object] | None) -> Iterator[str]:
        """One API response, a line per block, then the call's result."""
        self.responses += 1
        written = [*blocks, call] if call is not None else blocks
        output = 0
        for at, block in enumerate(written):
            output += len(json.dumps(block)) // 4
            last = at == len(written) - 1
            usage = {"input_tokens": 4, "cache_creation_input_tokens": self.pick.randint(100, 4000),
                     "cache_read_input_tokens": 12000 + 37 * self.responses, "output_tokens": output,
                     "service_tier": "standard"}
            stop = ("tool_use" if call is not None else "end_turn") if last else None
            yield self.writer.line("assistant", {"id": f"msg_01{self.responses:022d}", "type": "message",
                                                 "role": "assistant", "model": MODEL, "content": [block],
                                                 "stop_reason": stop, "stop_sequence": None, "usage": usage},
                                   requestId=f"req_011C{self.responses:020d}")
        if call is not None and result is not None:
            content, structured = result
            block = {"tool_use_id": call["id"], "type": "tool_result", "content": content}
            yield self.writer.line("user", {"role": "user", "content": [block]}, toolUseResult=structured)

    def read_result(self, path: str) -> tuple[str, dict]:
        lines = self.project.files[path]
        return numbered(lines), {"type": "text", "file": {"filePath": path, "content": "\n".join(lines),
                                                          "numLines": len(lines), "startLine": 1,
                                                          "totalLines": len(lines)}}

    def edit(self, path: str) -> tuple[dict, tuple[str, dict]]:
        lines = self.project.files[path]
        original = "\n".join(lines)
        start = self.pick.randrange(5, max(6, len(lines) - 8))
        count = self.pick.randint(1, 6)
        old = lines[start:start + count]
        new = [line.replace("ROUND_HALF_UP", "ROUND_HALF_EVEN") if "ROUND" in line else line + "  # checked"
               for line in old] + [f"    # {self.sentence(4, 9)}"]
        self.project.files[path] = lines[:start] + new + lines[start + count:]
        call = self.call("Edit", {"file_path": path, "old_string": "\n".join(old), "new_string": "\n".join(new)})
        after = self.project.files[path]
        shown_from = max(0, start - 4)
        snippet = after[shown_from:start + len(new) + 4]
        said = (f"The file {path} has been updated. Here's the result of running `cat -n` on a snippet of the edited "
                f"file:\n{numbered(snippet, shown_from + 1)}")
        context_before, context_after = lines[max(0, start - 3):start], lines[start + count:start + count + 3]
        hunk = {"oldStart": max(1, start - 2), "oldLines": len(context_before) + count + len(context_after),
                "newStart": max(1, start - 2), "newLines": len(context_before) + len(new) + len(context_after),
                "lines": [*(" " + line for line in context_before), *("-" + line for line in old),
                          *("+" + line for line in new), *(" " + line for line in context_after)]}
        return call, (said, {"filePath": path, "oldString": "\n".join(old), "newString": "\n".join(new),
                             "originalFile": original, "structuredPatch": [hunk], "userModified": False,
                             "replaceAll": False})

    def test_run(self, test: str, passing: bool) -> tuple[str, dict]:
        count = self.pick.randint(8, 60)
        dots = "".join("." if passing or self.pick.random() < 0.8 else "F" for _ in range(count))
        out = [f"{dots:<72} [100%]"]
        if not passing:
            for number in range(dots.count("F")):
                out += ["", f"___ test_{self.pick.choice(VERBS)}_{self.pick.choice(NAMES)}_{number} ___", "",
                        *(f"    {self.pick.choice(NAMES)} = {self.pick.choice(VERBS)}_{self.pick.choice(NAMES)}"
                          f"(Decimal(\"{self.pick.randint(1, 999)}.{self.pick.randint(0, 99):02d}\"))"
                          for _ in range(self.pick.randint(3, 12))),
                        f">       assert total == Decimal(\"{self.pick.randint(1, 999)}.{self.pick.randint(0, 99):02d}\")",
                        f"E       AssertionError: {self.sentence(4, 8)}", "", f"{test}:{self.pick.randint(5, 400)}: "
                                                                                f"AssertionError"]
        failed = dots.count("F")
        out.append(f"{count - failed} passed" + (f", {failed} failed" if failed else "") +
                   f" in {self.pick.randint(1, 900) / 100:.2f}s")
        stdout = "\n".join(out)
        return stdout, {"stdout": stdout, "stderr": "", "interrupted": False, "isImage": False}

    def grep_result(self, word: str) -> tuple[str, dict]:
        found = [(path, number, line) for path, lines in sorted(self.project.files.items())
                 for number, line in enumerate(lines, start=1) if word in line][:250]
        content = "\n".join(f"{path}:{number}:{line}" for path, number, line in found)
        files = sorted({path for path, _, _ in found})
        return content or "No matches found", {"mode": "content", "numFiles": len(files), "filenames": files,
                                               "content": content, "numLines": len(found)}


def workday_lines(megabytes: float = 0, seed: int = 11) -> Iterator[str]:
    """The lines (each ending in a line break) of a session of at least `megabytes` (10⁶ bytes of UTF-8), made
    as they are asked for: a file of any size is written without holding it."""
    session = _Session(seed)
    size = 0
    while size < megabytes * 1_000_000 or size == 0:
        for line in session.task():
            size += len(line.encode())
            yield line


def workday(megabytes: float = 0, seed: int = 11) -> str:
    """A session of at least `megabytes`, as one text."""
    return "".join(workday_lines(megabytes, seed))
