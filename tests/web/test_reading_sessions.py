"""Reading an agent session (issue 42), through the web app: the default view tells which files changed, which
commands ran and whether the tests passed, with the user's interruption, the question asked and its answer and the
plan approved, never a call's full arguments or output; the files-changed page's diffs, applied in order, give the
files' final text; the debug view's header prices the session from its usage."""
from __future__ import annotations

import json
import re
from decimal import Decimal

from bs4 import BeautifulSoup

from tests.conftest import SAMPLES

CLAUDE = SAMPLES / "claude-code-2.0-edits-questions-plan.jsonl"
CODEX = SAMPLES / "codex-0.58-rollout-patches-tests-aborted.jsonl"


def _default_text(client, id: str) -> str:
    page = BeautifulSoup(client.get(f"/t/{id}").data, "html.parser")
    return " ".join(page.select_one("#transcript").get_text(" ").split())


def test_a_claude_code_session_s_default_view_says_what_its_screen_said(client, stranger, upload):
    id = upload(CLAUDE.read_bytes(), debug="allow")["id"]
    text = _default_text(stranger, id)
    for shown in ("Write ( src/total.ts )", "Wrote 4 lines to src/total.ts", "Bash ( npx vitest run )",
                  "1 failed, 1 passed", "Update ( src/total.ts )", "Updated src/total.ts with 1 addition and 1 removal",
                  "Update ( src/CartSummary.tsx )", "Error editing file", "Read ( src/CartSummary.tsx )",
                  "Read 6 lines", "Bash ( npm run build && npx vitest run )", "2 passed", "Update ( README.md )",
                  "Rejected by user", "Interrupted by user", "User answered Claude's questions:",
                  "How should an empty cart's total read? → $0.00", "User approved Claude's plan:",
                  "Add formatTotal in src/total.ts"):
        assert shown in text, shown
    # the calls' full arguments and outputs stay in the debug view
    for hidden in ("prices.reduce", "TypeError: Reduce of empty array", "File has not been read yet",
                   "Run the tests", "File created successfully", "RUN", "[build]", "An empty cart's total reads"):
        assert hidden not in text, hidden


def test_a_codex_rollout_s_default_view_says_what_its_screen_said(client, stranger, upload):
    id = upload(CODEX.read_bytes(), debug="allow")["id"]
    text = _default_text(stranger, id)
    for shown in ("Ran ls slugs tests", "Edited 2 files", "Added slugs/text.py (+5 -0)", "Ran python -m pytest -q --color=yes",
                  "exit code 1 · 1 failed, 1 passed", "Edited slugs/text.py", "+1 -1", "2 passed",
                  "slugs/text.py → slugs/slug.py", "Deleted tests/__init__.py", "Ran python -m pytest -q",
                  "Interrupted", "Conversation interrupted"):
        assert shown in text, shown
    for hidden in ("re.sub", "AssertionError", "test session starts", "hello-world", "Success. Updated"):
        assert hidden not in text, hidden


def test_the_default_view_s_json_and_markdown_carry_the_lines_alone(client, upload):
    id = upload(CLAUDE.read_bytes(), debug="allow")["id"]
    twin = client.get(f"/t/{id}.json").get_json()
    lines = [line for item in twin["messages"] if item["show_as"] == "marker" for line in item.get("lines", ())]
    assert {"tool": "Bash", "target": "npx vitest run", "outcome": "Error · 1 failed, 1 passed", "status": "failed",
            "kind": "call", "index": 9} in lines
    plan = next(line for line in lines if line["kind"] == "plan")
    assert plan["tool"] == "User approved Claude's plan:" and plan["text"].startswith("## Fix the empty cart total")
    dumped = json.dumps(twin) + client.get(f"/t/{id}.md").get_data(as_text=True)
    assert "prices.reduce" not in dumped and "TypeError" not in dumped and "\\u001b" not in dumped


def test_a_pasted_screenshot_and_its_question_are_one_message_the_picture_without_its_caption(client, upload):
    id = upload(CLAUDE.read_bytes(), debug="allow")["id"]
    page = BeautifulSoup(client.get(f"/t/{id}").data, "html.parser")
    first = page.select_one("#m-0")
    assert "The cart total shows NaN" in first.get_text() and first.select_one(".pictures img") is not None
    assert "sha256" not in first.select_one(".body").get_text()
    assert page.select_one("#m-1") is None or "image" not in page.select_one("#m-1").get_text()
    debug = BeautifulSoup(client.get(f"/t/{id}?view=debug").data, "html.parser")
    assert "sha256 d3e9a1bf5a63" in debug.select_one("#m-0 .body").get_text()


