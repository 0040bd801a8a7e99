// Live floor: follows the server's event stream and refreshes the dashboard's live part
// (htmx) whenever something changed. The browser reconnects by itself after a drop and
// sends Last-Event-ID, so no change is missed. Without EventSource, the page still
// refreshes itself every 30 seconds.
(function () {
  "use strict";
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
