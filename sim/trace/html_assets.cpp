// The inline style and script of the HTML timeline. The script reads everything it needs from
// the page (no data is spliced into it): zoom by changing the timeline's width, tooltips from
// each element's <title>, the arrow toggles, the links to the failure sites, and the first
// scroll to the failure. It sets body[data-ready] when done, for the browser test.

#include "sim/trace/html_parts.hpp"

namespace weft::sim::html {

std::string_view style() {
  return R"css(*{box-sizing:border-box}
body{margin:0;font:13px/1.35 system-ui,sans-serif;color:#1d1d1f;background:#fff}
#run-header{padding:8px 14px 4px;border-bottom:1px solid #ddd;background:#f7f7f9}
h1{font-size:16px;margin:0 0 4px}
h1 span{font-size:12px;padding:1px 8px;border-radius:9px;margin-left:6px;color:#fff;vertical-align:2px}
.verdict-ok{background:#2e7d32}.verdict-bad{background:#c62828}
.facts{border-collapse:collapse}
.facts th{text-align:left;font-weight:600;color:#555;padding:0 12px 0 0;vertical-align:top;white-space:nowrap}
.facts td{padding:0}
code{font:12px/1.3 ui-monospace,monospace}
.schedule{display:block;max-height:2.7em;overflow:auto;word-break:break-all}
#details{margin:5px 0;padding:4px 8px;background:#fff3f3;border-left:3px solid #c62828;font:12px/1.35 ui-monospace,monospace;white-space:pre-wrap;max-height:8em;overflow:auto}
#sites{margin:2px 0;padding-left:22px}
#sites a{color:#b71c1c}
#controls{padding:4px 14px;border-bottom:1px solid #ddd;display:flex;gap:8px;align-items:center;flex-wrap:wrap}
button{font:inherit;padding:0 9px}
.legend{color:#555;font-size:12px}
.swatch{display:inline-block;width:11px;height:11px;margin:0 3px 0 7px;vertical-align:-1px;border-radius:2px}
#scroller{display:flex;overflow:auto;max-height:calc(100vh - 36px)}
#label-column{position:sticky;left:0;z-index:2;background:#fff;flex:none;border-right:1px solid #ccc}
#track{flex:none}
svg text{font:11px system-ui,sans-serif;fill:#444}
text.device-label{font-weight:700;fill:#111}
#timeline text{text-anchor:middle;fill:#777}
.band0{fill:#fbfbfd}.band1{fill:#eef1f6}
.lane{stroke:#e0e0e6;stroke-width:1}
.tick{stroke:#ececf1;stroke-width:1}
.tick.k10{stroke:#dcdce4}.tick.k100,.tick.k1000{stroke:#c0c0cc}
#timeline[data-show="10"] .k1,#timeline[data-show="100"] .k1,#timeline[data-show="100"] .k10,
#timeline[data-show="1000"] .k1,#timeline[data-show="1000"] .k10,#timeline[data-show="1000"] .k100{display:none}
.life{stroke:#99a;stroke-width:1;stroke-dasharray:2 3}
.finish{stroke:#333;stroke-width:2}
.span{fill:#dce5f2;stroke:#9fb3d1;stroke-width:.5;background:#dce5f2}
.op{stroke:#fff;stroke-width:.5}
.op:hover{stroke:#000;stroke-width:1.5}
.op-load{fill:#4e79a7;background:#4e79a7}.op-store{fill:#f28e2b;background:#f28e2b}
.op-signal{fill:#59a14f;background:#59a14f}.op-wait{fill:#b07aa1;background:#b07aa1}
.op-read{fill:#9c755f;background:#9c755f}.op-allocate{fill:#bab0ac;background:#bab0ac}
.op-dma-start{fill:#76b7b2;background:#76b7b2}.op-dma-read{fill:#edc948;background:#edc948}
.op-dma-write{fill:#e377c2;background:#e377c2}
.wake{stroke:#2b8a3e;stroke-width:1.2;opacity:.7}
#head path{fill:#2b8a3e}
.dma-arrow{stroke:#ad1457;stroke-width:1.2;stroke-dasharray:4 2;opacity:.8}
#head-dma path{fill:#ad1457}
#timeline.no-wakes #wakes,#timeline.no-dma #dma-arrows{display:none}
.markline{stroke:#d00;stroke-width:1;stroke-dasharray:3 3}
.mark{fill:none;stroke:#d00;stroke-width:2.5}
.mark.unapplied{fill:rgba(220,0,0,.35)}
.mark.flash{stroke-width:5}
.swatch.mark{border:2px solid #d00}
.op.hit{stroke:#d00;stroke-width:1.5}
#tip{position:fixed;display:none;z-index:10;max-width:680px;padding:6px 8px;background:#222;color:#fff;border-radius:4px;font:12px/1.35 ui-monospace,monospace;white-space:pre-wrap;pointer-events:none}
)css";
}

std::string_view script() {
  return R"js((function () {
  'use strict';
  var svg = document.getElementById('timeline');
  var box = document.getElementById('scroller');
  var labels = document.getElementById('label-column');
  var tip = document.getElementById('tip');
  var level = document.getElementById('zoom-level');
  var columns = Number(svg.getAttribute('data-columns'));
  var perStep = 10;
  function visibleWidth() { return Math.max(100, box.clientWidth - labels.offsetWidth - 2); }
  function zoom(next) {
    var view = visibleWidth();
    var centre = (box.scrollLeft + view / 2) / (columns * perStep);
    perStep = Math.min(80, Math.max(0.01, next));
    svg.setAttribute('width', String(Math.ceil(columns * perStep)));
    var show = 1;
    while (show < 1000 && show * perStep < 32) show *= 10;
    svg.setAttribute('data-show', String(show));
    level.textContent = (perStep >= 1 ? perStep.toFixed(1) : perStep.toFixed(3)) + ' px/step';
    box.scrollLeft = centre * columns * perStep - view / 2;
  }
  function fit() { zoom((visibleWidth() - 12) / columns); }
  function reveal(el, flash) {
    var r = el.getBoundingClientRect(), b = box.getBoundingClientRect();
    var left = b.left + labels.offsetWidth;
    box.scrollLeft += (r.left + r.width / 2) - (left + (b.right - left) / 2);
    box.scrollTop += (r.top + r.height / 2) - (b.top + b.height / 2);
    if (!flash) return;
    el.classList.add('flash');
    setTimeout(function () { el.classList.remove('flash'); }, 900);
  }
  var titles = svg.querySelectorAll('title');
  for (var i = 0; i < titles.length; ++i) {
    titles[i].parentNode.setAttribute('data-tip', titles[i].textContent);
    titles[i].parentNode.removeChild(titles[i]);
  }
  svg.addEventListener('mousemove', function (e) {
    var text = e.target.getAttribute ? e.target.getAttribute('data-tip') : null;
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
  svg.addEventListener('wheel', function (e) {
    if (!e.ctrlKey) return;
    e.preventDefault();
    zoom(perStep * (e.deltaY < 0 ? 1.25 : 0.8));
  }, { passive: false });
  function on(id, event, handler) {
    var el = document.getElementById(id);
    if (el) el.addEventListener(event, handler);
  }
  var first = document.getElementById('mark-0') || svg.querySelector('.mark');
  on('zoom-in', 'click', function () { zoom(perStep * 1.5); });
  on('zoom-out', 'click', function () { zoom(perStep / 1.5); });
  on('zoom-fit', 'click', fit);
  on('go-failure', 'click', function () { if (first) reveal(first, true); });
  on('show-wakes', 'change', function (e) { svg.classList.toggle('no-wakes', !e.target.checked); });
  on('show-dma', 'change', function (e) { svg.classList.toggle('no-dma', !e.target.checked); });
  var links = document.querySelectorAll('.site-link');
  for (var j = 0; j < links.length; ++j) {
    links[j].addEventListener('click', function (e) {
      e.preventDefault();
      var mark = document.getElementById(this.getAttribute('data-mark'));
      if (mark) reveal(mark, true);
    });
  }
  document.addEventListener('keydown', function (e) {
    if (e.target && e.target.tagName === 'INPUT') return;
    if (e.key === '+' || e.key === '=') zoom(perStep * 1.5);
    else if (e.key === '-') zoom(perStep / 1.5);
    else if (e.key === '0') fit();
  });
  if (columns * 4 <= visibleWidth()) fit(); else zoom(10);
  if (first) reveal(first, false);
  document.body.setAttribute('data-ready', 'yes');
})();
)js";
}

}  // namespace weft::sim::html
