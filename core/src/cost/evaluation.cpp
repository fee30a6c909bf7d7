#include "stream/cost/evaluation.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

#include "stream/numeric/rounding.hpp"

namespace stream::cost {

// Number of integer slots t in [x, y) with t mod p_i < a_i for some activity i; activities sorted
// by period, largest first. Each level splits the interval into the largest period's windows
// (counted in closed form) and the gaps between them (handed to the remaining activities).
double window_union_slots(const PortActivity* acts, std::size_t n, double x, double y) {
  if (n == 0 || x >= y) return 0;
  const double p = acts[0].period;
  const double a = std::max(0.0, std::min(acts[0].allowed, p));
  auto G = [&](double t) { return std::floor(t / p) * a + std::min(t - std::floor(t / p) * p, a); };
  double total = G(y) - G(x);
  if (n == 1 || a >= p) return total;
  for (double k = std::floor(x / p); k * p < y; k += 1) {
    const double lo = std::max(x, k * p + a), hi = std::min(y, (k + 1) * p);
    if (lo < hi) total += window_union_slots(acts + 1, n - 1, lo, hi);
  }
  return total;
}

void reduce_balanced(double* c, const double* m, std::size_t k, double s, int* order) {
  if (s <= 0 || k == 0) return;
  std::iota(order, order + k, 0);
  std::stable_sort(order, order + k, [&](int a, int b) { return c[a] > c[b]; });
  for (std::size_t i = 0; i < k; ++i) {
    const auto oi = static_cast<std::size_t>(order[i]);
    const double g = c[oi] - m[oi];
    const double n = static_cast<double>(i + 1);
    if (s >= g * n) {
      for (std::size_t j = 0; j <= i; ++j) c[order[j]] -= g;
      s -= g * n;
    } else {
      for (std::size_t j = 0; j <= i; ++j) c[order[j]] -= s / n;
      break;
    }
  }
}

Evaluator::Evaluator(const Layer& layer, const CoreModel& core, const std::vector<int>& memop_of_op,
                     const std::vector<OperandSpatial>& frac, const std::vector<OperandSpatial>& integer, int cycles_per_op)
    : layer_(layer), core_(core), cpo_(cycles_per_op) {
  sm_[0] = &frac;
  sm_[1] = &integer;
  op_of_memop_.assign(kNumMemOps, -1);
  for (std::size_t i = 0; i < memop_of_op.size(); ++i) {
    memop_of_op_.push_back(memop_of_op[i]);
    op_of_memop_[static_cast<std::size_t>(memop_of_op[i])] = static_cast<int>(i);
  }
  o_size_elem_ = layer.full_tensor_size(0);
  const std::size_t n_ops = memop_of_op.size();
  n_.resize(n_ops);
  bnd_.resize(n_ops);
  same_.assign(n_ops, 1);
  ports_.resize(n_ops);
  for (std::size_t op = 0; op < n_ops; ++op)
    for (std::size_t a = 0; a < frac[op].loops.size(); ++a) {
      if (frac[op].loops[a].size() != integer[op].loops[a].size()) same_[op] = 0;
      for (std::size_t i = 0; i < frac[op].loops[a].size() && same_[op]; ++i)
        if (frac[op].loops[a][i].size != integer[op].loops[a][i].size) same_[op] = 0;
    }
  macst_.resize(n_ops);
  cabl_.resize(n_ops);
  top_r_.resize(n_ops);
  top_ir_.resize(n_ops);
  us_.resize(n_ops);
  ues_.resize(n_ops);
  ue_.resize(n_ops);
  db_.resize(n_ops);
  rec_.resize(n_ops);
  for (std::size_t op = 0; op < n_ops; ++op) {
    const int n = static_cast<int>(core.levels[static_cast<std::size_t>(memop_of_op[op])].size());
    n_[op] = n;
    const auto nn = static_cast<std::size_t>(n);
    bnd_[op].resize(nn + 1);
    ports_[op].resize(nn);
    for (std::size_t m = 0; m < nn; ++m)
      for (int d = 0; d < kNumDirs; ++d) ports_[op][m][static_cast<std::size_t>(d)] = core.port(memop_of_op[op], static_cast<int>(m), d);
    cabl_[op].resize(nn);
    top_r_[op].resize(nn + 1);
    top_ir_[op].resize(nn + 1);
    for (auto& v : ver_[op]) {
      v.deu.resize(nn + 1);
      v.dbu.resize(nn + 1);
      v.edb.resize(nn + 1);
      v.prec.resize(nn + 1);
      v.caal.resize(nn + 3);
      v.psum.resize(nn + 1);
      v.mv.resize(nn);
    }
    us_[op].resize(nn);
    ues_[op].resize(nn);
    ue_[op].resize(nn);
    db_[op].resize(nn + 1);
    rec_[op].resize(nn);
  }
  run_.resize(static_cast<std::size_t>(layer.n_loop));
  prev_r_.resize(static_cast<std::size_t>(layer.n_pr));
  prev_ir_.resize(static_cast<std::size_t>(layer.n_pr));
}

// One loop's contribution to an operand's relevant (R) and irrelevant (IR) products. A pr dim's
// source loops contribute through the pr size (pr decoupling: the window's new R and IR over the
// previous ones); `flag` records an IR factor above 1.
void Evaluator::accumulate(const int* cls, int dim, double size, double& R, double& IR, char* flag) {
  const int c = cls[dim];
  if (c >= 3) {
    const int k = c - 3;
    const PrRelation& rel = layer_.pr[static_cast<std::size_t>(k)];
    run_[static_cast<std::size_t>(dim)] *= size;
    const double ra = run_[static_cast<std::size_t>(rel.a)], rb = run_[static_cast<std::size_t>(rel.b)];
    const double rc = layer_.pr_size(k, ra, rb);
    const double irc = ra * rb / rc;
    const double rf = rc / prev_r_[static_cast<std::size_t>(k)];
    const double irf = irc / prev_ir_[static_cast<std::size_t>(k)];
    prev_r_[static_cast<std::size_t>(k)] = rc;
    prev_ir_[static_cast<std::size_t>(k)] = irc;
    R *= rf;
    IR *= irf;
    if (flag && irf > 1) *flag = 1;
  } else if (c == 1) {
    R *= size;
  } else if (c == 2) {
    IR *= size;
    if (flag && size > 1) *flag = 1;
  }
}

void Evaluator::reset_pr_products() {
  std::fill(run_.begin(), run_.end(), 1.0);
  std::fill(prev_r_.begin(), prev_r_.end(), 1.0);
  std::fill(prev_ir_.begin(), prev_ir_.end(), 1.0);
}

// R/IR products of C1 (TMs[a-1] ++ SM[a]) and C2 (TMs[a-1] ++ SM[a-1]) with pr decoupling.
void Evaluator::level_products(std::size_t op, const OperandSpatial& spatial) {
  const auto& sm = spatial.loops;
  const auto nn = static_cast<std::size_t>(n_[op]);
  const int* cls = layer_.operands[op].dim_class.data();
  r1_.assign(nn + 1, 1.0);
  ir1_.assign(nn + 1, 1.0);
  r2_.assign(nn + 1, 1.0);
  irflag_.assign(nn + 1, 0);
  reset_pr_products();
  for (std::size_t a = 0; a <= nn; ++a) {
    double R = 1, IR = 1;
    char flag = 0;
    if (a > 0)
      for (int i = bnd_[op][a - 1]; i < bnd_[op][a]; ++i) accumulate(cls, ord_[i].dim, static_cast<double>(ord_[i].size), R, IR, &flag);
    for (const auto& l : sm[a]) accumulate(cls, l.dim, l.size, R, IR, &flag);
    r1_[a] = R;
    ir1_[a] = IR;
    irflag_[a] = flag;
  }
  reset_pr_products();
  for (std::size_t a = 1; a <= nn; ++a) {
    double R = 1, IR = 1;
    for (int i = bnd_[op][a - 1]; i < bnd_[op][a]; ++i) accumulate(cls, ord_[i].dim, static_cast<double>(ord_[i].size), R, IR, nullptr);
    for (const auto& l : sm[a - 1]) accumulate(cls, l.dim, l.size, R, IR, nullptr);
    r2_[a] = R;
  }
}

// The output's caal (the IR product above each level) and partial-sum flags.
void Evaluator::output_flags(Version& V, std::size_t nn) {
  double p = 1;
  V.caal[nn + 1] = V.caal[nn + 2] = 1;
  for (std::size_t a = nn + 1; a-- > 0;) {
    p *= ir1_[a];
    V.caal[a] = p;
  }
  bool any = false;
  V.psum[nn] = 0;
  for (std::size_t m = nn; m-- > 0;) {
    any = any || irflag_[m + 1];
    V.psum[m] = any ? 1 : 0;
  }
}

// The per-arch-level data sizes and precisions of operand `op_i` under spatial version v.
void Evaluator::sizes_for(int op_i, int v) {
  const auto op = static_cast<std::size_t>(op_i);
  const LayerOperand& lo = layer_.operands[op];
  const auto nn = static_cast<std::size_t>(n_[op]);
  Version& V = ver_[op][static_cast<std::size_t>(v)];
  level_products(op, (*sm_[v])[op]);
  if (op == 0) output_flags(V, nn);
  double pr2 = 1;
  for (std::size_t a = 0; a <= nn; ++a) {
    pr2 *= r2_[a];
    const double r2c = numeric::round_half_even(pr2);
    V.deu[a] = a == 0 ? 1.0 : numeric::round_half_even(r2c);
    V.prec[a] = op == 0 ? (V.psum[a] ? lo.precision : layer_.precision_out_final) : lo.precision;
    V.dbu[a] = V.deu[a] * V.prec[a];
    V.edb[a] = numeric::floor_div(V.dbu[a], top_r_[op][a]);
  }
}

void Evaluator::movement_for(int op_i, int v) {
  const auto op = static_cast<std::size_t>(op_i);
  const LayerOperand& lo = layer_.operands[op];
  const OperandSpatial& sp = (*sm_[v])[op];
  Version& V = ver_[op][static_cast<std::size_t>(v)];
  const int n = n_[op];
  const auto nn = static_cast<std::size_t>(n);
  const double total = cabl_[op][nn - 1];
  auto cyc = [&](std::size_t a) { return a == 0 ? (op == 0 ? 1.0 : macst_[op]) : cabl_[op][a - 1]; };
  auto lowraw = [&](std::size_t a) { return V.deu[a] * V.prec[a] / cyc(a); };
  const double P = lo.precision, Pf = layer_.precision_out_final;
  for (std::size_t m = 0; m < nn; ++m) {
    auto& mv = V.mv[m];
    const double boost = sp.mem_bw_boost[m];
    Movement low, high;
    low.amount = V.deu[m] * boost;
    low.period = std::trunc(cyc(m));
    low.count = numeric::floor_div(total, cyc(m));
    low.bw_avg = std::trunc(lowraw(m) * boost);
    high.amount = V.deu[m + 1];
    high.period = std::trunc(cyc(m + 1));
    high.count = numeric::floor_div(total, cyc(m + 1));
    high.bw_avg = std::trunc(lowraw(m + 1));
    const double s_low = std::trunc(top_ir_[op][m]);
    const double s_high = std::trunc(top_ir_[op][m + 1]);
    if (op != 0) {
      low.prec = P;
      high.prec = P;
      mv[kTL] = low;
      mv[kFH] = high;
      mv[kFL] = Movement{};
      mv[kTH] = Movement{};
      mv[kTL].window = std::trunc(mv[kTL].period / s_low);
      mv[kFH].window = std::trunc(mv[kFH].period / s_high);
    } else {
      low.amount = std::trunc(low.amount);
      mv[kFL] = low;
      mv[kTH] = high;
      mv[kTL] = V.psum[m] ? low : Movement{};
      mv[kFH] = V.psum[m + 1] ? high : Movement{};
      const double rdlow = std::trunc(o_size_elem_ * (V.caal[m + 1] - 1));
      const double wrhigh = std::trunc(o_size_elem_ * (V.caal[m + 2] - 1));
      if (rdlow != 0) {
        mv[kFL].prec = P;
        mv[kTL].prec = P;
      } else {
        mv[kFL].prec = Pf;
        mv[kTL].prec = 0;
      }
      if (wrhigh != 0) {
        mv[kFH].prec = P;
        mv[kTH].prec = P;
      } else {
        mv[kFH].prec = 0;
        mv[kTH].prec = Pf;
      }
      mv[kFL].window = std::trunc(mv[kFL].period / s_low);
      mv[kTL].window = std::trunc(mv[kTL].period / s_low);
      mv[kTH].window = std::trunc(mv[kTH].period / s_high);
      mv[kFH].window = std::trunc(mv[kFH].period / s_high);
    }
    if (m == nn - 1) {
      mv[kTH] = Movement{};
      mv[kFH] = Movement{};
    }
  }
}

void Evaluator::evaluate(const std::vector<TemporalLoop>& ordering, const Allocation& alloc, MappingCost& out, bool detail) {
  ord_ = ordering.data();
  merge_temporal_levels(alloc);
  const double total_cycle = cabl_[0].back();
  compute_versions();
  word_accesses_and_energy(out, detail);
  double_buffer_flags();
  const double ssc = stall_slack();
  data_loading_records(total_cycle, ssc);
  const double onload = onloading(), offload = offloading();
  // 3.11 Final latency figures.
  const double cpo = cpo_;
  out.ideal_cycle = std::ceil(std::ceil(static_cast<double>(layer_.macs) / static_cast<double>(core_.total_units)) * cpo);
  out.ideal_temporal_cycle = total_cycle * cpo;
  out.stall_slack_comb = ssc;
  out.onloading = onload;
  out.offloading = offload;
  out.latency_total0 = out.ideal_temporal_cycle + ssc;
  out.latency_total1 = out.latency_total0 + onload;
  out.latency_total2 = out.latency_total1 + offload;
}

// 3.1 Temporal mapping: per-level loops, stationarity merge, cumulative cycles, top loops.
void Evaluator::merge_temporal_levels(const Allocation& alloc) {
  for (std::size_t op = 0; op < memop_of_op_.size(); ++op) {
    const auto nn = static_cast<std::size_t>(n_[op]);
    const LayerOperand& lo = layer_.operands[op];
    auto& bd = bnd_[op];
    for (std::size_t m = 0; m <= nn; ++m) bd[m] = alloc.bounds[op][m];
    // Stationary (irrelevant) loops at the bottom of a level move to the top of the level below.
    bool changed = true;
    while (changed) {
      changed = false;
      for (std::size_t m = 1; m < nn; ++m)
        while (bd[m] < bd[m + 1] && (lo.ir & bit(ord_[bd[m]].dim))) {
          ++bd[m];
          changed = true;
        }
    }
    double mst = 1;
    for (int i = bd[0]; i < bd[1]; ++i) {
      if (!(lo.ir & bit(ord_[i].dim))) break;
      mst *= static_cast<double>(ord_[i].size);
    }
    macst_[op] = mst;
    double c = 1;
    for (std::size_t m = 0; m < nn; ++m) {
      for (int i = bd[m]; i < bd[m + 1]; ++i) c *= static_cast<double>(ord_[i].size);
      cabl_[op][m] = c;
    }
    top_r_[op][0] = top_ir_[op][0] = 1;
    for (std::size_t a = 1; a <= nn; ++a) {
      double pr = 1, pir = 1;
      for (int i = bd[a] - 1; i >= bd[a - 1]; --i) {
        if (!(lo.r & bit(ord_[i].dim))) break;
        pr *= static_cast<double>(ord_[i].size);
      }
      for (int i = bd[a] - 1; i >= bd[a - 1]; --i) {
        if (!(lo.ir & bit(ord_[i].dim))) break;
        pir *= static_cast<double>(ord_[i].size);
      }
      top_r_[op][a] = pr;
      top_ir_[op][a] = pir;
    }
  }
}

// 3.2-3.4 Data sizes and movement, per spatial-mapping version (the integer one only where it differs).
void Evaluator::compute_versions() {
  for (std::size_t op = 0; op < memop_of_op_.size(); ++op) {
    sizes_for(static_cast<int>(op), 0);
    movement_for(static_cast<int>(op), 0);
    if (!same_[op]) {
      sizes_for(static_cast<int>(op), 1);
      movement_for(static_cast<int>(op), 1);
    }
  }
}

// 3.5-3.6 Word accesses and energy (fractional mapping).
void Evaluator::word_accesses_and_energy(MappingCost& out, bool detail) {
  const std::size_t n_ops = memop_of_op_.size();
  out.mac_energy = core_.unit_energy * static_cast<double>(layer_.macs);
  double mem_energy = 0;
  if (detail) {
    out.accesses.assign(n_ops, {});
    out.mem_energy_breakdown.assign(n_ops, {});
  }
  for (std::size_t op = 0; op < n_ops; ++op) {
    const int memop = memop_of_op_[op];
    const auto nn = static_cast<std::size_t>(n_[op]);
    const OperandSpatial& sp = (*sm_[0])[op];
    for (std::size_t m = 0; m < nn; ++m) {
      std::array<double, kNumDirs> acc{};
      for (int d = 0; d < kNumDirs; ++d) {
        const Movement& mv = ver_[op][0].mv[m][static_cast<std::size_t>(d)];
        const CorePort* p = ports_[op][m][static_cast<std::size_t>(d)];
        if (p == nullptr) {
          if (mv.amount != 0)
            throw ModelError("no port for " + std::string(dir_name(d)) + " of operand " + layer_.operands[op].name +
                             " at memory level " + std::to_string(m));
          continue;
        }
        if (mv.amount == 0 || mv.prec == 0) continue;
        const double bmin = static_cast<double>(p->bw_min), bmax = static_cast<double>(p->bw_max);
        acc[static_cast<std::size_t>(d)] =
            std::trunc(std::ceil(mv.amount * mv.prec / bmin) * (bmin / bmax) * mv.count * sp.unit_count[m + 1]);
      }
      const CoreMemory& mem = core_.mems[static_cast<std::size_t>(core_.levels[static_cast<std::size_t>(memop)][m])];
      const double rd = acc[kTH] * mem.r_cost + acc[kTL] * mem.r_cost;
      const double wr = acc[kFH] * mem.w_cost + acc[kFL] * mem.w_cost;
      const double e = rd + wr;
      mem_energy += e;
      if (detail) {
        out.accesses[op].push_back(acc);
        out.mem_energy_breakdown[op].push_back(e);
      }
    }
  }
  out.mem_energy = mem_energy;
  out.energy_total = mem_energy + out.mac_energy;
}

void Evaluator::memory_bits(std::vector<double>& out) const {
  out.assign(core_.mems.size(), 0.0);
  for (std::size_t op = 0; op < memop_of_op_.size(); ++op) {
    const auto& levels = core_.levels[static_cast<std::size_t>(memop_of_op_[op])];
    for (std::size_t m = 0; m < static_cast<std::size_t>(n_[op]); ++m)
      out[static_cast<std::size_t>(levels[m])] += ver_[op][0].dbu[m + 1];
  }
}

// 3.7 Utilisation and double-buffer flags (fractional mapping); a memory shared by operands sums
// their utilisations, in operand order.
void Evaluator::double_buffer_flags() {
  const std::size_t n_ops = memop_of_op_.size();
  for (std::size_t op = 0; op < n_ops; ++op) {
    const int memop = memop_of_op_[op];
    for (std::size_t m = 0; m < static_cast<std::size_t>(n_[op]); ++m) {
      const CoreMemory& mem = core_.mems[static_cast<std::size_t>(core_.levels[static_cast<std::size_t>(memop)][m])];
      us_[op][m] = ver_[op][0].dbu[m + 1] / mem.size;
      ue_[op][m] = ver_[op][0].edb[m + 1] / mem.size;
      ues_[op][m] = ue_[op][m];
    }
  }
  for (const CoreMemory& mem : core_.mems) {
    if (mem.memops.size() < 2) continue;
    double su = 0, sue = 0;
    for (int mo : mem.memops) {
      const auto op = static_cast<std::size_t>(op_of_memop_[static_cast<std::size_t>(mo)]);
      const auto lv = static_cast<std::size_t>(mem.level_of[static_cast<std::size_t>(mo)]);
      su += us_[op][lv];
      sue += ue_[op][lv];
    }
    for (int mo : mem.memops) {
      const auto op = static_cast<std::size_t>(op_of_memop_[static_cast<std::size_t>(mo)]);
      const auto lv = static_cast<std::size_t>(mem.level_of[static_cast<std::size_t>(mo)]);
      us_[op][lv] = su;
      ues_[op][lv] = sue;
    }
  }
  for (std::size_t op = 0; op < n_ops; ++op) {
    const int memop = memop_of_op_[op];
    db_[op][0] = 0;
    for (std::size_t m = 0; m < static_cast<std::size_t>(n_[op]); ++m) {
      if (ues_[op][m] <= 0.5) {
        db_[op][m + 1] = 1;
      } else if (ue_[op][m] <= 1 - ues_[op][m]) {
        db_[op][m + 1] = 1;
        const CoreMemory& mem = core_.mems[static_cast<std::size_t>(core_.levels[static_cast<std::size_t>(memop)][m])];
        if (mem.memops.size() >= 2) {
          const double add = ue_[op][m];
          for (int mo : mem.memops) {
            const auto o2 = static_cast<std::size_t>(op_of_memop_[static_cast<std::size_t>(mo)]);
            ues_[o2][static_cast<std::size_t>(mem.level_of[static_cast<std::size_t>(mo)])] += add;
          }
        } else {
          ues_[op][m] += ue_[op][m];
        }
      } else {
        db_[op][m + 1] = 0;
      }
    }
  }
}

// 3.8 Allowed cycles of a movement: its period when the level is double-buffered, else its window.
double Evaluator::allowed_cycles(std::size_t op, std::size_t m, int d, const Movement& mv) const {
  const bool low = d == kTL || d == kFL;
  const bool dbf = low ? db_[op][m] : db_[op][m + 1];
  return std::ceil((dbf ? mv.period : mv.window) * cpo_);
}

// 3.8 Real cycles of a movement over its port.
double Evaluator::real_cycles(const Movement& mv, const CorePort* p) {
  if (p == nullptr || p->bw_max == 0) return 0.0;
  return std::ceil(mv.amount * mv.prec / static_cast<double>(p->bw_max));
}

// 3.9 The combined stall/slack: the largest over the physical ports, at least 0 (integer mapping).
double Evaluator::stall_slack() {
  bool any_port = false;
  double max_port = -std::numeric_limits<double>::infinity();
  for (const CoreMemory& mem : core_.mems)
    for (const CorePort& p : mem.ports)
      if (auto ss = port_stall_slack(p)) {
        any_port = true;
        max_port = std::max(max_port, *ss);
      }
  return any_port ? std::max(0.0, max_port) : 0.0;
}

// 3.9 One port: its activities' stall (positive) plus the slack (negative) left once the
// memory-updating windows are accounted for; nullopt when no movement uses the port.
std::optional<double> Evaluator::port_stall_slack(const CorePort& p) {
  acts_.clear();
  for (const PortServe& s : p.serves) {
    const int opi = op_of_memop_[static_cast<std::size_t>(s.memop)];
    if (opi < 0) continue;
    const auto op = static_cast<std::size_t>(opi);
    const Movement& mv = ver_[op][latency_version(op)].mv[static_cast<std::size_t>(s.level)][static_cast<std::size_t>(s.dir)];
    if (mv.count <= 0) continue;
    Activity a{};
    a.period = std::ceil(mv.period * cpo_);
    a.allowed = allowed_cycles(op, static_cast<std::size_t>(s.level), s.dir, mv);
    const double real = real_cycles(mv, ports_[op][static_cast<std::size_t>(s.level)][static_cast<std::size_t>(s.dir)]);
    a.count = mv.count;
    a.ss = (real - a.allowed) * (mv.count - 1);
    a.muw = a.allowed * (mv.count - 1);
    acts_.push_back(a);
  }
  if (acts_.empty()) return std::nullopt;
  if (acts_.size() == 1) return acts_[0].ss;
  double pos = 0, neg = 0, muw = 0;
  for (const auto& a : acts_) {
    pos += std::max(a.ss, 0.0);
    neg += std::min(a.ss, 0.0);
    muw += a.muw;
  }
  double U = -1;
  for (const auto& a : acts_)
    if (a.period == a.allowed) {
      U = a.period * a.count;
      break;
    }
  if (U < 0) {
    double pmax = 0;
    for (const auto& a : acts_) pmax = std::max(pmax, a.period);
    double pmax_count = 0;
    for (const auto& a : acts_)
      if (a.period == pmax) {
        pmax_count = a.count;
        break;
      }
    for (const auto& a : acts_)
      if (a.period <= 0 || std::fmod(pmax, a.period) != 0)
        throw ModelError("memory-updating windows with non-divisible periods on port " + p.name);
    // Slots of [0, pmax) inside some activity's window, counted per interval rather than
    // marked one by one (pmax can be millions of cycles).
    std::stable_sort(acts_.begin(), acts_.end(), [](const Activity& x, const Activity& y) { return x.period > y.period; });
    const double cnt = window_union_slots(acts_.data(), acts_.size(), 0.0, pmax);
    U = cnt * pmax_count;
  }
  return pos + std::max(0.0, neg + muw - U);
}

// 3.10 The loading record of every (operand, level, direction): a movement done once shares the
// port's bandwidth surplus over the whole run (reduce_balanced); a repeated one keeps its real cycles.
void Evaluator::data_loading_records(double total_cycle, double ssc) {
  const double cpo = cpo_;
  for (std::size_t op = 0; op < memop_of_op_.size(); ++op)
    for (auto& r : rec_[op]) r = {};
  for (const CoreMemory& mem : core_.mems) {
    for (const CorePort& p : mem.ports) {
      l1_tot_.clear();
      l1_min_.clear();
      l1_serves_.clear();
      double B = 0;
      for (const PortServe& s : p.serves) {
        if (s.memop == kO && (s.dir == kTL || s.dir == kFH)) continue;
        const int opi = op_of_memop_[static_cast<std::size_t>(s.memop)];
        if (opi < 0) throw ModelError("KeyError: unlinked memory operand");
        const auto op = static_cast<std::size_t>(opi);
        const Movement& mv = ver_[op][latency_version(op)].mv[static_cast<std::size_t>(s.level)][static_cast<std::size_t>(s.dir)];
        if (mv.count == 0) continue;
        const double real = real_cycles(mv, ports_[op][static_cast<std::size_t>(s.level)][static_cast<std::size_t>(s.dir)]);
        if (mv.count == 1) {
          l1_serves_.push_back(s);
          l1_tot_.push_back(real);
          l1_min_.push_back(std::ceil(ver_[op][latency_version(op)].dbu[1] / static_cast<double>(p.bw_max)));
        } else {
          B += std::ceil(mv.bw_avg / cpo);
          Record& r = rec_[op][static_cast<std::size_t>(s.level)][static_cast<std::size_t>(s.dir)];
          r = {real, p.shared_by_two_inputs, true};
        }
      }
      if (l1_serves_.empty()) continue;
      const double T = std::ceil(total_cycle * cpo) + ssc;
      const double bw = static_cast<double>(p.bw_max);
      const double surplus = std::max(0.0, (bw - B) / bw * T);
      reduce_balanced(l1_tot_.data(), l1_min_.data(), l1_tot_.size(), surplus, order_.data());
      for (std::size_t i = 0; i < l1_serves_.size(); ++i) {
        const PortServe& s = l1_serves_[i];
        const auto op = static_cast<std::size_t>(op_of_memop_[static_cast<std::size_t>(s.memop)]);
        rec_[op][static_cast<std::size_t>(s.level)][static_cast<std::size_t>(s.dir)] = {l1_tot_[i], p.shared_by_two_inputs, true};
      }
    }
  }
}

const Evaluator::Record& Evaluator::loading_record(std::size_t op, std::size_t m, int d) const {
  const Record& r = rec_[op][m][static_cast<std::size_t>(d)];
  if (!r.present) throw ModelError("KeyError: no data-loading record for operand " + layer_.operands[op].name);
  return r;
}

// 3.10 On-loading of the (at most two) inputs: per input the level pairs' loading times, split by
// whether their ports are shared; two inputs take the better of the two overlap orders.
double Evaluator::onloading() const {
  const std::size_t n_ops = memop_of_op_.size();
  double indiv[2] = {0, 0}, shared[2] = {0, 0}, half[2] = {0, 0};
  const std::size_t n_in = std::min<std::size_t>(n_ops - 1, 2);
  for (std::size_t i = 0; i < n_ops - 1; ++i) {
    const std::size_t op = i + 1;
    for (std::size_t m = 0; m + 1 < static_cast<std::size_t>(n_[op]); ++m) {
      const Record& e1 = loading_record(op, m, kFH);
      const Record& e2 = loading_record(op, m + 1, kTL);
      const double L = std::max(e1.value, e2.value);
      if (i >= 2) continue;
      if (!e1.shared && !e2.shared)
        indiv[i] += L;
      else if (e1.shared && e2.shared)
        shared[i] += L;
      else
        half[i] = L;
    }
  }
  if (n_in == 1) return indiv[0];
  if (n_in >= 2) {
    const double p1 = shared[0] + std::max(shared[1] + half[1] + indiv[1], half[0] + indiv[0]);
    const double p2 = shared[1] + std::max(shared[0] + half[0] + indiv[0], half[1] + indiv[1]);
    return std::min(p1, p2);
  }
  return 0;
}

// 3.10 Off-loading of the output: the level pairs' loading times, summed.
double Evaluator::offloading() const {
  double offload = 0;
  for (std::size_t m = 0; m + 1 < static_cast<std::size_t>(n_[0]); ++m)
    offload += std::max(loading_record(0, m, kTH).value, loading_record(0, m + 1, kFL).value);
  return offload;
}

std::vector<std::vector<std::vector<TemporalLoop>>> Evaluator::stationary() const {
  std::vector<std::vector<std::vector<TemporalLoop>>> out(bnd_.size());
  for (std::size_t op = 0; op < bnd_.size(); ++op)
    for (std::size_t m = 0; m + 1 < bnd_[op].size(); ++m)
      out[op].emplace_back(ord_ + bnd_[op][m], ord_ + bnd_[op][m + 1]);
  return out;
}

}  // namespace stream::cost
