#include "stream/allocate/allocation_milp.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "infeasibility.hpp"
#include "stream/allocate/mps.hpp"
#include "stream/error.hpp"
#include "stream/schedule/steady_state.hpp"

namespace stream::allocate {

using schedule::LoopEffect;
using schedule::SsKind;
using schedule::SsNode;
using schedule::SsTensor;
using schedule::SteadyState;
using schedule::TransferType;

ReuseLevels reuse_levels(const SsTensor& t, bool double_buffering) {
  ReuseLevels r;
  for (const auto& l : t.loops) {
    if (l.effect == LoopEffect::Absent) continue;
    r.sizes.push_back(l.size);
    r.relevant.push_back(l.effect == LoopEffect::Varying);
  }
  std::int64_t all_relevant = 1;
  for (std::size_t i = 0; i < r.sizes.size(); ++i)
    if (r.relevant[i]) all_relevant *= r.sizes[i];
  // sigma = -1: nothing kept across iterations (two tiles when double buffering has work).
  r.reuse.push_back(1);
  r.tiles.push_back(double_buffering && all_relevant > 1 ? 2 : 1);
  r.descriptors.push_back(1);
  std::int64_t R = 1, TN = 1, BD = 1;
  for (std::size_t i = 0; i < r.sizes.size(); ++i) {
    if (r.relevant[i]) {
      TN *= r.sizes[i];
      BD = 1;
    } else {
      R *= r.sizes[i];
      BD *= r.sizes[i];
    }
    r.reuse.push_back(R);
    r.tiles.push_back(TN);
    r.descriptors.push_back(BD);
  }
  return r;
}

namespace {

bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

bool is_constant(const LinExpr& e) { return e.terms.empty(); }

// The reference's namespace_constraints_for: the aie2 strategy applies when a connected core
// (core_list holds only cores of core_connectivity) has namespace aie2.
bool aie2_strategy(const hardware::Accelerator& acc) {
  const auto& cores = acc.graph_cores();
  return std::any_of(cores.begin(), cores.end(), [&](int c) { return acc.core(c).is_aie2(); });
}

// The reference's DMA-channel cap of a core (context.py:253-261).
double dma_channel_cap(const hardware::Accelerator& acc, int core) {
  const auto& c = acc.core(core);
  if (core == acc.offchip_core_id) return 2;
  if (c.kind() == hardware::CoreKind::Memory) return 6;
  if (c.kind() == hardware::CoreKind::Compute) return 8;
  throw Error("core " + std::to_string(core) + " (" + c.type.str() +
              ") hosts a tensor on chip, but the aie2 DMA-channel caps know only compute (8) and memory (6) cores");
}

class Builder {
 public:
  Builder(const SteadyState& ss, const hardware::Accelerator& acc, const AllocateOptions& opt)
      : ss_(ss), acc_(acc), opt_(opt), sel_(opt.constraints), aie2_(aie2_strategy(acc)) {}

  AllocationMilp build() {
    const std::size_t nt = ss_.tensors.size(), nn = ss_.nodes.size();
    m_.reuse.resize(nt);
    m_.z.resize(nt);
    m_.x.resize(nt);
    m_.y.resize(nn);
    placement_vars();
    plan_vars();
    reuse_vars();
    slot_vars();
    path_coherence();
    link_contention();
    if (sel_.memory_capacity) memory_capacity(); else skip("memory_capacity");
    // Without the aie2 strategy the reference builds these two sums but bounds nothing with them.
    if (sel_.object_fifo_depth) { if (aie2_) object_fifo_depth(); } else skip("object_fifo_depth");
    if (sel_.buffer_descriptors) { if (aie2_) buffer_descriptors(); } else skip("buffer_descriptors");
    if (sel_.dma_channels) dma_channels(); else skip("dma_channels");
    slot_latencies();
    forced_reuse();
    memory_tile_reuse();
    overlap_and_total();
    objectives();
    m_.aie2 = aie2_;
    return std::move(m_);
  }

 private:
  const SteadyState& ss_;
  const hardware::Accelerator& acc_;
  const AllocateOptions& opt_;
  const ConstraintSelection& sel_;
  const bool aie2_;  ///< the reference's aie2 constraint strategy applies (§2.14)
  AllocationMilp m_;
  LinearModel& lm() { return m_.model; }

  // A row without variables is checked now; a false one is an infeasibility found before solving.
  void le(const LinExpr& a, const LinExpr& b, const std::string& n, const std::string& fam) {
    LinExpr d = a - b;
    if (d.terms.empty()) {
      if (d.constant > 1e-9) m_.constant_violations.push_back(fam + ": " + n);
      return;
    }
    lm().add_le(a, b, n, fam);
  }
  void ge(const LinExpr& a, const LinExpr& b, const std::string& n, const std::string& fam) { le(b, a, n, fam); }
  void eq(const LinExpr& a, const LinExpr& b, const std::string& n, const std::string& fam) {
    LinExpr d = a - b;
    if (d.terms.empty()) {
      if (std::abs(d.constant) > 1e-9) m_.constant_violations.push_back(fam + ": " + n);
      return;
    }
    lm().add_eq(a, b, n, fam);
  }

