// The viewer's own script: pair highlighting in the debug view, and drag-and-drop on the upload form.
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

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", initDrop);
  else initDrop();
})();
