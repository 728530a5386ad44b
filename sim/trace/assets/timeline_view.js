// The first half of the HTML timeline's script: the page's data, which lanes show and where,
// and drawing what the viewport shows. It opens the function timeline_controls.js closes
// (the build joins them, in that order, into one <script>; sim/CMakeLists.txt embeds them and
// drops this leading comment block).
//
// Only what is in view is drawn, into an SVG the size of the viewport that stays put while the
// scroller moves a spacer as large as the whole timeline; each scroll or zoom redraws (one
// innerHTML per frame). Level of detail: under 1.5 px per step each device's lanes become one
// band of activity (the share of each 2-px bucket's steps with an operation) and arrows become
// one line per (48-px bucket, device pair) with its count; above it, boxes and arrows. The
// causal view keeps only the records of the explanation's focus (the causal past of the racing
// accesses, or the blocked cores) and the lanes that hold them; arrows are drawn only when
// both ends are on shown lanes.
(function () {
  'use strict';
  document.body.setAttribute('data-script-start-ms', String(Math.round(performance.now())));
  var D = JSON.parse(document.getElementById('weft-data').textContent);
  var R = D.records, S = D.strings, K = D.kinds;
  var svg = document.getElementById('timeline');
  var scroller = document.getElementById('scroller');
  var spacer = document.getElementById('spacer');
  var tip = document.getElementById('tip');
  var LABEL = 132, AXIS = 24, LANE = 18, TITLE = 18, BAND = 13, BUCKET = 2, ARROW_BUCKET = 48;  // px
  var BANDS_BELOW = 1.5;  // px per step under which lanes aggregate into device bands
  var count = R.lane.length, columns = D.columns;
  R.step = new Float64Array(count);
  R.start = new Float64Array(count);  // half steps
  for (var at = 0, step = 0; at < count; ++at) {
    step += R.stepDelta[at];
    R.step[at] = step;
    R.start[at] = step * 2 + R.offset[at];
  }
  var state = { perStep: 10, causal: false, filter: '', lod: 'boxes' };

  function set(list) {
    var flags = new Uint8Array(count);
    for (var i = 0; i < list.length; ++i) flags[list[i]] = 1;
    return flags;
  }
  var focus = set(D.focus), inChain = set(D.chain);
  var chainSteps = {};  // "from>to" of consecutive chain records
  for (var c = 0; c + 1 < D.chain.length; ++c) chainSteps[D.chain[c] + '>' + D.chain[c + 1]] = true;
  var marked = new Uint8Array(count);
  D.marks.forEach(function (m) { if (m.record >= 0) marked[m.record] = 1; });

  // Records per lane (drawable ones, in start order) and per device.
  var byLane = D.lanes.map(function () { return []; });
  var byDevice = [];
  for (var d = 0; d < D.devices; ++d) byDevice.push([]);
  for (var i = 0; i < count; ++i) {
    if (R.lane[i] < 0 || K[R.kind[i]] === 'finish') continue;
    byLane[R.lane[i]].push(i);
    byDevice[D.lanes[R.lane[i]][0]].push(i);
  }
  // Arrows: [from record, to record (-1: a lane), to lane, 'wake' | 'dma', units].
  var arrows = [], wokenBy = {};
  for (var w = 0; w < D.wakes.length; w += 3) {
    var from = D.wakes[w], to = D.wakes[w + 1];
    if (R.lane[from] < 0 || R.lane[to] < 0) continue;
    arrows.push([from, to, R.lane[to], 'wake', D.wakes[w + 2]]);
    (wokenBy[to] = wokenBy[to] || []).push(from);
  }
  for (var l = 0; l < D.landings.length; l += 2) arrows.push([D.landings[l], -1, D.landings[l + 1], 'dma', 0]);
  // Launch boundaries of a program: per device, launch k + 1 begins where the last of its cores
  // ended launch k (its 'end launch k' record): [device, k + 1, half step].
  var boundaries = [], boundaryAt = {};
  for (var e = 0; e < count; ++e) {
    if (R.lane[e] < 0 || K[R.kind[e]] !== 'launch-end') continue;
    var key = D.lanes[R.lane[e]][0] + ':' + (R.amount[e] + 1), end = R.start[e] + R.width[e];
    if (!(key in boundaryAt)) { boundaryAt[key] = boundaries.length; boundaries.push([D.lanes[R.lane[e]][0], R.amount[e] + 1, end]); }
    boundaries[boundaryAt[key]][2] = Math.max(boundaries[boundaryAt[key]][2], end);
  }

  // --- rows: which lanes show, where ---
  var rows = [], laneY = [], deviceY = [], shown = [], height = AXIS;
  function laneShown(lane) {
    var info = D.lanes[lane];
    if (state.filter) {
      // whole words of the lane's name and its device's: 'device 5' is not 'device 50'
      var name = ' device ' + info[0] + ' ' + info[2] + ' ';
      var terms = state.filter.split(','), hit = false;
      for (var t = 0; t < terms.length; ++t) {
        var term = terms[t].trim().replace(/\s+/g, ' ');
        if (term && name.indexOf(' ' + term + ' ') >= 0) hit = true;
      }
      if (!hit) return false;
    }
    if (!state.causal) return true;
    var mine = byLane[lane];
    for (var k = 0; k < mine.length; ++k) if (focus[mine[k]]) return true;
    return D.marks.some(function (m) { return m.lane === lane; });
  }
  // Bands share the height in view, so that every device shows at fit.
  function bandHeight() {
    var devices = {};
    D.lanes.forEach(function (info, lane) { if (shown[lane]) devices[info[0]] = true; });
    return Math.max(5, Math.min(13, Math.floor((scroller.clientHeight - AXIS - 8) / Math.max(Object.keys(devices).length, 1))));
  }
  function layout() {
    rows = []; laneY = []; deviceY = []; height = AXIS;
    shown = D.lanes.map(function (info, lane) { return laneShown(lane); });
    BAND = bandHeight();
    for (var dev = 0; dev < D.devices; ++dev) {
      var mine = [];
      D.lanes.forEach(function (info, lane) { if (info[0] === dev && shown[lane]) mine.push(lane); });
      deviceY.push(-1);
      if (!mine.length) continue;
      if (state.lod === 'bands') {
        deviceY[dev] = height;
        rows.push({ kind: 'band', device: dev, y: height, h: BAND });
        height += BAND;
        continue;
      }
      rows.push({ kind: 'title', device: dev, y: height, h: TITLE + mine.length * LANE });
      deviceY[dev] = height;
      height += TITLE;
      mine.forEach(function (lane) { laneY[lane] = height; rows.push({ kind: 'lane', lane: lane, y: height, h: LANE }); height += LANE; });
    }
    for (var lane = 0; lane < D.lanes.length; ++lane) if (laneY[lane] === undefined) laneY[lane] = -1;
    height += 4;
    svg.setAttribute('data-visible-lanes', String(shown.filter(Boolean).length));
  }
  function rowOfLane(lane) {
    if (state.lod === 'bands') return deviceY[D.lanes[lane][0]] >= 0 ? deviceY[D.lanes[lane][0]] + BAND / 2 : -1;
    return laneY[lane] >= 0 ? laneY[lane] + LANE / 2 : -1;
  }

  // --- drawing: only what the viewport shows ---
  var view = { w: 0, h: 0, left: 0, top: 0, s0: 0, s1: 0 };
  function X(half) { return LABEL + half / 2 * state.perStep - view.left; }
  function Y(y) { return y - view.top; }
  function f(v) { return Math.round(v * 10) / 10; }
  function firstEnding(list, half) {  // the first record of `list` that ends after `half`
    var lo = 0, hi = list.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (R.start[list[mid]] + Math.max(R.width[list[mid]], 1) < half) lo = mid + 1; else hi = mid;
    }
    return lo;
  }
  function tickSpacing() {
    for (var base = 1; ; base *= 10)
      for (var j = 0; j < 3; ++j) if (base * [1, 2, 5][j] * state.perStep >= 56) return base * [1, 2, 5][j];
  }
  function ticks(lines, labels) {
    var spacing = tickSpacing();
    for (var t = Math.floor(view.s0 / spacing) * spacing; t <= view.s1; t += spacing) {
      var x = f(X(t * 2));
      if (x < LABEL) continue;
      lines.push('<line class="tick" x1="' + x + '" y1="' + (AXIS - 6) + '" x2="' + x + '" y2="' + view.h + '"/>');
      labels.push('<text class="tick-label" x="' + x + '" y="14">' + t + '</text>');
    }
  }
  function rowBackgrounds(out) {
    rows.forEach(function (row) {
      var top = Y(row.y), bottom = top + row.h;
      if (bottom < AXIS || top > view.h) return;
      if (row.kind === 'title' || row.kind === 'band')
        out.push('<rect class="band' + (row.device % 2) + '" x="' + LABEL + '" y="' + f(top) + '" width="' + view.w + '" height="' + row.h + '"/>');
      if (row.kind === 'lane') out.push('<line class="lane" x1="' + LABEL + '" y1="' + f(bottom) + '" x2="' + view.w + '" y2="' + f(bottom) + '"/>');
    });
  }
  function visibleRow(y, h) { var top = Y(y); return top + h >= AXIS && top <= view.h; }
  // A dashed line across the device's lanes (or band) where its next launch begins, labelled.
  function drawLaunchBoundaries(out) {
    rows.forEach(function (row) {
      if ((row.kind !== 'title' && row.kind !== 'band') || !visibleRow(row.y, row.h)) return;
      boundaries.forEach(function (b) {
        var x = X(b[2]);
        if (b[0] !== row.device || x < LABEL || x > view.w) return;
        var top = Y(row.y);
        out.push('<line class="launch-boundary" data-device="' + b[0] + '" data-launch="' + b[1] + '" x1="' + f(x) + '" y1="' + f(top) +
                 '" x2="' + f(x) + '" y2="' + f(top + row.h) + '"/>');
        if (row.kind === 'title' || row.h >= 10)
          out.push('<text class="launch-label" x="' + f(x + 3) + '" y="' + f(top + Math.min(12, row.h - 2)) + '">launch ' + b[1] + '</text>');
      });
    });
  }

  function drawBoxes(out, drawn) {
    rows.forEach(function (row) {
      if (row.kind !== 'lane' || !visibleRow(row.y, row.h)) return;
      var info = D.lanes[row.lane], middle = f(Y(row.y + LANE / 2));
      if (info[1] === 0 && !state.causal) {
        var end = Math.min(X(D.lives[info[3]]), view.w);
        if (end > LABEL) out.spans.push('<line class="life" x1="' + LABEL + '" y1="' + middle + '" x2="' + f(end) + '" y2="' + middle + '"/>');
        if (D.lives[info[3]] < columns * 2 && end > LABEL && end < view.w)
          out.spans.push('<line class="finish" x1="' + f(end) + '" y1="' + (middle - 6) + '" x2="' + f(end) + '" y2="' + (middle + 6) + '"/>');
      }
      var list = byLane[row.lane], top = f(Y(row.y) + 2), h = LANE - 4;
      for (var k = firstEnding(list, view.s0 * 2); k < list.length; ++k) {
        var r = list[k];
        if (R.start[r] > view.s1 * 2) break;
        if (state.causal && !focus[r]) continue;
        var x = Math.max(X(R.start[r]), LABEL - 2), wdt = X(R.start[r] + R.width[r]) - x;
        out.ops.push('<rect class="op op-' + K[R.kind[r]] + (marked[r] ? ' hit' : '') + (inChain[r] ? ' in-chain' : '') + '" data-r="' + r +
                 '" x="' + f(x) + '" y="' + top + '" width="' + f(Math.max(wdt, 1)) + '" height="' + h + '"/>');
        ++drawn.ops;
      }
    });
    for (var s = 0; s < D.spans.length; s += 4) {
      var lane = D.spans[s], y = laneY[lane];
      if (y < 0 || !visibleRow(y, LANE)) continue;
      var a = D.spans[s + 1], b = a + D.spans[s + 2];
      if (b < view.s0 * 2 || a > view.s1 * 2) continue;
      var x0 = Math.max(X(a), LABEL - 2), x1 = Math.min(X(b), view.w + 2);
      out.spans.push('<rect class="span" data-s="' + s + '" x="' + f(x0) + '" y="' + f(Y(y) + 4) + '" width="' + f(x1 - x0) + '" height="' + (LANE - 8) + '"/>');
    }
  }
  function arrowEnds(a) {
    var from = a[0], to = a[1];
    var x1 = X(R.start[from] + R.width[from] / 2), y1 = rowOfLane(R.lane[from]);
    var x2 = to >= 0 ? X(R.start[to] + R.width[to] * 0.3) : X(R.start[from] + R.width[from]), y2 = rowOfLane(a[2]);
    return [x1, y1, x2, y2];
  }
  function drawArrows(out, drawn) {
    arrows.forEach(function (a, index) {
      if (state.causal && !(focus[a[0]] && (a[1] < 0 || focus[a[1]]))) return;
      var e = arrowEnds(a);
      if (e[1] < 0 || e[3] < 0) return;  // an end on a hidden lane
      if (Math.max(e[0], e[2]) < LABEL || Math.min(e[0], e[2]) > view.w) return;
      if (Math.max(e[1], e[3]) < view.top || Math.min(e[1], e[3]) > view.top + view.h) return;
      var chain = a[1] >= 0 && chainSteps[a[0] + '>' + a[1]];
      out.push('<line class="' + (a[3] === 'wake' ? 'wake' : 'dma-arrow') + (chain ? ' chain' : '') + '" data-a="' + index +
               '" x1="' + f(e[0]) + '" y1="' + f(Y(e[1])) + '" x2="' + f(e[2]) + '" y2="' + f(Y(e[3])) +
               '" marker-end="url(#head' + (chain ? '-chain' : a[3] === 'wake' ? '' : '-dma') + ')"/>');
      ++drawn.arrows;
    });
  }
  // Bands: per device, how many operations each 2-px bucket holds, against the busiest bucket
  // in view (so a long run's sparse activity still shows).
  function drawBands(out, drawn) {
    var buckets = Math.ceil((view.w - LABEL) / BUCKET), counted = [], most = 1;
    rows.forEach(function (row) {
      if (!visibleRow(row.y, row.h)) return;
      var hits = new Float64Array(buckets), list = byDevice[row.device];
      for (var k = firstEnding(list, view.s0 * 2); k < list.length; ++k) {
        var r = list[k];
        if (R.start[r] > view.s1 * 2) break;
        if ((state.causal && !focus[r]) || !shown[R.lane[r]]) continue;
        var b = Math.floor((X(R.start[r]) - LABEL) / BUCKET);
        if (b >= 0 && b < buckets) most = Math.max(most, hits[b] += 1);
      }
      counted.push([row, hits]);
    });
    counted.forEach(function (entry) {
      var row = entry[0], hits = entry[1], path = '', base = Y(row.y) + BAND - 1;
      for (var b = 0; b < buckets; ++b)
        if (hits[b]) path += 'M' + (LABEL + b * BUCKET + 1) + ' ' + f(base) + 'V' + f(base - 1 - hits[b] / most * (BAND - 3));
      out.push('<path class="activity' + (state.causal ? ' focus' : '') + '" data-device="' + row.device + '" d="' + (path || 'M0 0') + '"/>');
      ++drawn.bands;
    });
  }
  // Arrows at band level: one per (bucket, device pair), at the mean time of those it stands
  // for, with its count.
  function drawArrowCounts(out, drawn) {
    var groups = {}, keys = [];
    arrows.forEach(function (a) {
      if (state.causal && !(focus[a[0]] && (a[1] < 0 || focus[a[1]]))) return;
      var e = arrowEnds(a);
      if (e[1] < 0 || e[3] < 0 || e[0] < LABEL || e[0] > view.w) return;
      var bucket = Math.floor((e[0] - LABEL) / ARROW_BUCKET), key = bucket + ':' + e[1] + ':' + e[3] + ':' + a[3];
      if (!groups[key]) { groups[key] = { n: 0, x: 0, bucket: bucket, y1: e[1], y2: e[3], kind: a[3] }; keys.push(key); }
      groups[key].n += 1;
      groups[key].x += e[0];
    });
    var labelled = keys.length <= 300;
    keys.forEach(function (key) {
      var g = groups[key], x = f(g.x / g.n), y1 = f(Y(g.y1)), y2 = f(Y(g.y2));
      if (Math.max(y1, y2) < AXIS || Math.min(y1, y2) > view.h) return;
      var s0 = Math.round((view.left + g.bucket * ARROW_BUCKET) / state.perStep);
      var text = g.n + (g.kind === 'wake' ? ' signal \u2192 wait' : ' DMA landing') + (g.n === 1 ? '' : 's') + ', steps ' + s0 + '..' +
                 Math.round(s0 + ARROW_BUCKET / state.perStep);
      if (Math.abs(y2 - y1) > 4 * BAND) {  // a long way (around the ring): a stub towards it, not a line across every band
        text += ' (to the device ' + (y2 > y1 ? 'below' : 'above') + ')';
        y2 = f(y1 + (y2 > y1 ? 1 : -1) * 2 * BAND);
      }
      out.push('<line class="' + (g.kind === 'wake' ? 'wake' : 'dma-arrow') + ' counted" data-tip="' + text + '" x1="' + x + '" y1="' + y1 +
               '" x2="' + x + '" y2="' + y2 + '" stroke-width="' + f(Math.min(4, 0.8 + Math.log2(g.n) / 2)) + '"/>');
      if (labelled && g.n > 1) out.push('<text class="count" x="' + (x + 8) + '" y="' + f((y1 + y2) / 2 + 3) + '">' + g.n + '</text>');
      ++drawn.arrows;
    });
  }
  function drawMarks(out) {
    D.marks.forEach(function (m) {
      var y = rowOfLane(m.lane);
      var x = X(m.start + m.width / 2);
      if (x < LABEL || x > view.w) return;
      out.push('<line class="markline" x1="' + f(x) + '" y1="' + AXIS + '" x2="' + f(x) + '" y2="' + view.h + '"/>');
      if (y < 0) return;
      var x0 = X(m.start), wdt = Math.max(X(m.start + m.width) - x0, 3), h = state.lod === 'bands' ? BAND : LANE;
      out.push('<rect class="mark' + (m.record < 0 ? ' unapplied' : '') + '" id="mark-' + m.site + '" data-m="' + m.site + '" x="' + f(x0) +
               '" y="' + f(Y(y) - h / 2 + 0.5) + '" width="' + f(wdt) + '" height="' + (h - 1) + '"/>');
    });
  }
  function drawLabels(out) {
    out.push('<rect class="gutter" x="0" y="0" width="' + LABEL + '" height="' + view.h + '"/>');
    out.push('<rect class="gutter" x="0" y="0" width="' + view.w + '" height="' + AXIS + '"/>');
    out.push('<line class="gutter-line" x1="' + LABEL + '" y1="0" x2="' + LABEL + '" y2="' + view.h + '"/>');
    out.push('<text x="6" y="14">step</text>');
    rows.forEach(function (row) {
      var top = Y(row.y);
      if (top + 14 < AXIS || top > view.h) return;
      if (row.kind === 'band') out.push('<text class="device-label" style="font-size:' + Math.min(11, BAND - 1) + 'px" x="6" y="' + f(top + BAND - 2) + '">device ' + row.device + '</text>');
      if (row.kind === 'title' && top >= AXIS - 4) out.push('<text class="device-label" x="6" y="' + f(top + 13) + '">device ' + row.device + '</text>');
      if (row.kind === 'lane') out.push('<text class="lane-label" x="18" y="' + f(top + 13) + '">' + D.lanes[row.lane][2] + '</text>');
    });
  }
