"""What a transcript page may contain, checked two ways: with an HTML parser and on the raw text.

The raw-text check does not trust any one HTML parser: every `<name` in the page must be an allowlisted tag,
so text that some parser might read as markup cannot hide from the tree check.
"""
from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import urlsplit

# Elements the layout (base.html, transcript templates) writes.
LAYOUT_ELEMENTS = frozenset({
    "html", "head", "meta", "title", "link", "script", "body", "header", "main", "footer", "section", "nav",
    "aside", "div", "span", "a", "p", "h1", "h2", "strong", "dl", "dt", "dd", "ol", "ul", "li", "details",
    "summary", "pre", "code", "time", "input", "form", "button", "dialog", "kbd", "template", "label"})
# Elements the markdown renderer may emit inside a message body (no raw HTML, images become links).
BODY_ELEMENTS = frozenset({
    "p", "em", "strong", "s", "a", "code", "pre", "span", "ul", "ol", "li", "blockquote", "h1", "h2", "h3",
    "h4", "h5", "h6", "hr", "br", "table", "thead", "tbody", "tr", "th", "td"})
ALLOWED_ELEMENTS = LAYOUT_ELEMENTS | BODY_ELEMENTS
ALLOWED_ATTRIBUTES = frozenset({
    "lang", "charset", "name", "content", "rel", "href", "type", "src", "defer", "class", "id", "title",
    "aria-label", "aria-current", "aria-hidden", "role", "tabindex", "open", "start", "datetime", "readonly",
    "value", "hx-get", "hx-target", "hx-swap", "hx-push-url", "hx-trigger", "hx-disable",
    "data-view", "data-index", "data-pair", "data-jump", "data-count", "data-status", "data-select-on-focus",
    "method", "action", "min", "max", "maxlength", "required", "hidden", "aria-pressed", "aria-labelledby",
    "data-secret-count", "hx-ext", "sse-connect", "sse-swap", "sse-close", "hx-swap-oob", "for", "autocomplete",
    "hx-sync", "hx-select", "data-land", "data-fork", "data-offset", "data-copy", "aria-describedby",
    "data-personal-count", "data-redacted-count"})
# Outside the manage page, the forms allowed are the plain GETs "jump to message", "search" and "compare with…"
# (_form_problems).
GET_FORM_ROUTES = ("jump", "search", "compare")
JUMP_INPUT_TYPES = {"number", "hidden", "text", "search"}
FORM_ELEMENTS = frozenset({"label", "select", "option", "caption"})
FORM_ATTRIBUTES = frozenset({"for", "data-debug-state", "data-expiry", "selected", "data-secrets-state", "scope"})
# Content regions: what a transcript supplies lands inside these, and they carry no behaviour at all.
CONTENT_REGIONS = (("div", "body"), ("pre", "source-text"), ("dl", "fields"), ("span", "who"),
                   ("span", "diag-message"), ("li", "marker"), ("template", "copy-source"), ("h1", None),
                   ("title", None))
"""(element, class) pairs; None matches any class."""
VOID_ELEMENTS = frozenset({"meta", "link", "input", "br", "hr", "img", "area", "base", "col", "embed", "source",
                           "track", "wbr"})
CONTENT_ATTRIBUTES = frozenset({"class", "href", "rel", "title", "start", "id", "aria-hidden"})
HTMX_VALUES = {"hx-target": {"#transcript", "#search-results"}, "hx-swap": {"outerHTML", "innerHTML"},
               "hx-push-url": {"true", "false"}, "hx-trigger": {"revealed, click"}, "hx-disable": {""},
               "hx-ext": {"sse"}, "hx-swap-oob": {"true"}, "hx-sync": {"this:queue last"}, "hx-select": {"#transcript"}}
SSE_VALUES = {"sse-swap": {"tail"}, "sse-close": {"end"}}
"""A live page's region (views/live.py): the events it swaps in and the one that ends its stream."""
OUR_SCRIPTS = {"/vendor/htmx/htmx.min.js", "/vendor/htmx-ext-sse/sse.min.js", "/static/app.js"}
META_NAMES = {"viewport", "color-scheme", "referrer", "htmx-config"}
ALLOWED_SCHEMES = {"http", "https", "mailto"}

_TAG_OPEN = re.compile(r"<(/?)([A-Za-z][^\s/>]*)")
_MARKUP_DECLARATION = re.compile(r"<!(?!doctype html>)", re.IGNORECASE)
_BROWSER_IGNORED = re.compile(r"[\x00-\x20\x7f]")


def page_problems(html: str, transcript_id: str, *, form: bool = False) -> list[str]:
    """Everything wrong with a transcript page or fragment, as sentences; empty when it is safe. With `form`,
    the elements and attributes of the manage page's forms are allowed too."""
    checker = _Checker(transcript_id, form)
    checker.feed(html)
    checker.close()
    return _raw_problems(html, form) + checker.problems


def _raw_problems(html: str, form: bool) -> list[str]:
    allowed = ALLOWED_ELEMENTS | FORM_ELEMENTS if form else ALLOWED_ELEMENTS
    problems = [f"raw text opens <{m.group(2)}>" for m in _TAG_OPEN.finditer(html)
                if m.group(2).lower() not in allowed]
    if _MARKUP_DECLARATION.search(html):
        problems.append("raw text holds a comment, CDATA or declaration")
    return problems


