#include "stream/cost/cost_model.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <new>
#include <optional>

#include "stream/cost/layer.hpp"
#include "stream/cost/loma.hpp"

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

namespace {

std::int64_t tile_macs(const Tile& tile) {
  std::int64_t macs = 1;
  for (const auto& d : tile.dims) macs *= d.size;
  return macs;
}

// Why the core's memory operands cannot take a node of `n_tensors` tensors (Stream's assertion
// before ZigZag, then ZigZag's KeyError on an unlinked memory operand), or nothing.
std::optional<std::string> memory_operand_problem(int n_tensors, const CoreModel& core, const std::string& assertion) {
  if (n_tensors > core.memop_count() || !core.has_memop(kI1) || !core.has_memop(kI2) || !core.has_memop(kO))
    return assertion;
  const int m = unlinked_memop(n_tensors, core);
  if (m >= 0) return std::string("KeyError: ") + (m == kI1 ? "I1" : m == kI2 ? "I2" : "O");
  return std::nullopt;
}

// The checks that need no layer: a cheap early exit (the stream_error check on the axes comes
// first, as in Stream, so they apply only to axes Stream can describe).
std::optional<std::string> tile_problem(const Tile& tile, const CoreModel& core) {
  // The memory operands link one output (O) and up to two inputs: a second output (TopK's indices,
  // an LSTM cell's c) would be costed as an input, so such a node takes the fallback.
  if (std::count_if(tile.operands.begin(), tile.operands.end(), [](const TileOperand& o) { return o.role == "O"; }) > 1)
    return "the node has several outputs; the per-core model costs one";
  if (!axes_supported(tile)) return std::nullopt;
  return memory_operand_problem(static_cast<int>(tile.operands.size()), core, "AssertionError");
}

// The memory operand each layer operand links to: O, then I1, then I2.
std::vector<int> memory_operands_of(int n_tensors) {
  std::vector<int> memop_of_op{kO};
  for (int i = 1; i < n_tensors; ++i) memop_of_op.push_back(i == 1 ? kI1 : kI2);
  return memop_of_op;
}

void record_best(CoreCost& result, MappingCost best, int cycles_per_op) {
  result.status = CostStatus::Ok;
  result.cycles_per_op = cycles_per_op;
  result.latency_total = best.latency_total2;
  result.energy_total = best.energy_total;
  result.ideal_cycle = best.ideal_cycle;
  result.ideal_temporal_cycle = best.ideal_temporal_cycle;
  result.mac_spatial_utilization = best.ideal_cycle / best.ideal_temporal_cycle;
  result.best = std::move(best);
}

// ZigZag's steps for one layer on one core: the spatial mapping, LOMA's temporal search at one
// cycle per operation, and the re-evaluation of the best ordering at the operator's own cycles per
// op (an exact, case-sensitive match, as Stream does).
void cost_layer(const Layer& layer, const CoreModel& core, const std::string& op_type, const CostOptions& options,
                CoreCost& result) {
  const int n_tensors = static_cast<int>(layer.operands.size());
  const std::vector<int> memop_of_op = memory_operands_of(n_tensors);
  const SpatialMapping sm = generate_spatial_mapping(layer, core, memop_of_op);
  std::vector<OperandSpatial> frac, integer;
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
    set_fallback(result, layer, core, op_type,
                 "NoValidLoopOrderingFoundException: the operands cannot fit the memories in any loop ordering");
    return;
  }
  LomaResult search = loma_search(lpfs, allocator, evaluator, options.time_budget_s);
  result.orderings_visited = search.orderings_visited;
  result.orderings_evaluated = search.orderings_evaluated;
  result.search_cut = search.search_cut;
  if (!search.found) {
    set_fallback(result, layer, core, op_type,
                 search.search_cut ? "time budget exhausted before a valid loop ordering was found"
                                   : "NoValidLoopOrderingFoundException: no loop ordering fits the memories");
    return;
  }
  const int cpo = is_slow_op(op_type) ? 4 : 1;
  if (cpo != 1) {
    Evaluator final_eval(layer, core, memop_of_op, frac, integer, cpo);
    final_eval.evaluate(search.ordering, search.allocation, search.cost, options.detail);
    if (options.detail) result.temporal_mapping = final_eval.stationary();
    final_eval.memory_bits(result.memory_bits);
  } else {
    // Once more on the chosen ordering: the search's last evaluation was another one's, and the
    // memory sizes are read off the evaluator.
    MappingCost again;
    evaluator.evaluate(search.ordering, search.allocation, options.detail ? search.cost : again, options.detail);
    if (options.detail) result.temporal_mapping = evaluator.stationary();
    evaluator.memory_bits(result.memory_bits);
  }
  record_best(result, std::move(search.cost), cpo);
  if (options.detail) {
    result.spatial_mapping = sm;
    result.spatial_mapping_text = sm.str(core);
  }
}

}  // namespace

CoreCost estimate(const Tile& tile, const CoreModel& core, const CostOptions& options) {
  CoreCost result;
  if (auto problem = tile_problem(tile, core)) {
    set_fallback(result, tile_macs(tile), core, tile.op_type, std::move(*problem));
    return result;
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
  const int n_tensors = static_cast<int>(layer.operands.size());
  if (auto problem = memory_operand_problem(
          n_tensors, core, "AssertionError: memory operand links (node has " + std::to_string(n_tensors) + " tensors)")) {
    set_fallback(result, layer, core, tile.op_type, std::move(*problem));
    return result;
  }
  try {
    cost_layer(layer, core, tile.op_type, options, result);
  } catch (const std::bad_alloc&) {  // out of memory is no reason for an estimate
    throw;
  } catch (const std::exception& e) {
    set_fallback(result, layer, core, tile.op_type, e.what());
  }
  return result;
}

}  // namespace stream::cost
