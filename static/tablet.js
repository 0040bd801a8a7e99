// Dealer tablet helpers.
// 1. Buttons with data-confirm (e.g. "Sign out") need a second tap within 4 seconds: the
//    first tap only changes the label, so a stray touch does not sign the dealer out.
// 2. The seat page (main[data-live]) follows the table's event stream. On a change it loads
//    the page again in the background and swaps in each section, except a section where the
//    dealer is typing (focus, or a value that differs from the fresh page): that one is kept
//    and a banner offers to reload. When the player has left the seat, back to the table.
(function () {
  "use strict";
  document.addEventListener("click", function (ev) {
    var btn = ev.target.closest ? ev.target.closest("button[data-confirm]") : null;
    if (!btn) { return; }
    if (btn.getAttribute("data-armed") === "1") { return; }
    ev.preventDefault();
    var label = btn.textContent;
    btn.setAttribute("data-armed", "1");
    btn.classList.add("btn-confirming");
    btn.textContent = btn.getAttribute("data-confirm");
    setTimeout(function () {
      btn.removeAttribute("data-armed");
      btn.classList.remove("btn-confirming");
      btn.textContent = label;
    }, 4000);
  });

  var main = document.querySelector("main[data-live]");
  if (!main || !window.fetch || !window.DOMParser) { return; }
  var stale = document.getElementById("live-stale");
  var status = document.getElementById("live-status");

  function typing(section, fresh) {
    var active = document.activeElement;
    if (active && active !== document.body && section.contains(active) && active.matches("input, textarea, select")) { return true; }
    var inputs = section.querySelectorAll("input:not([type=hidden]), textarea, select");
    for (var i = 0; i < inputs.length; i++) {
      var el = inputs[i];
      if (el.type === "checkbox" || el.type === "radio") {
        if (el.checked !== el.defaultChecked) { return true; }
        continue;
      }
      var now = el.value;
      var other = fresh && el.id ? fresh.querySelector("#" + CSS.escape(el.id)) : null;
      var base = other ? other.value : (el.tagName === "SELECT" ? now : el.defaultValue);
      if (now !== base && now !== "") { return true; }
    }
    return false;
  }

  function swap(doc) {
    var fresh = doc.querySelector("main[data-live]");
    if (!fresh) { return; }
    var keptDirty = false;
    var next = [];
    var kids = fresh.children;
    for (var i = 0; i < kids.length; i++) {
      var n = kids[i];
      var old = n.id ? document.getElementById(n.id) : null;
      if (old && old.parentNode === main && typing(old, n)) { next.push(old); keptDirty = true; }
      else { next.push(document.importNode(n, true)); }
    }
    // A section gone from the fresh page where the dealer was typing stays (marked stale).
    var olds = main.children;
    for (var j = 0; j < olds.length; j++) {
      var o = olds[j];
      if (o.id && o.id !== "live-stale" && !fresh.querySelector("#" + CSS.escape(o.id)) && typing(o, null)) { next.push(o); keptDirty = true; }
    }
    while (main.firstChild) { main.removeChild(main.firstChild); }
    for (var k = 0; k < next.length; k++) { main.appendChild(next[k]); }
    stale = document.getElementById("live-stale");
    if (stale) { stale.hidden = !keptDirty; }
    // The header's title (alias) and the page title follow too.
    var title = doc.querySelector("title");
    if (title) { document.title = title.textContent; }
  }

  var busy = false, again = false;
  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(window.location.pathname, { credentials: "same-origin", headers: { "X-Live-Refresh": "1" } })
      .then(function (res) {
        var gone = res.redirected || !res.ok;
        if (gone) {
          // The seat was left or taken over: back to the table unless the dealer is typing.
          if (typing(main, null)) { if (stale) { stale.hidden = false; } }
          else { window.location.assign(main.getAttribute("data-back") || "/tablet"); }
          return null;
        }
        return res.text();
      })
      .then(function (html) { if (html) { swap(new DOMParser().parseFromString(html, "text/html")); } })
      .catch(function () {})
      .then(function () { busy = false; if (again) { again = false; refresh(); } });
  }

  var pending = null;
  function soon() { if (pending) { clearTimeout(pending); } pending = setTimeout(refresh, 150); }
  if (window.EventSource) {
    var since = main.getAttribute("data-since");
    var es = new EventSource(main.getAttribute("data-live") + (since ? "?since=" + encodeURIComponent(since) : ""));
    es.onmessage = soon;
    es.onopen = function () { if (status) { status.className = "badge badge-ok"; status.textContent = status.getAttribute("data-on"); } };
    es.onerror = function () { if (status) { status.className = "badge badge-warn"; status.textContent = status.getAttribute("data-off"); } };
  }
  // A countdown reaching zero changes the page (e.g. the absence runs out): the scheduler's
  // event refreshes it; without a stream, refresh every 30 seconds anyway.
  setInterval(refresh, 30000);
})();
