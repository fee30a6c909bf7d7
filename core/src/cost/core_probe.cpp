#include "stream/cost/core_probe.hpp"

#include <algorithm>
#include <mutex>
#include <optional>
#include <set>
#include <utility>

#include "stream/cost/core_model.hpp"
#include "stream/cost/cost_model.hpp"
#include "stream/cost/tile.hpp"

namespace stream::cost {

namespace {

using hardware::Core;
using hardware::DataDirection;
using hardware::Memory;
using hardware::Operand;

// ---- the ports -------------------------------------------------------------------------------

// What the evaluator moves at a level (its movement_for): an input is read out towards the array
// at every level and written from above below its top; the output is written by and read back
// towards the array (partial sums) at every level, and read out to and written back from above
// below its top. A direction the model moves without a port aborts the node's estimate.
std::vector<DataDirection> needed_directions(Operand o, bool top) {
  using D = DataDirection;
  if (o != Operand::O) return top ? std::vector<D>{D::RdOutToLow} : std::vector<D>{D::RdOutToLow, D::WrInByHigh};
  if (top) return {D::RdOutToLow, D::WrInByLow};
  return {D::RdOutToLow, D::WrInByLow, D::RdOutToHigh, D::WrInByHigh};
}

std::string direction_words(DataDirection d) {
  switch (d) {
    case DataDirection::RdOutToLow: return "reads towards lower levels";
    case DataDirection::WrInByLow: return "writes from lower levels";
    case DataDirection::RdOutToHigh: return "reads towards the higher level";
    case DataDirection::WrInByHigh: return "writes from the higher level";
  }
  return "?";
}

bool allocated(const Memory& m, Operand o, DataDirection d) {
  for (const auto& p : m.ports)
    for (const auto& a : p.allocation)
      if (a.operand == o && a.direction == d) return true;
  return false;
}

std::optional<CoreProblem> missing_ports(const Core& core, std::size_t mem, Operand o, std::size_t level, bool top) {
  const Memory& m = core.memories[mem];
  std::string missing;
  int count = 0;
  for (DataDirection d : needed_directions(o, top)) {
    if (allocated(m, o, d)) continue;
    const std::string tag = "'" + std::string(hardware::name(o)) + ", " + std::string(hardware::tag(d)) + "'";
    missing += (missing.empty() ? "" : " or ") + direction_words(d) + " (" + tag + ")";
    ++count;
  }
  if (count == 0) return std::nullopt;
  return CoreProblem{core.id, m.where,
                     "core '" + core.name + "': memory level " + std::to_string(level) + " of operand " +
                         std::string(hardware::name(o)) + " (" + m.name + ") has no port allocated for " + missing +
                         "; add " + (count == 1 ? "the tag" : "the tags") +
                         " to the `allocation` of its ports (tl, th on a read or read_write port; fh, fl on a write "
                         "or read_write port), or every Conv, Gemm and MatMul on this core falls back to an "
                         "ideal-cycle estimate"};
}

std::vector<CoreProblem> port_problems(const Core& core) {
  std::vector<CoreProblem> out;
  for (std::size_t mi = 0; mi < core.memories.size(); ++mi)
    for (Operand o : core.memories[mi].operands) {
      const auto levels = core.hierarchy(o);
      const auto level = static_cast<std::size_t>(std::find(levels.begin(), levels.end(), mi) - levels.begin());
      if (auto p = missing_ports(core, mi, o, level, level + 1 == levels.size())) out.push_back(std::move(*p));
    }
  return out;
}

// ---- the probe -------------------------------------------------------------------------------

AxisExpr plain(int d) { return AxisExpr{{{d, 1}}, 0, 0}; }
AxisExpr window(int out, int filter, std::int64_t pad) { return AxisExpr{{{out, 1}, {filter, 1}}, -pad, 0}; }

// A 3x3 convolution as the pipeline hands it over: dims b, ox, oy, fx, fy, c, k (D0..D6), padding 1.
Tile conv_probe(int bits) {
  Tile t{"probe_conv", "Conv", {{"b", 1}, {"ox", 8}, {"oy", 8}, {"fx", 3}, {"fy", 3}, {"c", 32}, {"k", 32}}, {}};
  t.operands.push_back({"O", bits, {1, 32, 8, 8}, {plain(0), plain(6), plain(2), plain(1)}});
  t.operands.push_back({"A", bits, {1, 32, 8, 8}, {plain(0), plain(5), window(2, 4, 1), window(1, 3, 1)}});
  t.operands.push_back({"B", bits, {32, 32, 3, 3}, {plain(6), plain(5), plain(4), plain(3)}});
  return t;
}

// Y[m, n] = A[m, k] B[k, n]: dims m, n, k (D0..D2).
Tile gemm_probe(int bits) {
  Tile t{"probe_gemm", "Gemm", {{"m", 16}, {"n", 64}, {"k", 64}}, {}};
  t.operands.push_back({"O", bits, {16, 64}, {plain(0), plain(1)}});
  t.operands.push_back({"A", bits, {16, 64}, {plain(0), plain(2)}});
  t.operands.push_back({"B", bits, {64, 64}, {plain(2), plain(1)}});
  return t;
}

// Y[b, m, n] = A[b, m, k] B[b, k, n]: the second input is an activation, indexed by the batch too.
Tile matmul_probe(int bits) {
  Tile t{"probe_matmul", "MatMul", {{"b", 2}, {"m", 16}, {"n", 32}, {"k", 32}}, {}};
  t.operands.push_back({"O", bits, {2, 16, 32}, {plain(0), plain(1), plain(2)}});
  t.operands.push_back({"A", bits, {2, 16, 32}, {plain(0), plain(1), plain(3)}});
  t.operands.push_back({"B", bits, {2, 32, 32}, {plain(0), plain(3), plain(2)}});
  return t;
}

struct Probe {
  const char* op_type;
  const char* what;
  Tile (*tile)(int bits);
};

constexpr Probe kProbes[] = {
    {"Conv", "a 3x3 Conv (32 to 32 channels, 8x8 outputs)", conv_probe},
    {"Gemm", "a Gemm (16x64 by 64x64)", gemm_probe},
    {"MatMul", "a batched MatMul (2 x 16x32 by 32x32)", matmul_probe},
};

bool may_run_a_probe(const Core& core) {
  return std::any_of(std::begin(kProbes), std::end(kProbes), [&](const Probe& p) { return core.accepts(p.op_type); });
}

// A memory smaller than one element of an operand it stores: why no loop ordering fits, in words.
std::optional<CoreProblem> element_too_wide(const Core& core, int bits, int accumulator_bits) {
  for (const Memory& m : core.memories)
    for (Operand o : m.operands) {
      const int b = o == Operand::O && accumulator_bits > 0 ? accumulator_bits : bits;
      if (m.size < b)
        return CoreProblem{core.id, m.where,
                           "core '" + core.name + "': memory '" + m.name + "' (" + std::to_string(m.size) +
                               " bits) cannot hold one " + std::to_string(b) + "-bit element of operand " +
                               std::string(hardware::name(o)) +
                               ", so no loop ordering of a Conv, Gemm or MatMul fits; make it at least " +
                               std::to_string(b) + " bits or declare the precision the core computes at in "
                               "`operand_precision`"};
    }
  return std::nullopt;
}

std::string reason_in_words(const std::string& reason) {
  if (reason.rfind("NoValidLoopOrdering", 0) == 0) return "no loop ordering of it fits the core's memories";
  return "the cost model failed (" + reason + ")";
}

std::optional<CoreProblem> probe_problem(const Core& core, const CoreModel& model, int bits) {
  for (const Probe& p : kProbes) {
    if (!core.accepts(p.op_type)) continue;
    CostOptions options;
    options.detail = false;
    const CoreCost c = estimate(p.tile(bits), model, options);
    if (c.status == CostStatus::Ok) continue;
    if (auto wide = element_too_wide(core, bits, model.accumulator_bits)) return wide;
    return CoreProblem{core.id, core.where,
                       "core '" + core.name + "': " + p.what + " at " + std::to_string(bits) +
                           "-bit operands cannot be costed on it, " + reason_in_words(c.reason) + ", so every " +
                           p.op_type + " mapped here would be an ideal-cycle estimate"};
  }
  return std::nullopt;
}

std::vector<CoreProblem> fresh_problems(const Core& core) {
  if (auto ports = port_problems(core); !ports.empty()) return ports;
  try {
    const CoreModel model = CoreModel::from_core(core);
    const bool declared = core.operand_precision && !core.operand_precision->input.empty();
    const int bits = declared ? precision_bits(core.operand_precision->input, core.where) : 8;
    if (auto p = probe_problem(core, model, bits)) return {std::move(*p)};
  } catch (const Error& e) {  // an unknown precision name, a served dimension the array lacks
    return {CoreProblem{core.id, e.where().empty() ? core.where : e.where(), "core '" + core.name + "': " + e.message()}};
  }
  return {};
}

// ---- the cache -------------------------------------------------------------------------------

bool same_place(const Location& a, const Location& b) {
  return a.file == b.file && a.line == b.line && a.column == b.column;
}

// Equal verdicts and equal places for the problems: what the probe reads, and where it points.
bool same_identity(const Core& a, const Core& b) {
  if (!a.same_performance(b) || a.name != b.name || a.operator_types != b.operator_types ||
      a.operand_precision != b.operand_precision || !same_place(a.where, b.where))
    return false;
  for (std::size_t i = 0; i < a.memories.size(); ++i)
    if (!same_place(a.memories[i].where, b.memories[i].where)) return false;
  return true;
}

class ProbeCache {
 public:
  std::vector<CoreProblem> problems(const Core& core) {
    {
      const std::lock_guard lock(mutex_);
      for (const auto& [known, problems] : entries_)
        if (same_identity(known, core)) return problems;
    }
    auto problems = fresh_problems(core);  // outside the lock: cores of other threads probe meanwhile
    const std::lock_guard lock(mutex_);
    if (entries_.size() >= kMaxEntries) entries_.clear();  // a long sweep keeps its memory flat
    entries_.emplace_back(core, problems);
    return problems;
  }

 private:
  static constexpr std::size_t kMaxEntries = 256;
  std::mutex mutex_;
  std::vector<std::pair<Core, std::vector<CoreProblem>>> entries_;
};

}  // namespace

std::vector<CoreProblem> probe_core(const Core& core) {
  if (!core.is_zigzag() || core.kind() != hardware::CoreKind::Compute || !may_run_a_probe(core)) return {};
  static ProbeCache cache;
  auto problems = cache.problems(core);
  for (auto& p : problems) p.core_id = core.id;
  return problems;
}

std::vector<CoreProblem> probe_accelerator(const hardware::Accelerator& acc) {
  std::vector<CoreProblem> out;
  for (const Core& c : acc.cores) {
    auto problems = probe_core(c);
    out.insert(out.end(), std::make_move_iterator(problems.begin()), std::make_move_iterator(problems.end()));
  }
  return out;
}

}  // namespace stream::cost
