// Sorts and filters the page's table.sortable elements; inlined into each page, so the site needs no other file.
(function () {
  'use strict';
  function key(row, i) {
    var cell = row.cells[i];
    if (cell.dataset.v !== undefined) {
      var v = parseFloat(cell.dataset.v);
      return isNaN(v) ? Infinity : v;
    }
    return cell.textContent.trim().toLowerCase();
  }
  function compare(a, b) {
    if (typeof a === 'number' && typeof b === 'number') {
      return a === b ? 0 : (a < b ? -1 : 1);
    }
    return String(a).localeCompare(String(b), undefined, {numeric: true});
  }
  function cellMatches(cell, text) {
    var m = /^\s*(<=|>=|<|>|=)\s*(-?[0-9.eE+-]+)\s*$/.exec(text);
    if (m && cell.dataset.v !== undefined) {
      var v = parseFloat(cell.dataset.v), x = parseFloat(m[2]);
      switch (m[1]) {
        case '<': return v < x;
        case '<=': return v <= x;
        case '>': return v > x;
        case '>=': return v >= x;
        default: return v === x;
      }
    }
    return cell.textContent.toLowerCase().indexOf(text.trim().toLowerCase()) >= 0;
  }
  document.querySelectorAll('table.sortable').forEach(function (table) {
    var body = table.tBodies[0];
    var heads = Array.prototype.slice.call(table.tHead.rows[0].cells);
    var boxes = Array.prototype.slice.call(table.tHead.rows[1].querySelectorAll('input'));
    var global = document.getElementById(table.id + '-filter');
    var count = document.getElementById(table.id + '-count');
    heads.forEach(function (th, i) {
      th.addEventListener('click', function () {
        var ascending = th.getAttribute('aria-sort') !== 'ascending';
        heads.forEach(function (h) { h.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) { return compare(key(a, i), key(b, i)) * (ascending ? 1 : -1); });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
    function apply() {
      var shown = 0;
      Array.prototype.forEach.call(body.rows, function (row) {
        var ok = boxes.every(function (box, i) { return !box.value || cellMatches(row.cells[i], box.value); });
        if (ok && global && global.value) {
          ok = row.textContent.toLowerCase().indexOf(global.value.trim().toLowerCase()) >= 0;
        }
        row.hidden = !ok;
        if (ok) { shown++; }
      });
      if (count) { count.textContent = shown + ' of ' + body.rows.length; }
    }
    boxes.forEach(function (box) { box.addEventListener('input', apply); });
    if (global) { global.addEventListener('input', apply); }
  });
})();