  LinExpr on(std::size_t t, int core) {
    LinExpr e;
    const auto& P = ss_.tensors[t].placements;
    for (std::size_t p = 0; p < P.size(); ++p)
      if (contains(P[p], core)) e += m_.x[t][p];
    return e;
  }
  std::vector<int> candidate_cores(std::size_t t) const {
    std::set<int> s;
    for (const auto& g : ss_.tensors[t].placements) s.insert(g.begin(), g.end());
    return {s.begin(), s.end()};
  }

  void skip(const std::string& family) { m_.skipped_families.push_back(family); }

  // w = a AND b for binary expressions (a constant, or a 0/1 expression of variables); each call
  // makes its own binary, as the reference's families do.
  LinExpr and_expr(const LinExpr& a, const LinExpr& b, const std::string& n) {
    if (is_constant(a)) return a.constant > 0.5 ? b : LinExpr(0.0);
    if (is_constant(b)) return b.constant > 0.5 ? a : LinExpr(0.0);
    Var w = lm().add_binary(n);
    lm().add_le(w, a, n + "_a", "and");
    lm().add_le(w, b, n + "_b", "and");
    lm().add_ge(w, a + b - LinExpr(1.0), n + "_ab", "and");
    return w;
  }

  // u[t,c]: a binary equal to on(t,c), one per (t, c) and shared by the families that need it
  // (TTA:540-553); the constant itself for a tensor whose placement is fixed.
  std::map<std::pair<std::size_t, int>, LinExpr> u_;
  LinExpr u(std::size_t t, int c) {
    const auto key = std::make_pair(t, c);
    if (auto it = u_.find(key); it != u_.end()) return it->second;
    LinExpr e = on(t, c);
    if (!is_constant(e)) {
      const std::string n = "u_" + ss_.tensors[t].name + "_" + std::to_string(c);
      Var v = lm().add_binary(n);
      lm().add_eq(v, e, n, "placement");
      e = v;
    }
    return u_[key] = e;
  }

  std::vector<std::size_t> transfers() const {
    std::vector<std::size_t> r;
    for (std::size_t i = 0; i < ss_.nodes.size(); ++i)
      if (ss_.nodes[i].kind == SsKind::Transfer) r.push_back(i);
    return r;
  }

  void placement_vars() {
    for (std::size_t t = 0; t < ss_.tensors.size(); ++t) {
      const auto& P = ss_.tensors[t].placements;
      if (P.size() <= 1) {
        m_.x[t] = {LinExpr(1.0)};
        continue;
      }
      LinExpr sum;
      for (std::size_t p = 0; p < P.size(); ++p) {
        Var v = lm().add_binary("x_" + ss_.tensors[t].name + "_" + std::to_string(p));
        m_.x[t].push_back(v);
        sum += v;
      }
      lm().add_eq(sum, 1.0, "place_" + ss_.tensors[t].name, "placement");
    }
  }

  void plan_vars() {
    for (std::size_t r = 0; r < ss_.nodes.size(); ++r) {
      const auto& n = ss_.nodes[r];
      if (n.kind != SsKind::Transfer) continue;
      if (n.plans.empty())
        throw Error("transfer '" + n.name + "' has no routing plan", Location{.node = n.name}, ErrorKind::Internal);
      if (n.plans.size() == 1) {
        m_.y[r] = {LinExpr(1.0)};
        continue;
      }
      LinExpr sum;
      for (std::size_t p = 0; p < n.plans.size(); ++p) {
        Var v = lm().add_binary("y_" + n.name + "_" + std::to_string(p));
        m_.y[r].push_back(v);
        sum += v;
      }
      lm().add_eq(sum, 1.0, "path_" + n.name, "path");
    }
  }

  void reuse_vars() {
    for (std::size_t t = 0; t < ss_.tensors.size(); ++t) {
      m_.reuse[t] = reuse_levels(ss_.tensors[t], opt_.double_buffering);
      LinExpr sum;
      for (std::size_t s = 0; s < m_.reuse[t].reuse.size(); ++s) {
        Var v = lm().add_binary("z_" + ss_.tensors[t].name + "_" + std::to_string(static_cast<int>(s) - 1));
        m_.z[t].push_back(v);
        sum += v;
      }
      lm().add_eq(sum, 1.0, "reuse_" + ss_.tensors[t].name, "reuse_choice");
    }
  }

  double ub_ = 0;
  // Per slot, the largest latency its nodes can ask of it (a compute node's active latency, a
  // transfer plan's A), never above ub_. L_s only has lower bounds and the objective grows with
  // it, so an optimal L_s is the largest of them: the tighter bound cuts no optimum, but makes the
  // big-M products of idle_latency far tighter where slots differ by orders of magnitude (a 649
  // variable group of torchvision Swin explored 25,339 nodes with the global bound).
  std::vector<double> slot_ub_;
  void slot_vars() {
    for (const auto& n : ss_.nodes) {
      if (n.kind == SsKind::Compute) ub_ = std::max(ub_, static_cast<double>(n.active_latency));
      if (n.kind == SsKind::Transfer)
        for (const auto& p : n.plans) ub_ = std::max(ub_, static_cast<double>(p.latency));
    }
    slot_ub_.assign(static_cast<std::size_t>(ss_.max_slot + 1), 0.0);
    for (const auto& n : ss_.nodes) {
      if (n.slot < 0) continue;
      double& u = slot_ub_[static_cast<std::size_t>(n.slot)];
      if (n.kind == SsKind::Compute) u = std::max(u, static_cast<double>(n.active_latency));
      if (n.kind == SsKind::Transfer)
        for (const auto& p : n.plans)
          u = std::max(u, static_cast<double>(schedule::active_latency(n.loops, static_cast<double>(p.latency))));
    }
    for (int s = 0; s <= ss_.max_slot; ++s) {
      double& u = slot_ub_[static_cast<std::size_t>(s)];
      u = std::min(u, ub_);
      m_.slot_latency.push_back(lm().add_var("L_" + std::to_string(s), VarKind::Integer, 0, u));
    }
  }

