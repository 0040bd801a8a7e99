// Night mode. The room chooses its screens' theme (<html data-theme-room="light|dark|auto">);
// a device may choose its own, kept on the device (localStorage), with the toggle button
// ([data-theme-toggle]) or by opening a page with ?theme=light|dark|auto (a TV without a
// keyboard). "auto" follows the device's preference; on the lobby screen (data-theme-auto="dark")
// it is dark. Loaded in <head>, not deferred: the page paints in its theme at once.
(function () {
  'use strict';
  var KEY = 'cardroom-theme';
  var root = document.documentElement;
  var room = root.getAttribute('data-theme-room');
  if (!room) return;

  function stored() {
    try { return localStorage.getItem(KEY); } catch (e) { return null; }
  }
  function store(v) {
    try {
      if (v === 'light' || v === 'dark') localStorage.setItem(KEY, v);
      else localStorage.removeItem(KEY);
    } catch (e) { /* a device that keeps nothing follows the room */ }
  }
  var deviceDark = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;

  function resolved() {
    var mine = stored();
    var pref = (mine === 'light' || mine === 'dark') ? mine : room;
    if (pref === 'auto') {
      if (root.getAttribute('data-theme-auto') === 'dark') return 'dark';
      return deviceDark && deviceDark.matches ? 'dark' : 'light';
    }
    return pref === 'dark' ? 'dark' : 'light';
  }
  function apply() {
    var t = resolved();
    root.setAttribute('data-theme', t);
    var buttons = document.querySelectorAll('[data-theme-toggle]');
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].setAttribute('aria-pressed', t === 'dark' ? 'true' : 'false');
    }
  }

  var asked = new URLSearchParams(window.location.search).get('theme');
  if (asked === 'light' || asked === 'dark' || asked === 'auto') store(asked);
  apply();
  if (deviceDark && deviceDark.addEventListener) deviceDark.addEventListener('change', apply);

  document.addEventListener('click', function (ev) {
    var b = ev.target.closest && ev.target.closest('[data-theme-toggle]');
    if (!b) return;
    store(root.getAttribute('data-theme') === 'dark' ? 'light' : 'dark');
    apply();
  });
  document.addEventListener('DOMContentLoaded', apply);
})();
