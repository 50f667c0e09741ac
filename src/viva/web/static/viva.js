// Viva's own script: keyboard shortcuts and focus after htmx swaps. No inline script
// anywhere (the CSP forbids it); everything works without this file, it only adds keys.
//   /            focus the search box
//   Ctrl+Enter   submit the answer being typed
//   r / m        "I was right" / "I missed it" on the marking page
//   n, s         next question / skip (any element with data-key="n" or "s")
//   ?            show the shortcuts
(function () {
  "use strict";

  function typing(el) {
    return el && (el.tagName === "TEXTAREA" || el.tagName === "INPUT" || el.tagName === "SELECT" || el.isContentEditable);
  }

  function focusLanding() {
    var target = document.querySelector("[data-autofocus]") || document.querySelector("[autofocus]");
    if (target) { target.focus({ preventScroll: false }); }
  }

  function showShortcuts() {
    var box = document.getElementById("shortcuts");
    if (!box) {
      box = document.createElement("dialog");
      box.id = "shortcuts";
      box.setAttribute("aria-label", "Keyboard shortcuts");
      var rows = [["/", "search"], ["Ctrl+Enter", "submit your answer"], ["R", "I was right"],
                  ["M", "I missed it"], ["N", "next question"], ["S", "skip"], ["Esc", "close"]];
      var list = document.createElement("dl");
      rows.forEach(function (row) {
        var dt = document.createElement("dt"); var k = document.createElement("kbd");
        k.textContent = row[0]; dt.appendChild(k);
        var dd = document.createElement("dd"); dd.textContent = row[1];
        list.appendChild(dt); list.appendChild(dd);
      });
      var h = document.createElement("h2"); h.textContent = "Keyboard shortcuts";
      box.appendChild(h); box.appendChild(list);
      document.body.appendChild(box);
    }
    if (typeof box.showModal === "function") { box.showModal(); }
  }

  document.addEventListener("keydown", function (event) {
    var el = document.activeElement;
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && el && el.tagName === "TEXTAREA") {
      var form = el.closest("form");
      if (form) { event.preventDefault(); form.requestSubmit(); }
      return;
    }
    if (typing(el) || event.ctrlKey || event.metaKey || event.altKey) { return; }
    if (event.key === "/") {
      var search = document.getElementById("site-search");
      if (search) { event.preventDefault(); search.focus(); }
      return;
    }
    if (event.key === "?") { showShortcuts(); return; }
    var key = event.key.toLowerCase();
    var target = document.querySelector('[data-key="' + key + '"]');
    if (target && key.length === 1) { event.preventDefault(); target.click(); }
  });

  document.addEventListener("DOMContentLoaded", focusLanding);
  // After a boosted navigation, move focus to the new content for keyboard and screen-reader users.
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail && event.detail.boosted) { focusLanding(); }
  });
})();