def test_tool_output_reads_as_the_terminal_showed_it_and_an_edit_as_a_diff(client, upload):
    id = upload(CLAUDE.read_bytes(), debug="allow")["id"]
    page = BeautifulSoup(client.get(f"/t/{id}?view=debug&at=21").data, "html.parser")
    output = page.select_one("#m-21 pre.terminal")
    assert output is not None and "\x1b" not in output.get_text()
    assert "[##########] 100%" in output.get_text() and "40%" not in output.get_text()  # the bar's last state
    assert output.select_one("span.term-fg6") is not None and output.select_one("span.term-bg6") is not None
    assert not page.select("[style]")
    edit = BeautifulSoup(client.get(f"/t/{id}?view=debug&at=12").data, "html.parser").select_one("#m-12")
    assert "Edited /home/ada/code/shop-ui/src/total.ts" in edit.select_one(".panel-diff").get_text()
    assert edit.select_one(".panel-diff .tok-gd") is not None and edit.select_one(".panel-diff .tok-gi") is not None
    failed = BeautifulSoup(client.get(f"/t/{id}?view=debug&at=10").data, "html.parser").select_one("#m-10")
    assert "tool-failed" in failed["class"]


def _apply(text: str, diff: str) -> str:
    """A unified diff's numbered hunks applied to `text`, as `patch` would, checking every context line."""
    lines = text.splitlines(keepends=True)
    result, at = [], 0
    hunks = re.split(r"^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@\n", diff, flags=re.MULTILINE)
    for start, body in zip(hunks[1::2], hunks[2::2]):
        begin = max(int(start) - 1, 0) if body.strip() else int(start)
        if begin == 0 and int(start) == 0:
            begin = 0
        result += lines[at:begin]
        at = begin
        for line in body.splitlines(keepends=True):
            mark, rest = line[:1], line[1:]
            if mark == "\\":
                result[-1] = result[-1].rstrip("\n")
                continue
            if mark in (" ", "-"):
                assert lines[at] == rest if rest.endswith("\n") else lines[at].rstrip("\n") == rest, (lines[at], rest)
                at += 1
            if mark in (" ", "+"):
                result.append(rest)
    return "".join(result + lines[at:])


def _steps(client, id: str) -> dict[str, list[tuple[str, str]]]:
    page = BeautifulSoup(client.get(f"/t/{id}/changes").data, "html.parser")
    found = {}
    for file in page.select(".change-file"):
        path = file.select_one(".diff-path").get_text()
        found[path] = [(step.select_one(".change-meta").get_text(" "),
                        step.select_one("pre").get_text() if step.select_one("pre") else "")
                       for step in file.select(".change-step")]
    return found


def _final(steps: list[tuple[str, str]], start: str = "") -> str:
    text = start
    for meta, diff in steps:
        if "not applied" not in meta:
            text = _apply(text, diff)
    return text


def test_the_files_changed_diffs_applied_in_order_give_the_files_final_text(client, upload):
    id = upload(CLAUDE.read_bytes(), debug="allow")["id"]
    steps = _steps(client, id)
    assert list(steps) == ["src/total.ts", "src/CartSummary.tsx", "README.md"]
    assert _final(steps["src/total.ts"]) == (
        "export function formatTotal(prices: number[]): string {\n"
        "  const total = prices.reduce((sum, price) => sum + price, 0);\n  return `$${total.toFixed(2)}`;\n}\n")
    before = ("import { formatTotal } from './total';\n\nexport function CartSummary({ prices }: { prices: number[] }) {\n"
              "  const total = prices.reduce((sum, price) => sum + price);\n"
              "  return <p className=\"total\">{`$${total.toFixed(2)}`}</p>;\n}\n")
    assert _final(steps["src/CartSummary.tsx"], before) == (
        "import { formatTotal } from './total';\n\nexport function CartSummary({ prices }: { prices: number[] }) {\n"
        "  return <p className=\"total\">{formatTotal(prices)}</p>;\n}\n")
    assert "failed" in steps["src/CartSummary.tsx"][0][0] and "rejected" in steps["README.md"][0][0]
    assert "#12" in steps["src/total.ts"][1][0]  # each step names the call that made it


def test_a_codex_rollout_s_patches_applied_in_order_give_the_files_final_text(client, upload):
    id = upload(CODEX.read_bytes(), debug="allow")["id"]
    steps = _steps(client, id)
    assert _final(steps["slugs/text.py"]) == (
        'import re\n\n__all__ = ["slugify"]\n\n\ndef slugify(title):\n'
        '    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")\n')
    assert "slugs/slug.py" in steps["slugs/text.py"][-1][0]
    assert _final(steps["tests/test_text.py"]).startswith("from slugs.slug import slugify\n")
    assert "tests/__init__.py" in steps


