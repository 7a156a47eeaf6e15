"""Every page passes axe-core's WCAG 2.0/2.1 A and AA rules and its best practices, in the light and in the dark
colour scheme, with the samples real producers wrote (agent sessions, a chat app's export with versions, an
evaluation log); the debug views of agent sessions, whose code blocks are wider than a phone, at a phone's width too.

axe-core comes from node_modules (package.json pins it; `npm ci` installs it, nothing is downloaded here). The
pages' CSP (`script-src 'self'`) forbids inline scripts, so axe is run through `page.evaluate`, which the CSP
does not govern, rather than `add_script_tag`. Without axe-core the tests are skipped, or failed in CI, as the
other browser tests are without Chromium."""
from __future__ import annotations

import json
import re
import urllib.request
from dataclasses import dataclass
from typing import Any, Callable, Iterator

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from tests.conftest import ROOT, SAMPLES, missing
from tests.secrets.canaries import canaries
from tests.web.conftest import WEATHER
from viewer.ingest.samples import sample_id

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
SCHEMES = ["light", "dark"]

RICH = sample_id(SAMPLES / "harmony-gpt-oss-weather.txt")  # every channel, prompts, tool calls, a warning
FAILING = sample_id(SAMPLES / "openchatml-22-fixture-4-tool-timeout.txt")  # an error diagnostic, a timed-out call
THOUGHTS = sample_id(SAMPLES / "chatml-ext-thought-structure.txt")  # thought blocks as labelled panels
FILL_IN = sample_id(SAMPLES / "chatml-0.1-fim.txt")  # fill-in-the-middle parts as labelled panels
DATASET = sample_id(SAMPLES / "json-dataset-finetune.jsonl")
EXPORT = sample_id(SAMPLES / "chatgpt-export-branches-tools-memory.json")  # titles, an edit, a regeneration
CLAUDE_CODE = sample_id(SAMPLES / "claude-code-1.0-bugfix-mcp.jsonl")  # tool calls with JSON, an image, thinking
SUB_AGENTS = sample_id(SAMPLES / "claude-code-1.0-task-sidechain.jsonl")  # a sub-agent's thread, nested
CODEX = sample_id(SAMPLES / "codex-0.46-rollout-shell-and-patch.jsonl")  # shell output, a patch
HARMONY_SHAPES = sample_id(SAMPLES / "harmony-header-shapes.txt")
EVALUATION = sample_id(SAMPLES / "inspect-arithmetic.eval")  # an Inspect AI log: three samples, scored
GRADED = sample_id(SAMPLES / "json-inspect-log-model-graded.json")  # one sample graded by a model


@dataclass
class Site:
    url: str
    app: Flask

    def upload(self, *, debug: bool, raw: bytes | None = None) -> dict[str, str]:
        """Upload through the API (no owner cookie: the browser is a link holder); returns id, url, manage_url."""
        request = urllib.request.Request(f"{self.url}/api/transcripts?debug={'allow' if debug else 'deny'}",
                                         data=raw or WEATHER.read_bytes(), method="POST")
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The app with every sample preloaded (so the home page lists them, and samples open at stable ids)."""
    from tests.harness.loopback import serving
    from viewer.web import create_app

    database = tmp_path_factory.mktemp("accessibility") / "viewer.sqlite3"
    app = create_app({"DATABASE": str(database), "SECRET_KEY": "accessibility", "SAMPLES_DIR": str(SAMPLES),
                      "LIMITS": False})
    with serving(app) as httpd:
        yield Site(f"http://127.0.0.1:{httpd.server_port}", app)
    app.extensions["viewer.store"].engine.dispose()


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        missing(f"the accessibility tests need axe-core at {AXE.relative_to(ROOT)}: run 'npm ci'")
    return AXE.read_text(encoding="utf-8")


# ---- the pages: each opens one page as a reader would reach it, and waits until it is ready ----

def _open(path: str, status: int = 200) -> Callable[[Page, Site], None]:
    def go(page: Page, site: Site) -> None:
        response = page.goto(site.url + path)
        assert response is not None and response.status == status, (path, response and response.status)
    return go


def _search_panel(page: Page, site: Site) -> None:
    page.goto(f"{site.url}/t/{RICH}")
    page.fill("nav.toolbar input[type=search]", "Porto")
    page.press("nav.toolbar input[type=search]", "Enter")
    expect(page.locator("#search-results .search-hit").first).to_be_visible()
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1  # the panel, not the page


def _fresh_upload(page: Page, site: Site) -> None:
    """The page the uploader lands on: the default view with the manage link shown once."""
    page.goto(site.url + "/")
    page.set_input_files("input[name=file]", str(WEATHER))
    page.click("form.upload button[type=submit]")
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]{22}$"))


def _manage(page: Page, site: Site) -> None:
    page.goto(site.upload(debug=False)["manage_url"])
    page.wait_for_url(re.compile(r"/manage$"))
    expect(page.locator("h1")).to_be_visible()


def _manage_with_secrets(page: Page, site: Site) -> None:
    """The manage page listing the secrets found, then the uploader's debug view that shows them."""
    secrets = " and ".join(canary.text for canary in canaries(seed=2)[:6])
    page.goto(site.upload(debug=True, raw=f"<|start|>user<|message|>{secrets}<|end|>".encode())["manage_url"])
    page.wait_for_url(re.compile(r"/manage$"))
    expect(page.locator("table.findings tbody tr").first).to_be_visible()