  void path_coherence() {
    for (std::size_t r = 0; r < ss_.nodes.size(); ++r) {
      const auto& n = ss_.nodes[r];
      if (n.kind != SsKind::Transfer) continue;
      for (std::size_t p = 0; p < n.plans.size(); ++p) {
        const auto& plan = n.plans[p];
        const LinExpr& y = m_.y[r][p];
        const std::string tag = n.name + "_" + std::to_string(p);
        if (plan.links.empty()) {
          // An empty plan only makes sense when input and output can sit on a common core.
          for (int to : n.outputs) {
            LinExpr same;
            for (int c : candidate_cores(static_cast<std::size_t>(n.inputs.front()))) {
              const auto oc = candidate_cores(static_cast<std::size_t>(to));
              if (!contains(oc, c)) continue;
              LinExpr a = on(static_cast<std::size_t>(n.inputs.front()), c);
              LinExpr b = on(static_cast<std::size_t>(to), c);
              if (is_constant(a) && is_constant(b)) {
                same += LinExpr(a.constant * b.constant);
              } else if (is_constant(a)) {
                same += a.constant * b;
              } else if (is_constant(b)) {
                same += b.constant * a;
              } else {
                Var w = lm().add_binary("same_" + tag + "_" + std::to_string(c));
                lm().add_le(w, a, "same_a_" + tag, "path_coherence");
                lm().add_le(w, b, "same_b_" + tag, "path_coherence");
                same += w;
              }
            }
            le(y, same, "empty_" + tag, "path_coherence");
          }
          continue;
        }
        for (int c : plan.sources)
          for (int t : n.inputs) le(y, on(static_cast<std::size_t>(t), c), "src_" + tag + "_" + std::to_string(c), "path_coherence");
        for (int c : plan.targets)
          for (int t : n.outputs) le(y, on(static_cast<std::size_t>(t), c), "dst_" + tag + "_" + std::to_string(c), "path_coherence");
      }
    }
  }

  std::vector<std::vector<std::size_t>> slot_transfers_;  ///< transfers_in_slot's index
  // The transfers of each slot, ascending (built once: scanning every node per link and slot was
  // quadratic in a group's size).
  const std::vector<std::size_t>& transfers_in_slot(int slot) {
    if (slot_transfers_.empty()) {
      slot_transfers_.resize(static_cast<std::size_t>(std::max(ss_.max_slot, 0)) + 1);
      for (std::size_t r = 0; r < ss_.nodes.size(); ++r) {
        const auto& n = ss_.nodes[r];
        if (n.kind == SsKind::Transfer && n.slot >= 0 && n.slot <= ss_.max_slot)
          slot_transfers_[static_cast<std::size_t>(n.slot)].push_back(r);
      }
    }
    static const std::vector<std::size_t> none;
    return slot < 0 || slot > ss_.max_slot ? none : slot_transfers_[static_cast<std::size_t>(slot)];
  }

  LinExpr link_activity(int link, int slot) {
    LinExpr act;
    for (std::size_t r : transfers_in_slot(slot)) {
      const auto& n = ss_.nodes[r];
      for (std::size_t p = 0; p < n.plans.size(); ++p)
        if (contains(n.plans[p].links, link)) act += m_.y[r][p];
    }
    return act;
  }

  std::vector<int> links_in_plans() const {
    std::set<int> s;
    for (const auto& n : ss_.nodes)
      for (const auto& p : n.plans) s.insert(p.links.begin(), p.links.end());
    return {s.begin(), s.end()};
  }

  void link_contention() {
    for (int l : links_in_plans())
      for (int s = 0; s <= ss_.max_slot; ++s) {
        LinExpr act = link_activity(l, s);
        if (act.terms.empty() && act.constant == 0) continue;
        le(act, 1.0, "link_" + std::to_string(l) + "_slot_" + std::to_string(s), "link_contention");
      }
  }

