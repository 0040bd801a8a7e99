// Live floor: follows the server's event stream and refreshes the dashboard's live part
// (htmx) whenever something changed. The browser reconnects by itself after a drop and
// sends Last-Event-ID, so no change is missed. Without EventSource, the page still
// refreshes itself every 30 seconds.
(function () {
  "use strict";
  // Countdowns tick every second between refreshes (from the seconds left at render time,
  // so the server's clock decides, not the browser's).
  setInterval(function () {
    var els = document.querySelectorAll(".countdown[data-seconds]");
    for (var i = 0; i < els.length; i++) {
      var left = Math.max(0, parseInt(els[i].getAttribute("data-seconds"), 10) - 1);
      els[i].setAttribute("data-seconds", String(left));
      els[i].textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
      if (left === 0) { els[i].classList.add("expired"); }
    }
  }, 1000);
  var live = document.getElementById("floor-live");
  if (!live || !window.EventSource || !window.htmx) { return; }
  var pending = null;
  var status = document.getElementById("live-status");
  function refresh() {
    pending = null;
    var el = document.getElementById("floor-live");
    if (el) { window.htmx.trigger(el, "refresh"); }
  }
  // Start right after the last event this page was rendered with; on reconnects the
  // browser sends Last-Event-ID itself.
  var since = status ? status.getAttribute("data-since") : null;
  var url = live.getAttribute("data-stream") + (since ? "?since=" + encodeURIComponent(since) : "");
  var es = new EventSource(url);
  es.onmessage = function () {
    if (pending) { clearTimeout(pending); }
    pending = setTimeout(refresh, 120);
  };
  es.onopen = function () { if (status) { status.className = "badge badge-ok"; status.textContent = status.getAttribute("data-on"); } };
  es.onerror = function () { if (status) { status.className = "badge badge-warn"; status.textContent = status.getAttribute("data-off"); } };
})();
