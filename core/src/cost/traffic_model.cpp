#include "stream/cost/traffic_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "stream/hardware/core.hpp"

namespace stream::cost {

using hardware::DataDirection;
using hardware::Operand;

std::int64_t operand_elements(const TileOperand& op, const Tile& tile) {
  std::int64_t elements = 1;
  for (std::size_t a = 0; a < op.axes.size(); ++a) {
    const AxisExpr& axis = op.axes[a];
    std::int64_t span = 1;
    for (const auto& t : axis.terms) {
      const auto d = static_cast<std::size_t>(t.dim);
      const std::int64_t size = d < tile.dims.size() ? tile.dims[d].size : 1;
      span += std::abs(t.coef) * (size - 1);
    }
    if (axis.window_size > 0) span = std::min(span, axis.window_size);
    if (a < op.tensor_shape.size() && op.tensor_shape[a] > 0) span = std::min(span, op.tensor_shape[a]);
    elements *= std::max<std::int64_t>(span, 1);
  }
  return elements;
}

namespace {

// The core's memory operand for tile operand `role` ("O", "A", "B", ...), as the per-core model
// links them; none when the core holds no such operand.
std::optional<Operand> memory_operand(const hardware::Core& core, const std::string& role) {
  if (role == "O") return core.hierarchy(Operand::O).empty() ? std::nullopt : std::optional(Operand::O);
  std::vector<Operand> inputs;
  for (Operand o : {Operand::I1, Operand::I2})
    if (!core.hierarchy(o).empty()) inputs.push_back(o);
  if (inputs.empty() || role.size() != 1 || role[0] < 'A') return std::nullopt;
  return inputs[static_cast<std::size_t>(role[0] - 'A') % inputs.size()];
}

bool port_fits(hardware::PortType type, DataDirection d) {
  if (type == hardware::PortType::ReadWrite) return true;
  return (type == hardware::PortType::Write) == hardware::is_write(d);
}

// The port carrying `operand` in direction `d` at memory `m`: the allocated one, else the first
// of a fitting type (a file without allocation lines still moves its data somewhere); -1: none.
int port_index(const hardware::Memory& m, Operand operand, DataDirection d) {
  for (std::size_t p = 0; p < m.ports.size(); ++p)
    for (const auto& a : m.ports[p].allocation)
      if (a.operand == operand && a.direction == d) return static_cast<int>(p);
  for (std::size_t p = 0; p < m.ports.size(); ++p)
    if (port_fits(m.ports[p].type, d)) return static_cast<int>(p);
  return -1;
}

// ZigZag's word count for `bits` through a port (evaluation.cpp): whole bandwidth_min beats, in
// bandwidth_max words.
double port_words(double bits, const hardware::Port& port) {
  const auto bmax = static_cast<double>(port.bandwidth_max > 0 ? port.bandwidth_max : port.bandwidth_min);
  const auto bmin = static_cast<double>(port.bandwidth_min > 0 ? port.bandwidth_min : port.bandwidth_max);
  if (bmax <= 0) return 0;
  return std::ceil(bits / bmin) * bmin / bmax;
}

// Sums the modelled moves: energy as they come, words per (memory, port) for the bound.
class Traffic {
 public:
  explicit Traffic(const hardware::Core& core) : core_(core) {}

  void move(std::size_t mem, Operand operand, DataDirection d, double bits) {
    const hardware::Memory& m = core_.memories[mem];
    const int p = port_index(m, operand, d);
    if (p < 0 || bits <= 0) return;
    const double words = port_words(bits, m.ports[static_cast<std::size_t>(p)]);
    energy_ += words * (hardware::is_write(d) ? m.w_cost.value_or(0.0) : m.r_cost.value_or(0.0));
    words_[{mem, p}] += words;
  }

  // Every level of `operand` once: inputs come down from the top, the output goes up to it.
  void through_hierarchy(Operand operand, double bits) {
    const auto levels = core_.hierarchy(operand);
    const bool output = operand == Operand::O;
    for (std::size_t i = 0; i < levels.size(); ++i) {
      const bool top = i + 1 == levels.size();
      move(levels[i], operand, output ? DataDirection::WrInByLow : DataDirection::RdOutToLow, bits);
      if (!top) move(levels[i], operand, output ? DataDirection::RdOutToHigh : DataDirection::WrInByHigh, bits);
    }
  }

  [[nodiscard]] double energy() const { return energy_; }

  [[nodiscard]] double busiest_port_cycles() const {
    double cycles = 0;
    for (const auto& [port, words] : words_) {
      const auto instances = static_cast<double>(std::max<std::int64_t>(core_.memory_instances(port.first), 1));
      cycles = std::max(cycles, std::ceil(words / instances));
    }
    return cycles;
  }

 private:
  const hardware::Core& core_;
  double energy_ = 0;
  std::map<std::pair<std::size_t, int>, double> words_;  // ordered: the sums do not depend on hashing
};

}  // namespace

TrafficCost traffic_cost(const Tile& tile, const hardware::Core& core) {
  TrafficCost c;
  c.operations = 1;
  for (const auto& d : tile.dims) c.operations *= static_cast<double>(d.size);
  c.op_energy = c.operations * core.operational_array.unit_energy;
  Traffic traffic(core);
  for (const auto& op : tile.operands)
    if (const auto operand = memory_operand(core, op.role))
      traffic.through_hierarchy(*operand, static_cast<double>(operand_elements(op, tile)) * op.precision_bits);
  c.memory_energy = traffic.energy();
  c.port_cycles = traffic.busiest_port_cycles();
  return c;
}

}  // namespace stream::cost