  void memory_capacity() {
    std::map<int, LinExpr> load;
    std::map<int, std::vector<std::string>> who;
    for (std::size_t t = 0; t < ss_.tensors.size(); ++t) {
      const auto& ten = ss_.tensors[t];
      if (ten.producer < 0) continue;
      const auto kind = ss_.nodes[static_cast<std::size_t>(ten.producer)].kind;
      if (kind != SsKind::Compute && kind != SsKind::Transfer) continue;
      for (int c : candidate_cores(t)) {
        const LinExpr ut = u(t, c);
        for (std::size_t s = 0; s < m_.z[t].size(); ++s) {
          LinExpr w = and_expr(ut, m_.z[t][s], "mem_" + ten.name + "_" + std::to_string(c) + "_" + std::to_string(s));
          const double bitsv = std::ceil(static_cast<double>(m_.reuse[t].tiles[s]) * static_cast<double>(ten.memory_tile_bits()));
          load[c] += bitsv * w;
        }
        who[c].push_back(ten.name);
      }
    }
    for (auto& [c, e] : load) {
      const double cap = static_cast<double>(acc_.core(c).memory_capacity());
      if (cap <= 0) continue;
      le(e, cap, "capacity_core_" + std::to_string(c), "memory_capacity");
    }
  }

  std::string tag(std::size_t t, int c, std::size_t s) const {
    return ss_.tensors[t].name + "_" + std::to_string(c) + "_" + std::to_string(static_cast<int>(s) - 1);
  }

  // §2.15: the tiles each core receives (transfer outputs only, the receiving buffer), at most
  // the core's object-FIFO depth on aie2 cores.
  void object_fifo_depth() {
    std::map<int, LinExpr> depth;
    for (std::size_t r : transfers())
      for (int to : ss_.nodes[r].outputs) {
        const auto t = static_cast<std::size_t>(to);
        for (int c : candidate_cores(t)) {
          if (c == ss_.offchip_core) continue;
          for (std::size_t s = 0; s < m_.z[t].size(); ++s)
            depth[c] += static_cast<double>(m_.reuse[t].tiles[s]) * and_expr(u(t, c), m_.z[t][s], "fifo_" + tag(t, c, s));
        }
      }
    for (const auto& [c, e] : depth)
      if (acc_.core(c).is_aie2())
        le(e, static_cast<double>(acc_.core(c).max_object_fifo_depth), "aie2_obj_fifo_depth_Core_" + std::to_string(c),
           "object_fifo_depth");
  }

  // §2.16: buffer descriptors per core. A compute tile pays one per tile it holds; a memory (or
  // shim) tile pays BD[t, sigma] at the levels where the transfer's other side (its partner) is
  // not stopped, i.e. still streaming. Bounded by the object-FIFO depth (the schema has no
  // separate limit).
  void buffer_descriptors() {
    std::map<int, LinExpr> bd;
    for (std::size_t r : transfers()) {
      const auto& n = ss_.nodes[r];
      std::vector<std::pair<int, bool>> tensors;  // (tensor, is an output of r)
      for (int t : n.inputs) tensors.emplace_back(t, false);
      for (int t : n.outputs) tensors.emplace_back(t, true);
      for (const auto& [ti, is_output] : tensors) {
        const auto t = static_cast<std::size_t>(ti);
        const auto p = static_cast<std::size_t>(is_output ? n.inputs.front() : n.outputs.front());
        for (int c : candidate_cores(t)) {
          if (c == ss_.offchip_core) continue;
          const bool compute = acc_.core(c).kind() == hardware::CoreKind::Compute;
          if (!compute && m_.z[p].size() < m_.z[t].size())
            throw Error("transfer '" + n.name + "': tensor '" + ss_.tensors[p].name + "' has fewer reuse levels than '" +
                            ss_.tensors[t].name + "' (the buffer-descriptor rule indexes one with the other's levels)",
                        Location{.node = n.name, .operand = ss_.tensors[t].name}, ErrorKind::Internal);
          for (std::size_t s = 0; s < m_.z[t].size(); ++s) {
            const LinExpr w1 = and_expr(u(t, c), m_.z[t][s], "bd_" + tag(t, c, s));
            if (compute) {
              bd[c] += static_cast<double>(m_.reuse[t].tiles[s]) * w1;
              continue;
            }
            const LinExpr active = LinExpr(1.0) - LinExpr(m_.z[p][s]);
            bd[c] += static_cast<double>(m_.reuse[t].descriptors[s]) * and_expr(w1, active, "bd_active_" + tag(t, c, s));
          }
        }
      }
    }
    for (const auto& [c, e] : bd)
      if (acc_.core(c).is_aie2())
        le(e, static_cast<double>(acc_.core(c).max_object_fifo_depth), "aie2_bd_depth_Core_" + std::to_string(c),
           "buffer_descriptors");
  }

