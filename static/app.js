// The viewer's own script: pair highlighting, long messages, a bounded number of windows in the DOM, reading
// (keys, copy buttons, collapsing in the debug view, the position counter, the search panel), and the upload
// form's drag-and-drop and progress bar.
// Everything here is progressive: pages work without it.
(function () {
  "use strict";
  // The page knows the script runs: the styles of a jump's target move from :target to the landed message.
  document.documentElement.classList.add("js");

  // ---- pairs: hovering or focusing a call or its reply highlights both -------------------------------
  function pairOf(target) {
    var element = target && target.closest ? target.closest("[data-pair]") : null;
    return element ? element.getAttribute("data-pair") : null;
  }

  function highlight(pair, on) {
    if (!pair) return;
    document.querySelectorAll('.entry[data-pair="' + CSS.escape(pair) + '"]').forEach(function (entry) {
      entry.classList.toggle("paired", on);
    });
  }

  ["mouseover", "focusin"].forEach(function (type) {
    document.addEventListener(type, function (event) { highlight(pairOf(event.target), true); });
  });
  ["mouseout", "focusout"].forEach(function (type) {
    document.addEventListener(type, function (event) { highlight(pairOf(event.target), false); });
  });

  // A link to a message (a search result, a diagnostic, a pair, a sub-agent's call) lands on it: below the sticky
  // bar, highlighted, focused (so that j/k go on from there), the counter showing it. One on the page is scrolled
  // to; a search result elsewhere in the transcript has its window swapped in, the results kept (n/N walk them).
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a[data-jump]") : null;
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey || event.button) return;
    var fromSearch = !!(link.closest("#search-results") && searchPanel());
    if (fromSearch) currentHit = link;
    var target = document.getElementById(link.getAttribute("data-jump"));
    if (!target) {
      if (fromSearch && region() && window.htmx) { event.preventDefault(); loadAndLand(link); }
      return;  // a plain link: the page opens there, and lands on the message (landOnHash)
    }
    event.preventDefault();
    if (fromSearch) foldSearchPanel();
    land(target);
    history.replaceState(history.state, "", link.getAttribute("href"));
  });

  // ---- long messages: "Show it" swaps the rendered body in with htmx; without JS the link opens a page --------
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a.expand") : null;
    if (!link || !window.htmx || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    link.textContent = "Loading…";
    window.htmx.ajax("GET", link.getAttribute("href"), { target: link.closest(".long-body"), swap: "outerHTML" });
  });

  // ---- windows: keep the DOM bounded however far the reader scrolls -----------------------------------
  // Each window is an <ol class="entries" id="w-START">. After htmx adds one, the windows farthest from it
  // (above when reading on, below when going back) are dropped for a link that loads them again.
  var DOM_LIMIT = 500;

  function entriesIn(element) { return element.querySelectorAll(":scope > li.entry").length; }

  function windowLink(region, list, direction) {
    var base = region.querySelector(".toggle a").getAttribute("href");  // /t/<id>
    var debug = region.getAttribute("data-view") === "debug";
    var start = list.id.slice(2);
    var first = list.firstElementChild ? list.firstElementChild.getAttribute("data-index") : start;
    var link = document.createElement("a");
    link.className = "more " + direction;
    link.href = base + "?" + (debug ? "view=debug&" : "") + "at=" + first + "#m-" + first;
    link.setAttribute("hx-get", base + "/window?start=" + start + "&direction=" + direction +
                      (debug ? "&view=debug" : ""));
    link.setAttribute("hx-swap", "outerHTML");
    if (direction === "next") link.setAttribute("hx-trigger", "revealed, click");
    link.textContent = direction === "next" ? "Next messages" : "Earlier messages";
    return link;
  }

  function dropWindow(region, list, above) {
    var direction = above ? "earlier" : "next";
    // The link that loads the window beyond this one goes: the new link stands for both.
    var beyond = above ? list.previousElementSibling : list.nextElementSibling;
    if (beyond && beyond.matches("a.more." + direction)) beyond.remove();
    var link = windowLink(region, list, direction);
    if (above) {
      // Removing content above the viewport would move what the reader is looking at; put it back.
      var anchor = list.nextElementSibling;
      var before = anchor ? anchor.getBoundingClientRect().top : 0;
      list.replaceWith(link);
      if (anchor) window.scrollBy(0, anchor.getBoundingClientRect().top - before);
    } else {
      list.replaceWith(link);
    }
    window.htmx.process(link);
  }

  function boundWindows(reading) {
    var region = document.getElementById("transcript");
    if (!region) return;
    var lists = region.querySelectorAll("ol.entries");
    var count = 0;
    lists.forEach(function (list) { count += entriesIn(list); });
    var above = reading !== "earlier";
    for (var i = 0; count > DOM_LIMIT && i < lists.length - 1; i++) {
      var list = above ? lists[i] : lists[lists.length - 1 - i];
      count -= entriesIn(list);
      dropWindow(region, list, above);
    }
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    var path = (event.detail && event.detail.pathInfo && event.detail.pathInfo.requestPath) || "";
    if (path.indexOf("/window?") === -1) return;
    boundWindows(path.indexOf("direction=earlier") === -1 ? "next" : "earlier");
  });

  // ---- reading: keys, copy buttons, collapsing, the position counter, the search panel ----------------------
  // A transcript page has the region #transcript (its toolbar, windows of li.entry); a dataset's index has
  // .dataset-index (its toolbar, rows of conversations). The keys are listed in the page's <dialog id="keys">.
  var FEEDBACK_MS = 1500;

  function region() { return document.getElementById("transcript"); }
  function datasetIndex() { return document.querySelector(".dataset-index"); }
  function readingPage() { return region() || datasetIndex(); }
  function toolbar() { var page = readingPage(); return page ? page.querySelector(".toolbar") : null; }
  function toArray(list) { return Array.prototype.slice.call(list); }

  // What j/k walk over: the messages of the windows in the DOM, or the index's rows.
  function items() {
    var transcript = region();
    if (transcript) return toArray(transcript.querySelectorAll("li.entry"));
    var index = datasetIndex();
    return index ? toArray(index.querySelectorAll("table.conversations tbody tr")) : [];
  }

  function itemOf(element) {
    if (!element || !element.closest) return null;
    return element.closest(region() ? "#transcript li.entry" : ".dataset-index tbody tr");
  }

  // Where the sticky toolbar (and the search panel stuck under it) ends: what lies above it is hidden under it.
  function stickyBottom() {
    var bar = toolbar();
    if (!bar) return 0;
    var bottom = bar.getBoundingClientRect().bottom;
    var panel = searchPanel();
    if (panel && panel.firstElementChild) bottom = Math.max(bottom, panel.getBoundingClientRect().bottom);
    return Math.max(bottom, 0);
  }

  // What stays at the top of the viewport once the page is scrolled: the toolbar, and the search panel under it.
  function stuckHeight() {
    var bar = toolbar();
    if (!bar || window.getComputedStyle(bar).position !== "sticky") return 0;
    var height = bar.offsetHeight;
    var panel = searchPanel();
    if (panel && panel.firstElementChild && window.getComputedStyle(panel).position === "sticky") height += panel.offsetHeight;
    return height;
  }

  // ---- landing: one message at a time is the reader's place, highlighted and focused ----------------------------
  var landed = null;   // the message the last jump (or j/k) landed on
  var pinned = false;  // the counter shows it until the reader scrolls on their own

  function mark(item) {
    if (landed && landed !== item) landed.classList.remove("landed");
    landed = item;
    if (item) item.classList.add("landed");
  }

  function land(target) {
    var item = itemOf(target) || (target.closest && target.closest("li.entry")) || target;
    mark(item);
    if (!item.hasAttribute("tabindex")) item.setAttribute("tabindex", "-1");
    item.focus({ preventScroll: true });
    var top = item.getBoundingClientRect().top + window.scrollY - stuckHeight() - 12;
    window.scrollTo(0, Math.max(top, 0));
    pinned = true;
    updatePosition();
  }

  // The first message at or after number `index` (a hidden one's place in the default view is the next shown).
  function itemFrom(index) {
    var list = items();
    for (var i = 0; i < list.length; i++) {
      if (Number(list[i].getAttribute("data-index")) >= index) return list[i];
    }
    return null;
  }

  // A link to a message (a copied link, a deep link, "go to"): the page opens there and lands on it.
  function landOnHash() {
    var match = /^#m-(\d+)$/.exec(window.location.hash);
    if (!match || !region()) return;
    var target = document.getElementById("m-" + match[1]) || itemFrom(Number(match[1]));
    if (target) land(target);
  }
  ["wheel", "touchmove"].forEach(function (type) {
    window.addEventListener(type, function () { pinned = false; }, { passive: true });
  });

  // The first item not hidden under the toolbar or above the viewport (binary search: they are in order).
  function firstVisible(list) {
    var top = stickyBottom() + 1;
    var low = 0, high = list.length;
    while (low < high) {
      var middle = (low + high) >> 1;
      if (list[middle].getBoundingClientRect().bottom > top) high = middle; else low = middle + 1;
    }
    return list[low] || null;
  }

  function focusItem(item) {
    mark(item);
    pinned = false;
    if (!item.hasAttribute("tabindex")) item.setAttribute("tabindex", "-1");
    item.focus({ preventScroll: true });
    var box = item.getBoundingClientRect();
    if (box.top < stickyBottom() || box.bottom > window.innerHeight) item.scrollIntoView({ block: "start" });
  }

  // The toolbar's height as --sticky-top: jump targets stop below it (scroll-margin-top in app.css), and the
  // search panel sticks under it.
  var measuredBar = null;
  var barObserver = window.ResizeObserver ? new ResizeObserver(measureToolbar) : null;
  function measureToolbar() {
    var bar = toolbar();
    if (!bar) return;
    var sticky = window.getComputedStyle(bar).position === "sticky";  // not on a narrow screen
    document.documentElement.style.setProperty("--sticky-top", (sticky ? bar.offsetHeight : 0) + "px");
    document.documentElement.style.setProperty("--sticky-stack", stuckHeight() + "px");
  }
  function watchToolbar() {
    var bar = toolbar();
    if (!bar || bar === measuredBar) return;
    if (barObserver) {
      if (measuredBar) barObserver.unobserve(measuredBar);
      barObserver.observe(bar);
    }
    measuredBar = bar;
    measureToolbar();
  }

  // ---- the counter: "#412 of 52,654", the message at the top of the viewport ---------------------------
  function updatePosition() {
    var transcript = region();
    var counter = transcript && transcript.querySelector(".toolbar .position");
    if (!counter) return;
    if (counter.total === undefined) counter.total = Number(counter.textContent.replace(/[^0-9]/g, ""));
    var entry = pinned && landed && inView(landed) ? landed : firstVisible(items());
    if (!entry) return;
    var text = "#" + Number(entry.getAttribute("data-index")).toLocaleString("en-US") + " of " +
               counter.total.toLocaleString("en-US");
    if (counter.textContent !== text) counter.textContent = text;
  }

  function inView(item) {
    if (!document.body.contains(item)) return false;
    var box = item.getBoundingClientRect();
    return box.bottom > stickyBottom() && box.top < window.innerHeight;
  }

  var positionQueued = false;
  window.addEventListener("scroll", function () {
    if (positionQueued) return;
    positionQueued = true;
    window.requestAnimationFrame(function () { positionQueued = false; updatePosition(); });
  }, { passive: true });
  window.addEventListener("resize", function () { measureToolbar(); updatePosition(); }, { passive: true });

  // ---- keys -------------------------------------------------------------------------------------------------
  var pendingMove = 0;       // j/k at the edge of the DOM: the step to take once the next window is in
  var returnTo = null;       // where Esc goes back to from the search or jump field

  function typing(target) {
    return !!(target && target.closest &&
              (target.closest("input, textarea, select") || target.isContentEditable));
  }

  function edgeLink(step) {
    var page = readingPage();
    return page ? page.querySelector(step > 0 ? "a.more.next" : "a.more.earlier") : null;
  }

  function move(step) {
    var list = items();
    if (!list.length) return;
    var current = itemOf(document.activeElement);
    var at = current ? list.indexOf(current) : -1;
    // Nothing in focus: j and k both start at the message at the top, where the reader is.
    var next = at === -1 ? firstVisible(list) || list[0] : list[at + step];
    if (next) { focusItem(next); return; }
    var link = edgeLink(step);
    if (!link) return;
    if (!region() || !window.htmx) { link.click(); return; }  // a plain link: the next page
    // The page's own "Next/Earlier messages" link loads the window (it may be loading already: revealed).
    pendingMove = step;
    if (!link.classList.contains("htmx-request")) link.click();
  }

  function rememberPlace() {
    returnTo = itemOf(document.activeElement) || firstVisible(items());
  }

  function goBack() {
    var place = returnTo;
    returnTo = null;
    if (place && document.body.contains(place)) focusItem(place);
    else if (document.activeElement) document.activeElement.blur();
  }

  function searchField() {
    var bar = toolbar();
    return bar ? bar.querySelector(".search-form input[type=search]") : null;
  }

  function focusSearch() {
    var field = searchField();
    if (!field) return;
    rememberPlace();
    field.focus();
    field.select();
  }

  // g: the inline "go to" field of a long transcript (or the index's conversation field), else the jump page.
  function goTo() {
    var page = readingPage();
    if (!page) return;
    var field = page.querySelector(".jump-nav input[name=at], .dataset-index form.jump input[name=at]");
    if (field) {
      rememberPlace();
      field.scrollIntoView({ block: "center" });
      field.focus({ preventScroll: true });
      return;
    }
    var transcript = region();
    if (!transcript) return;
    var base = transcript.querySelector(".toggle a").getAttribute("href");  // /t/<id>, or /t/<id>/c/<k>
    window.location.assign(base + "/jump" + (transcript.getAttribute("data-view") === "debug" ? "?view=debug" : ""));
  }

  // d: the toolbar's other view, unless it is the locked one. The reader keeps their place: past the first
  // message, the other view opens at the window holding the message they were at.
  var pendingPlace = null;
  function switchView() {
    var transcript = region();
    var link = transcript && transcript.querySelector(".toggle a:not([aria-current])");
    if (!link || link.classList.contains("locked")) return;
    var list = items();
    var place = itemOf(document.activeElement) || firstVisible(list);
    if (!window.htmx || !place || (place === list[0] && !edgeLink(-1))) { link.click(); return; }
    var index = place.getAttribute("data-index");
    var url = link.getAttribute("href");
    url += (url.indexOf("?") === -1 ? "?" : "&") + "at=" + index;
    pendingPlace = Number(index);
    // The link's own hx-push-url puts the address, #m-N included, in the history.
    window.htmx.ajax("GET", url + "#m-" + index, { source: link, target: "#transcript", swap: "outerHTML" });
  }

  function settlePlace() {
    if (pendingPlace === null) return;
    var index = pendingPlace;
    pendingPlace = null;
    // In the default view the message may be hidden: the first one shown after it stands for it.
    var found = itemFrom(index);
    if (found) land(found);
  }

  function keysDialog() { return document.getElementById("keys"); }

  function showKeys() {
    var dialog = keysDialog();
    if (!dialog || dialog.open) return;
    if (dialog.showModal) dialog.showModal(); else dialog.setAttribute("open", "");
  }

  function closeKeys() {
    var dialog = keysDialog();
    if (!dialog || !dialog.open) return;
    if (dialog.close) dialog.close(); else dialog.removeAttribute("open");
  }

  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.isComposing) return;
    if (event.key === "Escape") {
      if (escape(event.target)) event.preventDefault();
      return;
    }
    if (event.ctrlKey || event.altKey || event.metaKey || typing(event.target)) return;
    if (!readingPage() || document.querySelector("dialog[open]")) return;
    var handled = true;
    switch (event.key) {
      case "j": move(1); break;
      case "k": move(-1); break;
      case "/": focusSearch(); break;
      case "g": goTo(); break;
      case "d": if (region()) switchView(); else handled = false; break;
      case "n": handled = walkHits(1); break;
      case "N": handled = walkHits(-1); break;
      case "?": showKeys(); break;
      case "Enter": handled = openRow(event.target); break;
      default: handled = false;
    }
    if (handled) event.preventDefault();
  });

  // Enter on a row of the index in focus opens its conversation (on a link it is the link's own Enter).
  function openRow(target) {
    if (!target || !target.matches || !target.matches(".dataset-index tbody tr")) return false;
    var link = target.querySelector("a[href]");
    if (link) link.click();
    return !!link;
  }

  // Esc: an open menu closes; the search panel closes; any field is left (the search and jump fields back to
  // where the reader was), so that the keys work again.
  function escape(target) {
    if (document.querySelector("dialog[open]")) return false;  // the dialog closes itself
    var menu = document.querySelector("details.menu[open]");
    if (menu) {
      menu.open = false;
      menu.querySelector("summary").focus();
      return true;
    }
    var panel = searchPanel();
    var inPanel = panel && target && target.closest && target.closest("#search-results");
    if (panel && panel.firstElementChild && (inPanel || target === searchField())) {
      closeSearchPanel(true);
      return true;
    }
    if (target && target.matches && (target === searchField() ||
        target.matches(".jump-nav input[name=at], .dataset-index form.jump input[name=at]"))) {
      if (target === searchField()) dropSearch();
      goBack();
      return true;
    }
    if (typing(target)) {
      target.blur();
      return true;
    }
    return false;
  }

  // A menu closes when the reader clicks anywhere else.
  document.addEventListener("click", function (event) {
    document.querySelectorAll("details.menu[open]").forEach(function (menu) {
      if (!menu.contains(event.target)) menu.open = false;
    });
  });

  // ---- the search panel: over the page under the toolbar, with a close button --------------------------------
  function searchPanel() {
    var panel = document.getElementById("search-results");
    var before = panel && panel.previousElementSibling;
    return before && before.classList.contains("toolbar") ? panel : null;  // not the search page's own list
  }

  function closeSearchPanel(refocus) {
    var panel = searchPanel();
    if (!panel) return;
    dropSearch();
    panel.replaceChildren();
    panel.classList.remove("folded");
    panel.shownQuery = null;
    currentHit = null;
    measureToolbar();
    if (refocus && searchField()) searchField().focus();
  }

  // Search as the reader types: the form is sent a moment after the last key (htmx replaces a request still
  // running, hx-sync); an emptied field closes the panel.
  // The panel shows the answer to the last search sent, for the query in the field, once: an answer arriving
  // late (to a search sent before the reader typed on, closed the panel, or sent the same words again) is left
  // out, so that it never re-opens results the reader has folded by following one.
  var typingTimer = null;
  var searchTurn = 0;  // the number of the last search sent from the field (or of the closing of the panel)
  var sending = null;  // that search while it runs: { turn, query, form }

  // The reader closed the panel or left the field: the search about to be sent is not wanted, nor the answer to
  // one already sent.
  function dropSearch() {
    window.clearTimeout(typingTimer);
    typingTimer = null;
    searchTurn++;
  }

  function fieldQuery() {
    var field = searchField();
    return field ? field.value.trim() : "";
  }

  function isSearchForm(element) {
    var field = searchField();
    return !!(element && field && element === field.form);
  }

  function searchQuery(config) {  // the words a search from the field was sent with
    var words = config && config.formData && config.formData.get ? config.formData.get("q") : null;
    return typeof words === "string" ? words.trim() : "";
  }

  function showing(query) {  // the panel holds the results of these words
    var panel = searchPanel();
    return !!(panel && panel.firstElementChild && query && panel.shownQuery === query);
  }

  document.addEventListener("input", function (event) {
    var field = event.target;
    if (!window.htmx || !field.matches || !field.matches(".toolbar .search-form input[name=q]")) return;
    window.clearTimeout(typingTimer);
    if (!field.value.trim()) { closeSearchPanel(false); return; }
    typingTimer = window.setTimeout(function () {
      typingTimer = null;
      var now = searchField();  // the field of the page now (a jump may have swapped the region in again)
      if (!now || !now.form || !fieldQuery() || showing(fieldQuery())) return;
      window.htmx.trigger(now.form, "submit");
    }, 300);
  });

  // A search is being sent (Enter, or the pause after typing): the pending one is no longer needed. Enter on
  // the words being searched for waits for their answer; on the words whose results the panel holds, it sends
  // nothing again: it shows the whole list of them.
  document.addEventListener("htmx:confirm", function (event) {
    var form = event.detail && event.detail.elt;
    if (!isSearchForm(form)) return;
    window.clearTimeout(typingTimer);
    typingTimer = null;
    var query = fieldQuery();
    if (sending && sending.form === form && sending.query === query) {
      searchTurn = sending.turn;  // its answer is wanted (again, if the panel was closed since)
      event.preventDefault();
      return;
    }
    if (!showing(query)) return;
    event.preventDefault();
    var panel = searchPanel();
    if (panel.classList.contains("folded")) { panel.classList.remove("folded"); measureToolbar(); }
  });

  document.addEventListener("htmx:configRequest", function (event) {
    var config = event.detail;
    if (!isSearchForm(config && config.elt)) return;
    config.searchTurn = ++searchTurn;
    sending = { turn: config.searchTurn, query: searchQuery(config), form: config.elt };
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var config = event.detail && event.detail.requestConfig;
    if (sending && config && config.searchTurn === sending.turn) sending = null;
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var config = event.detail && event.detail.requestConfig;
    if (!config || !isSearchForm(config.elt) || event.target !== searchPanel()) return;
    var query = searchQuery(config);
    if (config.searchTurn !== searchTurn || query !== fieldQuery() || showing(query)) event.detail.shouldSwap = false;
  });

  // ---- walking the results: after a jump the panel folds to one line (where the reader is among the results,
  // the previous and next, all of them again, close) and n / N go to the next and previous result ----------------
  var currentHit = null;  // the result link the reader last followed
  var pendingWalk = 0;    // a step to take once the next or earlier page of results is in

  function hitLinks() {
    var panel = searchPanel();
    return panel ? toArray(panel.querySelectorAll("a.search-hit-link")) : [];
  }

  function walkHits(step) {
    var panel = searchPanel();
    var links = hitLinks();
    if (!panel || !links.length) return false;
    var at = currentHit ? links.indexOf(currentHit) : -1;
    var next = at === -1 ? (step > 0 ? links[0] : links[links.length - 1]) : links[at + step];
    if (next) { next.click(); return true; }
    var pager = panel.querySelector(step > 0 ? ".search-pager a.later" : ".search-pager a.earlier");
    if (pager && window.htmx) { pendingWalk = step; pager.click(); }
    else announce(step > 0 ? "This is the last result." : "This is the first result.");
    return true;
  }

  function walkButton(text, label, action) {
    var button = document.createElement("button");
    button.type = "button";
    button.textContent = text;
    if (label) button.setAttribute("aria-label", label);
    button.addEventListener("click", action);
    return button;
  }

  function foldSearchPanel() {
    var panel = searchPanel();
    if (!panel || !panel.firstElementChild) return;
    panel.classList.add("folded");
    var strip = panel.querySelector(".search-walk");
    if (!strip) {
      strip = document.createElement("div");
      strip.className = "search-walk";
      var where = document.createElement("span");
      where.className = "search-where";
      where.setAttribute("role", "status");
      strip.append(where,
        walkButton("‹ Previous", "Previous result (N)", function () { walkHits(-1); }),
        walkButton("Next ›", "Next result (n)", function () { walkHits(1); }),
        walkButton("All results", null, function () { panel.classList.remove("folded"); measureToolbar(); if (currentHit) currentHit.focus(); }),
        walkButton("Close", "Close the search results", function () { closeSearchPanel(true); }));
      panel.prepend(strip);
    }
    var links = hitLinks();
    var summary = panel.querySelector(".search-summary strong");
    var at = currentHit ? links.indexOf(currentHit) : -1;
    var offset = Number(panel.querySelector(".search-body") && panel.querySelector(".search-body").getAttribute("data-offset")) || 0;
    strip.querySelector(".search-where").textContent = at === -1 ? "Search results" :
      "Result " + (offset + at + 1).toLocaleString("en-US") + (summary ? " of " + summary.textContent : "") +
      " · message " + currentHit.textContent.replace(/\s+/g, " ").trim().split(" ")[0];
    measureToolbar();
  }

  // A result whose message is not on the page: its window is swapped in, the results kept, then it lands there.
  var pendingLand = null;
  var keptResults = null;
  function loadAndLand(link) {
    var panel = searchPanel();
    var field = searchField();
    keptResults = { nodes: panel ? toArray(panel.childNodes) : [], query: field ? field.value : "",
                    shown: panel ? panel.shownQuery : null };
    pendingLand = { id: link.getAttribute("data-jump"), href: link.getAttribute("href") };
    window.htmx.ajax("GET", link.getAttribute("href").split("#")[0], { target: "#transcript", swap: "outerHTML" });
  }

  function settleLanding(event) {
    var swapped = event.detail && event.detail.target;
    if (!pendingLand || !swapped || swapped.id !== "transcript") return;
    var landing = pendingLand;
    pendingLand = null;
    var panel = searchPanel();
    if (panel && keptResults) {
      panel.replaceChildren.apply(panel, keptResults.nodes);
      panel.shownQuery = keptResults.shown;
      if (searchField()) searchField().value = keptResults.query;
    }
    keptResults = null;
    foldSearchPanel();
    var target = document.getElementById(landing.id);
    if (target) land(target);
    history.replaceState(history.state, "", landing.href);
  }

  function enhancePanel() {
    var panel = searchPanel();
    if (!panel || !panel.firstElementChild || panel.querySelector(".search-close, .search-walk")) return;
    var close = document.createElement("button");
    close.type = "button";
    close.className = "search-close";
    close.textContent = "Close";
    close.setAttribute("aria-label", "Close the search results");
    close.addEventListener("click", function () { closeSearchPanel(true); });
    panel.prepend(close);
  }

  // ---- copy: a message's text as written, a code block, a message's link ----------------------------------
  var announcer = null;
  function announce(text) {
    if (!announcer) {
      announcer = document.createElement("p");
      announcer.className = "visually-hidden";
      announcer.setAttribute("role", "status");
      announcer.setAttribute("aria-live", "polite");
      document.body.append(announcer);
    }
    announcer.textContent = "";
    window.setTimeout(function () { announcer.textContent = text; }, 50);
  }

  // Without the async clipboard (an insecure origin, a refusal): a selected, off-screen textarea and execCommand.
  function copyByCommand(text) {
    var focused = document.activeElement;
    var buffer = document.createElement("textarea");
    buffer.className = "copy-buffer";
    buffer.value = text;
    buffer.setAttribute("readonly", "");
    buffer.setAttribute("aria-hidden", "true");
    buffer.tabIndex = -1;
    document.body.append(buffer);
    buffer.select();
    var copied = false;
    try { copied = document.execCommand("copy"); } catch (error) { copied = false; }
    buffer.remove();
    if (focused && focused.focus) focused.focus({ preventScroll: true });
    return copied;
  }

  function copyText(text) {
    if (navigator.clipboard && navigator.clipboard.writeText) {
      return navigator.clipboard.writeText(text).catch(function () {
        if (!copyByCommand(text)) throw new Error("copy refused");
      });
    }
    return copyByCommand(text) ? Promise.resolve() : Promise.reject(new Error("copy refused"));
  }

  function feedback(button, text) {
    if (button.label === undefined) button.label = button.textContent;
    window.clearTimeout(button.feedbackTimer);
    button.textContent = text;
    button.classList.add("copied");
    announce(text);
    button.feedbackTimer = window.setTimeout(function () {
      button.textContent = button.label;
      button.classList.remove("copied");
    }, FEEDBACK_MS);
  }

  function textToCopy(button) {
    if (button.classList.contains("copy-value")) return button.getAttribute("data-copy");  // a link in a list
    var entry = button.closest("li.entry");
    if (button.classList.contains("copy-code")) {
      var code = button.parentElement.querySelector("pre");
      return code ? code.textContent.replace(/\n$/, "") : null;
    }
    if (button.classList.contains("copy-exact")) {  // what the model saw: the exact text, byte for byte
      var exact = button.parentElement.querySelector("template.copy-source");
      return exact ? exact.content.textContent : null;
    }
    if (!entry) return null;
    if (button.classList.contains("copy-link")) {
      var anchor = entry.querySelector("a.anchor");
      return anchor ? new URL(anchor.getAttribute("href"), window.location.href).href : null;
    }
    var source = entry.querySelector("template.copy-source");
    return source ? source.content.textContent : null;
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button.copy-text, button.copy-link, button.copy-code, button.copy-exact, button.copy-value") : null;
    if (!button) return;
    var text = textToCopy(button);
    if (text === null) return;
    copyText(text).then(function () { feedback(button, "Copied"); },
                        function () { feedback(button, "Copy failed"); });
  });

  function addCodeButton(pre) {
    if (pre.parentElement.classList.contains("code-block")) return;
    var wrapper = document.createElement("div");
    wrapper.className = "code-block";
    pre.replaceWith(wrapper);
    var button = document.createElement("button");
    button.type = "button";
    button.className = "copy-code";
    button.textContent = "Copy";
    button.setAttribute("aria-label", "Copy the code");
    wrapper.append(button, pre);
  }

  // ---- collapsing reasoning and tool traffic in the debug view: one by one, or all of a kind ------------------
  var FOLD_KINDS = ["reasoning", "tool"];
  var FOLD_KEY = "viewer.folded";
  var folded = (function () {
    try { return JSON.parse(window.sessionStorage.getItem(FOLD_KEY)) || {}; } catch (error) { return {}; }
  })();

  function foldKind(entry) {
    for (var i = 0; i < FOLD_KINDS.length; i++) {
      if (entry.classList.contains("fold-" + FOLD_KINDS[i])) return FOLD_KINDS[i];
    }
    return null;
  }

  function setFolded(entry, on) {
    entry.classList.toggle("folded", on);
    var button = entry.querySelector(".fold-toggle");
    if (!button) return;
    var word = on ? "Expand" : "Collapse";
    button.textContent = word;
    button.setAttribute("aria-label", word + " message #" + entry.getAttribute("data-index"));
  }

  function foldAll(kind, on) {
    folded[kind] = on;
    try { window.sessionStorage.setItem(FOLD_KEY, JSON.stringify(folded)); } catch (error) { /* private mode */ }
    document.querySelectorAll("#transcript li.entry.fold-" + kind).forEach(function (entry) { setFolded(entry, on); });
    syncFoldButtons();
  }

  function syncFoldButtons() {
    FOLD_KINDS.forEach(function (kind) {
      document.querySelectorAll(".fold-all-" + kind).forEach(function (button) {
        button.setAttribute("aria-pressed", folded[kind] ? "true" : "false");
      });
    });
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target : null;
    if (!target) return;
    var toggle = target.closest(".fold-toggle");
    if (toggle) {
      var entry = toggle.closest("li.entry");
      setFolded(entry, !entry.classList.contains("folded"));
      return;
    }
    var all = target.closest(".fold-all button");
    if (all) {
      var kind = all.classList.contains("fold-all-reasoning") ? "reasoning" : "tool";
      foldAll(kind, !folded[kind]);
      return;
    }
    if (target.closest(".keys-hint")) showKeys();
    else if (target.closest(".keys-close")) closeKeys();
    else if (target.matches("dialog#keys")) {  // a click on the backdrop, outside the dialog's box
      var box = target.getBoundingClientRect();
      if (event.clientX < box.left || event.clientX > box.right || event.clientY < box.top || event.clientY > box.bottom) closeKeys();
    }
  });

  // ---- boxes that scroll inside the page (a wide code block, a long list) take the focus, so that the keyboard
  // can scroll them too; only those that do overflow ------------------------------------------------------------
  var SCROLL_BOXES = "pre, .diag-list, .prose table, .table-scroll, .cmp-body";
  function focusableScrollBoxes(root) {
    (root || document).querySelectorAll(SCROLL_BOXES).forEach(function (box) {
      var overflows = box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1;
      if (overflows && !box.hasAttribute("tabindex")) {
        box.tabIndex = 0;
        if (!box.hasAttribute("aria-label") && box.matches("pre")) box.setAttribute("aria-label", "Code (scrolls)");
      }
    });
  }
  // A section opened (a message's source, a panel) may hold such a box.
  document.addEventListener("toggle", function (event) {
    if (event.target.open) focusableScrollBoxes(event.target);
  }, true);

  // ---- new content (the page, a window, a swapped view, an opened long body): buttons and state --------------
  var enhanced = window.WeakSet ? new WeakSet() : null;
  function enhance() {
    var page = readingPage();
    if (!page || !enhanced) return;
    page.querySelectorAll("li.entry").forEach(function (entry) {
      var copy = entry.querySelector("button.copy-text");
      if (copy) copy.hidden = !entry.querySelector("template.copy-source");  // a long body: once opened
      if (enhanced.has(entry)) return;
      enhanced.add(entry);
      entry.querySelectorAll(".entry-actions, .fold-toggle").forEach(function (element) { element.hidden = false; });
      var kind = foldKind(entry);
      if (kind && folded[kind]) setFolded(entry, true);
    });
    page.querySelectorAll(".body pre").forEach(addCodeButton);
    page.querySelectorAll(".keys-hint, .fold-all").forEach(function (element) { element.hidden = false; });
    syncFoldButtons();
    enhancePanel();
    watchToolbar();
    updatePosition();
    focusableScrollBoxes(page);
  }

  // New results: the whole list again. As soon as they are in (not once htmx has settled them, a moment
  // later), so that a result followed in that moment stays followed, its list folded.
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (!target || target !== event.target || target !== searchPanel()) return;
    var config = event.detail.requestConfig;
    if (isSearchForm(config && config.elt)) target.shownQuery = searchQuery(config);  // a pager keeps its words
    target.classList.remove("folded");
    currentHit = null;
    enhancePanel();
    measureToolbar();
    if (pendingWalk) {
      var step = pendingWalk;
      pendingWalk = 0;
      window.setTimeout(function () { walkHits(step); }, 0);
    }
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    settleLanding(event);
    var source = event.detail && event.detail.requestConfig && event.detail.requestConfig.elt;
    var landing = source && source.getAttribute && source.getAttribute("data-land");
    if (landing) {  // a version switch: the reader stays at the fork
      window.setTimeout(function () {
        var element = document.getElementById(landing) || itemFrom(Number(landing.slice(2)));
        if (element) land(element);
      }, 0);
    }
    enhance();
    settlePlace();
    if (pendingMove) {
      var step = pendingMove;
      pendingMove = 0;
      move(step);
    }
  });
  document.addEventListener("htmx:responseError", function () {
    pendingMove = 0; pendingPlace = null; pendingLand = null; keptResults = null; pendingWalk = 0;
  });

  // ---- upload: a progress bar while a big file goes up; without JS the form posts as usual -----------------
  function initProgress() {
    var form = document.querySelector("form.upload");
    if (!form || !window.FormData || !window.XMLHttpRequest) return;
    var status = document.createElement("div");
    status.className = "upload-status";
    status.hidden = true;
    var bar = document.createElement("progress");
    bar.max = 100;
    var note = document.createElement("span");
    note.className = "upload-note";
    note.setAttribute("role", "status");
    status.append(bar, note);
    form.querySelector(".form-actions").after(status);
    var button = form.querySelector("button[type=submit]");

    function fail(message) {
      status.classList.add("failed");
      bar.hidden = true;
      note.textContent = message;
      button.disabled = false;
      status.scrollIntoView({ block: "nearest" });
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var file = form.querySelector("input[type=file]");
      var text = form.querySelector("textarea[name=text]");
      if (file && !file.files.length && text && !text.value.trim()) {  // said where the reader looks, not below
        status.hidden = false;
        status.classList.add("failed");
        bar.hidden = true;
        note.textContent = "Choose a file or paste a transcript first.";
        status.scrollIntoView({ block: "nearest" });
        file.focus();
        return;
      }
      var request = new XMLHttpRequest();
      request.open("POST", form.action);
      request.setRequestHeader("Accept", "application/json");
      status.hidden = false;
      status.classList.remove("failed");
      bar.hidden = false;
      bar.removeAttribute("value");
      note.textContent = "Uploading…";
      button.disabled = true;
      request.upload.addEventListener("progress", function (progress) {
        if (!progress.lengthComputable) return;
        bar.value = Math.round(progress.loaded / progress.total * 100);
        note.textContent = "Uploading… " + bar.value + "% of " + (progress.total / 1048576).toFixed(1) + " MiB";
      });
      request.upload.addEventListener("load", function () {
        bar.removeAttribute("value");  // indeterminate: the server is reading it now
        note.textContent = "Uploaded; reading the transcript…";
      });
      request.addEventListener("load", function () {
        var body = null;
        try { body = JSON.parse(request.responseText); } catch (error) { body = null; }
        if ((request.status === 201 || request.status === 202) && body && body.url) {  // 202: its page shows progress
          window.location.assign(body.url);
        } else if (body && body.error) {
          fail(body.error.message);
        } else {
          fail("The upload failed (HTTP " + request.status + ").");
        }
      });
      request.addEventListener("error", function () { fail("The upload failed: the connection was lost."); });
      request.send(new FormData(form));
    });
  }

  // ---- upload: drop a file on the picker -------------------------------------------------------------
  function initDrop() {
    var zone = document.querySelector("[data-drop]");
    if (!zone) return;
    var input = zone.querySelector("input[type=file]");
    var label = zone.querySelector("[data-drop-name]");
    function show() {
      var count = input.files.length;
      label.textContent = count > 1 ? count + " files" : count ? input.files[0].name : "";
    }
    input.addEventListener("change", show);
    ["dragenter", "dragover"].forEach(function (type) {
      zone.addEventListener(type, function (event) { event.preventDefault(); zone.classList.add("dragging"); });
    });
    ["dragleave", "drop"].forEach(function (type) {
      zone.addEventListener(type, function () { zone.classList.remove("dragging"); });
    });
    zone.addEventListener("drop", function (event) {
      event.preventDefault();
      if (event.dataTransfer && event.dataTransfer.files.length) {
        input.files = event.dataTransfer.files;
        show();
      }
    });
  }

  // ---- copy fields: select the whole link on focus ----------------------------------------------------
  document.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches("[data-select-on-focus]")) event.target.select();
  });

  function showExactCopy() {
    document.querySelectorAll("button.copy-exact").forEach(function (button) { button.hidden = false; });
  }
  // ---- an upload being processed: its page's stream says when it is ready, and the page loads again -------
  document.addEventListener("htmx:sseMessage", function (event) {
    var region = event.target.closest ? event.target.closest("[data-processing]") : null;
    if (region && event.detail && event.detail.type === "ready") window.location.reload();
  });

  // Copy buttons of links (the share panel's): shown when the script that runs them is here.
  function showCopyButtons() {
    document.querySelectorAll("button.copy-value[hidden]").forEach(function (button) { button.hidden = false; });
  }

  window.addEventListener("hashchange", landOnHash);

  function init() {
    initDrop(); initProgress(); enhance(); showExactCopy(); showCopyButtons(); focusableScrollBoxes(document);
    landOnHash();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
