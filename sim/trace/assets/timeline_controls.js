// The second half of the HTML timeline's script (timeline_view.js opens the function):
// a frame's drawing, zoom, moving to a failure site, tooltips built from the data, the
// controls (zoom, arrows, causal view, lane filter) and the first view, which a URL fragment
// may choose (#view=fit, #view=100 for 100 %, #causal, #lanes=device%205). It sets body[data-ready]
// and body[data-ready-ms] (milliseconds since navigation) when done, for the browser test.
// The build drops this leading comment block.

  // --- one frame ---
  function draw() {
    if (state.lod === 'bands' && bandHeight() !== BAND) { layout(); resize(); }
    view.w = scroller.clientWidth; view.h = scroller.clientHeight;
    view.left = scroller.scrollLeft; view.top = scroller.scrollTop;
    view.s0 = view.left / state.perStep; view.s1 = (view.left + view.w - LABEL) / state.perStep;
    var out = { back: [], spans: [], ops: [], arrows: [], marks: [], labels: [] };
    var drawn = { ops: 0, arrows: 0, bands: 0 };
    rowBackgrounds(out.back);
    ticks(out.back, out.labels);
    if (state.lod === 'bands') { drawBands(out.ops, drawn); drawArrowCounts(out.arrows, drawn); }
    else { drawBoxes(out, drawn); drawArrows(out.arrows, drawn); }
    drawLaunchBoundaries(out.marks);
    drawMarks(out.marks);
    var labels = [];
    drawLabels(labels);
    svg.setAttribute('width', view.w);
    svg.setAttribute('height', view.h);
    document.getElementById('layer').innerHTML = out.back.join('') + out.spans.join('') + out.ops.join('') + out.arrows.join('') +
                                                  out.marks.join('') + labels.join('') + out.labels.join('');
    svg.setAttribute('data-lod', state.lod);
    svg.setAttribute('data-causal', state.causal ? 'on' : 'off');
    svg.setAttribute('data-drawn-ops', String(drawn.ops));
    svg.setAttribute('data-drawn-arrows', String(drawn.arrows));
    svg.setAttribute('data-drawn-bands', String(drawn.bands));
  }
  var pending = false;
  function redraw() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(function () { pending = false; draw(); });
  }
  function resize() {
    spacer.style.width = (LABEL + columns * state.perStep + 16) + 'px';
    spacer.style.height = Math.max(0, height - scroller.clientHeight + 16) + 'px';
  }
  function relayout() { layout(); resize(); draw(); }

  // --- zoom and moving about ---
  var level = document.getElementById('zoom-level');
  function plotWidth() { return Math.max(100, scroller.clientWidth - LABEL - 16); }
  function zoom(next, centre) {
    if (centre === undefined) centre = (scroller.scrollLeft + plotWidth() / 2) / state.perStep;
    state.perStep = Math.min(80, Math.max(plotWidth() / columns / 2, Math.min(next, 80)));
    var lod = state.perStep < BANDS_BELOW ? 'bands' : 'boxes';
    var relaid = lod !== state.lod;
    state.lod = lod;
    if (relaid) layout();
    resize();
    scroller.scrollLeft = centre * state.perStep - plotWidth() / 2;
    level.textContent = Math.round(state.perStep * 10) + '%';
    draw();
  }
  function fit() { zoom(plotWidth() / columns, columns / 2); }
  function reveal(site) {
    var mark = D.marks.filter(function (m) { return m.site === site; })[0];
    if (!mark) return;
    zoom(state.perStep, (mark.start + mark.width / 2) / 2);
    var y = rowOfLane(mark.lane);
    if (y >= 0) scroller.scrollTop = y - AXIS - (scroller.clientHeight - AXIS) / 2;
    draw();
    var el = document.getElementById('mark-' + site);
    if (el) { el.classList.add('flash'); setTimeout(function () { el.classList.remove('flash'); }, 900); }
  }

  // --- tooltips ---
  // A record in the words of the text listing (sim/trace/describe.cpp), from its fields.
  function coreName(core) { return 'device ' + Math.floor(core / D.coresPerDevice) + ' core ' + (core % D.coresPerDevice); }
  function slice(buffer, rect) { return buffer < 0 ? '?' : D.buffers[buffer] + ' ' + S[rect]; }
  function actor(r) {
    if (R.core[r] >= 0) return 'c' + R.core[r] + ' (' + coreName(R.core[r]) + ')';
    return (K[R.kind[r]] === 'dma-read' ? 'r' : 'w') + R.dma[r];
  }
  function title(r) {
    var kind = K[R.kind[r]], sem = R.semaphore[r] >= 0 ? S[R.semaphore[r]] : '';
    if (kind === 'signal' || kind === 'wait' || kind === 'read') return kind + ' ' + sem;
    var origin = R.origin[r] >= 0 ? ' (' + S[R.origin[r]] + ')' : '';
    if (kind === 'dma-start') return 'start DMA ' + R.dma[r] + origin;
    if (kind === 'dma-read' || kind === 'dma-write') return 'DMA ' + R.dma[r] + origin + ' ' + kind.slice(4);
    return kind;
  }
  function details(r) {
    var kind = K[R.kind[r]], cell = 'cell of ' + coreName(R.cell[r]), count = R.count[r];
    var signal = R.semaphore[r] < 0 ? '' : '; signal ' + S[R.semaphore[r]] + ', ' + cell + ' +' + R.amount[r] + ' -> ' + count;
    switch (kind) {
      case 'allocate': return R.buffer[r] >= 0 ? D.buffers[R.buffer[r]] : S[R.semaphore[r]];
      case 'load': case 'store': return slice(R.buffer[r], R.rect[r]);
      case 'signal': return cell + ' +' + R.amount[r] + ' -> ' + count;
      case 'wait': return cell + ' -' + R.amount[r] + ' -> ' + count;
      case 'read': return cell + ' = ' + count;
      case 'dma-start': return slice(R.buffer[r], R.rect[r]) + ' -> ' + slice(R.targetBuffer[r], R.targetRect[r]) + ', ' + R.amount[r] +
                               ' bytes, recv ' + cell;
      case 'dma-read': return slice(R.buffer[r], R.rect[r]) + signal;
      case 'dma-write': return slice(R.targetBuffer[r], R.targetRect[r]) + signal;
    }
    return 'the kernel returned';
  }
  function describe(r) {
    var text = title(r) + ' | step ' + R.step[r] + ', ' + actor(r) + '\n' + details(r);
    if (S[R.line[r]]) text += '\n' + S[R.line[r]];
    if (wokenBy[r]) text += '\nwoken by: ' + wokenBy[r].map(function (s) { return 'step ' + R.step[s] + ' ' + actor(s); }).join(', ');
    if (inChain[r]) text += '\n(on the broken chain)';
    return text;
  }
  function spanTip(s) {
    var start = D.spans[s + 3];
    return 'DMA ' + R.dma[start] + ' (started step ' + R.step[start] + ' by ' + actor(start) + ')\n' + details(start) + '\n' + S[R.line[start]];
  }
  function bandTip(e) {
    var box = svg.getBoundingClientRect(), x = e.clientX - box.left, y = e.clientY - box.top + view.top;
    var row = rows.filter(function (rw) { return y >= rw.y && y < rw.y + rw.h; })[0];
    if (!row || x < LABEL) return null;
    var s0 = Math.floor((view.left + x - LABEL) / state.perStep), s1 = Math.ceil((view.left + x - LABEL + BUCKET) / state.perStep);
    var kinds = {}, total = 0, list = byDevice[row.device];
    for (var k = firstEnding(list, s0 * 2); k < list.length && R.start[list[k]] <= s1 * 2; ++k) {
      if (state.causal && !focus[list[k]]) continue;
      kinds[K[R.kind[list[k]]]] = (kinds[K[R.kind[list[k]]]] || 0) + 1;
      ++total;
    }
    return 'device ' + row.device + ', steps ' + s0 + '..' + s1 + ': ' + total + ' operation' + (total === 1 ? '' : 's') +
           Object.keys(kinds).sort().map(function (kind) { return '\n  ' + kind + ' ' + kinds[kind]; }).join('') + '\nzoom in for boxes and arrows';
  }
  function tipText(e) {
    var t = e.target;
    if (!t.getAttribute) return null;
    if (t.hasAttribute('data-r')) return describe(Number(t.getAttribute('data-r')));
    if (t.hasAttribute('data-tip')) return t.getAttribute('data-tip');
    if (t.hasAttribute('data-s')) return spanTip(Number(t.getAttribute('data-s')));
    if (t.hasAttribute('data-m')) return D.verdict + ': ' + D.marks.filter(function (m) { return m.site === Number(t.getAttribute('data-m')); })[0].label;
    if (t.hasAttribute('data-a')) {
      var a = arrows[Number(t.getAttribute('data-a'))];
      return a[3] === 'wake' ? title(a[1]) + ': ' + a[4] + ' from step ' + R.step[a[0]] + ' ' + actor(a[0]) + ' woke the wait of step ' + R.step[a[1]] + ' ' + actor(a[1])
                             : title(a[0]) + ' lands: ' + details(a[0]);
    }
    return state.lod === 'bands' ? bandTip(e) : null;
  }
  svg.addEventListener('mousemove', function (e) {
    var text = tipText(e);
    if (!text) { tip.style.display = 'none'; return; }
    tip.textContent = text;
    tip.style.display = 'block';
    var x = e.clientX + 14, y = e.clientY + 14;
    if (x + tip.offsetWidth > window.innerWidth) x = e.clientX - tip.offsetWidth - 8;
    if (y + tip.offsetHeight > window.innerHeight) y = e.clientY - tip.offsetHeight - 8;
    tip.style.left = x + 'px';
    tip.style.top = y + 'px';
  });
  svg.addEventListener('mouseleave', function () { tip.style.display = 'none'; });

  // --- controls ---
  function on(id, event, handler) { var el = document.getElementById(id); if (el) el.addEventListener(event, handler); }
  on('zoom-in', 'click', function () { zoom(state.perStep * 1.5); });
  on('zoom-out', 'click', function () { zoom(state.perStep / 1.5); });
  on('zoom-fit', 'click', fit);
  on('zoom-100', 'click', function () { zoom(10); });
  on('go-failure', 'click', function () { reveal(D.marks[0].site); });
  on('show-wakes', 'change', function (e) { svg.classList.toggle('no-wakes', !e.target.checked); });
  on('show-dma', 'change', function (e) { svg.classList.toggle('no-dma', !e.target.checked); });
  on('causal-view', 'change', function (e) { state.causal = e.target.checked; relayout(); if (D.marks.length) reveal(D.marks[0].site); });
  on('lane-filter', 'input', function (e) { state.filter = e.target.value.trim(); relayout(); });
  Array.prototype.forEach.call(document.querySelectorAll('.site-link'), function (link) {
    link.addEventListener('click', function (e) { e.preventDefault(); reveal(Number(link.getAttribute('data-site'))); });
  });
  scroller.addEventListener('scroll', redraw);
  window.addEventListener('resize', function () { resize(); redraw(); });
  scroller.addEventListener('wheel', function (e) {
    if (!e.ctrlKey) return;
    e.preventDefault();
    var box = scroller.getBoundingClientRect();
    var at = (scroller.scrollLeft + e.clientX - box.left - LABEL) / state.perStep, before = e.clientX - box.left - LABEL;
    zoom(state.perStep * (e.deltaY < 0 ? 1.25 : 0.8), at);
    scroller.scrollLeft = at * state.perStep - before;
    draw();
  }, { passive: false });
  document.addEventListener('keydown', function (e) {
    if (e.target && e.target.tagName === 'INPUT') return;
    if (e.key === '+' || e.key === '=') zoom(state.perStep * 1.5);
    else if (e.key === '-') zoom(state.perStep / 1.5);
    else if (e.key === '0') fit();
  });

  // --- the first view: #view=fit|100|<percent>, #causal, #lanes=<filter>; else on the failure ---
  var hash = {};
  location.hash.replace(/^#/, '').split('&').forEach(function (part) {
    if (part) hash[decodeURIComponent(part.split('=')[0])] = decodeURIComponent(part.split('=')[1] || '');
  });
  if (hash.causal !== undefined && document.getElementById('causal-view')) {
    state.causal = true;
    document.getElementById('causal-view').checked = true;
  }
  if (hash.lanes) { state.filter = hash.lanes; document.getElementById('lane-filter').value = hash.lanes; }
  layout();
  var wanted = hash.view === 'fit' ? 0 : hash.view ? Number(hash.view) / 10 : D.marks.length && columns * 4 > plotWidth() ? 10 : 0;
  if (wanted > 0) zoom(wanted, D.marks.length ? (D.marks[0].start + D.marks[0].width / 2) / 2 : 0); else fit();
  if (D.marks.length) reveal(D.marks[0].site);
  document.body.setAttribute('data-ready', 'yes');
  document.body.setAttribute('data-ready-ms', String(Math.round(performance.now())));
})();
