// Draws report.html from the JSON in #report-data (written by report_data.cpp and
// workload_graph.cpp): the summary with the energy split, the groups one after another and a
// table of them with their layers (each linking to its section), the workload graph coloured by
// fusion group, and per group (with links to the previous and next) its schedule (zoom with the wheel or the buttons, pan by dragging), memory occupancy
// per core against capacity, the cost table as heatmaps and the binding contributor per slot;
// for a run of the mapping optimizer, its search (after the summary).
// Sets data-rendered="ok" on <body> when done, data-error when a script error occurred. Runs after
// page_common.js (SVGNS, el, the error hook).
(function () {
  function num(v) {
    if (v === null || v === undefined) return "-";
    if (typeof v !== "number") return String(v);
    if (Math.abs(v) >= 1e7) return v.toExponential(3);
    return String(Math.round(v * 1000) / 1000);
  }
  function pct(v) { return v === null || v === undefined ? "-" : (100 * v).toFixed(1) + " %"; }
  function bytes(bits) {
    const b = bits / 8, units = ["B", "KiB", "MiB", "GiB"];
    let u = 0, x = b;
    while (x >= 1024 && u < units.length - 1) { x /= 1024; ++u; }
    return (u === 0 ? String(Math.round(x)) : x.toFixed(1)) + " " + units[u];
  }
  function niceStep(span, wanted) {
    const raw = Math.max(span, 1) / wanted, p = Math.pow(10, Math.floor(Math.log10(raw)));
    for (const m of [1, 2, 5]) if (m * p >= raw) return Math.max(1, m * p);
    return Math.max(1, 10 * p);
  }
  const textWidth = function (s, px) { return 0.62 * px * Array.from(s).length; };

  function table(parent, header, rows) {
    const t = el("table", {}, parent), tr = el("tr", {}, el("thead", {}, t));
    header.forEach(function (h) { el("th", {}, tr, h); });
    const body = el("tbody", {}, t);
    rows.forEach(function (r) {
      const row = el("tr", {}, body);
      r.forEach(function (c) {
        if (c instanceof Node) el("td", {}, row).appendChild(c); else el("td", {}, row, c);
      });
    });
    return t;
  }

  function summary(S, root) {
    const sec = el("section", { id: "summary" }, root);
    el("h2", {}, sec, "Summary");
    const fallbacks = S.costs ? S.costs.fallback + " of " + S.costs.entries + " (node, core) costs estimated" : "-";
    table(sec, ["total latency", "total energy", "EDP", "MAC spatial utilisation", "end-to-end MAC utilisation", "cost fallbacks"],
          [[num(S.total_latency) + " cycles", num(S.total_energy) + " pJ", num(S.edp) + " pJ·cycles",
            pct(S.mac_spatial_utilization), pct(S.end_to_end_mac_utilization), fallbacks]]);
    if (S.optimizer) {
      const note = el("p", { class: "hint" }, sec, "The figures of the best mapping the mapping optimizer found (best_mapping.yaml); " +
                      "its search: ");
      el("a", { href: "#optimizer" }, note, "Mapping optimizer");
    }
    energySplit(S, sec);
    el("h3", {}, sec, "The whole network, group by group");
    networkTimeline(S, D.groups, sec);
    const rows = [];
    for (const key in S.groups || {}) {
      const g = S.groups[key], m = g.metrics || {}, f = g.memory_fallback;
      const layers = (byKey[key] || {}).layers || [];
      const mf = f ? "fill " + f.fill_fraction + (f.excluded_cores.length ? ", excluded cores " + f.excluded_cores.join(" ") : "") +
                     (f.split_from !== undefined ? ", cut from group " + f.split_from : "") : "none";
      rows.push([el("a", { href: "#" + key }, null, key), layerList(layers), num(g.latency) + " cycles", num(g.percentage) + " %",
                 num(g.energy) + " pJ", g.status, pct(m.mac_spatial_utilization), pct(m.end_to_end_mac_utilization), g.costs ? String(g.costs.fallback) : "-", mf]);
    }
    table(sec, ["group", "layers", "latency", "share", "energy", "status", "MAC spatial util.", "end-to-end util.", "cost fallbacks",
                "memory fallback"], rows).setAttribute("class", "groups");
    conversions(S, sec);
  }

  function layerList(layers) {
    const shown = layers.slice(0, 4).join(", ");
    return layers.length + (layers.length ? ": " + shown + (layers.length > 4 ? ", ..." : "") : "");
  }

  // Energy by where it is spent, over every group: the cores' computation, the links' transfers
  // (docs/energy.md) and the off-chip memory's accesses.
  function energySplit(S, sec) {
    const parts = { compute: 0, transfer: 0, offchip: 0 };
    for (const key in S.groups || {}) {
      const b = S.groups[key].energy_breakdown || {};
      for (const k in parts) parts[k] += b[k] || 0;
    }
    const total = parts.compute + parts.transfer + parts.offchip;
    const share = function (v) { return total > 0 ? (100 * v / total).toFixed(1) + " %" : "-"; };
    el("h3", {}, sec, "Energy split");
    table(sec, ["compute (cores)", "transfers (links)", "off-chip memory accesses"],
          [[num(parts.compute) + " pJ (" + share(parts.compute) + ")", num(parts.transfer) + " pJ (" + share(parts.transfer) + ")",
            num(parts.offchip) + " pJ (" + share(parts.offchip) + ")"]]);
    el("p", { class: "hint" }, sec, "transfers: words moved on each link x its unit_energy_cost (0 when the accelerator file " +
       "gives none); off-chip: accesses of the DRAM port's width x its read or write cost (docs/energy.md).");
  }

  // --mapping optimize: the search's outcome (summary.json's optimizer block, the same figures as
  // optimize.yaml) as a table, every candidate against its evaluation index, and for pareto the
  // latency-energy plane with the front.
  function optimizerSection(O, S, root) {
    const sec = el("section", { id: "optimizer" }, root);
    el("h2", {}, sec, "Mapping optimizer");
    const value = function (v) { return v === null || v === undefined ? "failed" : num(v) + " " + O.unit; };
    const stopped = (S.cut_short ? "cut short (interrupted) after " + S.spent + " of " + S.evaluations + " evaluations" : "budget spent") +
                    (S.still_improving ? ", still improving (a larger budget would likely find better)" : "");
    table(sec, ["objective", "automatic", "best", "best / automatic", "evaluations (spent / budget)", "stopped", "best found at",
                "group runs"],
          [[S.objective + (S.objective === "pareto" ? " (EDP of the front's best)" : ""), value(S.automatic), value(S.best),
            S.ratio === null ? "-" : num(S.ratio), S.spent + " / " + S.evaluations, stopped,
            S.best_evaluation === null ? "automatic mapping" : "evaluation " + S.best_evaluation, String(S.group_runs)]])
      .setAttribute("class", "optimizer");
    el("h3", {}, sec, "Search: every candidate's " + (O.objective === "pareto" ? "latency (pareto ranks by it)" : O.objective));
    searchPlot(O, sec);
    if (O.objective !== "pareto") return;
    el("h3", {}, sec, "Latency-energy front (" + O.front.length + " points)");
    frontPlot(O, sec);
    table(sec, ["evaluation", "latency", "energy", "mapping file"], O.front.map(function (p) {
      return [String(p.evaluation), num(p.latency) + " cycles", num(p.energy) + " pJ", p.mapping];
    })).setAttribute("class", "front");
  }

  // A scale of [lo, hi] onto [a, b] pixels, logarithmic when the values span more than 20x (a
  // poor candidate would squeeze every other into one line), with its tick values.
  function scale(lo, hi, a, b) {
    const log = lo > 0 && hi / lo > 20;
    if (!log && hi === lo) { lo -= Math.max(1, Math.abs(lo) * 0.05); hi += Math.max(1, Math.abs(hi) * 0.05); }
    const f = log ? Math.log10 : function (v) { return v; };
    const pad = log ? 0 : 0.05 * (hi - lo);
    const l = f(lo) - pad, h = f(hi) + pad;
    const at = function (v) { return a + (b - a) * (f(v) - l) / (h - l); };
    const ticks = [];
    if (log) {
      for (let k = Math.floor(l); k <= Math.ceil(h); ++k)
        [1, 2, 5].forEach(function (m) { const v = m * Math.pow(10, k); if (v >= lo && v <= hi) ticks.push(v); });
    } else {
      const step = niceStep(h - l, 8);
      for (let v = Math.ceil(l / step) * step; v <= h; v += step) ticks.push(v);
    }
    return { at: at, ticks: ticks, log: log };
  }

  function axes(svg, box, xs, ys, xlabel, ylabel) {
    el("rect", { x: box.x, y: box.y, width: box.w, height: box.h, fill: "#fafafa", stroke: "#ccc" }, svg);
    xs.ticks.forEach(function (t) {
      el("line", { x1: xs.at(t), x2: xs.at(t), y1: box.y + box.h, y2: box.y + box.h + 4, stroke: "#333" }, svg);
      el("text", { x: xs.at(t), y: box.y + box.h + 16, "text-anchor": "middle" }, svg, num(t));
    });
    ys.ticks.forEach(function (t) {
      el("line", { x1: box.x - 4, x2: box.x, y1: ys.at(t), y2: ys.at(t), stroke: "#333" }, svg);
      el("text", { x: box.x - 6, y: ys.at(t) + 4, "text-anchor": "end" }, svg, num(t));
    });
    el("text", { x: box.x + box.w / 2, y: box.y + box.h + 32, "text-anchor": "middle" }, svg, xlabel + (xs.log ? " (log scale)" : ""));
    el("text", { x: 6, y: box.y - 8 }, svg, ylabel + (ys.log ? " (log scale)" : ""));
  }

  // Feasible candidates as dots (accepted ones larger, in blue), the failed ones as crosses on the
  // band above the plot, the best so far as a step line, the automatic mapping's value dashed.
  function searchPlot(O, sec) {
    const box = { x: 90, y: 48, w: 940, h: 240 };
    const svg = el("svg", { id: "optimizer-plot", width: box.x + box.w + 20, height: box.y + box.h + 44 }, sec);
    const ok = O.candidates.filter(function (c) { return c[1] !== null; });
    const vals = ok.map(function (c) { return c[1]; }).concat(O.automatic_ranked === null ? [] : [O.automatic_ranked]);
    const last = O.candidates.length ? O.candidates[O.candidates.length - 1][0] : 0;
    const xs = scale(0, Math.max(O.budget, last, 1), box.x, box.x + box.w);
    const ys = vals.length ? scale(Math.min.apply(null, vals), Math.max.apply(null, vals), box.y + box.h, box.y)
                           : scale(0, 1, box.y + box.h, box.y);
    axes(svg, box, xs, ys, "evaluation", (O.objective === "pareto" ? "latency" : O.objective) + " (" + O.ranked_unit + ")");
    let failed = 0;
    O.candidates.forEach(function (c) {
      if (c[1] === null) {
        ++failed;
        const x = xs.at(c[0]), y = box.y - 30;
        const p = el("path", { class: "failed", d: "M" + (x - 3) + "," + (y - 3) + "L" + (x + 3) + "," + (y + 3) + "M" + (x - 3) + "," +
                               (y + 3) + "L" + (x + 3) + "," + (y - 3), stroke: "#b5523b", "stroke-width": 1.5 }, svg);
        el("title", {}, p, "evaluation " + c[0] + ": failed");
        return;
      }
      const dot = el("circle", { class: c[2] ? "accepted" : "candidate", cx: xs.at(c[0]), cy: ys.at(c[1]), r: c[2] ? 3 : 2,
                                 fill: c[2] ? "#2c5aa0" : "#999" }, svg);
      el("title", {}, dot, "evaluation " + c[0] + ": " + num(c[1]) + " " + O.ranked_unit + (c[2] ? ", accepted" : "") +
         " (latency " + num(c[3]) + " cycles, energy " + num(c[4]) + " pJ)");
    });
    if (failed) el("text", { x: 6, y: box.y - 26, fill: "#b5523b" }, svg, "failed (" + failed + ")");
    if (O.automatic_ranked !== null) {
      const y = ys.at(O.automatic_ranked);
      el("line", { class: "automatic", x1: box.x, x2: box.x + box.w, y1: y, y2: y, stroke: "#d62728", "stroke-dasharray": "6 4" }, svg);
    }
    const curve = O.best_so_far.filter(function (p) { return p[1] !== null; });
    if (curve.length) {
      let d = "M" + xs.at(curve[0][0]) + "," + ys.at(curve[0][1]);
      curve.slice(1).forEach(function (p) { d += "H" + xs.at(p[0]) + "V" + ys.at(p[1]); });
      d += "H" + xs.at(last);
      el("path", { class: "best-so-far", d: d, fill: "none", stroke: "#ff7f0e", "stroke-width": 2 }, svg);
    }
    // The best (pareto's is the front point of least EDP, not the least latency: no ring there).
    const best = O.objective === "pareto" || O.best_evaluation === null ? null
               : O.candidates.find(function (c) { return c[0] === O.best_evaluation; });
    if (best && best[1] !== null)
      el("title", {}, el("circle", { class: "best", cx: xs.at(best[0]), cy: ys.at(best[1]), r: 6, fill: "none", stroke: "#ff7f0e",
                                     "stroke-width": 2 }, svg), "the best: evaluation " + best[0] + ", " + num(best[1]) + " " + O.ranked_unit);
    el("p", { class: "hint" }, sec, "grey dots: feasible candidates; blue: accepted (became the search's current candidate); orange " +
       "steps: the best so far (ringed: the best); red dashed: the automatic mapping" + (failed ? "; " + failed + " failed candidate" +
       (failed === 1 ? "" : "s") + " as crosses above the plot" : "; no candidate failed") + ". Hover a dot for its figures.");
  }

  // Objective pareto: every feasible candidate in the latency-energy plane, the front in red and
  // joined by its steps, the automatic mapping as a black square.
  function frontPlot(O, sec) {
    const box = { x: 90, y: 24, w: 640, h: 300 };
    const svg = el("svg", { id: "optimizer-front", width: box.x + box.w + 20, height: box.y + box.h + 44 }, sec);
    const ok = O.candidates.filter(function (c) { return c[3] !== null; });
    const lat = ok.map(function (c) { return c[3]; }), en = ok.map(function (c) { return c[4]; });
    if (!lat.length) return;
    const xs = scale(Math.min.apply(null, lat), Math.max.apply(null, lat), box.x, box.x + box.w);
    const ys = scale(Math.min.apply(null, en), Math.max.apply(null, en), box.y + box.h, box.y);
    axes(svg, box, xs, ys, "latency (cycles)", "energy (pJ)");
    ok.forEach(function (c) {
      if (c[0] === 0) return;
      el("title", {}, el("circle", { class: "candidate", cx: xs.at(c[3]), cy: ys.at(c[4]), r: 2, fill: "#999" }, svg),
         "evaluation " + c[0] + ": " + num(c[3]) + " cycles, " + num(c[4]) + " pJ");
    });
    let d = "";
    O.front.forEach(function (p, k) { d += (k ? "H" + xs.at(p.latency) + "V" : "M" + xs.at(p.latency) + ",") + ys.at(p.energy); });
    if (d) el("path", { d: d, fill: "none", stroke: "#d62728" }, svg);
    O.front.forEach(function (p) {
      el("title", {}, el("circle", { class: "front", cx: xs.at(p.latency), cy: ys.at(p.energy), r: 5, fill: "#d62728" }, svg),
         "front: evaluation " + p.evaluation + ", " + num(p.latency) + " cycles, " + num(p.energy) + " pJ (" + p.mapping + ")");
    });
    const a = O.candidates[0];
    if (a && a[3] !== null)
      el("title", {}, el("rect", { class: "automatic", x: xs.at(a[3]) - 4, y: ys.at(a[4]) - 4, width: 8, height: 8, fill: "#000" }, svg),
         "the automatic mapping: " + num(a[3]) + " cycles, " + num(a[4]) + " pJ");
    el("p", { class: "hint" }, sec, "grey: feasible candidates; red: the front (no candidate is better in both latency and energy), " +
       "each with its mapping file; black square: the automatic mapping.");
  }

  // The groups one after another on one cycle axis (they run in sequence), each as wide as its
  // latency; a click goes to the group's section.
  function networkTimeline(S, groups, sec) {
    const left = 280, width = 940, total = Math.max(S.total_latency || 0, 1);
    const svg = el("svg", { id: "network-timeline", width: left + width + 20, height: 62 }, sec);
    el("text", { x: 6, y: 24 }, svg, "groups in order (" + groups.length + ")");
    let t = 0;
    groups.forEach(function (g, i) {
      const x0 = left + width * t / total, w = Math.max(1, width * g.total_latency_cycles / total);
      const grp = el("g", { class: "group-span", "data-group": g.index, style: "cursor:pointer" }, svg);
      el("title", {}, grp, "group " + g.index + ": " + g.total_latency_cycles + " cycles from cycle " + t + "; layers " +
         layerList(g.layers || []));
      el("rect", { x: x0, y: 8, width: w, height: 26, fill: i % 2 ? "#5b8fd6" : "#2c5aa0", stroke: "#fff" }, grp);
      if (textWidth(String(g.index), 11) < w - 4) el("text", { x: x0 + 2, y: 25, fill: "#fff" }, grp, String(g.index));
      grp.addEventListener("click", function () { location.hash = "group_" + g.index; });
      t += g.total_latency_cycles;
    });
    el("text", { x: left, y: 52, fill: "#555" }, svg, "0");
    el("text", { x: left + width, y: 52, "text-anchor": "end", fill: "#555" }, svg, num(total) + " cycles");
  }

  // The layers as a layered graph (columns from the C++ side), coloured by fusion group; a
  // layer's tooltip gives its name, type and group, a click goes to the group.
  function workloadGraph(W, parent) {
    if (!W || !W.nodes.length) return;
    const dx = 26, dy = 16, pad = 12, r = 5;
    const width = pad * 2 + Math.max(W.columns - 1, 0) * dx, height = pad * 2 + Math.max(W.rows - 1, 0) * dy;
    const box = el("div", { class: "graph", style: "overflow:auto; max-height:520px; border:1px solid #ddd" }, parent);
    const svg = el("svg", { id: "workload-graph", width: width, height: height }, box);
    const at = function (n) { return [pad + n.column * dx, pad + n.row * dy]; };
    const colour = function (g) { return "hsl(" + Math.round((g * 137.508) % 360) + ",60%,45%)"; };
    W.edges.forEach(function (e) {
      const a = at(W.nodes[e[0]]), b = at(W.nodes[e[1]]);
      el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: "#bbb" }, svg);
    });
    W.nodes.forEach(function (n) {
      const p = at(n), grp = el("g", { class: "layer", "data-group": n.group, style: "cursor:pointer" }, svg);
      el("title", {}, grp, n.name + " (" + n.type + "), group " + n.group);
      el("circle", { cx: p[0], cy: p[1], r: r, fill: colour(n.group), stroke: "#fff" }, grp);
      grp.addEventListener("click", function () { location.hash = "group_" + n.group; });
    });
    const plural = function (n, w) { return n + " " + w + (n === 1 ? "" : "s"); };
    el("p", { class: "hint" }, parent, plural(W.nodes.length, "layer") + ", " + plural(W.edges.length, "edge") + "; one colour per fusion group, " +
       "columns by the longest chain of layers before each; hover a layer for its name, click it to go to its group.");
  }

  // --layout choose: the layout conversions, the groups on a core and those on the DMA (which have
  // no group and run before the first group reading their output).
  function conversions(S, sec) {
    const L = S.layouts;
    if (!L) return;
    const rows = [];
    for (const key in S.groups || {}) {
      const g = S.groups[key];
      if (g.converts !== undefined)
        rows.push(["convert_" + g.converts, "core", key, num(g.latency) + " cycles", num(g.percentage) + " %", num(g.energy) + " pJ"]);
    }
    (L.dma_conversions || []).forEach(function (d) {
      rows.push([d.node, "dma", "before group_" + d.before_group, num(d.latency) + " cycles", num(d.percentage) + " %",
                 num(d.energy) + " pJ"]);
    });
    el("h3", {}, sec, "Layout conversions: " + L.changed_tensors + " tensors changed, " + num(L.layout_conversion_latency_share) +
       " % of the latency, first pass " + num(L.first_pass_latency) + " cycles");
    if (rows.length) table(sec, ["conversion", "engine", "group", "latency", "share", "energy"], rows);
  }

  // The schedule of one iteration: rows (lanes stacked), bars, slot bands and a cycle axis over
  // the visible window [v0, v1], redrawn on zoom and pan.
  function schedule(g, parent) {
    const sch = g.schedule, P = Math.max(g.latency_per_iteration_cycles, 1);
    const left = 280, laneH = 18, pad = 3, top = 22, width = 940;
    const rowTop = [top];
    sch.rows.forEach(function (r, k) { rowTop.push(rowTop[k] + r.lanes * laneH + 2 * pad); });
    const bottom = rowTop[rowTop.length - 1], height = bottom + 44;
    const bar = el("div", { class: "controls" }, parent);
    const svg = el("svg", { class: "schedule", width: left + width + 20, height: height, "data-group": g.index }, parent);
    const view = { v0: 0, v1: P };
    const x = function (t) { return left + width * (t - view.v0) / (view.v1 - view.v0); };
    function zoom(f, at) {
      const span = Math.min(P, Math.max(4, (view.v1 - view.v0) * f));
      const c = at === undefined ? (view.v0 + view.v1) / 2 : at;
      const r = (c - view.v0) / (view.v1 - view.v0);
      view.v0 = Math.max(0, Math.min(P - span, c - r * span));
      view.v1 = view.v0 + span;
      draw();
    }
    [["zoom in", function () { zoom(0.5); }], ["zoom out", function () { zoom(2); }],
     ["whole iteration", function () { view.v0 = 0; view.v1 = P; draw(); }]].forEach(function (b) {
      el("button", { type: "button" }, bar, b[0]).addEventListener("click", b[1]);
    });
    el("span", { class: "hint" }, bar, " mouse wheel: zoom; drag: pan; a bar's tooltip gives its name and cycles");
    svg.addEventListener("wheel", function (e) {
      e.preventDefault();
      const r = svg.getBoundingClientRect(), px = e.clientX - r.left;
      zoom(e.deltaY < 0 ? 0.8 : 1.25, view.v0 + (px - left) / width * (view.v1 - view.v0));
    }, { passive: false });
    let drag = null;
    svg.addEventListener("mousedown", function (e) { drag = { x: e.clientX, v0: view.v0 }; });
    window.addEventListener("mouseup", function () { drag = null; });
    svg.addEventListener("mousemove", function (e) {
      if (!drag) return;
      const span = view.v1 - view.v0, d = (e.clientX - drag.x) / width * span;
      view.v0 = Math.max(0, Math.min(P - span, drag.v0 - d));
      view.v1 = view.v0 + span;
      draw();
    });
    function draw() {
      while (svg.firstChild) svg.removeChild(svg.firstChild);
      const clip = el("clipPath", { id: "clip" + g.index }, svg);
      el("rect", { x: left, y: 0, width: width, height: height }, clip);
      const plot = el("g", { "clip-path": "url(#clip" + g.index + ")" }, svg);
      sch.slots.forEach(function (s, i) {
        if (s.latency === 0) return;
        const x0 = x(s.start), w = x(s.start + s.latency) - x0, band = el("g", {}, plot);
        el("title", {}, band, "slot " + i + ": " + s.latency + " cycles");
        el("rect", { x: x0, y: top - 16, width: w, height: bottom - top + 16, fill: i % 2 ? "#f4f4f4" : "#e8eef7", stroke: "#bbb" }, band);
        if (textWidth("slot " + i, 11) < w - 4) el("text", { x: x0 + 2, y: top - 4, fill: "#555" }, band, "slot " + i);
      });
      sch.rows.forEach(function (r, k) {
        el("text", { x: 6, y: rowTop[k] + pad + 13 }, svg, r.label);
        el("line", { x1: 6, x2: left + width, y1: rowTop[k + 1], y2: rowTop[k + 1], stroke: "#ccc" }, svg);
      });
      sch.bars.forEach(function (b) {
        if (b.start + b.dur < view.v0 || b.start > view.v1) return;
        const x0 = x(b.start), full = Math.max(1, x(b.start + b.dur) - x0), y = rowTop[b.row] + pad + b.lane * laneH + 1;
        const w = full > 3 ? full - 1 : full;  // a 1 px gap keeps back-to-back bars apart
        const grp = el("g", {}, plot);
        el("title", {}, grp, b.name + ": " + b.kind + ", " + num(b.dur) + " cycles from cycle " + num(b.start) + ", slot " + b.slot);
        el("rect", { class: "bar " + b.kind, x: x0, y: y, width: w, height: laneH - 2 }, grp);
        if (textWidth(b.name, 11) < w - 6) el("text", { x: Math.max(x0, left) + 3, y: y + 12, fill: "#fff" }, grp, b.name);
      });
      const axis = el("g", { class: "axis" }, svg), step = niceStep(view.v1 - view.v0, 10);
      el("line", { x1: left, x2: left + width, y1: bottom, y2: bottom, stroke: "#333" }, axis);
      for (let t = Math.ceil(view.v0 / step) * step; t <= view.v1 + 1e-9; t += step) {
        el("line", { x1: x(t), x2: x(t), y1: bottom, y2: bottom + 5, stroke: "#333" }, axis);
        el("text", { x: x(t), y: bottom + 17, "text-anchor": "middle" }, axis, String(Math.round(t)));
      }
      el("text", { x: left + width / 2, y: bottom + 34, "text-anchor": "middle" }, axis,
         "clock cycles from the start of the iteration (showing " + Math.round(view.v0) + " to " + Math.round(view.v1) + ")");
    }
    draw();
    return svg;
  }

  // Per core: live bits per slot (steps over the iteration), the allocation's reservation
  // (dashed) and the capacity (red), on one scale from 0 to the largest of the three.
  function memory(g, parent) {
    const box = el("div", { class: "memory", "data-group": g.index }, parent);
    const sch = g.schedule, P = Math.max(g.latency_per_iteration_cycles, 1), left = 280, width = 940, h = 54;
    g.memory.forEach(function (m) {
      const peak = Math.max.apply(null, m.occupancy_bits.concat([0]));
      // A core that uses little of its memory is drawn on its own scale (capacity noted in red
      // text above the chart) so that its use stays visible; otherwise the scale reaches the capacity.
      const used = Math.max(m.reserved_bits, peak, 1), zoomed = m.capacity_bits > 4 * used;
      const top = zoomed ? 1.6 * used : Math.max(m.capacity_bits, used);
      const svg = el("svg", { width: left + width + 20, height: h + 8 }, box);
      const x = function (t) { return left + width * t / P; }, y = function (v) { return 4 + h - h * v / top; };
      el("text", { x: 6, y: 16 }, svg, m.label);
      el("text", { x: 6, y: 31, fill: "#555" }, svg, "peak " + bytes(peak) + " of " + bytes(m.capacity_bits));
      el("text", { x: 6, y: 46, fill: "#555" }, svg, "reserved " + bytes(m.reserved_bits) + " (" +
         (100 * m.reserved_bits / Math.max(m.capacity_bits, 1)).toFixed(1) + " % of capacity)");
      el("rect", { x: left, y: 4, width: width, height: h, fill: "#fafafa", stroke: "#ddd" }, svg);
      let d = "M" + x(0) + "," + y(0);
      sch.slots.forEach(function (s, i) {
        d += "L" + x(s.start) + "," + y(m.occupancy_bits[i]) + "L" + x(s.start + s.latency) + "," + y(m.occupancy_bits[i]);
      });
      d += "L" + x(P) + "," + y(0) + "Z";
      const area = el("path", { d: d, fill: "#5b8fd6", stroke: "#2c5aa0" }, svg);
      el("title", {}, area, "live tensors per slot: " + m.occupancy_bits.map(bytes).join(", "));
      el("line", { x1: left, x2: left + width, y1: y(m.reserved_bits), y2: y(m.reserved_bits), stroke: "#333", "stroke-dasharray": "4 3" }, svg);
      if (zoomed) {
        el("text", { x: left + width - 4, y: 16, "text-anchor": "end", fill: "#d62728" }, svg,
           "capacity " + bytes(m.capacity_bits) + ", far above this scale");
      } else {
        el("line", { x1: left, x2: left + width, y1: y(m.capacity_bits), y2: y(m.capacity_bits), stroke: "#d62728", "stroke-width": 2 }, svg);
      }
    });
    el("p", { class: "hint" }, box, "blue: bits of the tensors live in each slot; dashed: what the allocation reserves for the " +
       "iteration; red: the core's memory capacity (as a line, or as text when it is far above the core's use). " +
       "Same cycle scale as the whole-iteration schedule.");
    return box;
  }

  function heat(ratio) { return "hsl(" + Math.round(120 * (1 - Math.min(1, ratio))) + ",65%,72%)"; }

  // The cost table: one heatmap for latency and one for energy, each cell coloured by how far
  // it is above the best core of its node (log scale, green best, red 100x or more).
  function costs(g, parent) {
    ["latency_cycles", "energy_pJ"].forEach(function (field) {
      const t = el("table", { class: "heat" }, parent), tr = el("tr", {}, el("thead", {}, t));
      el("th", {}, tr, field === "latency_cycles" ? "latency (cycles)" : "energy (pJ)");
      g.costs.cores.forEach(function (c) { el("th", {}, tr, "core " + c); });
      const body = el("tbody", {}, t);
      g.costs.nodes.forEach(function (n) {
        const row = el("tr", {}, body), vals = n.cells.filter(function (c) { return c; }).map(function (c) { return c[field]; });
        const best = Math.max(Math.min.apply(null, vals.concat([Infinity])), 1e-12);
        el("th", { title: n.type }, row, n.name);
        n.cells.forEach(function (c) {
          if (!c) { el("td", { class: "none" }, row, "-"); return; }
          const td = el("td", { style: "background:" + heat(Math.log10(Math.max(c[field], best) / best) / 2) }, row,
                        num(c[field]) + (c.fallback ? " *" : ""));
          if (c.fallback) td.setAttribute("title", "ideal-cycle estimate (no per-core model figure)");
        });
      });
    });
    el("p", { class: "hint" }, parent, "green: the node's cheapest core; red: 100 times that or more (log scale); " +
       "* an ideal-cycle estimate instead of a per-core model figure.");
  }

  function bottleneck(g, parent) {
    const P = Math.max(g.latency_per_iteration_cycles, 1), width = 940, left = 280;
    const svg = el("svg", { width: left + width + 20, height: 30 }, parent);
    const colour = { compute: "#3a7d44", link: "#b5523b", "off-chip": "#7b3fa0", none: "#bbb" };
    el("text", { x: 6, y: 19 }, svg, "binding contributor per slot");
    g.bottleneck.forEach(function (b, i) {
      const s = g.schedule.slots[i], grp = el("g", {}, svg);
      el("title", {}, grp, "slot " + b.slot + ": " + b.kind + " (" + b.node + " on " + b.resource + ")");
      el("rect", { x: left + width * s.start / P, y: 4, width: Math.max(1, width * s.latency / P), height: 20, fill: colour[b.kind],
                   stroke: "#fff" }, grp);
    });
    table(parent, ["slot", "slot latency", "binds", "node", "on", "its contribution"], g.bottleneck.map(function (b) {
      return [String(b.slot), num(b.latency_cycles) + " cycles", b.kind, b.node, b.resource, num(b.contribution_cycles) + " cycles"];
    }));
  }

  function group(g, root) {
    const sec = el("section", { class: "group", id: "group_" + g.index }, root);
    el("h2", {}, sec, "Group " + g.index + " (" + g.status + ")");
    const nav = el("p", { class: "nav" }, sec), at = D.groups.indexOf(g);
    if (at > 0) el("a", { href: "#group_" + D.groups[at - 1].index }, nav, "\u2190 group " + D.groups[at - 1].index);
    el("a", { href: "#summary", style: "margin: 0 12px" }, nav, "summary");
    if (at + 1 < D.groups.length) el("a", { href: "#group_" + D.groups[at + 1].index }, nav, "group " + D.groups[at + 1].index + " \u2192");
    el("p", { class: "layers" }, sec, "Layers (" + (g.layers || []).length + "): " + (g.layers || []).join(", "));
    el("p", {}, sec, g.iterations + " iteration(s) of " + g.latency_per_iteration_cycles + " cycles; consecutive iterations overlap by " +
       g.overlap_cycles + " cycles; total " + g.total_latency_cycles + " cycles" +
       (g.memory_fallback_actions.length ? "; memory fallback: " + g.memory_fallback_actions.join("; ") : ""));
    if (!g.schedule) { el("p", {}, sec, "No schedule: the allocation was not solved."); return; }
    el("h3", {}, sec, "Schedule of one steady-state iteration");
    schedule(g, sec);
    el("h3", {}, sec, "Memory occupancy per core");
    memory(g, sec);
    el("h3", {}, sec, "Bottleneck");
    bottleneck(g, sec);
    el("h3", {}, sec, "Cost table (per node and core)");
    costs(g, sec);
  }

  const D = JSON.parse(document.getElementById("report-data").textContent);
  const byKey = {};
  D.groups.forEach(function (g) { byKey["group_" + g.index] = g; });
  const root = document.getElementById("report");
  summary(D.summary, root);
  if (D.optimizer) optimizerSection(D.optimizer, D.summary.optimizer, root);
  const graph = el("section", { id: "workload" }, root);
  el("h2", {}, graph, "Workload graph and fusion groups");
  workloadGraph(D.workload_graph, graph);
  D.groups.forEach(function (g) { group(g, root); });
  // Where the first group's panels are, for the browser test's screenshot check.
  const where = function (sel) {
    const e = document.querySelector(sel);
    if (!e) return null;
    const r = e.getBoundingClientRect();
    return [Math.round(r.left), Math.round(r.top + window.scrollY), Math.round(r.width), Math.round(r.height)];
  };
  document.body.setAttribute("data-panels", JSON.stringify({ schedule: where("svg.schedule"), memory: where("div.memory"),
                                                             timeline: where("#network-timeline"), graph: where("#workload-graph"),
                                                             optimizer: where("#optimizer-plot") }));
  document.body.setAttribute("data-rendered", "ok");
})();
