// The floor board. It follows the server's event stream and, for each burst of
// events, asks /floor/board for only the tiles, lists and open panel those events touched
// (htmx out-of-band swaps): nothing else on the page moves, the focus stays where it was.
// The browser reconnects by itself after a drop and sends Last-Event-ID, so no change is
// missed. A click on a table opens its panel in place (the address says which, so a reload
// or a form sent from the panel comes back to it). Without script, every link and form
// still works as plain pages.
(function () {
  "use strict";
  // Countdowns tick every second between updates (from the seconds left at render time, so
  // the server's clock decides, not the browser's).
  setInterval(function () {
    var els = document.querySelectorAll(".countdown[data-seconds]");
    for (var i = 0; i < els.length; i++) {
      var left = Math.max(0, parseInt(els[i].getAttribute("data-seconds"), 10) - 1);
      els[i].setAttribute("data-seconds", String(left));
      els[i].textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
      if (left === 0) { els[i].classList.add("expired"); }
    }
  }, 1000);

  // The toast of the last action stays long enough to undo (10 s), then goes.
  var toast = document.getElementById("floor-done");
  if (toast) { setTimeout(function () { toast.hidden = true; }, 12000); }

  // ---- search and game filter: tiles and game groups hide, nothing is reloaded ----------
  var q = document.getElementById("board-q");
  var game = document.getElementById("board-game");
  function applyFilter() {
    var text = q ? q.value.trim().toLowerCase() : "";
    var g = game ? game.value : "";
    var tiles = document.querySelectorAll(".tile");
    for (var i = 0; i < tiles.length; i++) {
      var t = tiles[i];
      var hit = (!g || t.getAttribute("data-game") === g) &&
        (!text || (" " + t.getAttribute("data-q") + " ").indexOf(text) >= 0 ||
          t.getAttribute("data-q").split(" ")[0] === text);
      t.hidden = !hit;
    }
    var heads = document.querySelectorAll(".group-head");
    for (var j = 0; j < heads.length; j++) {
      var box = heads[j].nextElementSibling;
      var any = box && box.querySelector(".tile:not([hidden])");
      heads[j].hidden = !any;
      if (box) { box.hidden = !any; }
    }
    var lists = document.querySelectorAll(".board-lists .list-card");
    for (var k = 0; k < lists.length; k++) {
      lists[k].hidden = !!g && lists[k].id !== "list-" + g;
    }
  }
  function keepFilterInAddress() {
    var u = new URL(window.location.href);
    ["q", "game"].forEach(function (k) {
      var el = k === "q" ? q : game;
      if (el && el.value) { u.searchParams.set(k, el.value); } else { u.searchParams.delete(k); }
    });
    history.replaceState(history.state, "", u.pathname + u.search + u.hash);
  }
  if (q) { q.addEventListener("input", function () { applyFilter(); keepFilterInAddress(); }); }
  if (game) { game.addEventListener("change", function () { applyFilter(); keepFilterInAddress(); }); }
  var filterForm = document.getElementById("board-filter");
  if (filterForm) { filterForm.addEventListener("submit", function (e) { e.preventDefault(); }); }
  applyFilter();

  // ---- the table panel --------------------------------------------------------------------
  var panel = document.getElementById("panel");
  function markSelected(number) {
    var old = document.querySelectorAll(".tile.selected");
    for (var i = 0; i < old.length; i++) { old[i].classList.remove("selected"); }
    var t = number && document.getElementById("tile-" + number);
    if (t) { t.classList.add("selected"); }
  }
  function openPanel(number, push) {
    if (!window.htmx || !panel) { return false; }
    window.htmx.ajax("GET", "/floor/panel?table=" + encodeURIComponent(number), {
      target: "#panel-body", swap: "innerHTML"
    }).then(function () {
      panel.hidden = false;
      markSelected(number);
      var title = document.getElementById("panel-title");
      if (title) { title.setAttribute("tabindex", "-1"); title.focus(); }
    });
    if (push) {
      var u = new URL(window.location.href);
      u.searchParams.set("table", number);
      u.searchParams.delete("draw");
      history.pushState({ table: number }, "", u.pathname + u.search);
    }
    return true;
  }
  function closePanel(push) {
    if (!panel) { return; }
    var open = currentPanel();
    panel.hidden = true;
    document.getElementById("panel-body").innerHTML = "";
    markSelected(null);
    if (push) {
      var u = new URL(window.location.href);
      u.searchParams.delete("table");
      history.pushState({}, "", u.pathname + u.search);
    }
    // Back to the table the panel was for.
    var t = open && document.getElementById("tile-" + open.number);
    if (t) { t.focus(); }
  }
  function currentPanel() {
    var sec = panel && !panel.hidden && panel.querySelector(".table-card[data-id]");
    if (!sec) { return null; }
    return { id: sec.getAttribute("data-id"), number: sec.id.replace("table-", "") };
  }
  document.addEventListener("click", function (e) {
    if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
    var tile = e.target.closest && e.target.closest("a.tile");
    if (tile) {
      var number = tile.id.replace("tile-", "");
      if (openPanel(number, true)) { e.preventDefault(); }
      return;
    }
    // An alarm on the strip that names a table opens that table's panel.
    var go = e.target.closest && e.target.closest("a.alarm-go[data-table]");
    if (go) {
      if (openPanel(go.getAttribute("data-table"), true)) { e.preventDefault(); }
      return;
    }
    var close = e.target.closest && e.target.closest("a.panel-close");
    if (close && panel) { e.preventDefault(); closePanel(true); }
  });
  // A seat's menu opens downwards, or upwards when the window has no room for it below
  // (decided as it is clicked, from the seat's place and the menu's number of actions).
  document.addEventListener("click", function (e) {
    var sum = e.target.closest && e.target.closest(".seat-actions > summary");
    if (!sum || window.innerWidth <= 600) { return; }
    var d = sum.parentNode;
    if (d.open) { return; }
    var menu = d.querySelector(".seat-menu");
    var n = menu ? menu.querySelectorAll("form, select").length : 0;
    var needed = n * 48 + 24;
    // The menu hangs from the seat's row (its containing block), below or above it.
    var r = (d.closest("li") || sum).getBoundingClientRect();
    var up = r.bottom + needed > window.innerHeight && r.top - needed >= 0;
    d.classList.toggle("up", up);
    d.classList.toggle("down", !up);
  }, true);
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && panel && !panel.hidden) {
      // An open menu closes first.
      var menu = panel.querySelector("details[open]");
      if (menu) { menu.removeAttribute("open"); menu.querySelector("summary").focus(); return; }
      closePanel(true);
    }
  });
  window.addEventListener("popstate", function () {
    var n = new URL(window.location.href).searchParams.get("table");
    if (n) { openPanel(n, false); } else { closePanel(false); }
  });
  var first = currentPanel();
  if (first) { markSelected(first.number); }

  // ---- live updates -------------------------------------------------------------------------
  var live = document.getElementById("floor-live");
  if (!live || !window.EventSource || !window.htmx) { return; }
  var status = document.getElementById("live-status");
  var touchedTables = {};
  var touchedGames = {};
  var whole = false;
  var pending = null;

  // What has the focus, said so that it can be found again in the new markup: an id, else
  // the form it belongs to and its place in it; and which menus were open.
  function focusKey() {
    var a = document.activeElement;
    if (!a || a === document.body) { return null; }
    if (a.id) { return { id: a.id }; }
    var f = a.form || (a.closest && a.closest("form"));
    if (f && f.getAttribute("action")) {
      var items = Array.prototype.indexOf.call(f.elements, a);
      return { action: f.getAttribute("action"), index: items };
    }
    var s = a.closest && a.closest("summary");
    if (s && s.getAttribute("aria-label")) { return { summary: s.getAttribute("aria-label") }; }
    return null;
  }
  function refocus(k) {
    if (!k || (document.activeElement && document.activeElement !== document.body)) { return; }
    var el = null;
    if (k.id) { el = document.getElementById(k.id); }
    else if (k.action) {
      var f = document.querySelector('form[action="' + k.action.replace(/"/g, "") + '"]');
      el = f && f.elements[k.index];
    } else if (k.summary) {
      el = document.querySelector('summary[aria-label="' + k.summary.replace(/"/g, "") + '"]');
    }
    if (el) { el.focus({ preventScroll: true }); }
  }
  function openMenus() {
    var out = [];
    var ds = document.querySelectorAll("#panel details[open] > summary[aria-label]");
    for (var i = 0; i < ds.length; i++) { out.push(ds[i].getAttribute("aria-label")); }
    return out;
  }
  function reopen(labels) {
    labels.forEach(function (l) {
      var s = document.querySelector('#panel summary[aria-label="' + l.replace(/"/g, "") + '"]');
      if (s && s.parentNode) { s.parentNode.setAttribute("open", ""); }
    });
  }

  function flush() {
    pending = null;
    var k = focusKey();
    var menus = openMenus();
    var tables = Object.keys(touchedTables);
    var games = Object.keys(touchedGames);
    touchedTables = {};
    touchedGames = {};
    var board = !!document.querySelector(".tile");
    var missing = tables.some(function (id) { return !document.querySelector('.tile[data-id="' + id + '"]'); });
    var done;
    if (!board || whole || missing || tables.length > 100) {
      // Not a board (a tablet's view follows its own stream), or too much changed: the live
      // part refreshes whole, from its own address.
      whole = false;
      var el = document.getElementById("floor-live");
      if (!el) { return; }
      done = new Promise(function (resolve) {
        document.body.addEventListener("htmx:afterSettle", function once() {
          document.body.removeEventListener("htmx:afterSettle", once);
          resolve();
        });
        window.htmx.trigger(el, "refresh");
      });
    } else {
      var url = "/floor/board?t=" + tables.join(",") + "&g=" + games.join(",");
      var p = currentPanel();
      if (p && tables.indexOf(p.id) >= 0) { url += "&panel=" + p.id; }
      done = window.htmx.ajax("GET", url, { target: "#board-alerts", swap: "none" });
    }
    done.then(function () {
      applyFilter();
      reopen(menus);
      refocus(k);
      var p = currentPanel();
      markSelected(p ? p.number : null);
    });
  }
  function schedule() {
    if (pending) { clearTimeout(pending); }
    pending = setTimeout(flush, 120);
  }

  // Start right after the last event this page was rendered with; on reconnects the
  // browser sends Last-Event-ID itself.
  var since = status ? status.getAttribute("data-since") : null;
  var url = live.getAttribute("data-stream") + (since ? "?since=" + encodeURIComponent(since) : "");
  var es = new EventSource(url);
  es.onmessage = function (ev) {
    var d = null;
    try { d = JSON.parse(ev.data); } catch (err) { whole = true; }
    if (d) {
      if (d.table_id) { touchedTables[d.table_id] = 1; }
      var g = d.payload && d.payload.game_id;
      if (g) { touchedGames[g] = 1; }
      if (d.kind && d.kind.indexOf("table.") === 0 && !d.table_id) { whole = true; }
    }
    schedule();
  };
  es.onopen = function () { if (status) { status.className = "badge badge-ok"; status.textContent = status.getAttribute("data-on"); } };
  es.onerror = function () { if (status) { status.className = "badge badge-warn"; status.textContent = status.getAttribute("data-off"); } };
})();
