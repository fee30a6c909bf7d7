#include "stream/cost/spatial_mapping.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "stream/numeric/rounding.hpp"

namespace stream::cost {

namespace {

// CPython's iteration order of set(LayerDim("D0"), ..., LayerDim("D{n-1}")), tabulated by the
// oracle (hint_set_order.json): ZigZag hashes LayerDims with SHA-512 of their pickle, so the order
// depends only on the number of dims.
const std::vector<std::vector<int>> kHintOrders = {
    {},
    {0},
    {0, 1},
    {0, 2, 1},
    {0, 2, 3, 1},
    {4, 0, 3, 1, 2},
    {4, 0, 3, 1, 2, 5},
    {4, 0, 3, 1, 2, 5, 6},
    {4, 0, 3, 7, 1, 2, 5, 6},
    {4, 0, 3, 7, 1, 8, 2, 5, 6},
    {4, 0, 3, 7, 1, 8, 2, 5, 9, 6},
    {4, 0, 3, 7, 1, 10, 8, 2, 5, 9, 6},
    {4, 11, 0, 3, 7, 1, 10, 8, 2, 5, 9, 6},
    {4, 12, 11, 0, 3, 7, 1, 10, 8, 2, 5, 9, 6},
    {4, 12, 11, 13, 0, 3, 7, 1, 10, 8, 2, 5, 9, 6},
    {4, 12, 11, 13, 0, 3, 7, 1, 10, 8, 2, 5, 14, 9, 6},
    {4, 12, 11, 13, 0, 3, 15, 7, 1, 10, 8, 2, 5, 14, 9, 6},
};

// Appends (dim, divisor) for every divisor of v, largest first.
template <class Out>
void append_divisors_desc(std::int64_t v, int dim, Out& out) {
  std::int64_t small[256];
  std::size_t n_small = 0;
  for (std::int64_t i = 1; i * i <= v; ++i)
    if (v % i == 0 && n_small < 256) small[n_small++] = i;
  // v / small[k] for ascending k is descending; then the small divisors themselves, descending.
  for (std::size_t k = 0; k < n_small; ++k)
    if (small[k] * small[k] != v) out.push_back({dim, v / small[k]});
  for (std::size_t k = n_small; k-- > 0;) out.push_back({dim, small[k]});
}

struct Candidate {
  int dim;
  std::int64_t u;
};

struct Search {
  const Layer* layer;
  std::vector<std::vector<Candidate>> cands;  // per array dim (fixed dims: one candidate list of their own)
  std::vector<std::vector<std::pair<int, std::int64_t>>> fixed;  // template entries per array dim
  std::vector<bool> is_fixed;
  std::vector<std::int64_t> max_u;            // per array dim, the largest candidate product
  std::vector<std::int64_t> suffix_max;       // product of max_u over dims >= i
  std::vector<double> total;                  // per layer dim, current total unroll
  std::vector<int> choice;
  std::vector<int> best_choice;
  double best = -1;
  bool found = false;

