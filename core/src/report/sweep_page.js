// Draws a sweep's report.html from the JSON in #sweep-data (sweep_report.cpp): any two numeric
// columns of the evaluated points against each other (latency against energy at first; log scales
// where every value is positive; the Pareto front, over latency, energy and area, marked: not
// joined, since a front of three objectives is no line in two), coloured by any swept parameter,
// a note for each swept parameter that changes no figure (the URL's fragment may choose the view:
// #x=...&y=...&colour=...), and the results table, sorted by any column with a click on its header. A point whose figures rest
// partly on ideal-cycle estimates (`estimates` > 0) is drawn hollow and its table row marked (≈,
// italic); a checkbox leaves such points out of the plot and marks the front of the others
// (D.pareto_exact, computed with the same rule as pareto.csv). Sets data-rendered="ok" on
// <body> when done, data-error when a script error occurred. Runs after page_common.js (SVGNS, el,
// the error hook).
(function () {
  function cell(v) {
    if (v === null || v === undefined) return "";
    if (typeof v === "number") return Math.abs(v) >= 1e7 ? v.toExponential(4) : String(Math.round(v * 10000) / 10000);
    return String(v);
  }

  // Ticks at 1, 2 and 5 times the powers of ten inside [10^lo, 10^hi] (log10 bounds); a range too
  // narrow to hold two of them gets its two ends, rounded to two digits.
  function ticks(lo, hi) {
    const out = [];
    for (let e = Math.floor(lo); e <= Math.ceil(hi); ++e)
      [1, 2, 5].forEach(function (m) {
        const v = m * Math.pow(10, e), l = Math.log10(v);
        if (l >= lo && l <= hi) out.push(v);
      });
    if (out.length >= 2) return out;
    return [Math.pow(10, lo + 0.02), Math.pow(10, hi - 0.02)].map(function (v) { return Number(v.toPrecision(2)); });
  }

  function tickLabel(v) { return v < 1e6 ? String(v) : v.toExponential().replace("e+", "e"); }

  function estimated(r) { return typeof r.estimates === "number" && r.estimates > 0; }

  function estimateText(r) {
    return estimated(r) ? "; rests on " + r.estimates + " estimated (node, core) costs: " + cell(r.estimate_latency_share) +
      " % of its latency, " + cell(r.estimate_energy_share) + " % of its energy" : "";
  }

  // The columns a sweep computes or labels a point with (host/sweep_runner.cpp); every other
  // column of a row is a swept parameter (an axis of the sweep file, or an override path).
  const FIGURES = ["point", "id", "area_mm2", "peak_energy_pj_per_cycle", "latency", "energy_pj", "edp",
                   "mac_spatial_utilization", "end_to_end_mac_utilization", "estimates", "estimate_latency_share",
                   "estimate_energy_share", "peak_memory_core", "peak_memory_bits", "peak_memory_share", "status", "reason",
                   "report", "wall_s"];
  const LABELS = { latency: "total latency (cycles)", energy_pj: "total energy (pJ)", area_mm2: "area (mm²)", edp: "EDP (pJ·cycles)" };
  function columns(D) {
    const out = [];
    D.rows.forEach(function (r) { for (const k in r) if (out.indexOf(k) < 0) out.push(k); });
    return out;
  }
  function parameters(D) { return columns(D).filter(function (c) { return FIGURES.indexOf(c) < 0; }); }
  function numericColumns(D) {
    return columns(D).filter(function (c) {
      if (c === "point") return false;
      const vs = D.rows.filter(function (r) { return r.status === "ok"; }).map(function (r) { return r[c]; });
      return vs.length > 0 && vs.every(function (v) { return typeof v === "number" && isFinite(v); });
    });
  }
  function key(v) { return v === undefined || v === null ? "" : String(v); }

  // The swept parameters that change no figure: every set of ok points that differ only in that
  // parameter has one latency, one energy and one area.
  function inertParameters(D) {
    const params = parameters(D), ok = D.rows.filter(function (r) { return r.status === "ok"; });
    return params.filter(function (p) {
      const values = {}, groups = {};
      ok.forEach(function (r) {
        values[key(r[p])] = true;
        const rest = params.filter(function (q) { return q !== p; }).map(function (q) { return key(r[q]); }).join("\u0001");
        (groups[rest] = groups[rest] || []).push(r);
      });
      if (Object.keys(values).length < 2) return false;
      let compared = false;
      for (const g in groups) {
        const rs = groups[g];
        if (rs.length < 2) continue;
        compared = true;
        for (const r of rs)
          if (r.latency !== rs[0].latency || r.energy_pj !== rs[0].energy_pj || r.area_mm2 !== rs[0].area_mm2) return false;
      }
      return compared;
    });
  }

  // Linear ticks: 1, 2 or 5 times a power of ten apart, about six of them.
  function linearTicks(lo, hi) {
    const raw = Math.max(hi - lo, 1e-12) / 6, p = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 5, 10].map(function (m) { return m * p; }).find(function (v) { return v >= raw; });
    const out = [];
    for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9 * step; v += step) out.push(Number(v.toPrecision(12)));
    return out;
  }

  // A scale for column c over the rows: log when every value is positive, else linear.
  function scale(rows, c, from, to) {
    const vs = rows.map(function (r) { return r[c]; });
    const log = vs.every(function (v) { return v > 0; });
    const f = log ? Math.log10 : function (v) { return v; };
    let lo = Math.min.apply(null, vs.map(f)), hi = Math.max.apply(null, vs.map(f));
    if (log) { lo = Math.floor(lo * 10) / 10 - 0.05; hi = Math.ceil(hi * 10) / 10 + 0.05; }
    else { const pad = Math.max((hi - lo) * 0.05, Math.abs(hi) * 0.05, 1e-9); lo -= pad; hi += pad; }
    return { log: log, at: function (v) { return from + (to - from) * (f(v) - lo) / (hi - lo); },
             ticks: log ? ticks(lo, hi) : linearTicks(lo, hi) };
  }

  const PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79"];

  // The plot of the ok points, or of those without estimates (`exactOnly`), into `box` (emptied),
  // with `view` = {x, y, colour} (column names; colour "" for the Pareto colours).
  function drawPlot(D, box, exactOnly, view) {
    while (box.firstChild) box.removeChild(box.firstChild);
    const front = exactOnly ? D.pareto_exact : D.pareto;
    const ok = D.rows.filter(function (r) {
      return r.status === "ok" && typeof r[view.x] === "number" && typeof r[view.y] === "number" && !(exactOnly && estimated(r));
    });
    el("h2", {}, box, "Latency and energy of the points (" + ok.length + " evaluated" + (exactOnly ? " without estimates, " : ", ") +
       front.length + " on the Pareto front)");
    if (ok.length === 0) { el("p", {}, box, "No point was evaluated successfully" + (exactOnly ? " without estimates." : ".")); return; }
    const W = 900, H = 420, L = 90, B = 50, T = 14, R = 20;
    const svg = el("svg", { class: "pareto", width: W, height: H }, box);
    const sx = scale(ok, view.x, L, W - R), sy = scale(ok, view.y, H - B, T), X = sx.at, Y = sy.at;
    el("line", { x1: L, x2: W - R, y1: H - B, y2: H - B, stroke: "#333" }, svg);
    el("line", { x1: L, x2: L, y1: T, y2: H - B, stroke: "#333" }, svg);
    sx.ticks.forEach(function (v) {
      el("line", { x1: X(v), x2: X(v), y1: H - B, y2: H - B + 5, stroke: "#333" }, svg);
      el("text", { x: X(v), y: H - B + 18, "text-anchor": "middle" }, svg, tickLabel(v));
    });
    sy.ticks.forEach(function (v) {
      el("line", { x1: L - 5, x2: L, y1: Y(v), y2: Y(v), stroke: "#333" }, svg);
      el("text", { x: L - 8, y: Y(v) + 4, "text-anchor": "end" }, svg, tickLabel(v));
    });
    const title = function (c, s) { return (LABELS[c] || c) + (s.log ? ", log scale" : ""); };
    el("text", { x: (L + W - R) / 2, y: H - 10, "text-anchor": "middle" }, svg, title(view.x, sx));
    el("text", { x: 16, y: (T + H - B) / 2, "text-anchor": "middle", transform: "rotate(-90 16 " + (T + H - B) / 2 + ")" }, svg,
       title(view.y, sy));
    // Colour by a parameter: one colour per value in first-seen order (the legend below); the
    // front is then ringed in black instead of drawn red.
    const values = [];
    if (view.colour) ok.forEach(function (r) { if (values.indexOf(key(r[view.colour])) < 0) values.push(key(r[view.colour])); });
    const fill = function (r, on) {
      if (!view.colour) return on ? "#d62728" : "#5b8fd6";
      return PALETTE[values.indexOf(key(r[view.colour])) % PALETTE.length];
    };
    // The front last, so that no other point hides it.
    const onFront = function (r) { return front.indexOf(r.id) >= 0; };
    ok.filter(function (r) { return !onFront(r); }).concat(ok.filter(onFront)).forEach(function (r) {
      const on = onFront(r), g = el("g", {}, svg), colour = fill(r, on), ring = view.colour && on ? "#000" : null;
      el("title", {}, g, "point " + r.point + (on ? " (Pareto front)" : "") + ": " + cell(r.latency) + " cycles, " +
         cell(r.energy_pj) + " pJ, " + cell(r.area_mm2) + " mm²" + (view.colour ? "; " + view.colour + " = " + key(r[view.colour]) : "") +
         estimateText(r));
      // A point resting on estimates is hollow: its figures are not the per-core model's alone.
      const at = { cx: X(r[view.x]), cy: Y(r[view.y]), r: on ? 5 : 3.5 };
      if (estimated(r)) el("circle", Object.assign(at, { fill: "#fff", stroke: ring || colour, "stroke-width": 2, class: "estimated" }), g);
      else el("circle", Object.assign(at, { fill: colour, stroke: ring || "#fff", "stroke-width": ring ? 1.5 : 1 }), g);
    });
    if (view.colour) {
      const legend = el("p", { class: "legend" }, box, view.colour + ": ");
      values.forEach(function (v, i) {
        el("span", { style: "color:" + PALETTE[i % PALETTE.length] + "; margin-right: 10px" }, legend, "\u25cf " + (v === "" ? "(empty)" : v));
      });
    }
    el("p", { class: "hint" }, box, (view.colour ? "black ring" : "red") + ": the Pareto front (no other point is better on " +
       "latency, energy and area at once, so a front point may lie above another that has a larger area); hollow: the point's " +
       "figures rest partly on ideal-cycle estimates (its tooltip says how much); a point's tooltip gives its figures.");
  }

  // A <select> of `options` (value, text) under `label`, calling `change` with the chosen value.
  function chooser(parent, id, label, options, chosen, change) {
    const l = el("label", { style: "margin-right: 14px" }, parent, label + " ");
    const s = el("select", { id: id }, l);
    options.forEach(function (o) {
      const opt = el("option", { value: o[0] }, s, o[1]);
      if (o[0] === chosen) opt.setAttribute("selected", "selected");
    });
    s.addEventListener("change", function () { change(s.value); });
  }

  function plot(D, root) {
    const choices = el("p", { class: "controls" }, root), box = el("div", {}, root), controls = el("p", { class: "controls" }, root);
    const numeric = numericColumns(D).map(function (c) { return [c, LABELS[c] || c]; });
    // The URL's fragment may choose them (report.html#x=area_mm2&y=latency&colour=hardware), so a
    // view can be linked to.
    const view = { x: "latency", y: "energy_pj", colour: "" };
    location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
      const i = kv.indexOf("="), k = kv.slice(0, i), v = decodeURIComponent(kv.slice(i + 1));
      if ((k === "x" || k === "y") && numeric.some(function (o) { return o[0] === v; })) view[k] = v;
      if (k === "colour" && parameters(D).indexOf(v) >= 0) view.colour = v;
    });
    let exactOnly = false;
    const redraw = function () { drawPlot(D, box, exactOnly, view); };
    chooser(choices, "plot-x", "x:", numeric, view.x, function (v) { view.x = v; redraw(); });
    chooser(choices, "plot-y", "y:", numeric, view.y, function (v) { view.y = v; redraw(); });
    chooser(choices, "plot-colour", "colour by:", [["", "Pareto front"]].concat(parameters(D).map(function (p) { return [p, p]; })),
            view.colour, function (v) { view.colour = v; redraw(); });
    const n = D.rows.filter(function (r) { return r.status === "ok" && estimated(r); }).length;
    if (n > 0) {
      const label = el("label", {}, controls);
      const checkbox = el("input", { type: "checkbox", id: "exclude-estimates" }, label);
      label.appendChild(document.createTextNode(" leave out the " + n + " point" + (n === 1 ? "" : "s") +
        " whose figures rest partly on ideal-cycle estimates (the front is then that of the other points)"));
      checkbox.addEventListener("change", function () { exactOnly = checkbox.checked; redraw(); });
    }
    inertParameters(D).forEach(function (p) {
      el("p", { class: "inert-axis" }, root, "Note: " + p + " changes nothing: the points that differ only in " + p +
         " have the same latency, energy and area.");
    });
    redraw();
  }

  function results(D, root) {
    el("h2", {}, root, "All points (click a column header to sort)");
    const cols = [];
    D.rows.forEach(function (r) { for (const k in r) if (cols.indexOf(k) < 0) cols.push(k); });
    cols.push("pareto");
    const t = el("table", { class: "results" }, root), head = el("tr", {}, el("thead", {}, t)), body = el("tbody", {}, t);
    const value = function (r, c) { return c === "pareto" ? (D.pareto.indexOf(r.id) >= 0 ? "yes" : "") : r[c]; };
    let order = { col: "point", up: true };
    function fill() {
      while (body.firstChild) body.removeChild(body.firstChild);
      const rows = D.rows.slice().sort(function (a, b) {
        const va = value(a, order.col), vb = value(b, order.col);
        const c = typeof va === "number" && typeof vb === "number" ? va - vb : String(va === undefined ? "" : va).localeCompare(String(vb === undefined ? "" : vb));
        return order.up ? c : -c;
      });
      rows.forEach(function (r) {
        const cls = (D.pareto.indexOf(r.id) >= 0 ? "front" : "") + (estimated(r) ? " estimated" : "");
        const tr = el("tr", cls ? { class: cls.trim() } : {}, body);
        cols.forEach(function (c) {
          const td = el("td", {}, tr, c === "report" && r.report ? undefined : cell(value(r, c)));
          if (c === "report" && r.report) el("a", { href: r.report }, td, "open");
        });
      });
    }
    cols.forEach(function (c) {
      const th = el("th", {}, head, c);
      th.addEventListener("click", function () { order = { col: c, up: order.col === c ? !order.up : true }; fill(); });
    });
    fill();
  }

  const D = JSON.parse(document.getElementById("sweep-data").textContent);
  const root = document.getElementById("report");
  plot(D, root);
  results(D, root);
  document.body.setAttribute("data-rendered", "ok");
})();
