// The desk kiosk: strangers use it one after the other, so nothing of one
// player may be left for the next. After `data-idle` seconds without a touch, and at once on
// "Done" or "Cancel" (links marked data-replace), the kiosk goes back to its start screen with
// location.replace — the screen just left does not stay in the history — after clearing every
// field (nothing left for the browser to restore or autofill).
(function () {
  "use strict";
  var body = document.body;
  if (!body || !body.classList.contains("kiosk")) return;
  var start = body.getAttribute("data-start") || "/kiosk";
  var idle = parseInt(body.getAttribute("data-idle"), 10);
  if (!(idle > 0)) idle = 30;

  function clearFields() {
    var inputs = document.querySelectorAll("input, textarea");
    for (var i = 0; i < inputs.length; i++) {
      var el = inputs[i];
      if (el.type === "hidden") continue;
      if (el.type === "checkbox" || el.type === "radio") el.checked = false;
      else el.value = "";
    }
  }

  function backToStart() {
    clearFields();
    location.replace(start);
  }

  // The start screen untouched, in the room's language, is already what idle leads to.
  function pristine() {
    if (location.pathname !== start || location.search) return false;
    var inputs = document.querySelectorAll("input:not([type=hidden])");
    for (var i = 0; i < inputs.length; i++) {
      if (inputs[i].value || inputs[i].checked) return false;
    }
    return !document.getElementById("kiosk-problem") && !document.getElementById("kiosk-errors");
  }

  var timer = null;
  function arm() {
    if (timer) clearTimeout(timer);
    timer = setTimeout(function () {
      if (!pristine()) backToStart();
      else arm();
    }, idle * 1000);
  }
  ["pointerdown", "touchstart", "keydown", "input", "change"].forEach(function (ev) {
    document.addEventListener(ev, arm, { passive: true, capture: true });
  });
  arm();

  document.addEventListener("click", function (e) {
    var a = e.target.closest ? e.target.closest("a[data-replace]") : null;
    if (!a) return;
    e.preventDefault();
    clearFields();
    location.replace(a.getAttribute("href") || start);
  });

  // A page restored from the back-forward cache (it should not be: no-store) goes to the start.
  window.addEventListener("pageshow", function (e) {
    if (e.persisted) backToStart();
  });
})();