  void dfs(std::size_t i, double hw) {
    const std::size_t n_oa = cands.size();
    if (i == n_oa) {
      double m = 1;
      for (double t : total) m = std::max(m, t);
      const double ind = hw + (hw / m - 1);
      if (!found || ind > best) {
        best = ind;
        best_choice = choice;
        found = true;
      }
      return;
    }
    // The indicator is at most 2*hw - 1: prune branches that cannot beat (or tie-then-lose) best.
    if (found && 2.0 * hw * static_cast<double>(suffix_max[i]) - 1 <= best) return;
    if (is_fixed[i]) {
      bool ok = true;
      double f = 1;
      for (auto [d, u] : fixed[i]) {
        total[static_cast<std::size_t>(d)] *= static_cast<double>(u);
        f *= static_cast<double>(u);
        if (total[static_cast<std::size_t>(d)] > static_cast<double>(layer->sizes[static_cast<std::size_t>(d)])) ok = false;
      }
      if (ok) dfs(i + 1, hw * f);
      for (auto [d, u] : fixed[i]) total[static_cast<std::size_t>(d)] /= static_cast<double>(u);
      return;
    }
    const auto& cs = cands[i];
    for (std::size_t c = 0; c < cs.size(); ++c) {
      const auto d = static_cast<std::size_t>(cs[c].dim);
      const double nt = total[d] * static_cast<double>(cs[c].u);
      if (nt > static_cast<double>(layer->sizes[d])) continue;
      const double saved = total[d];
      total[d] = nt;
      choice[i] = static_cast<int>(c);
      dfs(i + 1, hw * static_cast<double>(cs[c].u));
      total[d] = saved;
    }
  }
};

int parse_dim_name(const std::string& s, int n_loop) {
  if (s.size() < 2 || (s[0] != 'D' && s[0] != 'd')) return -1;
  int v = 0;
  for (std::size_t i = 1; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v < n_loop ? v : -1;
}

}  // namespace

const std::vector<int>& hint_set_order(int n_dims) {
  if (n_dims >= 0 && n_dims < static_cast<int>(kHintOrders.size())) return kHintOrders[static_cast<std::size_t>(n_dims)];
  // Beyond the tabulated range the order is not reproduced; natural order keeps it deterministic.
  static thread_local std::vector<int> natural;
  natural.clear();
  for (int i = 0; i < n_dims; ++i) natural.push_back(i);
  return natural;
}

std::string SpatialMapping::str(const CoreModel& core) const {
  std::string s = "{";
  for (std::size_t oa = 0; oa < per_oa.size(); ++oa) {
    if (oa) s += ", ";
    s += core.oa_names[oa] + ": {";
    for (std::size_t k = 0; k < per_oa[oa].size(); ++k) {
      if (k) s += ", ";
      s += "D" + std::to_string(per_oa[oa][k].first) + ": " + std::to_string(per_oa[oa][k].second);
    }
    s += "}";
  }
  return s + "}";
}

namespace {

using MaxUnroll = std::vector<std::vector<std::int64_t>>;  // per array dim, per layer dim
using ConvertedUnrolls = SmallVec<SmallVec<SpatialLoop, OperandSpatial::kMaxLoops>, 16>;  // per array dim

// Steps 1-2 (cost-model-spec §1.4): maximal unrolling, min(layer size, array size), limited by the
// bandwidth of the inner memories for the dims irrelevant to an operand they hold.
MaxUnroll max_unrolling(const Layer& layer, const CoreModel& core, const std::vector<int>& op_of_memop) {
  const std::size_t n_oa = core.oa_sizes.size();
  const auto n = static_cast<std::size_t>(layer.n_loop);
  MaxUnroll max_u(n_oa, std::vector<std::int64_t>(n));
  for (std::size_t oa = 0; oa < n_oa; ++oa)
    for (std::size_t d = 0; d < n; ++d) max_u[oa][d] = std::min(layer.sizes[d], core.oa_sizes[oa]);
  for (const auto& mem : core.mems) {
    if (!mem.inner) continue;
    for (int memop : mem.memops) {
      const int op = op_of_memop[static_cast<std::size_t>(memop)];
      if (op < 0) throw std::runtime_error(std::string("KeyError: ") + (memop == kI1 ? "I1" : memop == kI2 ? "I2" : "O"));
      const LayerOperand& lo = layer.operands[static_cast<std::size_t>(op)];
      const int dir = memop == kO ? kFL : kTL;
      const CorePort* p = core.port(memop, mem.level_of[static_cast<std::size_t>(memop)], dir);
      if (p == nullptr || lo.precision <= 0) continue;
      const std::int64_t lim = p->bw_max / lo.precision;
      for (int oa : mem.served_oa)
        for (std::size_t d = 0; d < n; ++d)
          if (!(lo.ir & bit(static_cast<int>(d))))
            max_u[static_cast<std::size_t>(oa)][d] = std::min(max_u[static_cast<std::size_t>(oa)][d], lim);
    }
  }
  return max_u;
}

// Step 3: an array dim with a dataflow takes its template, each factor capped by the maximal
// unrolling, and dropped when it would overflow the array dim.
void fix_dataflow_templates(Search& s, const Layer& layer, const CoreModel& core, const MaxUnroll& max_u) {
  const std::size_t n_oa = core.oa_sizes.size();
  for (std::size_t oa = 0; oa < n_oa && oa < core.dataflows.size(); ++oa) {
    if (core.dataflows[oa].empty()) continue;
    s.is_fixed[oa] = true;
    std::int64_t prod = 1;
    for (const auto& [name, f] : core.dataflows[oa]) {
      const int d = parse_dim_name(name, layer.n_loop);
      if (d < 0) continue;
      const std::int64_t u = std::min(f, max_u[oa][static_cast<std::size_t>(d)]);
      if (prod * u > core.oa_sizes[oa]) continue;
      prod *= u;
      s.fixed[oa].emplace_back(d, u);
    }
  }
}

// Step 5: every other array dim gets the divisors of each dim's maximal unrolling as candidates,
// dims in the hint-set order, largest divisor first.
void add_candidates(Search& s, const Layer& layer, const CoreModel& core, const MaxUnroll& max_u) {
  const std::size_t n_oa = core.oa_sizes.size();
  const std::vector<int>& order = hint_set_order(layer.n_loop);
  s.max_u.assign(n_oa, 1);
  for (std::size_t oa = 0; oa < n_oa; ++oa) {
    if (s.is_fixed[oa]) {
      for (auto [d, u] : s.fixed[oa]) s.max_u[oa] *= u;
      continue;
    }
    for (int d : order) append_divisors_desc(max_u[oa][static_cast<std::size_t>(d)], d, s.cands[oa]);
    for (const auto& c : s.cands[oa]) s.max_u[oa] = std::max(s.max_u[oa], c.u);
    if (s.cands[oa].empty()) throw std::runtime_error("no spatial unrolling candidate for " + core.oa_names[oa]);
  }
  s.suffix_max.assign(n_oa + 1, 1);
  for (std::size_t i = n_oa; i-- > 0;) s.suffix_max[i] = s.suffix_max[i + 1] * s.max_u[i];
}

// Step 6: the combination of candidates with the best utilisation indicator.
SpatialMapping best_mapping(Search& s, std::size_t n_layer_dims) {
  const std::size_t n_oa = s.cands.size();
  s.total.assign(n_layer_dims, 1.0);
  s.choice.assign(n_oa, -1);
  s.dfs(0, 1.0);
  if (!s.found) throw std::runtime_error("no valid spatial mapping");
  SpatialMapping sm;
  sm.per_oa.resize(n_oa);
  for (std::size_t oa = 0; oa < n_oa; ++oa) {
    if (s.is_fixed[oa]) {
      sm.per_oa[oa] = s.fixed[oa];
    } else {
      const Candidate& c = s.cands[oa][static_cast<std::size_t>(s.best_choice[oa])];
      sm.per_oa[oa].emplace_back(c.dim, c.u);
    }
  }
  return sm;
}

// Step 7: the irrelevant unrolls an inner memory serves must fit in it; the largest factor is
// lowered by one until they do.
void limit_to_inner_capacity(SpatialMapping& sm, const Layer& layer, const CoreModel& core,
                             const std::vector<int>& op_of_memop) {
  for (const auto& mem : core.mems) {
    if (!mem.inner) continue;
    for (int memop : mem.memops) {
      const int op = op_of_memop[static_cast<std::size_t>(memop)];
      const LayerOperand& lo = layer.operands[static_cast<std::size_t>(op)];
      if (lo.precision <= 0) continue;
      const double cap = mem.size / static_cast<double>(lo.precision);
      std::vector<std::int64_t*> factors;
      for (int oa : mem.served_oa)
        for (auto& [d, u] : sm.per_oa[static_cast<std::size_t>(oa)])
          if (!(lo.ir & bit(d))) factors.push_back(&u);
      auto prod = [&] {
        double p = 1;
        for (auto* f : factors) p *= static_cast<double>(*f);
        return p;
      };
      while (!factors.empty() && prod() > cap) {
        auto it = std::max_element(factors.begin(), factors.end(), [](auto* a, auto* b) { return *a < *b; });
        if (**it <= 0) break;
        --**it;
      }
    }
  }
}

// The unrollings per array dim as ZigZag converts them: the first array dim holding the largest
// unroll of a layer dim takes the even share L / ceil(L / (u * e)) / e (truncated when `integer`).
ConvertedUnrolls converted_unrollings(const Layer& layer, const CoreModel& core, const SpatialMapping& sm, bool integer) {
  const std::size_t n_oa = sm.per_oa.size();
  ConvertedUnrolls conv;
  conv.resize(n_oa);
  for (std::size_t oa = 0; oa < n_oa; ++oa) {
    for (auto [d, u0] : sm.per_oa[oa]) {
      const std::int64_t u = std::min(u0, core.oa_sizes[oa]);
      // Is this the first array dim holding the largest unroll of d?
      std::int64_t largest = 0;
      std::size_t first_oa = n_oa;
      for (std::size_t o2 = 0; o2 < n_oa; ++o2)
        for (auto [d2, v2] : sm.per_oa[o2]) {
          const std::int64_t v = std::min(v2, core.oa_sizes[o2]);
          if (d2 == d && v > largest) {
            largest = v;
            first_oa = o2;
          }
        }
      double val = static_cast<double>(u);
      if (first_oa == oa) {
        double e = 1;
        for (std::size_t o2 = 0; o2 < oa; ++o2)
          for (const auto& l : conv[o2])
            if (l.dim == d) e *= l.size;
        const double L = static_cast<double>(layer.sizes[static_cast<std::size_t>(d)]);
        if (static_cast<double>(u) * e == 0) throw std::runtime_error("ZeroDivisionError: spatial unrolling of 0");
        const double t = std::ceil(L / (static_cast<double>(u) * e));
        val = L / t / e;
        if (integer) val = std::trunc(val);
      }
      conv[oa].push_back({d, val});
    }
  }
  return conv;
}

// Level a gets the array dims memory a serves (not yet taken); the rest go to the top level n_lv.
void assign_to_levels(OperandSpatial& out, const CoreModel& core, const std::vector<int>& lv, const ConvertedUnrolls& conv) {
  const std::size_t n_oa = conv.size(), n_lv = lv.size();
  out.loops.resize(n_lv + 1);
  SmallVec<char, 16> taken;
  taken.assign(n_oa, 0);
  auto add = [&](std::size_t a, const SpatialLoop& l) {
    for (auto& x : out.loops[a])
      if (x.dim == l.dim) {
        x.size *= l.size;
        return;
      }
    out.loops[a].push_back(l);
  };
  for (std::size_t a = 0; a < n_lv; ++a) {
    const CoreMemory& mem = core.mems[static_cast<std::size_t>(lv[a])];
    for (std::size_t oa = 0; oa < n_oa; ++oa) {
      if (taken[oa]) continue;
      if (std::find(mem.served_oa.begin(), mem.served_oa.end(), static_cast<int>(oa)) == mem.served_oa.end()) continue;
      taken[oa] = 1;
      for (const auto& l : conv[oa]) add(a, l);
    }
  }
  for (std::size_t oa = 0; oa < n_oa; ++oa)
    if (!taken[oa])
      for (const auto& l : conv[oa]) add(n_lv, l);
}

// Per level, the relevant (ur) and all (utot) unroll products of the operand's spatial loops; a
// partially relevant dim contributes the growth of its pr relation's relevant and irrelevant sizes.
void decoupled_products(const Layer& layer, const LayerOperand& lo, const OperandSpatial& out,
                        SmallVec<double, OperandSpatial::kMaxArch>& ur, SmallVec<double, OperandSpatial::kMaxArch>& utot) {
  const std::size_t levels = out.loops.size();
  ur.assign(levels, 1.0);
  utot.assign(levels, 1.0);
  SmallVec<double, 64> run, prev_r, prev_ir;
  run.assign(static_cast<std::size_t>(layer.n_loop), 1.0);
  prev_r.assign(static_cast<std::size_t>(layer.n_pr), 1.0);
  prev_ir.assign(static_cast<std::size_t>(layer.n_pr), 1.0);
  for (std::size_t a = 0; a < levels; ++a) {
    for (const auto& l : out.loops[a]) {
      const int k = lo.dim_class[static_cast<std::size_t>(l.dim)] - 3;
      if (k >= 0) {
        run[static_cast<std::size_t>(l.dim)] *= l.size;
        const PrRelation& rel = layer.pr[static_cast<std::size_t>(k)];
        const double rc = layer.pr_size(k, run[static_cast<std::size_t>(rel.a)], run[static_cast<std::size_t>(rel.b)]);
        const double irc = run[static_cast<std::size_t>(rel.a)] * run[static_cast<std::size_t>(rel.b)] / rc;
        const double rf = rc / prev_r[static_cast<std::size_t>(k)];
        const double irf = irc / prev_ir[static_cast<std::size_t>(k)];
        prev_r[static_cast<std::size_t>(k)] = rc;
        prev_ir[static_cast<std::size_t>(k)] = irc;
        ur[a] *= rf;
        utot[a] *= rf;
        utot[a] *= irf;
      } else {
        if (lo.r & bit(l.dim)) ur[a] *= l.size;
        utot[a] *= l.size;
      }
    }
  }
}

}  // namespace

SpatialMapping generate_spatial_mapping(const Layer& layer, const CoreModel& core, const std::vector<int>& memop_of_op) {
  const std::size_t n_oa = core.oa_sizes.size();
  std::vector<int> op_of_memop(kNumMemOps, -1);
  for (std::size_t i = 0; i < memop_of_op.size(); ++i) op_of_memop[static_cast<std::size_t>(memop_of_op[i])] = static_cast<int>(i);
  const auto max_u = max_unrolling(layer, core, op_of_memop);
  Search s;
  s.layer = &layer;
  s.cands.resize(n_oa);
  s.fixed.resize(n_oa);
  s.is_fixed.assign(n_oa, false);
  fix_dataflow_templates(s, layer, core, max_u);
  add_candidates(s, layer, core, max_u);
  auto sm = best_mapping(s, static_cast<std::size_t>(layer.n_loop));
  limit_to_inner_capacity(sm, layer, core, op_of_memop);
  return sm;
}

OperandSpatial convert_spatial_mapping(const Layer& layer, const CoreModel& core, const SpatialMapping& sm, int op,
                                       int memop, bool integer) {
  const auto& lv = core.levels[static_cast<std::size_t>(memop)];
  const std::size_t n_lv = lv.size();
  OperandSpatial out;
  assign_to_levels(out, core, lv, converted_unrollings(layer, core, sm, integer));
  SmallVec<double, OperandSpatial::kMaxArch> ur, utot;
  decoupled_products(layer, layer.operands[static_cast<std::size_t>(op)], out, ur, utot);
  // unit_count / mem_bw_boost: Python round() of the products from level a up (cost-model-spec §1.4).
  out.unit_count.assign(n_lv + 1, 1.0);
  out.unit_unique.assign(n_lv + 1, 1.0);
  out.mem_bw_boost.assign(n_lv + 1, 1.0);
  double pt = 1, pr = 1;
  for (std::size_t a = n_lv + 1; a-- > 0;) {
    pt *= utot[a];
    pr *= ur[a];
    out.unit_count[a] = numeric::round_half_even(pt);
    out.unit_unique[a] = pr;
  }
  for (std::size_t a = 0; a < n_lv; ++a) out.mem_bw_boost[a] = numeric::round_half_even(out.unit_unique[a] / out.unit_unique[a + 1]);
  out.mem_bw_boost[n_lv] = 1;
  return out;
}

}  // namespace stream::cost