def _yours(page: Page, site: Site) -> None:
    """This browser's list, after an upload through the form."""
    _fresh_upload(page, site)
    page.goto(site.url + "/transcripts")
    expect(page.locator("table.yours tbody tr").first).to_be_visible()


def _yours_search(page: Page, site: Site) -> None:
    _fresh_upload(page, site)
    page.goto(site.url + "/transcripts/search?q=Tokyo")
    expect(page.locator(".across-group").first).to_be_visible()


def _menu_open(page: Page, site: Site) -> None:
    """The toolbar's menu of exports and compare, open."""
    page.goto(f"{site.url}/t/{RICH}?view=debug")
    page.locator("details.tools-menu summary").click()
    expect(page.locator("#compare-with")).to_be_visible()


def _search_walk(page: Page, site: Site) -> None:
    """After a jump from a result: the panel folded to one line, the message it landed on highlighted."""
    page.goto(f"{site.url}/t/{RICH}")
    page.fill("nav.toolbar input[type=search]", "Porto")
    page.locator("#search-results a.search-hit-link").first.click()
    expect(page.locator("#search-results .search-walk")).to_be_visible()


def _locked_debug_view(page: Page, site: Site) -> None:
    response = page.goto(site.upload(debug=False)["url"] + "?view=debug")
    assert response is not None and response.status == 403