  // §2.17: per on-chip core, the transfers writing into it (DMA in) and reading from it (DMA out),
  // counted per transfer; their maxima join the latency objective, and on aie2 each count is
  // capped (compute 8, memory 6), on every core whatever its namespace, as the reference does.
  void dma_channels() {
    std::set<int> cores;
    for (std::size_t t = 0; t < ss_.tensors.size(); ++t)
      for (int c : candidate_cores(t))
        if (c != ss_.offchip_core) cores.insert(c);
    std::map<int, LinExpr> in, out;
    auto count = [&](std::map<int, LinExpr>& into, std::vector<int> tensors) {
      std::sort(tensors.begin(), tensors.end());
      tensors.erase(std::unique(tensors.begin(), tensors.end()), tensors.end());
      for (int t : tensors)
        for (int c : candidate_cores(static_cast<std::size_t>(t)))
          if (cores.count(c)) into[c] += on(static_cast<std::size_t>(t), c);
    };
    for (std::size_t r : transfers()) {
      count(in, ss_.nodes[r].outputs);
      count(out, ss_.nodes[r].inputs);
    }
    m_.max_dma_in = lm().add_var("maxCoreDmaIn", VarKind::Integer, 0, kInf);
    m_.max_dma_out = lm().add_var("maxCoreDmaOut", VarKind::Integer, 0, kInf);
    for (int c : cores) {
      const std::string id = std::to_string(c);
      ge(m_.max_dma_in, in[c], "max_dma_in_Core_" + id, "dma_channels");
      ge(m_.max_dma_out, out[c], "max_dma_out_Core_" + id, "dma_channels");
      if (!aie2_) continue;
      const double cap = dma_channel_cap(acc_, c);
      le(in[c], cap, "aie2_dma_in_Core_" + id, "dma_channels");
      le(out[c], cap, "aie2_dma_out_Core_" + id, "dma_channels");
    }
  }

  // q[r] for plan latency A: sum_sigma z[t_out0, sigma] * A / R[sigma].
  LinExpr transfer_contribution(std::size_t r, double A) {
    const auto t = static_cast<std::size_t>(ss_.nodes[r].outputs.front());
    LinExpr q;
    for (std::size_t s = 0; s < m_.z[t].size(); ++s) q += (A / static_cast<double>(m_.reuse[t].reuse[s])) * LinExpr(m_.z[t][s]);
    return q;
  }

  void slot_latencies() {
    for (std::size_t i = 0; i < ss_.nodes.size(); ++i) {
      const auto& n = ss_.nodes[i];
      if (n.slot < 0) continue;
      const Var L = m_.slot_latency[static_cast<std::size_t>(n.slot)];
      if (n.kind == SsKind::Compute) {
        ge(L, static_cast<double>(n.active_latency), "lat_" + n.name, "slot_latency");
      } else if (n.kind == SsKind::Transfer) {
        for (std::size_t p = 0; p < n.plans.size(); ++p) {
          const double A = static_cast<double>(schedule::active_latency(n.loops, static_cast<double>(n.plans[p].latency)));
          if (A == 0) continue;
          LinExpr q = transfer_contribution(i, A);
          const LinExpr& y = m_.y[i][p];
          const std::string tag = n.name + "_" + std::to_string(p);
          if (is_constant(y)) {
            if (y.constant > 0.5) ge(L, q, "lat_" + tag, "slot_latency");
            continue;
          }
          Var g = lm().add_var("g_" + tag, VarKind::Continuous, 0, A);
          lm().add_le(g, q, "g_q_" + tag, "slot_latency");
          lm().add_le(g, A * y, "g_y_" + tag, "slot_latency");
          lm().add_ge(g, q - A * (LinExpr(1.0) - y), "g_qy_" + tag, "slot_latency");
          lm().add_ge(L, g, "lat_" + tag, "slot_latency");
        }
      }
    }
  }

  static int last_irrelevant(const ReuseLevels& r) {
    int k = -1;
    for (std::size_t i = 0; i < r.relevant.size(); ++i)
      if (!r.relevant[i]) k = static_cast<int>(i);
    return k;
  }

  void force_at_least(std::size_t t, int k, const std::string& n, const std::string& fam) {
    LinExpr sum;
    for (std::size_t s = static_cast<std::size_t>(k + 1); s < m_.z[t].size(); ++s) sum += m_.z[t][s];
    ge(sum, 1.0, n, fam);
  }

  void forced_reuse() {
    for (const auto& n : ss_.nodes) {
      if (n.kind != SsKind::Transfer) continue;
      if (n.transfer_type == TransferType::ComputeToCompute) {
        for (int t : n.outputs) {
          const int k = last_irrelevant(m_.reuse[static_cast<std::size_t>(t)]);
          if (k >= 0) force_at_least(static_cast<std::size_t>(t), k, "force_intermediate_" + ss_.tensors[static_cast<std::size_t>(t)].name, "forced_reuse");
        }
      }
      if (n.transfer_type == TransferType::ComputeToMem) {
        for (int t : n.inputs) {
          const int k = last_irrelevant(m_.reuse[static_cast<std::size_t>(t)]);
          if (k >= 0) force_at_least(static_cast<std::size_t>(t), k, "force_output_" + ss_.tensors[static_cast<std::size_t>(t)].name, "forced_reuse");
        }
        const auto ti = static_cast<std::size_t>(n.inputs.front()), to = static_cast<std::size_t>(n.outputs.front());
        if (m_.z[ti].size() == m_.z[to].size())
          for (std::size_t s = 0; s < m_.z[ti].size(); ++s)
            eq(m_.z[to][s], m_.z[ti][s], "compat_" + n.name + "_" + std::to_string(s), "reuse_compatibility");
      }
    }
  }

  LinExpr level(std::size_t t) const {
    LinExpr e;
    for (std::size_t s = 0; s < m_.z[t].size(); ++s) e += static_cast<double>(s) * LinExpr(m_.z[t][s]);
    return e;
  }

