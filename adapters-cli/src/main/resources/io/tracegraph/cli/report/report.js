/* tracegraph report: draws the page from the JSON in #report-data. Names come from traces and are
 * untrusted: they only ever reach the page as text nodes (textContent), never as markup. */
(function () {
  'use strict';

  var data = JSON.parse(document.getElementById('report-data').textContent);
  var app = document.getElementById('app');
  var SVG = 'http://www.w3.org/2000/svg';

  // ---- small DOM helpers -------------------------------------------------------------------
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }
  function svgEl(tag, attrs) {
    var e = document.createElementNS(SVG, tag);
    for (var k in attrs) { if (Object.prototype.hasOwnProperty.call(attrs, k)) { e.setAttribute(k, attrs[k]); } }
    return e;
  }
  function section(id, title) {
    var s = el('section');
    s.id = id;
    s.appendChild(el('h2', null, title));
    app.appendChild(s);
    return s;
  }
  function note(parent, text, warn) {
    if (text) { parent.appendChild(el('p', warn ? 'note warn' : 'note', text)); }
  }

  // ---- formatting ----------------------------------------------------------------------------
  function num(v, digits) {
    return Number(v).toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
  }
  function sig(v) {
    var a = Math.abs(v);
    return a >= 100 ? num(v, 0) : a >= 10 ? num(v, 1) : num(v, 2);
  }
  function fmtNs(ns) {
    if (ns === null || ns === undefined) { return ''; }
    var a = Math.abs(ns);
    if (a < 1e3) { return num(ns, 0) + ' ns'; }
    if (a < 1e6) { return sig(ns / 1e3) + ' \u00b5s'; }
    if (a < 1e9) { return sig(ns / 1e6) + ' ms'; }
    return sig(ns / 1e9) + ' s';
  }
  function fmtBytes(b) {
    if (b === null || b === undefined) { return ''; }
    var a = Math.abs(b);
    var units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
    var i = 0;
    while (a >= 1024 && i < units.length - 1) { a /= 1024; i++; }
    return (b < 0 ? '-' : '') + (i === 0 ? num(a, 0) : sig(a)) + ' ' + units[i];
  }
  function fmtPct(p) {
    if (p === null || p === undefined) { return ''; }
    return (p > 0 ? '+' : '') + sig(p) + '%';
  }
  function fmt(v, unit) {
    if (v === null || v === undefined) { return ''; }
    switch (unit) {
      case 'ns': return fmtNs(v);
      case 'ms': return fmtNs(v * 1e6);
      case 'bytes': return fmtBytes(v);
      case 'percent': return fmtPct(v);
      case 'share': return sig(v) + '%';
      case 'count': return num(v, 0);
      case 'number': return typeof v === 'number' ? num(v, 6) : String(v);
      default: return String(v);
    }
  }

  // ---- tooltip -------------------------------------------------------------------------------
  var tip = el('div', 'tooltip');
  document.body.appendChild(tip);
  function showTip(evt, title, rows) {
    tip.textContent = '';
    tip.appendChild(el('div', 't', title));
    rows.forEach(function (r) {
      var row = el('div', 'row');
      row.appendChild(el('span', 'k', r[0]));
      row.appendChild(el('span', null, r[1]));
      tip.appendChild(row);
    });
    tip.style.display = 'block';
    var x = evt.clientX + 14;
    var y = evt.clientY + 14;
    var w = tip.offsetWidth;
    var h = tip.offsetHeight;
    if (x + w > window.innerWidth - 4) { x = Math.max(4, evt.clientX - w - 14); }
    if (y + h > window.innerHeight - 4) { y = Math.max(4, evt.clientY - h - 14); }
    tip.style.left = x + 'px';
    tip.style.top = y + 'px';
  }
  function hideTip() { tip.style.display = 'none'; }

  // ---- header and facts ----------------------------------------------------------------------
  function header(kind, title, sections) {
    var h = el('header');
    h.appendChild(el('div', 'kind', kind));
    h.appendChild(el('h1', null, title));
    var nav = el('nav');
    sections.forEach(function (s) {
      var a = el('a', null, s[1]);
      a.href = '#' + s[0];
      nav.appendChild(a);
    });
    h.appendChild(nav);
    app.appendChild(h);
    document.title = 'tracegraph: ' + title;
  }
  function facts(parent, list) {
    var grid = el('div', 'facts');
    list.forEach(function (f) {
      var box = el('div', 'fact');
      box.appendChild(el('div', 'label', f.label));
      box.appendChild(el('div', 'value', fmt(f.value, f.unit)));
      grid.appendChild(box);
    });
    parent.appendChild(grid);
  }

  // ---- sortable tables -----------------------------------------------------------------------
  function table(parent, t, highlight) {
    var wrapper = el('div', 'table');
    wrapper.id = 'table-' + t.id;
    wrapper.appendChild(el('h3', null, t.title));
    note(wrapper, t.note);
    if (t.rows.length === 0) {
      wrapper.appendChild(el('p', 'note', 'none'));
      parent.appendChild(wrapper);
      return;
    }
    var scroll = el('div', 'tablewrap');
    var tab = el('table', 'data');
    var thead = el('thead');
    var tr = el('tr');
    var tbody = el('tbody');
    var numeric = t.columns.map(function (c) { return c.unit !== 'text'; });
    var rows = t.rows.slice();
    var sorted = { col: -1, dir: 1 };
    function fill() {
      tbody.textContent = '';
      rows.forEach(function (r) {
        var row = el('tr');
        r.forEach(function (v, i) {
          var unit = t.columns[i].unit;
          var td = el('td', numeric[i] ? 'num' : (t.columns[i].label === 'path' || t.columns[i].label === 'message'
            ? 'wrap' : null), fmt(v, unit));
          if (unit === 'ns' && v !== null) { td.title = num(v, 0) + ' ns'; }
          if (unit === 'bytes' && v !== null) { td.title = num(v, 0) + ' bytes'; }
          if (highlight) { highlight(td, t.columns[i].label, v); }
          row.appendChild(td);
        });
        tbody.appendChild(row);
      });
    }
    t.columns.forEach(function (c, i) {
      var th = el('th', numeric[i] ? 'num' : null, c.label);
      th.title = 'sort by ' + c.label;
      th.addEventListener('click', function () {
        sorted.dir = sorted.col === i ? -sorted.dir : (numeric[i] ? -1 : 1);
        sorted.col = i;
        Array.prototype.forEach.call(tr.children, function (h) { h.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', sorted.dir > 0 ? 'ascending' : 'descending');
        rows.sort(function (a, b) {
          var x = a[i];
          var y = b[i];
          if (x === null || x === undefined) { return (y === null || y === undefined) ? 0 : 1; }
          if (y === null || y === undefined) { return -1; }
          var d = numeric[i] && typeof x === 'number' && typeof y === 'number' ? x - y
            : String(x).localeCompare(String(y));
          return d * sorted.dir;
        });
        fill();
      });
      tr.appendChild(th);
    });
    thead.appendChild(tr);
    tab.appendChild(thead);
    tab.appendChild(tbody);
    fill();
    scroll.appendChild(tab);
    wrapper.appendChild(scroll);
    parent.appendChild(wrapper);
  }

  // ---- icicle (flame) chart ------------------------------------------------------------------
  var ROW = 18;
  var MAX_ROWS = 60;

  /* tree: columns with parent[]; opts: weight(i), color(i), label(i), tip(i) -> [title, rows], klass(i). */
  function Flame(parent, tree, opts) {
    var n = tree.parent.length;
    var depth = new Int32Array(n);
    var x0 = new Float64Array(n);
    var w = new Float64Array(n);
    var childSum = new Float64Array(n);
    var cursor = new Float64Array(n);
    var maxDepth = 0;
    var i;
    for (i = 1; i < n; i++) { childSum[tree.parent[i]] += opts.weight(i); }
    w[0] = n > 0 ? 1 : 0;
    for (i = 1; i < n; i++) {
      var p = tree.parent[i];
      depth[i] = depth[p] + 1;
      if (depth[i] > maxDepth) { maxDepth = depth[i]; }
      var scale = Math.max(opts.weight(p), childSum[p]);
      w[i] = scale > 0 ? w[p] * opts.weight(i) / scale : 0;
      x0[i] = x0[p] + cursor[p];
      cursor[p] += w[i];
    }

    var bar = el('div', 'toolbar');
    var reset = el('button', null, 'Reset zoom');
    var crumbs = el('span', 'crumbs');
    bar.appendChild(reset);
    if (opts.toolbar) { opts.toolbar(bar); }
    bar.appendChild(crumbs);
    parent.appendChild(bar);
    var box = el('div', 'flame');
    parent.appendChild(box);
    var canvas = svgEl('svg', { role: 'img', 'aria-label': 'icicle chart of the span tree' });
    box.appendChild(canvas);
    var depthNote = el('p', 'note');
    parent.appendChild(depthNote);
    var focus = 0;

    function pathOf(k) {
      var names = [];
      for (var j = k; j >= 0; j = tree.parent[j]) { names.push(opts.label(j)); }
      return names.reverse();
    }
    function render() {
      var W = Math.max(300, box.clientWidth);
      var from = x0[focus];
      var span = w[focus] || 1;
      var d0 = Math.max(0, depth[focus] - 3);
      var d1 = Math.min(maxDepth, d0 + MAX_ROWS - 1);
      canvas.textContent = '';
      canvas.setAttribute('width', W);
      canvas.setAttribute('height', (d1 - d0 + 1) * ROW);
      var drawn = 0;
      for (var k = 0; k < n; k++) {
        if (depth[k] < d0 || depth[k] > d1 || w[k] <= 0) { continue; }
        var a = Math.max(x0[k], from);
        var b = Math.min(x0[k] + w[k], from + span);
        if (b <= a) { continue; }
        var px = (a - from) / span * W;
        var pw = (b - a) / span * W;
        if (pw < 0.5) { continue; }
        var y = (depth[k] - d0) * ROW;
        var r = svgEl('rect', { x: px.toFixed(1), y: y, width: Math.max(0.5, pw - 0.5).toFixed(1), height: ROW - 1,
          fill: opts.color(k) });
        r.setAttribute('data-i', k);
        var klass = opts.klass ? opts.klass(k) : '';
        if (k === focus) { klass += ' focus'; }
        if (klass) { r.setAttribute('class', klass.trim()); }
        canvas.appendChild(r);
        drawn++;
        if (pw > 28) {
          var label = opts.label(k);
          var fits = Math.floor((pw - 6) / 6.6);
          if (fits < label.length) { label = fits > 1 ? label.slice(0, fits - 1) + '\u2026' : ''; }
          if (label) {
            var t = svgEl('text', { x: (px + 3).toFixed(1), y: y + 12.5 });
            t.textContent = label;
            canvas.appendChild(t);
          }
        }
      }
      canvas.setAttribute('data-drawn', drawn);
      crumbs.textContent = focus === 0 ? 'click a box to zoom in' : 'zoomed into: ' + pathOf(focus).join(' / ');
      var parts = [];
      if (d0 > 0) { parts.push(d0 + ' levels above are hidden (reset zoom to see them)'); }
      if (d1 < maxDepth) { parts.push((maxDepth - d1) + ' deeper levels are hidden: click a box to zoom into it'); }
      depthNote.textContent = parts.join('; ');
    }
    canvas.addEventListener('click', function (evt) {
      var k = evt.target.getAttribute && evt.target.getAttribute('data-i');
      if (k !== null && k !== undefined) {
        focus = Number(k);
        render();
      }
    });
    canvas.addEventListener('mousemove', function (evt) {
      var k = evt.target.getAttribute && evt.target.getAttribute('data-i');
      if (k === null || k === undefined) { hideTip(); return; }
      var info = opts.tip(Number(k));
      info[1].push(['path', pathOf(Number(k)).join(' / ')]);
      showTip(evt, info[0], info[1]);
    });
    canvas.addEventListener('mouseleave', hideTip);
    reset.addEventListener('click', function () { focus = 0; render(); });
    render();
    return { render: render };
  }

  function legend(parent, entries) {
    var lg = el('div', 'legend');
    entries.forEach(function (e) {
      var item = el('span');
      var sw = el('span', 'sw');
      sw.style.background = e[1];
      if (e[2]) { sw.style.border = e[2]; }
      item.appendChild(sw);
      item.appendChild(document.createTextNode(e[0]));
      lg.appendChild(item);
    });
    parent.appendChild(lg);
    return lg;
  }

  // ---- memory timelines (uPlot) --------------------------------------------------------------
  var CATEGORY_COLORS = { activation: '#e8793a', gradient: '#c0392b', optimizer: '#8e44ad', other: '#7f8c8d',
    parameter: '#2e86c1' };
  var SIDE_COLORS = [['#7a8794', '#b3bcc5'], ['#d1495b', '#f08a5d']];

  function peakPlugin(peaks) {
    return {
      hooks: {
        draw: [function (u) {
          var ctx = u.ctx;
          peaks.forEach(function (pk) {
            if (pk.bytes <= 0) { return; }
            var x = u.valToPos(pk.t / 1e6, 'x', true);
            var y = u.valToPos(pk.bytes, 'y', true);
            ctx.save();
            ctx.fillStyle = pk.color;
            ctx.strokeStyle = '#fff';
            ctx.lineWidth = 2;
            ctx.beginPath();
            ctx.arc(x, y, 6 * devicePixelRatio, 0, 2 * Math.PI);
            ctx.fill();
            ctx.stroke();
            ctx.font = (12 * devicePixelRatio) + 'px sans-serif';
            ctx.fillStyle = '#111';
            var text = pk.text;
            var tw = ctx.measureText(text).width;
            var tx = x + 10 * devicePixelRatio;
            if (tx + tw > u.bbox.left + u.bbox.width) { tx = x - tw - 10 * devicePixelRatio; }
            ctx.fillText(text, tx, Math.max(u.bbox.top + 12 * devicePixelRatio, y - 6 * devicePixelRatio));
            ctx.restore();
          });
        }]
      }
    };
  }

  function lineChart(parent, title, xs, series, peaks) {
    var wrap = el('div', 'chart');
    wrap.appendChild(el('h3', null, title));
    var holder = el('div');
    wrap.appendChild(holder);
    parent.appendChild(wrap);
    if (typeof uPlot === 'undefined') {
      note(wrap, 'the charting library did not load', true);
      return null;
    }
    var width = Math.max(320, parent.clientWidth - 8);
    var opts = {
      width: width,
      height: 300,
      scales: { x: { time: false } },
      series: [{ label: 'ms', value: function (u, v) { return v === null || v === undefined ? '' : sig(v) + ' ms'; } }]
        .concat(series.map(function (s) {
          return { label: s.label, stroke: s.color, width: s.width || 1.2, spanGaps: true,
            dash: s.dash, value: function (u, v) { return fmtBytes(v); } };
        })),
      axes: [
        { label: 'ms since the first memory record', values: function (u, splits) {
          return splits.map(function (v) { return sig(v); }); } },
        { size: 78, values: function (u, splits) { return splits.map(fmtBytes); } }
      ],
      legend: { live: true },
      plugins: [peakPlugin(peaks)]
    };
    var columns = [xs].concat(series.map(function (s) { return s.values; }));
    return new uPlot(opts, columns, holder);
  }

  function runMemory(parent, memory) {
    if (memory.devices.length === 0) {
      note(parent, 'The trace has no memory records, so there is no timeline.');
    }
    note(parent, memory.note);
    memory.devices.forEach(function (d) {
      var xs = d.t.map(function (t) { return t / 1e6; });
      var series = [{ label: 'live', color: '#1d232b', width: 2, values: d.live }];
      Object.keys(d.categories).forEach(function (c) {
        series.push({ label: c, color: CATEGORY_COLORS[c] || '#999', values: d.categories[c] });
      });
      var global = d.device === memory.peak.device;
      lineChart(parent, 'Memory on ' + d.device + ' (' + num(d.records, 0) + ' records)', xs, series,
        [{ t: d.peak_t, bytes: d.peak_bytes, color: '#d62728',
          text: (global ? 'peak ' : 'device peak ') + fmtBytes(d.peak_bytes) + ' at ' + sig(d.peak_t / 1e6) + ' ms' }]);
    });
    var grid = el('div', 'grid2');
    parent.appendChild(grid);
    memory.tables.forEach(function (t) {
      var cell = el('div');
      grid.appendChild(cell);
      table(cell, t);
    });
  }

  function compareMemory(parent, memory) {
    var tables = [];
    var peaks = [];
    var labels = [];
    [['base', memory.base], ['candidate', memory.candidate]].forEach(function (side, s) {
      side[1].devices.forEach(function (d, k) {
        tables.push([d.t.map(function (t) { return t / 1e6; }), d.live]);
        labels.push({ label: side[0] + ' ' + d.device, color: SIDE_COLORS[s][Math.min(k, 1)], width: 2,
          dash: s === 0 ? [6, 3] : undefined });
        peaks.push({ t: d.peak_t, bytes: d.peak_bytes, color: SIDE_COLORS[s][0],
          text: side[0] + ' peak ' + fmtBytes(d.peak_bytes) });
      });
    });
    if (tables.length === 0) {
      note(parent, 'Neither side has memory records, so there is no timeline.');
      return;
    }
    note(parent, 'Live bytes over time of ' + memory.base.label + ' (base, dashed) and ' + memory.candidate.label
      + ' (candidate); each from its own first memory record.');
    var joined = uPlot.join(tables);
    labels.forEach(function (l, i) { l.values = joined[i + 1]; });
    lineChart(parent, 'Memory, both sides', joined[0], labels, peaks);
  }

  // ---- the run page --------------------------------------------------------------------------
  var KIND_COLORS = { root: '#a3acb5', 'function': '#f2a654', module: '#6aa7dc', op: '#7cbf6a', other: '#b9a3d9',
    merged: '#d4d7db' };

  function heat(share) {
    var s = Math.max(0, Math.min(1, share));
    return 'hsl(' + (48 - 48 * s).toFixed(0) + ', 90%, ' + (78 - 28 * s).toFixed(0) + '%)';
  }

  // The times a page shows: host time, or (data.time === 'device') the device time of each span and op.
  var DEVICE = data.time === 'device';
  var TOTAL = DEVICE ? 'device total time' : 'total time';
  var SELF = DEVICE ? 'device self time' : 'self time';

  function runPage() {
    var sections = [['summary', 'Summary'], ['flame', 'Span tree'], ['memory', 'Memory'],
      ['tables', 'Slowest and heaviest']];
    if (data.device) { sections.push(['device', 'Device time']); }
    header('tracegraph run report', data.title, sections.concat([['gradients', 'Gradients'], ['health', 'Health']]));
    var summary = section('summary', 'Summary');
    facts(summary, data.facts);

    var f = data.flame;
    var flameSection = section('flame', DEVICE ? 'Span tree on device time' : 'Span tree');
    note(flameSection, 'Width = ' + TOTAL + '; each box sits under its parent. Hover for ' + SELF + ', '
      + TOTAL + ' and bytes; click to zoom.' + (DEVICE ? ' Only the spans and ops with device time are drawn.' : ''));
    note(flameSection, f.note, true);
    var mode = 'kind';
    var chart;
    var lg;
    function name(i) {
      return f.kind[i] === 'merged' ? num(f.count[i], 0) + ' more' : f.names[f.name[i]];
    }
    function legendFor() {
      if (lg) { lg.remove(); }
      lg = legend(flameSection, mode === 'kind'
        ? Object.keys(KIND_COLORS).map(function (k) { return [k === 'merged' ? 'merged (more)' : k, KIND_COLORS[k]]; })
        : [['self time 0%', heat(0)], ['50%', heat(0.5)], ['100% of total', heat(1)],
          ['merged', KIND_COLORS.merged]]);
      flameSection.insertBefore(lg, flameSection.querySelector('.toolbar'));
    }
    chart = Flame(flameSection, f, {
      weight: function (i) { return f.total[i]; },
      label: name,
      color: function (i) {
        if (f.kind[i] === 'merged') { return KIND_COLORS.merged; }
        if (mode === 'heat') { return heat(f.total[i] > 0 ? f.self[i] / f.total[i] : 0); }
        return KIND_COLORS[f.kind[i]] || KIND_COLORS.other;
      },
      tip: function (i) {
        var rows = [['kind', f.kind[i]], [TOTAL, fmtNs(f.total[i])], [SELF, fmtNs(f.self[i])],
          ['bytes', fmtBytes(f.bytes[i])], ['peak', fmtBytes(f.peak[i])]];
        if (f.kind[i] === 'merged') { rows.push(['nodes merged', num(f.count[i], 0)]); }
        if (f.id[i]) { rows.push(['id', f.id[i]]); }
        return [name(i), rows];
      },
      toolbar: function (bar) {
        var label = el('label', null, 'Colour by ');
        var select = el('select');
        [['kind', 'kind'], ['heat', SELF + ' share']].forEach(function (o) {
          var opt = el('option', null, o[1]);
          opt.value = o[0];
          select.appendChild(opt);
        });
        select.addEventListener('change', function () { mode = select.value; legendFor(); chart.render(); });
        label.appendChild(select);
        bar.appendChild(label);
      }
    });
    legendFor();

    var memory = section('memory', 'Memory');
    runMemory(memory, data.memory);

    var tables = section('tables', 'Slowest and heaviest spans and ops');
    note(tables, 'Click a column to sort by it.');
    data.tables.forEach(function (t) {
      if (t.id !== 'gradients') { table(tables, t); }
    });
    if (data.device) {
      var device = section('device', 'Device time');
      note(device, 'Kernels, memcpys and memsets, each counted at the node that launched it (device self time) and '
        + 'at its ancestors (device total time).');
      data.device.tables.forEach(function (t) { table(device, t); });
    }
    var gradients = section('gradients', 'Gradients');
    data.tables.filter(function (t) { return t.id === 'gradients'; }).forEach(function (t) {
      table(gradients, t, function (td, column, v) {
        if (column === 'state' && v !== 'present') { td.className = 'bad'; }
      });
    });

    var health = section('health', 'Health');
    var badge = el('span', 'badge ' + (data.health.trusted ? 'ok' : 'bad'),
      data.health.trusted ? 'trusted' : 'untrusted');
    health.appendChild(badge);
    table(health, data.health.tables[0]);
    var more = el('details');
    more.appendChild(el('summary', null, 'What the trace captured'));
    table(more, data.health.tables[1]);
    health.appendChild(more);
  }

  // ---- the comparison page -------------------------------------------------------------------
  function changeColor(f, i) {
    var presence = f.presence[i];
    if (presence === 'merged') { return '#d4d7db'; }
    if (presence === 'added') { return '#b07cc6'; }
    if (presence === 'removed') { return '#eef0f2'; }
    var c = f.change[i];
    var v = f.verdict[i];
    if (data.mode === 'groups' && v) {
      if (v === 'unchanged') { return '#dadde1'; }
      if (v === 'inconclusive') { return '#f3ecd2'; }
    }
    if (c === null || c === undefined || Math.abs(c) < data.threshold) { return '#dadde1'; }
    var t = Math.min(1, Math.abs(c) / 0.5);
    return c > 0 ? 'hsl(2, 78%, ' + (84 - 36 * t).toFixed(0) + '%)' : 'hsl(212, 72%, ' + (84 - 36 * t).toFixed(0) + '%)';
  }

  function bars(parent, list, mode, what) {
    what = what || SELF;
    if (list.length === 0) {
      note(parent, 'No path changed.');
      return;
    }
    var W = Math.max(520, parent.clientWidth - 8);
    var LABEL = Math.min(320, Math.round(W * 0.3));
    var plotW = W - LABEL - 270;
    // One linear scale from the largest fall (never below -100%) to the largest rise (shown up to
    // +300%; longer bars end in the margin), each end rounded up to a plain number.
    var fall = 0.1;
    var rise = 0.1;
    list.forEach(function (b) {
      [b.change, b.lo, b.hi].forEach(function (v) {
        if (typeof v === 'number' && isFinite(v)) {
          if (v < 0) { fall = Math.max(fall, Math.min(1, -v)); } else { rise = Math.max(rise, Math.min(3, v)); }
        }
      });
    });
    function plain(v) {
      return [0.1, 0.2, 0.25, 0.5, 1, 1.5, 2, 2.5, 3].filter(function (p) { return p >= v - 1e-9; })[0] || 3;
    }
    fall = plain(fall);
    rise = plain(rise);
    var BAR = 20;
    var top = 26;
    var svg = svgEl('svg', { width: W, height: top + list.length * BAR + 30, role: 'img',
      'aria-label': 'largest regressions and improvements' });
    var left = LABEL + 100;
    function x(v) { return left + (Math.max(-fall, Math.min(rise, v)) + fall) / (fall + rise) * plotW; }
    var axis = svgEl('g', { 'class': 'axis' });
    var labelled = [];
    [0, -fall, rise, -fall / 2, rise / 2].forEach(function (v) {
      var xv = x(v);
      // A tick whose label would run into another's is left out (a short side of the scale).
      if (labelled.some(function (other) { return Math.abs(other - xv) < 48; })) { return; }
      labelled.push(xv);
      axis.appendChild(svgEl('line', { x1: xv, x2: xv, y1: top - 6, y2: top + list.length * BAR }));
      var t = svgEl('text', { x: xv, y: top - 10, 'text-anchor': 'middle' });
      t.textContent = fmtPct(v * 100);
      axis.appendChild(t);
    });
    svg.appendChild(axis);
    list.forEach(function (b, k) {
      var y = top + k * BAR;
      var g = svgEl('g', {});
      // The end of the path, which tells repeated ops apart (Layer3::forward/Mlp::forward/gelu).
      var fits = Math.max(8, Math.floor((LABEL - 12) / 6.4));
      var label = svgEl('text', { x: LABEL - 8, y: y + 14, 'text-anchor': 'end' });
      label.textContent = b.path.length > fits ? '\u2026' + b.path.slice(b.path.length - fits + 1) : b.path;
      g.appendChild(label);
      var a = x(0);
      var e = x(b.change);
      var rect = svgEl('rect', { 'class': 'bar', x: Math.min(a, e).toFixed(1), y: y + 4,
        width: Math.max(1, Math.abs(e - a)).toFixed(1), height: BAR - 8,
        fill: b.change > 0 ? '#d9534f' : '#3b7dd8' });
      g.appendChild(rect);
      if (typeof b.lo === 'number' || typeof b.hi === 'number') {
        var lo = x(typeof b.lo === 'number' ? b.lo : -fall);
        var hi = x(typeof b.hi === 'number' ? b.hi : rise);
        g.appendChild(svgEl('line', { 'class': 'whisker', x1: lo, x2: hi, y1: y + BAR / 2, y2: y + BAR / 2 }));
        g.appendChild(svgEl('line', { 'class': 'whisker', x1: lo, x2: lo, y1: y + 5, y2: y + BAR - 5 }));
        g.appendChild(svgEl('line', { 'class': 'whisker', x1: hi, x2: hi, y1: y + 5, y2: y + BAR - 5 }));
      }
      var value = svgEl('text', { x: (b.change > 0 ? Math.max(e, typeof b.hi === 'number' ? x(b.hi) : e) + 6
        : Math.min(e, typeof b.lo === 'number' ? x(b.lo) : e) - 6).toFixed(1), y: y + 14,
        'text-anchor': b.change > 0 ? 'start' : 'end' });
      value.textContent = fmtPct(b.change * 100) + ' (' + (b.delta > 0 ? '+' : '') + fmtNs(b.delta) + ')';
      g.appendChild(value);
      g.addEventListener('mousemove', function (evt) {
        var rows = [['change of ' + what, fmtPct(b.change * 100)], ['base', fmtNs(b.base)],
          ['candidate', fmtNs(b.cand)], ['difference', fmtNs(b.delta)]];
        if (typeof b.lo === 'number' || typeof b.hi === 'number') {
          rows.push(['confidence interval', fmtPct(b.lo * 100) + ' \u2026 ' + fmtPct(b.hi * 100)]);
        }
        if (b.verdict) { rows.push(['verdict', b.verdict]); }
        showTip(evt, b.path, rows);
      });
      g.addEventListener('mouseleave', hideTip);
      svg.appendChild(g);
    });
    var holder = el('div', 'bars');
    holder.appendChild(svg);
    parent.appendChild(holder);
    note(parent, mode === 'groups'
      ? 'Bars: relative change of the median ' + what + ' (time spent in the path itself, not in its children); '
        + 'whiskers: its bootstrap confidence interval. Paths are ranked by the absolute change of their median '
        + what + ', regressions first.'
      : 'Bars: relative change of ' + what + ' (time spent in the path itself, not in its children), ranked by '
        + 'its absolute change, regressions first. Two single runs give no confidence interval: compare sets of '
        + 'runs for that.');
  }

  function comparePage() {
    var sections = [['summary', 'Summary'], ['flame', 'Span tree'], ['bars', 'Regressions and improvements']];
    if (data.device_bars) { sections.push(['device', 'Device time']); }
    header('tracegraph comparison report (' + (data.mode === 'groups' ? 'sets of runs' : 'two runs')
      + (DEVICE ? ', device time' : '') + ')', data.title, sections.concat([['memory', 'Memory'],
        ['tables', 'Tables']]));
    var summary = section('summary', 'Summary');
    facts(summary, data.facts);
    data.notes.forEach(function (n) { note(summary, n, true); });

    var f = data.flame;
    var flameSection = section('flame', 'Span tree, coloured by change');
    note(flameSection, 'Both sides merged by semantic path. Width = the larger ' + TOTAL + ' of the two sides; '
      + 'colour = change of ' + TOTAL + (DEVICE ? ' (only the paths with device time are drawn)' : '') + ' (red slower, blue faster, grey within \u00b1' + sig(data.threshold * 100) + '%'
      + (data.mode === 'groups' ? ' or unchanged by its confidence interval; pale yellow: inconclusive' : '')
      + '). Hover for both sides; click to zoom.');
    note(flameSection, f.note, true);
    var entries = [['slower', 'hsl(2, 78%, 55%)'], ['faster', 'hsl(212, 72%, 55%)'], ['unchanged', '#dadde1']];
    if (data.mode === 'groups') { entries.push(['inconclusive', '#f3ecd2']); }
    entries.push(['only in candidate', '#b07cc6'], ['only in base', '#eef0f2', '1px dashed #9aa3ad'],
      ['merged (more)', '#d4d7db']);
    legend(flameSection, entries);
    function name(i) {
      return f.presence[i] === 'merged' ? num(f.count[i], 0) + ' more' : f.names[f.name[i]];
    }
    Flame(flameSection, f, {
      weight: function (i) { return Math.max(f.base[i] || 0, f.cand[i] || 0); },
      label: name,
      color: function (i) { return changeColor(f, i); },
      klass: function (i) { return f.presence[i] === 'removed' ? 'removed' : ''; },
      tip: function (i) {
        var total = DEVICE ? 'device total' : 'total';
        var self = DEVICE ? 'device self' : 'self';
        var rows = [[total + ', base', f.base[i] === null ? 'absent' : fmtNs(f.base[i])],
          [total + ', candidate', f.cand[i] === null ? 'absent' : fmtNs(f.cand[i])]];
        if (f.change[i] !== null) { rows.push(['change', fmtPct(f.change[i] * 100)]); }
        if (f.lo[i] !== null || f.hi[i] !== null) {
          rows.push(['confidence interval', fmtPct(f.lo[i] * 100) + ' \u2026 ' + fmtPct(f.hi[i] * 100)]);
        }
        if (f.verdict[i]) { rows.push(['verdict', f.verdict[i]]); }
        if (f.presence[i] !== 'merged') {
          rows.push([self + ', base', f.base_self[i] === null ? 'absent' : fmtNs(f.base_self[i])]);
          rows.push([self + ', candidate', f.cand_self[i] === null ? 'absent' : fmtNs(f.cand_self[i])]);
        } else {
          rows.push(['paths merged', num(f.count[i], 0)]);
        }
        rows.push(['kind', f.kind[i]]);
        return [name(i), rows];
      }
    });

    var barSection = section('bars', 'Largest regressions and improvements of ' + SELF);
    bars(barSection, data.bars, data.mode);
    if (data.device_bars) {
      var deviceSection = section('device', 'Largest changes of device time');
      note(deviceSection, 'The paths with device time on both sides (kernels, memcpys and memsets attributed to each '
        + 'path, summed over devices), compared as above; --time device draws the whole page by it.');
      bars(deviceSection, data.device_bars, data.mode, 'device self time');
    }

    var memory = section('memory', 'Memory');
    compareMemory(memory, data.memory);

    var tables = section('tables', 'Tables');
    data.tables.forEach(function (t) {
      table(tables, t, function (td, column, v) {
        if ((column === 'verdict' && (v === 'slower' || v === 'bigger')) || (column === 'regression' && v === 'yes')) {
          td.className = 'bad';
        }
        if (column === 'verdict' && (v === 'faster' || v === 'smaller')) { td.className = 'good'; }
      });
    });
  }

  if (data.type === 'compare') { comparePage(); } else { runPage(); }
  var footer = el('footer', null, 'Made by tracegraph. Charts: uPlot (MIT). This page loads nothing from the '
    + 'network.');
  app.appendChild(footer);
  document.body.setAttribute('data-rendered', 'true');
}());
