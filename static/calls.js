// A seat call on the dealer's tablet: never missed while its clock runs.
// 1. A call this tablet has not seen before (its id, kept in localStorage) is announced once:
//    a short chime (Web Audio, no file), a vibration, where the device allows them and as the
//    room chose (#call-alert[data-alert]: sound, vibrate; absent: neither), and the call is
//    scrolled into view and drawn for a few seconds. A refresh or a second page load does not
//    announce it again. window.cardroomAlerts counts the announcements (window.cardroomAlertLog
//    says what each did).
// 2. Browsers play sound only after a tap on the page: the first tap arms the audio; until
//    then the bar says "tap to enable sound" (#sound-arm).
// 3. The bar's mute button (#call-mute) silences this tablet for 10 minutes (its end kept in
//    localStorage, the time left shown); it ends by itself, or with a second tap.
// 4. While a call is open the screen stays awake (Screen Wake Lock), taken again when the page
//    comes back into view, released when no call is open.
// The calls are read from the page (elements with data-call-id and data-call-state): the table
// screen, refreshed by htmx, and the seat page's banner, refreshed by tablet.js.
(function () {
  "use strict";
  var SEEN_KEY = "cardroom-calls-seen";
  var MUTE_KEY = "cardroom-calls-mute-until";
  var MUTE_MS = 10 * 60 * 1000;
  var box = document.getElementById("call-alert");
  var mode = box ? box.getAttribute("data-alert") : "off";
  var arm = document.getElementById("sound-arm");
  var muteBtn = document.getElementById("call-mute");
  window.cardroomAlerts = window.cardroomAlerts || 0;
  window.cardroomAlertLog = window.cardroomAlertLog || [];

  function load(key) { try { return window.localStorage.getItem(key); } catch (e) { return null; } }
  function save(key, v) {
    try { if (v === null) { window.localStorage.removeItem(key); } else { window.localStorage.setItem(key, v); } } catch (e) { /* a device that keeps nothing */ }
  }
  function seen() {
    try { var a = JSON.parse(load(SEEN_KEY) || "[]"); return Array.isArray(a) ? a : []; } catch (e) { return []; }
  }

  // ---- sound ---------------------------------------------------------------------------
  var audio = null;
  function audioReady() { return !!audio && audio.state === "running"; }
  function showArm() {
    if (arm) { arm.hidden = mode !== "sound" || audioReady(); }
    window.cardroomSound = audioReady() ? "armed" : "not-armed";
  }
  function makeAudio() {
    if (audio || mode !== "sound") { return; }
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) { return; }
    try { audio = new Ctx(); } catch (e) { audio = null; return; }
    audio.onstatechange = showArm;
  }
  function armAudio() {
    makeAudio();
    if (audio && audio.state !== "running" && audio.resume) {
      audio.resume().then(showArm, showArm);
    }
    showArm();
  }
  // Two short tones, rising: heard over a table's noise, not mistaken for a phone.
  function chime() {
    if (!audioReady()) { return false; }
    var t = audio.currentTime + 0.02;
    [[880, 0], [1318.5, 0.22]].forEach(function (n) {
      var osc = audio.createOscillator();
      var gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = n[0];
      gain.gain.setValueAtTime(0.0001, t + n[1]);
      gain.gain.exponentialRampToValueAtTime(0.5, t + n[1] + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + n[1] + 0.45);
      osc.connect(gain);
      gain.connect(audio.destination);
      osc.start(t + n[1]);
      osc.stop(t + n[1] + 0.5);
    });
    return true;
  }
  function vibrate() {
    if (!navigator.vibrate) { return false; }
    try { return navigator.vibrate([250, 120, 250]) !== false; } catch (e) { return false; }
  }

  // ---- mute ----------------------------------------------------------------------------
  function muteLeft() {
    var until = parseInt(load(MUTE_KEY) || "0", 10) || 0;
    var left = until - Date.now();
    if (left <= 0) { if (until) { save(MUTE_KEY, null); } return 0; }
    return Math.min(left, MUTE_MS);
  }
  function clock(ms) {
    var s = Math.ceil(ms / 1000);
    var m = Math.floor(s / 60);
    s = s % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }
  function showMute() {
    if (!muteBtn || !box) { return; }
    muteBtn.hidden = false;
    var left = muteLeft();
    if (left > 0) {
      muteBtn.setAttribute("aria-pressed", "true");
      muteBtn.title = box.getAttribute("data-muted-hint") || "";
      muteBtn.textContent = (box.getAttribute("data-muted") || "") + " · ";
      var span = document.createElement("span");
      span.className = "mute-left";
      span.id = "call-mute-left";
      span.textContent = clock(left);
      muteBtn.appendChild(span);
    } else {
      muteBtn.setAttribute("aria-pressed", "false");
      muteBtn.title = box.getAttribute("data-mute-hint") || "";
      muteBtn.textContent = box.getAttribute("data-mute") || "";
    }
  }
  if (muteBtn) {
    muteBtn.addEventListener("click", function () {
      save(MUTE_KEY, muteLeft() > 0 ? null : String(Date.now() + MUTE_MS));
      showMute();
    });
  }

  // ---- wake lock -----------------------------------------------------------------------
  var lock = null, asking = false;
  window.cardroomWakeLock = "none";
  function wantAwake(open) {
    if (!("wakeLock" in navigator)) { window.cardroomWakeLock = "unsupported"; return; }
    if (open && !lock && !asking && document.visibilityState === "visible") {
      asking = true;
      navigator.wakeLock.request("screen").then(function (l) {
        asking = false;
        lock = l;
        window.cardroomWakeLock = "held";
        l.addEventListener("release", function () { if (lock === l) { lock = null; window.cardroomWakeLock = "released"; } });
        if (!openCalls()) { wantAwake(false); }
      }, function () { asking = false; window.cardroomWakeLock = "refused"; });
    } else if (!open && lock) {
      var l = lock;
      lock = null;
      window.cardroomWakeLock = "released";
      l.release().catch(function () {});
    }
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") { wantAwake(openCalls() > 0); }
  });

  // ---- the calls on the page -------------------------------------------------------------
  function openCalls() { return document.querySelectorAll("[data-call-id]").length; }
  function announce(id, el) {
    var muted = muteLeft() > 0;
    var sound = false, buzz = false;
    if (!muted && mode === "sound") { sound = chime(); }
    if (!muted && (mode === "sound" || mode === "vibrate")) { buzz = vibrate(); }
    window.cardroomAlerts += 1;
    window.cardroomAlertLog.push({ call: id, sound: sound, vibrate: buzz, muted: muted, mode: mode });
    if (el.classList.contains("tablet-call")) {
      el.classList.add("call-new");
      el.scrollIntoView({ block: "nearest" });
    } else {
      window.scrollTo(0, 0);
    }
  }
  function scan() {
    var els = document.querySelectorAll("[data-call-id]");
    var known = seen();
    var changed = false;
    for (var i = 0; i < els.length; i++) {
      var id = els[i].getAttribute("data-call-id");
      if (known.indexOf(id) !== -1) { continue; }
      known.push(id);
      changed = true;
      // An acknowledged call was already taken in hand (on this tablet or another): no chime.
      if (els[i].getAttribute("data-call-state") === "pending") { announce(id, els[i]); }
    }
    if (changed) { save(SEEN_KEY, JSON.stringify(known.slice(-200))); }
    wantAwake(els.length > 0);
  }

  var pending = null;
  function soon() { if (pending) { clearTimeout(pending); } pending = setTimeout(scan, 60); }
  function start() {
    makeAudio();
    showArm();
    showMute();
    ["pointerdown", "touchstart", "keydown", "click"].forEach(function (ev) {
      document.addEventListener(ev, armAudio, { capture: true, passive: true });
    });
    scan();
    if (window.MutationObserver) {
      new MutationObserver(soon).observe(document.querySelector("main") || document.body, { childList: true, subtree: true });
    }
    setInterval(function () { if (muteBtn && muteBtn.getAttribute("aria-pressed") === "true") { showMute(); } }, 1000);
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