  // §2.18: the memory side of a MEM_TO_COMPUTE transfer holds the tensor at least as long as the
  // compute side; with the aie2 strategy and memory cores present, exactly as long (the object
  // FIFO between them has one depth). No selection switch controls it.
  void memory_tile_reuse() {
    const bool equal = aie2_ && !schedule::staging_memory_cores(acc_, opt_.nb_cols_to_use).empty();
    for (const auto& n : ss_.nodes) {
      if (n.kind != SsKind::Transfer || n.transfer_type != TransferType::MemToCompute) continue;
      const LinExpr a = level(static_cast<std::size_t>(n.inputs.front()));
      for (int to : n.outputs) {
        const std::string row = "compat_" + n.name + "_" + ss_.tensors[static_cast<std::size_t>(to)].name;
        const LinExpr b = level(static_cast<std::size_t>(to));
        if (equal)
          eq(a, b, row, "reuse_compatibility");
        else
          ge(a, b, row, "reuse_compatibility");
      }
    }
  }

  using Activity = std::vector<LinExpr>;  // per slot, how many transfers use the resource

  // Resources whose idle time bounds the overlap: links of any plan, then cores of any compute
  // group (constant activity: 1 in the slots of their nodes).
  std::vector<std::pair<std::string, Activity>> resources() {
    std::vector<std::pair<std::string, Activity>> act;
    for (int l : links_in_plans()) {
      Activity a;
      for (int s = 0; s <= ss_.max_slot; ++s) a.push_back(link_activity(l, s));
      act.emplace_back("link_" + std::to_string(l), std::move(a));
    }
    std::set<int> cores;
    for (const auto& n : ss_.nodes)
      if (n.kind == SsKind::Compute) cores.insert(n.cores.begin(), n.cores.end());
    for (int c : cores) {
      Activity a(static_cast<std::size_t>(ss_.max_slot + 1), LinExpr(0.0));
      for (const auto& n : ss_.nodes)
        if (n.kind == SsKind::Compute && contains(n.cores, c)) a[static_cast<std::size_t>(n.slot)] = LinExpr(1.0);
      act.emplace_back("core_" + std::to_string(c), std::move(a));
    }
    return act;
  }

  double big_m() const { return static_cast<double>(ss_.nodes.size() + 5); }

  // OCCUPANCY (TTA:1174-1186): idle <=> nothing uses the resource in the slot, so every unused
  // slot counts, gaps between uses included. One indicator per slot.
  std::vector<std::vector<LinExpr>> occupancy_idle(const std::string& res, const Activity& a) {
    std::vector<std::vector<LinExpr>> ind(a.size());
    for (std::size_t s = 0; s < a.size(); ++s) {
      if (is_constant(a[s])) {
        ind[s].push_back(LinExpr(a[s].constant < 0.5 ? 1.0 : 0.0));
        continue;
      }
      const std::string tag = res + "_" + std::to_string(s);
      Var idle = lm().add_binary("idle_" + tag);
      // The reference's act <= big_m (1 - idle), written tight: a link carries at most one
      // transfer per slot (link contention), so on integer points the two rows agree.
      lm().add_le(a[s] + LinExpr(idle), 1.0, "idle_hi_" + tag, "overlap");
      lm().add_ge(a[s], LinExpr(1.0) - LinExpr(idle), "idle_lo_" + tag, "overlap");
      ind[s].push_back(idle);
    }
    return ind;
  }

  // SPAN (TTA:1144-1172): for a used resource only the slots before its first use (idleS: nothing
  // up to s) and after its last (idleE: nothing from s on) count; a never-used one has idleS = 1
  // everywhere (idle for the whole iteration). A constant count fixes its indicator: idleS = 1
  // iff nothing up to s; idleE = 0 when something comes later, else = used. The reference's
  // big-M upper rows (pre[s] <= M (1 - idleS), Σ act <= M used, ...) are written as the chains
  // idleS[s] <= idleS[s-1], idleS[s] + act[s] <= 1 (and mirrored for idleE), used >= act[s]:
  // the same integer points, since a link carries at most one transfer per slot, and a much
  // tighter relaxation.
  std::vector<std::vector<LinExpr>> span_idle(const std::string& res, const Activity& a) {
    const double M = big_m();
    LinExpr sum;
    for (const auto& e : a) sum += e;
    LinExpr used = LinExpr(sum.constant > 0.5 ? 1.0 : 0.0);
    if (!is_constant(sum)) {
      Var v = lm().add_binary("used_" + res);
      lm().add_ge(sum, v, "used_lo_" + res, "overlap");
      for (std::size_t s = 0; s < a.size(); ++s)
        if (!is_constant(a[s])) lm().add_ge(v, a[s], "used_hi_" + res + "_" + std::to_string(s), "overlap");
      used = v;
    }
    const std::size_t n = a.size();
    std::vector<LinExpr> start(n), end(n);
    LinExpr pre;
    for (std::size_t s = 0; s < n; ++s) {
      pre += a[s];
      if (is_constant(pre)) {
        start[s] = LinExpr(pre.constant < 0.5 ? 1.0 : 0.0);
        continue;
      }
      const std::string tag = res + "_" + std::to_string(s);
      Var v = lm().add_binary("idleS_" + tag);
      lm().add_le(LinExpr(v) + a[s], 1.0, "idleS_act_" + tag, "overlap");
      if (s > 0 && !(is_constant(start[s - 1]) && start[s - 1].constant > 0.5))
        lm().add_le(v, start[s - 1], "idleS_chain_" + tag, "overlap");
      lm().add_ge(pre, used - M * LinExpr(v), "idleS_lo_" + tag, "overlap");
      lm().add_ge(v, LinExpr(1.0) - used, "idleS_unused_" + tag, "overlap");
      start[s] = v;
    }
    LinExpr suf;
    for (std::size_t k = n; k-- > 0;) {
      suf += a[k];
      if (is_constant(suf)) {
        end[k] = suf.constant < 0.5 ? used : LinExpr(0.0);
        continue;
      }
      const std::string tag = res + "_" + std::to_string(k);
      Var v = lm().add_binary("idleE_" + tag);
      lm().add_le(LinExpr(v) + a[k], 1.0, "idleE_act_" + tag, "overlap");
      if (k + 1 < n && !(is_constant(end[k + 1]) && end[k + 1].constant > 0.5))
        lm().add_le(v, end[k + 1], "idleE_chain_" + tag, "overlap");
      lm().add_ge(suf, used - M * LinExpr(v), "idleE_lo_" + tag, "overlap");
      lm().add_le(v, used, "idleE_used_" + tag, "overlap");
      end[k] = v;
    }
    std::vector<std::vector<LinExpr>> ind(n);
    for (std::size_t s = 0; s < n; ++s) ind[s] = {start[s], end[s]};
    return ind;
  }

