// The HTML timeline's inline style sheet.

#include "sim/trace/html_parts.hpp"

namespace weft::sim::html {

std::string_view style() {
  return R"css(*{box-sizing:border-box}
html,body{height:100%}
body{margin:0;font:13px/1.35 system-ui,sans-serif;color:#1d1d1f;background:#fff;display:flex;flex-direction:column}
#run-header{padding:6px 14px 4px;border-bottom:1px solid #ddd;background:#f7f7f9;flex:none;max-height:42vh;overflow:auto}
h1{font-size:16px;margin:0 0 4px}
h1 span{font-size:12px;padding:1px 8px;border-radius:9px;margin-left:6px;color:#fff;vertical-align:2px}
.verdict-ok{background:#2e7d32}.verdict-bad{background:#c62828}
#description{margin:0 0 4px;color:#333;font-style:italic}
.facts{border-collapse:collapse}
.facts th{text-align:left;font-weight:600;color:#555;padding:0 12px 0 0;vertical-align:top;white-space:nowrap}
.facts td{padding:0}
code{font:12px/1.3 ui-monospace,monospace}
.schedule{display:block;max-height:2.7em;overflow:auto;word-break:break-all}
#details,#explanation{margin:5px 0;padding:4px 8px;font:12px/1.35 ui-monospace,monospace;white-space:pre-wrap;max-height:9em;overflow:auto}
#details{background:#fff3f3;border-left:3px solid #c62828}
#explanation{background:#fff8e6;border-left:3px solid #e8a200}
#sites{margin:2px 0;padding-left:22px}
#sites a{color:#b71c1c}
#controls{padding:4px 14px;border-bottom:1px solid #ddd;display:flex;gap:8px;align-items:center;flex-wrap:wrap;flex:none}
button{font:inherit;padding:0 9px}
#lane-filter{font:inherit;width:11em}
.legend{color:#555;font-size:12px}
.swatch{display:inline-block;width:11px;height:11px;margin:0 3px 0 7px;vertical-align:-1px;border-radius:2px}
#scroller{flex:1 1 0;min-height:200px;overflow:auto;position:relative}
#timeline{position:sticky;top:0;left:0;display:block}
#spacer{pointer-events:none}
svg text{font:11px system-ui,sans-serif;fill:#444}
text.device-label{font-weight:700;fill:#111}
text.tick-label{text-anchor:middle;fill:#777}
text.count{font-size:9px;fill:#1b5e20;text-anchor:middle}
.gutter{fill:#fff}.gutter-line{stroke:#ccc}
.band0{fill:#fbfbfd}.band1{fill:#eef1f6}
.lane{stroke:#e0e0e6;stroke-width:1}
.tick{stroke:#e4e4ea;stroke-width:1}
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
.activity{stroke:#4e79a7;stroke-width:2;fill:none}
.activity.focus{stroke:#e8a200}
.wake{stroke:#2b8a3e;stroke-width:1.2;opacity:.7}
.wake.counted{opacity:.45}
.dma-arrow.counted{opacity:.45;stroke-dasharray:none}
.dma-arrow{stroke:#ad1457;stroke-width:1.2;stroke-dasharray:4 2;opacity:.8}
.chain{stroke:#e8a200;stroke-width:3;opacity:1}
.op.in-chain{stroke:#e8a200;stroke-width:2.5}
#head path{fill:#2b8a3e}#head-dma path{fill:#ad1457}#head-chain path{fill:#e8a200}
#timeline.no-wakes .wake,#timeline.no-dma .dma-arrow{display:none}
#timeline.no-wakes .wake.chain{display:inline}
.markline{stroke:#d00;stroke-width:1;stroke-dasharray:3 3}
.mark{fill:none;stroke:#d00;stroke-width:2.5}
.mark.unapplied{fill:rgba(220,0,0,.35)}
.mark.flash{stroke-width:5}
.swatch.mark{border:2px solid #d00}.swatch.chain{background:#e8a200}
.op.hit{stroke:#d00;stroke-width:1.5}
#tip{position:fixed;display:none;z-index:10;max-width:680px;padding:6px 8px;background:#222;color:#fff;border-radius:4px;font:12px/1.35 ui-monospace,monospace;white-space:pre-wrap;pointer-events:none}
)css";
}

}  // namespace weft::sim::html