def _live(view: str) -> Callable[[Page, Site], None]:
    """A live transcript's page (its latest messages in the live region, the "live" mark), half written."""
    def go(page: Page, site: Site) -> None:
        raw = WEATHER.read_bytes()
        request = urllib.request.Request(f"{site.url}/api/transcripts?live=1&debug=allow", data=raw[:len(raw) // 2],
                                         method="POST")
        with urllib.request.urlopen(request, timeout=30) as response:
            created = json.load(response)
        page.goto(created["url"] + ("?view=debug" if view == "debug" else ""))
        expect(page.locator(".live-region .live-state")).to_be_visible()
    return go


def _deleted(page: Page, site: Site) -> None:
    created = site.upload(debug=True)
    site.app.extensions["viewer.store"].delete(created["id"])
    response = page.goto(created["url"])
    assert response is not None and response.status == 410


PAGES: dict[str, Callable[[Page, Site], None]] = {
    "home": _open("/"),
    "default-view": _open(f"/t/{RICH}"),
    "debug-view": _open(f"/t/{RICH}?view=debug"),
    "debug-view-with-errors": _open(f"/t/{FAILING}?view=debug"),
    "debug-view-with-thought-panels": _open(f"/t/{THOUGHTS}?view=debug"),
    "fill-in-the-middle-panels": _open(f"/t/{FILL_IN}"),
    "search-page": _open(f"/t/{RICH}/search?q=Porto"),
    "search-page-debug": _open(f"/t/{RICH}/search?q=weather&view=debug"),
    "search-panel": _search_panel,
    "jump-page": _open(f"/t/{RICH}/jump"),
    "message-source-page": _open(f"/t/{RICH}/messages/3?view=debug&part=source"),
    "fresh-upload": _fresh_upload,
    "manage": _manage,
    "manage-with-secrets": _manage_with_secrets,
    "dataset-index": _open(f"/t/{DATASET}"),
    "dataset-conversation": _open(f"/t/{DATASET}/c/1"),
    "dataset-conversation-debug": _open(f"/t/{DATASET}/c/1?view=debug"),
    "export-index": _open(f"/t/{EXPORT}"),
    "export-conversation-with-other-versions": _open(f"/t/{EXPORT}/c/0"),
    "export-branch-switchers": _open(f"/t/{EXPORT}/c/0?view=debug&branch=2"),
    "debug-view-claude-code": _open(f"/t/{CLAUDE_CODE}?view=debug"),
    "default-view-claude-code": _open(f"/t/{CLAUDE_CODE}"),
    "debug-view-sub-agents": _open(f"/t/{SUB_AGENTS}?view=debug"),
    "debug-view-codex": _open(f"/t/{CODEX}?view=debug"),
    "debug-view-harmony-header-shapes": _open(f"/t/{HARMONY_SHAPES}?view=debug"),
    "export-conversation-with-versions": _open(f"/t/{EXPORT}/c/0?branch=2&at=2#m-2"),
    "export-conversation-debug": _open(f"/t/{EXPORT}/c/0?view=debug"),
    "compare-versions": _open(f"/compare/{EXPORT}.0@2/{EXPORT}.0@4?view=debug"),
    "evaluation-index": _open(f"/t/{EVALUATION}"),
    "evaluation-index-debug": _open(f"/t/{EVALUATION}?view=debug"),
    "evaluation-sample": _open(f"/t/{EVALUATION}/c/1"),
    "evaluation-sample-debug": _open(f"/t/{EVALUATION}/c/1?view=debug"),
    "graded-sample-debug": _open(f"/t/{GRADED}?view=debug"),
    "your-transcripts": _yours,
    "your-transcripts-search": _yours_search,
    "toolbar-menu-open": _menu_open,
    "search-results-folded": _search_walk,
    "compare": _open(f"/compare/{RICH}/{FAILING}"),
    "compare-debug": _open(f"/compare/{RICH}/{FAILING}?view=debug"),
    "what-the-model-saw": _open(f"/t/{RICH}/context/10"),
    "not-found-404": _open("/t/sample-no-such-transcript", 404),
    "locked-debug-view-403": _locked_debug_view,
    "deleted-410": _deleted,
    "live-default-view": _live("default"),
    "live-debug-view": _live("debug"),
}


RUN_AXE = """async ([tags, rules]) => {
    const only = rules ? {type: "rule", values: rules} : {type: "tag", values: tags};
    const results = await axe.run(document, {runOnly: only, resultTypes: ["violations"]});
    return results.violations.map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => ({
        target: n.target.join(" "), html: n.html.slice(0, 160), summary: n.failureSummary || ""}))}));
}"""

FLATTEN_GRADIENTS = """(end) => {
    // Each element with a gradient background gets the gradient's first (end 0) or last (end 1) colour as a
    // plain background, or its own again (end null). Through the CSSOM, which the CSP allows.
    let flattened = 0;
    for (const element of document.querySelectorAll("body *")) {
        if (end === null) { if (element.dataset.axeFlattened) { element.style.removeProperty("background");
                                                                 delete element.dataset.axeFlattened; } continue; }
        const colours = getComputedStyle(element).backgroundImage.includes("gradient(")
            ? getComputedStyle(element).backgroundImage.match(/rgba?\\([^)]*\\)/g) : null;
        if (!colours) continue;
        element.dataset.axeFlattened = "1";
        element.style.setProperty("background", end === 0 ? colours[0] : colours[colours.length - 1], "important");
        flattened += 1;
    }
    return flattened;
}"""


def axe_violations(page: Page, axe_source: str) -> list[dict[str, Any]]:
    """axe's WCAG 2.0/2.1 A and AA violations on the page. axe cannot tell the contrast of text on a gradient
    (the debug view's cards fade from the channel's tint to the card colour): it reports such text as
    incomplete, not as a violation. So colour contrast is checked again with each gradient flattened to its
    first colour, then to its last."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source)  # evaluate, not add_script_tag: the CSP blocks inline <script>
    violations = page.evaluate(RUN_AXE, [WCAG_TAGS, None])
    for end, where in ((0, "start"), (1, "end")):
        flattened = page.evaluate(FLATTEN_GRADIENTS, end)
        if flattened:
            for violation in page.evaluate(RUN_AXE, [WCAG_TAGS, ["color-contrast"]]):
                violation["help"] += f" (with each gradient background flattened to its {where} colour)"
                violations.append(violation)
        page.evaluate(FLATTEN_GRADIENTS, None)
        if not flattened:
            break
    return violations


def describe(violations: list[dict[str, Any]]) -> str:
    """Each violation's rule, impact and nodes (selector, HTML, what fails), for the assertion message."""
    lines = []
    for violation in violations:
        count = len(violation["nodes"])
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']} — {count} node(s)")
        for node in violation["nodes"]:
            summary = " ".join(node["summary"].split())
            lines.append(f"    {node['target']}  {node['html']}\n        {summary}")
    return "\n".join(lines)


PHONE_PAGES = ["debug-view-claude-code", "debug-view-sub-agents", "debug-view-codex", "debug-view", "your-transcripts",
               "evaluation-index-debug", "export-conversation-with-versions", "compare-versions"]
"""Pages whose boxes (code, tables) are wider than a phone: checked at 390 pixels too (a box that scrolls must
take the focus, WCAG 2.1.1)."""


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("name, width", [(name, 1200) for name in PAGES] + [(name, 390) for name in PHONE_PAGES])
def test_every_page_meets_wcag_2_1_aa_in_both_colour_schemes(axe_source, browser, site, name, width, scheme):
    context = browser.new_context(color_scheme=scheme, reduced_motion="reduce",
                                  viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        PAGES[name](page, site)
        page.wait_for_load_state("load")
        violations = axe_violations(page, axe_source)
        assert not violations, f"{name} ({scheme}), {page.url}:\n{describe(violations)}"
    finally:
        context.close()