class _Checker(HTMLParser):
    """Python's HTML parser (the one bs4 uses here), streamed: the corpus has thousands of pages, and
    building a tree for each costs five times more than the check."""

    def __init__(self, transcript_id: str, form: bool) -> None:
        super().__init__(convert_charrefs=True)
        self.transcript_id = transcript_id
        self.form = form
        self.elements = ALLOWED_ELEMENTS | FORM_ELEMENTS if form else ALLOWED_ELEMENTS
        self.attributes = ALLOWED_ATTRIBUTES | FORM_ATTRIBUTES if form else ALLOWED_ATTRIBUTES
        self.problems: list[str] = []
        self.open: list[tuple[str, bool]] = []
        """Open elements, each with whether it lies inside a content region."""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        inside = bool(self.open) and self.open[-1][1]
        if inside and set(values) - CONTENT_ATTRIBUTES:
            self.problems.append(f"<{tag}> inside a content region has {sorted(set(values) - CONTENT_ATTRIBUTES)}")
        self.problems += _tag_problems(tag, values, self.transcript_id, self.elements, self.attributes)
        if not self.form:
            in_form = any(name == "form" for name, _ in self.open)
            self.problems += _form_problems(tag, values, self.transcript_id, in_form)
        if tag not in VOID_ELEMENTS:
            self.open.append((tag, inside or _is_content_region(tag, values)))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID_ELEMENTS:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.open) - 1, -1, -1):
            if self.open[depth][0] == tag:
                del self.open[depth:]
                return

    def handle_data(self, data: str) -> None:
        if self.open and self.open[-1][0] == "script" and data.strip():
            self.problems.append(f"a script with inline code: {data[:80]!r}")

    def handle_comment(self, data: str) -> None:
        self.problems.append(f"a comment: {data[:80]!r}")

    def handle_pi(self, data: str) -> None:
        self.problems.append(f"a processing instruction: {data[:80]!r}")

    def unknown_decl(self, data: str) -> None:
        self.problems.append(f"a declaration: {data[:80]!r}")


def _is_content_region(tag: str, attrs: dict[str, str]) -> bool:
    classes = attrs.get("class", "").split()
    return any(tag == region_tag and (region_class is None or region_class in classes)
               for region_tag, region_class in CONTENT_REGIONS)


def _tag_problems(name: str, attrs: dict[str, str], transcript_id: str, elements: frozenset[str],
                  attributes: frozenset[str]) -> list[str]:
    problems = [] if name in elements else [f"element <{name}> is not allowed"]
    for attribute, text in attrs.items():
        if attribute.startswith("on") or attribute == "style" or attribute.startswith("data-hx"):
            problems.append(f"<{name}> has {attribute}={text!r}")
        elif attribute not in attributes:
            problems.append(f"<{name}> has the unknown attribute {attribute}")
        elif attribute in ("href", "src") and not url_allowed(text):
            problems.append(f"<{name} {attribute}={text!r}> has a forbidden scheme")
        elif attribute.startswith("hx-"):
            problems += _htmx_problems(name, attribute, text, transcript_id)
        elif attribute.startswith("sse-"):
            problems += _sse_problems(name, attribute, text, transcript_id)
    if name == "script" and attrs.get("src") not in OUR_SCRIPTS:
        problems.append(f"a script that is not ours: {attrs}")
    if name == "meta" and not ("charset" in attrs or attrs.get("name") in META_NAMES):
        problems.append(f"an unexpected meta tag: {attrs}")
    if name == "link" and not attrs.get("href", "").startswith("/"):
        problems.append(f"a link tag to elsewhere: {attrs}")
    return problems


def _form_problems(name: str, attrs: dict[str, str], transcript_id: str, in_form: bool = False) -> list[str]:
    """A transcript page's forms: GETs to this transcript's jump, search or compare route, with a number or
    words (and the view), and a submit button. Outside a form, a button may be a plain `type="button"` (inert without
    static/app.js: the copy, collapse and key-list buttons)."""
    if name == "form":
        routes = {f"/t/{transcript_id}/{route}" for route in GET_FORM_ROUTES}
        if attrs.get("method", "").lower() != "get" or attrs.get("action") not in routes:
            return [f"a form that is not a GET to one of {sorted(routes)}: {attrs}"]
    elif name == "button" and attrs.get("type") != "submit" and (in_form or attrs.get("type") != "button"):
        return [f"a button that is not a plain submit button: {attrs}"]
    elif name == "input" and attrs.get("type") not in JUMP_INPUT_TYPES:
        return [f"an input of type {attrs.get('type')!r}"]
    return []


def _htmx_problems(name: str, attribute: str, value: str, transcript_id: str) -> list[str]:
    if attribute == "hx-get":
        own = f"/t/{transcript_id}"
        if not (value in (own, own + "/search") or value.startswith((own + "?", own + "/window?", own + "/search?"))):
            return [f"<{name}> has hx-get={value!r}, not a URL of this transcript"]
        return []
    if value not in HTMX_VALUES.get(attribute, ()):
        return [f"<{name}> has {attribute}={value!r}"]
    return []


def _sse_problems(name: str, attribute: str, value: str, transcript_id: str) -> list[str]:
    if attribute == "sse-connect":
        own = f"/t/{transcript_id}/events"
        return [] if value == own or value.startswith(own + "?") else [
            f"<{name}> has sse-connect={value!r}, not the event stream of this transcript"]
    return [] if value in SSE_VALUES.get(attribute, ()) else [f"<{name}> has {attribute}={value!r}"]


def url_allowed(url: str) -> bool:
    """http, https, mailto or relative, read the way a browser reads it (tabs, newlines and controls dropped;
    conservative: controls anywhere are dropped, so a split scheme is seen whole)."""
    text = _BROWSER_IGNORED.sub("", url)
    scheme = re.match(r"([A-Za-z][A-Za-z0-9+.\-]*):", text)
    if scheme:
        return scheme.group(1).lower() in ALLOWED_SCHEMES
    return ":" not in urlsplit(text).path.split("/", 1)[0]
