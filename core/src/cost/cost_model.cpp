#include "stream/cost/cost_model.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>

#include "stream/cost/layer.hpp"
#include "stream/cost/loop_factors.hpp"
#include "stream/cost/memory_allocator.hpp"

namespace stream::cost {

const char* status_name(CostStatus s) {
  switch (s) {
    case CostStatus::Ok: return "ok";
    case CostStatus::Fallback: return "fallback";
    case CostStatus::StreamError: return "stream_error";
  }
  return "?";
}

namespace {

bool is_slow_op(const std::string& t) { return t == "silu" || t == "sigmoid" || t == "exp"; }

void set_fallback(CoreCost& c, std::int64_t macs, const CoreModel& core, const std::string& op_type, std::string reason) {
  const int cc = fallback_cycles_per_op(op_type);
  const auto units = static_cast<double>(std::max<std::int64_t>(core.total_units, 1));
  const double cycles = std::ceil(static_cast<double>(macs) / units) * cc;
  c.status = CostStatus::Fallback;
  c.reason = std::move(reason);
  c.latency_total = c.ideal_cycle = c.ideal_temporal_cycle = cycles;
  c.energy_total = 0;
  c.mac_spatial_utilization = 1;
  c.cycles_per_op = cc;
}

void set_fallback(CoreCost& c, const Layer& layer, const CoreModel& core, const std::string& op_type, std::string reason) {
  set_fallback(c, layer.macs, core, op_type, std::move(reason));
}

// Every axis has a form Stream can describe (see Layer::from_tile).
bool axes_supported(const Tile& t) {
  for (const auto& o : t.operands)
    for (const auto& a : o.axes) {
      const bool plain = a.terms.size() == 1 && a.terms[0].coef == 1;
      const bool window = a.terms.size() == 2 && a.constant <= 0;
      if (!plain && !window) return false;
    }
  return true;
}

// Which memory operand is left without a layer operand, or -1. Inputs link to I1, I2 in order.
int unlinked_memop(int n_tensors, const CoreModel& core) {
  for (int m = 0; m < kNumMemOps; ++m) {
    const bool linked = m == kO || (m == kI1 && n_tensors >= 2) || (m == kI2 && n_tensors >= 3);
    if (core.has_memop(m) && !linked) return m;
  }
  return -1;
}

}  // namespace

int fallback_cycles_per_op(const std::string& op_type) {
  std::string t = op_type;
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return is_slow_op(t) ? 4 : 1;
}

CoreCost estimate(const Tile& tile, const CoreModel& core, const CostOptions& options) {
  CoreCost result;
  // The memory operands link one output (O) and up to two inputs: a second output (TopK's indices,
  // an LSTM cell's c) would be costed as an input, so such a node takes the fallback.
  if (std::count_if(tile.operands.begin(), tile.operands.end(), [](const TileOperand& o) { return o.role == "O"; }) > 1) {
    std::int64_t macs = 1;
    for (const auto& d : tile.dims) macs *= d.size;
    set_fallback(result, macs, core, tile.op_type, "the node has several outputs; the per-core model costs one");
    return result;
  }
  // Nodes that fail Stream's memory-operand checks need no layer at all (a cheap early exit; the
  // stream_error check on the axes comes first, as in Stream).
  const int n_tiles_tensors = static_cast<int>(tile.operands.size());
  if (axes_supported(tile)) {
    std::int64_t macs = 1;
    for (const auto& d : tile.dims) macs *= d.size;
    if (n_tiles_tensors > core.memop_count() || !core.has_memop(kI1) || !core.has_memop(kI2) || !core.has_memop(kO)) {
      set_fallback(result, macs, core, tile.op_type, "AssertionError");
      return result;
    }
    const int m = unlinked_memop(n_tiles_tensors, core);
    if (m >= 0) {
      set_fallback(result, macs, core, tile.op_type, m == kI1 ? "KeyError: I1" : m == kI2 ? "KeyError: I2" : "KeyError: O");
      return result;
    }
  }
  Layer layer;
  try {
    layer = Layer::from_tile(tile);
  } catch (const StreamLayerError& e) {
    result.status = CostStatus::StreamError;
    result.reason = std::string("NotImplementedError: ") + e.what();
    return result;
  }
  // The seed's rule: partial sums at the core's accumulator precision when its file declares one
  // (the output itself keeps its own width: O_final).
  if (core.accumulator_bits > 0) layer.operands[0].precision = core.accumulator_bits;
  if (options.detail)
    for (const auto& o : layer.operands) result.operand_names.push_back(o.name);

  // Stream's checks before ZigZag, then the memory-operand links ZigZag needs for every memory
  // operand of the core (an unlinked one raises KeyError inside ZigZag).
  const int n_tensors = static_cast<int>(layer.operands.size());
  if (n_tensors > core.memop_count() || !core.has_memop(kI1) || !core.has_memop(kI2) || !core.has_memop(kO)) {
    set_fallback(result, layer, core, tile.op_type, "AssertionError: memory operand links (node has " +
                                                        std::to_string(n_tensors) + " tensors)");
    return result;
  }
  std::vector<int> memop_of_op{kO};
  for (int i = 1; i < n_tensors; ++i) memop_of_op.push_back(i == 1 ? kI1 : kI2);
  for (int m = 0; m < kNumMemOps; ++m)
    if (core.has_memop(m) && std::find(memop_of_op.begin(), memop_of_op.end(), m) == memop_of_op.end()) {
      set_fallback(result, layer, core, tile.op_type, std::string("KeyError: ") + (m == kI1 ? "I1" : m == kI2 ? "I2" : "O"));
      return result;
    }

  try {
    const SpatialMapping sm = generate_spatial_mapping(layer, core, memop_of_op);
    std::vector<OperandSpatial> frac, integer;
    frac.reserve(static_cast<std::size_t>(n_tensors));
    integer.reserve(static_cast<std::size_t>(n_tensors));
    for (int op = 0; op < n_tensors; ++op) {
      frac.push_back(convert_spatial_mapping(layer, core, sm, op, memop_of_op[static_cast<std::size_t>(op)], false));
      integer.push_back(convert_spatial_mapping(layer, core, sm, op, memop_of_op[static_cast<std::size_t>(op)], true));
    }
    const auto loops = temporal_loops(layer, frac[1]);
    const auto lpfs = loop_prime_factors(loops, options.lpf_limit);
    result.orderings_total = ordering_count(lpfs);

    MemoryAllocator allocator(layer, core, memop_of_op, frac, options.even_mapping);
    Evaluator evaluator(layer, core, memop_of_op, frac, integer, 1);
    if (!allocator.can_fit_some_ordering(loops)) {
      set_fallback(result, layer, core, tile.op_type,
                   "NoValidLoopOrderingFoundException: the operands cannot fit the memories in any loop ordering");
      return result;
    }
    MultisetPermutations perms(lpfs);
    Allocation alloc, best_alloc;
    std::vector<TemporalLoop> best_ordering;
    MappingCost cost, best;
    bool found = false;
    const auto start = std::chrono::steady_clock::now();
    do {
      ++result.orderings_visited;
      if (options.time_budget_s > 0 && (result.orderings_visited & 15) == 0) {
        const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (el > options.time_budget_s) {
          result.search_cut = true;
          break;
        }
      }
      const auto& ordering = perms.current();
      if (!allocator.allocate(ordering, alloc)) continue;
      evaluator.evaluate(ordering, alloc, cost, false);
      ++result.orderings_evaluated;
      if (!found || cost.latency_total2 < best.latency_total2 ||
          (cost.latency_total2 == best.latency_total2 && cost.energy_total < best.energy_total)) {
        best = cost;
        best_ordering = ordering;
        best_alloc = alloc;
        found = true;
      }
    } while (perms.next());
    if (!found) {
      set_fallback(result, layer, core, tile.op_type,
                   result.search_cut ? "time budget exhausted before a valid loop ordering was found"
                                     : "NoValidLoopOrderingFoundException: no loop ordering fits the memories");
      return result;
    }
    // Re-evaluation with the operator's cycles per op (exact, case-sensitive match as Stream does).
    const int cpo = is_slow_op(tile.op_type) ? 4 : 1;
    if (cpo != 1) {
      Evaluator final_eval(layer, core, memop_of_op, frac, integer, cpo);
      final_eval.evaluate(best_ordering, best_alloc, best, options.detail);
      if (options.detail) result.temporal_mapping = final_eval.stationary();
    } else if (options.detail) {
      evaluator.evaluate(best_ordering, best_alloc, best, true);
      result.temporal_mapping = evaluator.stationary();
    }
    result.status = CostStatus::Ok;
    result.cycles_per_op = cpo;
    result.latency_total = best.latency_total2;
    result.energy_total = best.energy_total;
    result.ideal_cycle = best.ideal_cycle;
    result.ideal_temporal_cycle = best.ideal_temporal_cycle;
    result.mac_spatial_utilization = best.ideal_cycle / best.ideal_temporal_cycle;
    if (options.detail) {
      result.spatial_mapping = sm;
      result.spatial_mapping_text = sm.str(core);
    }
    result.best = std::move(best);
  } catch (const std::exception& e) {
    set_fallback(result, layer, core, tile.op_type, e.what());
  }
  return result;
}

}  // namespace stream::cost
