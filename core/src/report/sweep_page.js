// Draws a sweep's report.html from the JSON in #sweep-data (sweep_report.cpp): latency against
// energy of every evaluated point (log scales; the Pareto front, over latency, energy and area,
// marked: not joined, since a front of three objectives is no line in two), and the
// results table, sorted by any column with a click on its header. A point whose figures rest
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

  // The plot of the ok points, or of those without estimates (`exactOnly`), into `box` (emptied).
  function drawPlot(D, box, exactOnly) {
    while (box.firstChild) box.removeChild(box.firstChild);
    const front = exactOnly ? D.pareto_exact : D.pareto;
    const ok = D.rows.filter(function (r) {
      return r.status === "ok" && r.latency > 0 && r.energy_pj > 0 && !(exactOnly && estimated(r));
    });
    el("h2", {}, box, "Latency and energy of the points (" + ok.length + " evaluated" + (exactOnly ? " without estimates, " : ", ") +
       front.length + " on the Pareto front)");
    if (ok.length === 0) { el("p", {}, box, "No point was evaluated successfully" + (exactOnly ? " without estimates." : ".")); return; }
    const W = 900, H = 420, L = 90, B = 50, T = 14, R = 20;
    const svg = el("svg", { class: "pareto", width: W, height: H }, box);
    const lx = ok.map(function (r) { return Math.log10(r.latency); }), ly = ok.map(function (r) { return Math.log10(r.energy_pj); });
    const x0 = Math.floor(Math.min.apply(null, lx) * 10) / 10 - 0.05, x1 = Math.ceil(Math.max.apply(null, lx) * 10) / 10 + 0.05;
    const y0 = Math.floor(Math.min.apply(null, ly) * 10) / 10 - 0.05, y1 = Math.ceil(Math.max.apply(null, ly) * 10) / 10 + 0.05;
    const X = function (v) { return L + (W - L - R) * (Math.log10(v) - x0) / (x1 - x0); };
    const Y = function (v) { return H - B - (H - B - T) * (Math.log10(v) - y0) / (y1 - y0); };
    el("line", { x1: L, x2: W - R, y1: H - B, y2: H - B, stroke: "#333" }, svg);
    el("line", { x1: L, x2: L, y1: T, y2: H - B, stroke: "#333" }, svg);
    ticks(x0, x1).forEach(function (v) {
      el("line", { x1: X(v), x2: X(v), y1: H - B, y2: H - B + 5, stroke: "#333" }, svg);
      el("text", { x: X(v), y: H - B + 18, "text-anchor": "middle" }, svg, tickLabel(v));
    });
    ticks(y0, y1).forEach(function (v) {
      el("line", { x1: L - 5, x2: L, y1: Y(v), y2: Y(v), stroke: "#333" }, svg);
      el("text", { x: L - 8, y: Y(v) + 4, "text-anchor": "end" }, svg, tickLabel(v));
    });
    el("text", { x: (L + W - R) / 2, y: H - 10, "text-anchor": "middle" }, svg, "total latency (cycles, log scale)");
    el("text", { x: 16, y: (T + H - B) / 2, "text-anchor": "middle", transform: "rotate(-90 16 " + (T + H - B) / 2 + ")" }, svg,
       "total energy (pJ, log scale)");
    // The front last, so that no other point hides it.
    const onFront = function (r) { return front.indexOf(r.id) >= 0; };
    ok.filter(function (r) { return !onFront(r); }).concat(ok.filter(onFront)).forEach(function (r) {
      const on = onFront(r), g = el("g", {}, svg), colour = on ? "#d62728" : "#5b8fd6";
      el("title", {}, g, "point " + r.point + (on ? " (Pareto front)" : "") + ": " + cell(r.latency) + " cycles, " +
         cell(r.energy_pj) + " pJ, " + cell(r.area_mm2) + " mm²" + estimateText(r));
      // A point resting on estimates is hollow: its figures are not the per-core model's alone.
      if (estimated(r)) el("circle", { cx: X(r.latency), cy: Y(r.energy_pj), r: on ? 5 : 3.5, fill: "#fff", stroke: colour, "stroke-width": 2, class: "estimated" }, g);
      else el("circle", { cx: X(r.latency), cy: Y(r.energy_pj), r: on ? 5 : 3.5, fill: colour, stroke: "#fff" }, g);
    });
    el("p", { class: "hint" }, box, "red: the Pareto front (no other point is better on latency, energy and area at once, so a " +
       "red point may lie above a blue one that has a larger area); hollow: the point's figures rest partly on ideal-cycle " +
       "estimates (its tooltip says how much); a point's tooltip gives its figures.");
  }

  function plot(D, root) {
    const box = el("div", {}, root), controls = el("p", { class: "controls" }, root);
    const n = D.rows.filter(function (r) { return r.status === "ok" && estimated(r); }).length;
    let exactOnly = false;
    if (n > 0) {
      const label = el("label", {}, controls);
      const checkbox = el("input", { type: "checkbox", id: "exclude-estimates" }, label);
      label.appendChild(document.createTextNode(" leave out the " + n + " point" + (n === 1 ? "" : "s") +
        " whose figures rest partly on ideal-cycle estimates (the front is then that of the other points)"));
      checkbox.addEventListener("change", function () { exactOnly = checkbox.checked; drawPlot(D, box, exactOnly); });
    }
    drawPlot(D, box, exactOnly);
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