def test_the_files_changed_page_has_the_debug_view_s_access_rule(client, stranger, owned):
    id = owned(CLAUDE.read_bytes())  # the debug view the uploader's, not shared
    assert stranger.get(f"/t/{id}/changes").status_code == 403
    assert client.get(f"/t/{id}/changes").status_code == 200
    assert "Files changed" not in stranger.get(f"/t/{id}").get_data(as_text=True)
    assert "Files changed" not in client.get(f"/t/{id}.md").get_data(as_text=True)
    debug_md = client.get(f"/t/{id}.md?view=debug").get_data(as_text=True)
    debug_html = client.get(f"/t/{id}.html?view=debug").get_data(as_text=True)
    assert "## Files changed" in debug_md and "Files changed" in debug_html and "change-file" in debug_html


SONNET_45 = {"input": Decimal(3), "cache_read": Decimal("0.30"), "cache_write": Decimal("3.75"), "output": Decimal(15)}
"""Claude Sonnet 4.5's prices in dollars per million tokens, as genai-prices' table states them (under 200,000
input tokens a request)."""


def test_the_debug_header_prices_a_claude_code_session_as_a_hand_computation_does(client, upload):
    id = upload(CLAUDE.read_bytes(), debug="allow")["id"]
    usages = []
    for line in CLAUDE.read_text().splitlines():  # each response's last line holds its final usage
        value = json.loads(line)
        if value["type"] == "assistant":
            usage = value["message"]["usage"]
            usages = [item for item in usages if item[0] != value["message"]["id"]] + [(value["message"]["id"], usage)]
    total = sum((SONNET_45["input"] * usage["input_tokens"] + SONNET_45["cache_read"] * usage["cache_read_input_tokens"]
                 + SONNET_45["cache_write"] * usage["cache_creation_input_tokens"] + SONNET_45["output"] * usage["output_tokens"])
                / 1_000_000 for _, usage in usages)
    page = BeautifulSoup(client.get(f"/t/{id}?view=debug").data, "html.parser")
    header = page.select_one(".costs summary").get_text()
    assert f"${total:,.4f}" in header, (total, header)
    assert "genai-prices 0.2.3" in header
    fields = {dt.get_text(): dd.get_text() for dt, dd in zip(page.select("#m-3 dt"), page.select("#m-3 dd"))}
    assert fields["price"].startswith("$") and "cache read" in fields["price"]


def test_an_unknown_model_is_said_plainly_never_priced_as_zero(client, upload):
    text = CLAUDE.read_text().replace("claude-sonnet-4-5-20250929", "claude-imaginary-9")
    id = upload(text.encode(), debug="allow")["id"]
    page = BeautifulSoup(client.get(f"/t/{id}?view=debug").data, "html.parser")
    costs = page.select_one(".costs").get_text(" ")
    assert "unknown model claude-imaginary-9" in costs and "$0.0000" not in costs


def test_pricing_fetches_nothing(monkeypatch):
    import socket

    from viewer.model import Usage
    from viewer.present import costs

    def refused(*args, **kwargs):
        raise AssertionError("pricing opened a network connection")
    monkeypatch.setattr(socket, "socket", refused)
    monkeypatch.setattr(socket, "create_connection", refused)
    found = costs.price(Usage(input=1_000, output=500, cache_read=2_000, cache_write=300),
                        "claude-sonnet-4-5-20250929", "2025-10-21T14:00:00Z")
    assert found.priced is not None and found.priced.total == Decimal("0.012225")
    assert (found.priced.input, found.priced.cache_read, found.priced.cache_write, found.priced.output) == (
        Decimal("0.003"), Decimal("0.0006"), Decimal("0.001125"), Decimal("0.0075"))


def test_a_secret_in_a_command_is_masked_in_its_line_for_link_holders(client, stranger, upload):
    token = "ghp_" + "x7Qa9Lm2Ke4Rt6Yu8Io0Pz1Xc3Vb5Nm7As9Df"
    text = CLAUDE.read_text().replace("npm run build && npx vitest run", f"GITHUB_TOKEN={token} npm run build")
    id = upload(text.encode(), debug="allow")["id"]
    shown = _default_text(stranger, id) + stranger.get(f"/t/{id}.json").get_data(as_text=True)
    assert "npm run build" in shown and token not in shown and token[:12] not in shown