  // sum_s sum_ind ind * L_s, each product of a binary and a slot latency linearised (TTA:2042-2082).
  LinExpr idle_latency(const std::string& res, const std::vector<std::vector<LinExpr>>& ind) {
    LinExpr idle_lat;
    for (std::size_t s = 0; s < ind.size(); ++s) {
      const Var L = m_.slot_latency[s];
      for (std::size_t k = 0; k < ind[s].size(); ++k) {
        const LinExpr& i = ind[s][k];
        if (is_constant(i)) {
          if (i.constant > 0.5) idle_lat += L;
          continue;
        }
        const std::string tag = res + "_" + std::to_string(s) + "_" + std::to_string(k);
        const double M = slot_ub_[s];
        Var w = lm().add_var("idlelat_" + tag, VarKind::Continuous, 0, M);
        lm().add_le(w, M * i, "il_a_" + tag, "overlap");
        lm().add_le(w, L, "il_b_" + tag, "overlap");
        lm().add_ge(w, LinExpr(L) - M * (LinExpr(1.0) - i), "il_c_" + tag, "overlap");
        idle_lat += w;
      }
    }
    return idle_lat;
  }

  // The overlap between consecutive iterations is at most every resource's idle time, under the
  // selected pipelining model; total = I x P - (I - 1) x overlap.
  void overlap_and_total() {
    m_.overlap = lm().add_var("overlap", VarKind::Integer, 0, kInf);
    LinExpr sumL;
    for (Var L : m_.slot_latency) sumL += L;
    const bool span = sel_.pipelining == PipeliningModel::Span;
    for (const auto& [res, a] : resources()) {
      const auto ind = span ? span_idle(res, a) : occupancy_idle(res, a);
      lm().add_le(m_.overlap, idle_latency(res, ind), "overlap_" + res, "overlap");
    }
    lm().add_le(m_.overlap, sumL, "overlap_le_iteration", "overlap");
    const double I = static_cast<double>(ss_.iterations);
    m_.total = lm().add_var("total", VarKind::Integer, 0, kInf);
    lm().add_eq(m_.total, I * sumL - (I - 1) * LinExpr(m_.overlap), "total", "total");
  }

