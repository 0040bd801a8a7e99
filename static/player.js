// The player's page (/p/{token}): polls /p/{token}/state every few seconds with the last
// ETag (If-None-Match → 304 when nothing changed) and swaps the live part in without a
// reload; the seat call's countdown ticks here every second against the server's clock
// (X-Now), so a moved test clock or a wrong phone clock still counts down right.
(function () {
  "use strict";
  var root = document.getElementById("plink");
  var box = document.getElementById("plink-state");
  if (!root || !box) { return; }
  var url = root.getAttribute("data-state");
  var etag = null;
  var offset = Number(root.getAttribute("data-now")) - Date.now() / 1000;
  var busy = false;

  function pad(n) { return n < 10 ? "0" + n : "" + n; }

  function tick() {
    var now = Date.now() / 1000 + offset;
    var els = box.querySelectorAll(".countdown[data-deadline]");
    for (var i = 0; i < els.length; i++) {
      var left = Math.max(0, Math.floor(Number(els[i].getAttribute("data-deadline")) - now));
      els[i].textContent = Math.floor(left / 60) + ":" + pad(left % 60);
      els[i].classList.toggle("urgent", left < 60);
    }
  }

  function poll() {
    if (busy || document.hidden) { return; }
    busy = true;
    var headers = {};
    if (etag) { headers["If-None-Match"] = etag; }
    fetch(url, { headers: headers, cache: "no-store", credentials: "omit" })
      .then(function (res) {
        var now = Number(res.headers.get("X-Now"));
        if (now) { offset = now - Date.now() / 1000; }
        if (res.status === 304) { return null; }
        // Too many requests for a moment, or the server busy: keep showing the page, the
        // next poll tries again. A link no longer valid (404/410): show why (reload).
        if (res.status === 429 || res.status >= 500) { return null; }
        if (!res.ok) { window.location.reload(); return null; }
        etag = res.headers.get("ETag");
        return res.text();
      })
      .then(function (html) {
        // A "leave this list" confirmation being opened is not swapped away under the finger.
        if (html !== null && html !== undefined && !box.querySelector("details[open]")) {
          box.innerHTML = html;
          tick();
        }
      })
      .catch(function () { /* offline for a moment: the next poll tries again */ })
      .then(function () { busy = false; });
  }

  tick();
  setInterval(tick, 1000);
  setInterval(poll, 3000);
  document.addEventListener("visibilitychange", poll);
})();
