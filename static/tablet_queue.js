// The dealer tablet through a Wi-Fi drop.
// 1. Every tap on the tablet's pages (a form posted to /tablet/...) is sent by this script
//    with fetch, one at a time in the order tapped. Each carries when it was tapped
//    (`tapped_at`, RFC 3339 UTC, on the server's clock as far as the tablet knows it) and a key
//    (`idempotency_key`, kept from the form or made here; also the `Idempotency-Key` header):
//    a tap re-sent because its answer was lost is answered, not applied again.
// 2. A tap that cannot reach the server (offline, or the connection dropped during the
//    request) is kept on the tablet (localStorage: the form's action, its fields with the
//    key, the time tapped, a label: what and which seat or player) and sent when the
//    connection is back; a network failure in the middle stops and resumes later.
// 3. The banner says at once when the tablet is offline (navigator.onLine, the live stream's
//    errors, a failed request) and when it is back. The list "Sent while offline" says what
//    became of each tap sent late: applied, or refused with the server's reason.
// The server answers these taps in JSON (`X-Tablet-Queue: 1`): `{ok, to}` or `{ok: false,
// message}` (409 when a tap sent late was superseded meanwhile: an away or back made before
// the seat's newer one, BSOP 36, 39 — listed as refused, with the reason). A form marked data-tap-direct (a password, a confirmation on screen) is posted
// as a page, and needs the connection.
(function () {
  "use strict";
  var banner = document.getElementById("offline-banner");
  var sent = document.getElementById("offline-sent");
  var list = document.getElementById("offline-sent-list");
  if (!banner || !sent || !list || !window.fetch || !window.localStorage || !window.URLSearchParams) { return; }

  var QUEUE = "cardroom.tablet.queue";
  var DONE = "cardroom.tablet.sent";
  var BACK = "cardroom.tablet.back";
  var KEEP_DONE = 20;
  var KEEP_HOURS = 12;

  function load(k) {
    try { var v = JSON.parse(window.localStorage.getItem(k) || "[]"); return Array.isArray(v) ? v : []; }
    catch (e) { return []; }
  }
  function save(k, v) { try { window.localStorage.setItem(k, JSON.stringify(v)); } catch (e) { /* full: kept in memory only */ } }

  // The server's clock minus the tablet's (from each answer's Date header), so that the time
  // tapped is said on the server's clock.
  var skew = 0;
  // The time tapped is on the server's clock: the page says what it was when rendered
  // (`data-now`, ms); without it, the answers' Date header (whole seconds) stands in.
  var rendered = Number(banner.getAttribute("data-now"));
  if (rendered > 0) { skew = rendered - Date.now(); }
  function learnClock(res) {
    if (rendered > 0) { return; }
    var d = res.headers.get("Date");
    var t = d ? Date.parse(d) : NaN;
    if (!isNaN(t)) { skew = t - Date.now(); }
  }

  function newKey() {
    var c = window.crypto;
    if (c && c.randomUUID) { return c.randomUUID(); }
    var bytes = [];
    if (c && c.getRandomValues) { var a = new Uint8Array(16); c.getRandomValues(a); bytes = Array.prototype.slice.call(a); }
    else { for (var i = 0; i < 16; i++) { bytes.push(Math.floor(Math.random() * 256)); } }
    return bytes.map(function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }

  function clock(iso) {
    var d = new Date(iso);
    if (isNaN(d.getTime())) { return ""; }
    return (d.getHours() < 10 ? "0" : "") + d.getHours() + ":" + (d.getMinutes() < 10 ? "0" : "") + d.getMinutes();
  }

  function text(el) { return el ? (el.textContent || "").replace(/\s+/g, " ").trim() : ""; }

  // What the tap was, said for the dealer: the button, and the seat or player it is about.
  function labelOf(form, submitter) {
    var what = text(submitter) || text(form.querySelector("button[type=submit], button:not([type])"));
    var who = "";
    var message = form.closest(".tablet-message");
    var holder = form.closest(".tablet-call, .cagnotte-due, .tablet-ruling, .special-seat, li");
    if (message) {
      who = text(message.querySelector(".tablet-message-body")).slice(0, 40);
    } else if (holder) {
      who = [text(holder.querySelector(".tablet-call-seat, .seat-no")), text(holder.querySelector(".tablet-call-who, .who"))]
        .filter(function (s) { return s; }).join(" ");
    } else if (document.querySelector("main.seat-page")) {
      // A seat's page: the seat and the player, as its title says them.
      who = text(document.querySelector(".tablet-title"));
    }
    return who ? what + " · " + who : what;
  }

  // ---- the banner -------------------------------------------------------------------------
  var offline = false;
  var sending = false;
  var backTimer = null;

  function show(state) {
    var q = load(QUEUE);
    var waiting = q.length ? " " + banner.getAttribute("data-waiting") + " " + q.length : "";
    banner.setAttribute("data-state", state);
    banner.className = "tablet-offline tablet-offline-" + state;
    if (state === "hidden") { banner.hidden = true; return; }
    banner.hidden = false;
    var key = { offline: "data-offline", sending: "data-sending", online: "data-online", "sign-in": "data-sign-in", direct: "data-direct" }[state];
    banner.textContent = banner.getAttribute(key) + (state === "online" ? "" : waiting);
  }

  function goOffline() {
    if (offline) { return; }
    offline = true;
    if (backTimer) { clearTimeout(backTimer); backTimer = null; }
    show("offline");
    probeSoon();
  }

  function goOnline() {
    if (!offline) { return; }
    offline = false;
    show(load(QUEUE).length ? "sending" : "online");
    backSoon();
    flush();
  }

  function backSoon() {
    if (backTimer) { clearTimeout(backTimer); }
    backTimer = setTimeout(function () { backTimer = null; if (!offline && !sending) { show("hidden"); } }, 6000);
  }

  // While offline: is the server reachable again?
  var probing = null;
  function probeSoon() {
    if (probing) { return; }
    probing = setTimeout(function () {
      probing = null;
      fetch("/healthz?tablet=" + Date.now(), { cache: "no-store", credentials: "same-origin" })
        .then(function () { goOnline(); })
        .catch(function () { if (offline) { probeSoon(); } });
    }, 3000);
  }

  window.addEventListener("offline", goOffline);
  window.addEventListener("online", function () { probing = null; probeSoon(); });
  // The live stream (floor.js on the table, tablet.js on a seat) marks its badge: a drop there
  // is checked at once.
  var live = document.getElementById("live-status");
  if (live && window.MutationObserver) {
    new MutationObserver(function () {
      if (live.classList.contains("badge-warn") && !offline) {
        fetch("/healthz?tablet=" + Date.now(), { cache: "no-store", credentials: "same-origin" })
          .catch(goOffline);
      } else if (live.classList.contains("badge-ok") && offline) {
        goOnline();
      }
    }).observe(live, { attributes: true, attributeFilter: ["class"] });
  }

  // ---- the list of taps sent late ---------------------------------------------------------
  function render() {
    var done = load(DONE);
    var cutoff = Date.now() - KEEP_HOURS * 3600 * 1000;
    done = done.filter(function (d) { return Date.parse(d.tapped_at) >= cutoff; }).slice(-KEEP_DONE);
    var q = load(QUEUE).filter(function (e) { return e.late; });
    while (list.firstChild) { list.removeChild(list.firstChild); }
    function line(d, state, why) {
      var li = document.createElement("li");
      li.className = "tablet-sent-" + state;
      li.setAttribute("data-key", d.key);
      li.setAttribute("data-state", state);
      var mark = state === "applied" ? "✓" : state === "refused" ? "✗" : "…";
      var t = document.createElement("span"); t.className = "tablet-sent-time"; t.textContent = clock(d.tapped_at);
      var w = document.createElement("span"); w.className = "tablet-sent-what"; w.textContent = d.label;
      var s = document.createElement("span"); s.className = "tablet-sent-state"; s.textContent = mark + " " + sent.getAttribute("data-" + state);
      li.appendChild(t); li.appendChild(w); li.appendChild(s);
      if (why) { var r = document.createElement("span"); r.className = "tablet-sent-why"; r.textContent = why; li.appendChild(r); }
      list.appendChild(li);
    }
    done.forEach(function (d) { line(d, d.ok ? "applied" : "refused", d.ok ? "" : d.message); });
    q.forEach(function (e) { line(e, "pending", ""); });
    sent.hidden = !list.firstChild;
  }

  document.getElementById("offline-sent-clear").addEventListener("click", function () {
    save(DONE, []);
    render();
  });

  // ---- sending ------------------------------------------------------------------------------
  function problemOf(html) {
    try {
      var doc = new DOMParser().parseFromString(html, "text/html");
      var p = doc.getElementById("tablet-problem") || doc.querySelector(".field-error, .alert-error");
      return text(p);
    } catch (e) { return ""; }
  }

  function showProblem(message) {
    var main = document.querySelector("main");
    if (!main) { return; }
    var p = document.getElementById("tablet-problem");
    if (!p) {
      p = document.createElement("div");
      p.className = "alert alert-error tablet-alert";
      p.setAttribute("role", "alert");
      p.id = "tablet-problem";
      main.insertBefore(p, main.firstChild);
    }
    p.textContent = message;
    p.scrollIntoView({ block: "nearest" });
  }

  // One tap: resolves with {ok, message, to} when the server answered it (applied or refused),
  // {stop: "sign-in"} when the session is over, rejects when it did not reach the server.
  function send(e) {
    var body = new URLSearchParams();
    e.fields.forEach(function (f) { body.append(f[0], f[1]); });
    return fetch(e.action, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "X-Tablet-Queue": "1", "Idempotency-Key": e.key, "Accept": "application/json" }
    }).then(function (res) {
      learnClock(res);
      if (res.status >= 500 || res.status === 408 || res.status === 429) { throw new Error("server " + res.status); }
      if (res.redirected && /\/login/.test(res.url)) { return { stop: "sign-in" }; }
      if (res.status === 401) { return { stop: "sign-in" }; }
      var type = res.headers.get("Content-Type") || "";
      if (type.indexOf("application/json") >= 0) {
        return res.json().then(function (j) {
          return { ok: !!j.ok, message: j.message || "", to: j.to || "" };
        });
      }
      return res.text().then(function (html) {
        if (res.ok) { return { ok: true, to: res.redirected ? res.url : "" }; }
        return { ok: false, message: problemOf(html) || banner.getAttribute("data-refused") };
      });
    });
  }

  var flushing = false;
  var reloadAfter = false;
  function flush() {
    if (flushing || offline) { return; }
    var q = load(QUEUE);
    if (!q.length) {
      if (reloadAfter) {
        reloadAfter = false;
        try { window.sessionStorage.setItem(BACK, "1"); } catch (err) { /* ignore */ }
        window.location.reload();
      }
      return;
    }
    flushing = true;
    sending = true;
    var e = q[0];
    if (e.late) { show("sending"); }
    send(e).then(function (r) {
      flushing = false;
      if (r.stop) { sending = false; show(r.stop); return; }
      var rest = load(QUEUE).filter(function (x) { return x.key !== e.key; });
      save(QUEUE, rest);
      if (e.late) {
        var done = load(DONE);
        done.push({ key: e.key, tapped_at: e.tapped_at, label: e.label, ok: r.ok, message: r.message || "" });
        save(DONE, done.slice(-KEEP_DONE));
        reloadAfter = true;
        render();
        flush();
        return;
      }
      sending = false;
      // A tap made online: the page as it would have come (applied), or the reason on top.
      if (r.ok) { window.location.assign(r.to || window.location.href); }
      else { showProblem(r.message || banner.getAttribute("data-refused")); flush(); }
    }).catch(function () {
      flushing = false;
      sending = false;
      // It did not reach the server (or the answer was lost): kept, sent again with the same
      // key when the connection is back.
      var all = load(QUEUE);
      all.forEach(function (x) { x.late = true; });
      save(QUEUE, all);
      render();
      goOffline();
      show("offline");
    });
  }

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (ev.defaultPrevented || !form || form.tagName !== "FORM") { return; }
    if ((form.getAttribute("method") || "").toLowerCase() !== "post") { return; }
    var action = form.getAttribute("action") || "";
    if (action.indexOf("/tablet/") !== 0) { return; }
    if (form.hasAttribute("data-tap-direct") || form.querySelector("input[type=password]")) {
      if (offline || !navigator.onLine) { ev.preventDefault(); show("direct"); }
      return;
    }
    ev.preventDefault();
    var submitter = ev.submitter || null;
    var fields = [];
    var data = new FormData(form);
    data.forEach(function (v, k) { if (typeof v === "string") { fields.push([k, v]); } });
    if (submitter && submitter.name) { fields.push([submitter.name, submitter.value || ""]); }
    var key = "";
    fields.forEach(function (f) { if (f[0] === "idempotency_key" && f[1]) { key = f[1]; } });
    if (!key) { key = newKey(); fields.push(["idempotency_key", key]); }
    // This tap keeps its key (re-sent with it until answered); a later tap on the same form
    // is another tap, with a key of its own (a double tap is held off by the button).
    var keyInput = form.querySelector("input[name=idempotency_key]");
    if (keyInput) { keyInput.value = newKey(); }
    var tapped = new Date(Date.now() + skew).toISOString();
    fields = fields.filter(function (f) { return f[0] !== "tapped_at"; });
    fields.push(["tapped_at", tapped]);
    var q = load(QUEUE);
    // Made while offline, or behind taps still waiting: it shows in the list.
    var late = offline || !navigator.onLine || q.length > 0;
    q.push({ key: key, action: action, fields: fields, tapped_at: tapped, label: labelOf(form, submitter), late: late });
    save(QUEUE, q);
    if (submitter) { submitter.disabled = true; setTimeout(function () { submitter.disabled = false; }, 1500); }
    if (late) {
      render();
      if (offline || !navigator.onLine) { goOffline(); show("offline"); }
    }
    flush();
  });

  // ---- start ------------------------------------------------------------------------------
  render();
  var back = false;
  try { back = window.sessionStorage.getItem(BACK) === "1"; window.sessionStorage.removeItem(BACK); } catch (err) { /* ignore */ }
  if (!navigator.onLine) { goOffline(); }
  else if (back) { show("online"); backSoon(); }
  else { show("hidden"); }
  // Taps kept from before (a reload, a tablet restarted): sent now if the server answers.
  if (load(QUEUE).length) {
    var all = load(QUEUE);
    all.forEach(function (x) { x.late = true; });
    save(QUEUE, all);
    render();
    flush();
  }
})();