  void objectives() {
    LinExpr traffic, buffering;
    for (std::size_t t = 0; t < ss_.tensors.size(); ++t)
      for (std::size_t s = 0; s < m_.z[t].size(); ++s) {
        traffic += (static_cast<double>(ss_.tensors[t].bits) / static_cast<double>(m_.reuse[t].reuse[s])) * LinExpr(m_.z[t][s]);
        buffering += static_cast<double>(m_.reuse[t].tiles[s]) * LinExpr(m_.z[t][s]);
      }
    // §2.17: the largest DMA channel counts break ties of the latency level (on all hardware).
    LinExpr latency = m_.total;
    if (m_.max_dma_in.index >= 0) latency += LinExpr(m_.max_dma_in) + LinExpr(m_.max_dma_out);
    m_.levels = {{"latency", latency}, {"offchip_traffic", traffic}, {"buffering", buffering}};
  }
};

}  // namespace

AllocationMilp build_model(const SteadyState& ss, const hardware::Accelerator& acc, const AllocateOptions& options) {
  return Builder(ss, acc, options).build();
}

namespace {

void record_solve(const LexicographicResult& r, Allocation& a) {
  a.status = r.status;
  a.level_objectives = r.level_objectives;
  for (const auto& lv : r.levels) {
    a.level_bounds.push_back(lv.best_bound);
    a.level_status.push_back(name(lv.status));
    a.nodes_explored += lv.nodes;
    a.simplex_iterations += lv.iterations;
  }
}

// Each solved level's clock, named after its level (r.levels follows m.levels until the first
// level that is not optimal).
void record_level_clocks(const LexicographicResult& r, const AllocationMilp& m, SolveClocks* clocks) {
  if (clocks == nullptr) return;
  for (std::size_t i = 0; i < r.levels.size() && i < m.levels.size(); ++i)
    clocks->solves.push_back({m.levels[i].name, r.levels[i].solve_time_s, name(r.levels[i].status)});
}

// The chosen placement, reuse stop level, reuse factor and tiles on chip of every tensor.
void read_tensor_choices(const SteadyState& ss, const AllocationMilp& m, const std::vector<double>& x, Allocation& a) {
  for (std::size_t t = 0; t < ss.tensors.size(); ++t) {
    int chosen = 0;
    for (std::size_t p = 0; p < m.x[t].size(); ++p)
      if (LinearModel::value(m.x[t][p], x) > 0.5) chosen = static_cast<int>(p);
    a.placement.push_back(chosen);
    int stop = 0;
    for (std::size_t s = 0; s < m.z[t].size(); ++s)
      if (x[static_cast<std::size_t>(m.z[t][s].index)] > 0.5) stop = static_cast<int>(s);
    a.reuse_stop.push_back(stop - 1);
    a.reuse_factor.push_back(m.reuse[t].reuse[static_cast<std::size_t>(stop)]);
    a.tiles_on_chip.push_back(m.reuse[t].tiles[static_cast<std::size_t>(stop)]);
  }
}

// The chosen plan of every transfer and its contribution to its slot (A / R).
void read_transfer_choices(const SteadyState& ss, const AllocationMilp& m, const std::vector<double>& x, Allocation& a) {
  a.plan.assign(ss.nodes.size(), -1);
  a.transfer_contribution.assign(ss.nodes.size(), 0.0);
  for (std::size_t i = 0; i < ss.nodes.size(); ++i)
    for (std::size_t p = 0; p < m.y[i].size(); ++p)
      if (LinearModel::value(m.y[i][p], x) > 0.5) a.plan[i] = static_cast<int>(p);
  for (std::size_t i = 0; i < ss.nodes.size(); ++i) {
    const auto& n = ss.nodes[i];
    if (n.kind != SsKind::Transfer || a.plan[i] < 0) continue;
    const double A = static_cast<double>(
        schedule::active_latency(n.loops, static_cast<double>(n.plans[static_cast<std::size_t>(a.plan[i])].latency)));
    a.transfer_contribution[i] = A / static_cast<double>(a.reuse_factor[static_cast<std::size_t>(n.outputs.front())]);
  }
}

void read_solution(const SteadyState& ss, const AllocationMilp& m, const std::vector<double>& x, Allocation& a) {
  a.total_latency = std::llround(x[static_cast<std::size_t>(m.total.index)]);
  a.overlap = std::llround(x[static_cast<std::size_t>(m.overlap.index)]);
  if (m.max_dma_in.index >= 0) {
    a.max_dma_in = std::llround(x[static_cast<std::size_t>(m.max_dma_in.index)]);
    a.max_dma_out = std::llround(x[static_cast<std::size_t>(m.max_dma_out.index)]);
  }
  for (Var L : m.slot_latency) {
    a.slot_latency.push_back(std::llround(x[static_cast<std::size_t>(L.index)]));
    a.latency_per_iteration += a.slot_latency.back();
  }
  read_tensor_choices(ss, m, x, a);
  read_transfer_choices(ss, m, x, a);
}

}  // namespace

Allocation solve(const SteadyState& ss, const hardware::Accelerator& acc, const MilpSolver& solver,
                 const AllocateOptions& options, SolveClocks* clocks) {
  AllocationMilp m = build_model(ss, acc, options);
  Allocation a;
  a.iterations = ss.iterations;
  const auto& lm = m.model;
  a.size = {lm.num_vars(), lm.count(VarKind::Binary), lm.count(VarKind::Integer), lm.count(VarKind::Continuous),
            lm.num_rows(), lm.num_nonzeros()};
  for (const auto& l : m.levels) a.level_names.push_back(l.name);
  LexicographicResult r;
  // A model the capacity bound proves infeasible is not solved (a huge fused group's solve is what
  // the memory fallback would wait on, only to learn what the bound already says).
  const CapacityBound bound = capacity_bound(ss, m);
  a.capacity_proved = m.constant_violations.empty() && capacity_proved_infeasible(m, acc, bound);
  if (m.constant_violations.empty() && !a.capacity_proved) {
    r = options.latency_level_only ? solve_lexicographic(m.model, {m.levels.front()}, solver, options.solve)
                                   : solve_lexicographic(m.model, m.levels, solver, options.solve);
  } else {
    r.status = SolveStatus::Infeasible;
  }
  record_solve(r, a);
  record_level_clocks(r, m, clocks);
  if (!r.values.empty()) {
    read_solution(ss, m, r.values, a);
    return a;
  }
  diagnose(acc, m, solver, bound, options.diagnosis, a, clocks);
  if (options.mps_on_failure) a.mps = mps_text(m.model, m.levels.front().expr);
  return a;
}

}  // namespace stream::allocate
