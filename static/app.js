// The viewer's own script: pair highlighting, long messages, a bounded number of windows in the DOM, and the
// upload form's drag-and-drop and progress bar.
// Everything here is progressive: pages work without it.
(function () {
  "use strict";

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

  // A link to a message already on the page scrolls to it instead of loading its window again.
  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a[data-jump]") : null;
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = document.getElementById(link.getAttribute("data-jump"));
    if (!target) return;
    event.preventDefault();
    target.scrollIntoView({ block: "center" });
    if (target.hasAttribute("tabindex")) target.focus({ preventScroll: true });
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
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
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
        if (request.status === 201 && body && body.url) {
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
    function show() { label.textContent = input.files.length ? input.files[0].name : ""; }
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

  function init() { initDrop(); initProgress(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
