// The redaction page: text selected in a message's text fills the passage to redact, so that the uploader
// chooses it by selecting it. Without this script the passage is typed (or pasted) into the field.
"use strict";
(function () {
  const field = document.querySelector("[data-selection-of]");
  if (!field) return;
  const text = document.getElementById(field.dataset.selectionOf);
  document.addEventListener("selectionchange", function () {
    const selection = document.getSelection();
    if (!selection || selection.isCollapsed || selection.rangeCount === 0) return;
    const range = selection.getRangeAt(0);
    if (text.contains(range.startContainer) && text.contains(range.endContainer)) {
      field.value = selection.toString();
    }
  });
})();
