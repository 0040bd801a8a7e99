// The lobby screen: the room's clock, and the games' cards a page at a time when they do not
// all fit the screen (a TV has no scroll bar). Pages turn every few seconds; the cards come
// again from the server every 5 s (htmx) and are laid out anew, on the page being shown.
(function () {
  'use strict';
  var TURN_MS = 12000;
  var page = 0;
  var pages = 1;

  function clock() {
    var el = document.getElementById('lobby-clock');
    if (!el || !window.Intl) return;
    try {
      el.textContent = new Intl.DateTimeFormat(el.dataset.lang === 'en' ? 'en-GB' : 'pt-PT', {
        hour: '2-digit', minute: '2-digit', hour12: false, timeZone: el.dataset.tz,
      }).format(new Date());
    } catch (e) { /* an unknown zone: the server's time stays */ }
  }

  function cards() {
    var grid = document.getElementById('lobby-grid');
    return grid ? Array.prototype.slice.call(grid.children) : [];
  }

  // Splits the cards into pages: each page takes the rows of cards that fit below the top of
  // the screen's main area (a row too tall for it still gets a page of its own).
  function layout() {
    var main = document.querySelector('.lobby-main');
    var all = cards();
    all.forEach(function (c) { c.hidden = false; c.removeAttribute('data-page'); });
    if (!main || !all.length) { pages = 1; page = 0; pager(); return; }
    var bottom = main.getBoundingClientRect().bottom;
    var rest = all.slice();
    var n = 0;
    while (rest.length) {
      all.forEach(function (c) { c.hidden = rest.indexOf(c) < 0; });
      var rows = [];
      rest.forEach(function (c) {
        var r = c.getBoundingClientRect();
        var last = rows[rows.length - 1];
        if (last && Math.abs(last.top - r.top) < 2) {
          last.cards.push(c);
          last.bottom = Math.max(last.bottom, r.bottom);
        } else {
          rows.push({ top: r.top, bottom: r.bottom, cards: [c] });
        }
      });
      for (var i = 0; i < rows.length; i++) {
        if (i > 0 && rows[i].bottom > bottom) break;
        rows[i].cards.forEach(function (c) { c.dataset.page = String(n); });
      }
      rest = rest.filter(function (c) { return c.dataset.page === undefined; });
      n += 1;
    }
    pages = n;
    if (page >= pages) page = 0;
    show();
  }

  function show() {
    cards().forEach(function (c) { c.hidden = c.dataset.page !== String(page); });
    pager();
  }

  function pager() {
    var p = document.getElementById('lobby-pager');
    if (!p) return;
    p.hidden = pages < 2;
    p.textContent = (p.dataset.label || '').replace('{page}', String(page + 1)).replace('{pages}', String(pages));
  }

  function turn() {
    if (pages < 2) return;
    page = (page + 1) % pages;
    show();
  }

  document.addEventListener('DOMContentLoaded', function () {
    clock();
    layout();
    setInterval(clock, 10000);
    setInterval(turn, TURN_MS);
    window.addEventListener('resize', layout);
    document.body.addEventListener('htmx:afterSwap', layout);
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(layout);
  });
})();
