#include "stream/hardware/core.hpp"

#include <algorithm>

namespace stream::hardware {

std::string_view name(Operand o) {
  switch (o) {
    case Operand::I1: return "I1";
    case Operand::I2: return "I2";
    case Operand::O: return "O";
  }
  return "?";
}

std::optional<Operand> parse_operand(std::string_view text) {
  if (text == "I1") return Operand::I1;
  if (text == "I2") return Operand::I2;
  if (text == "O") return Operand::O;
  return std::nullopt;
}

std::string_view name(PortType t) {
  switch (t) {
    case PortType::Read: return "read";
    case PortType::Write: return "write";
    case PortType::ReadWrite: return "read_write";
  }
  return "?";
}

std::string_view tag(DataDirection d) {
  switch (d) {
    case DataDirection::WrInByHigh: return "fh";
    case DataDirection::WrInByLow: return "fl";
    case DataDirection::RdOutToHigh: return "th";
    case DataDirection::RdOutToLow: return "tl";
  }
  return "?";
}

bool is_write(DataDirection d) { return d == DataDirection::WrInByHigh || d == DataDirection::WrInByLow; }

std::string_view name(Namespace n) { return n == Namespace::ZigZag ? "zigzag" : "aie2"; }

std::string_view name(CoreKind k) {
  switch (k) {
    case CoreKind::Compute: return "compute";
    case CoreKind::Memory: return "memory";
    case CoreKind::Shim: return "shim";
    case CoreKind::Offchip: return "offchip";
  }
  return "?";
}

std::string CoreType::str() const { return std::string(name(ns)) + "." + std::string(name(kind)); }

bool Memory::stores(Operand o) const { return std::find(operands.begin(), operands.end(), o) != operands.end(); }

namespace {
bool same_memory_performance(const Memory& a, const Memory& b) {
  return a.size == b.size && a.r_cost == b.r_cost && a.w_cost == b.w_cost && a.area == b.area &&
         a.latency == b.latency && a.mem_type == b.mem_type && a.auto_cost_extraction == b.auto_cost_extraction &&
         a.force_double_buffering == b.force_double_buffering && a.operands == b.operands && a.ports == b.ports &&
         a.served_dimensions == b.served_dimensions;
}
}  // namespace

bool Memory::operator==(const Memory& other) const { return name == other.name && same_memory_performance(*this, other); }

std::int64_t OperationalArray::total_unit_count() const {
  std::int64_t n = 1;
  for (std::int64_t s : sizes) n *= s;
  return n;
}

std::int64_t OperationalArray::size_of(std::string_view dimension) const {
  for (std::size_t i = 0; i < dimensions.size() && i < sizes.size(); ++i)
    if (dimensions[i] == dimension) return sizes[i];
  return 0;
}

std::vector<std::size_t> Core::hierarchy(Operand o) const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < memories.size(); ++i)
    if (memories[i].stores(o)) out.push_back(i);
  return out;
}

const Memory* Core::top_memory(Operand o) const {
  for (auto it = memories.rbegin(); it != memories.rend(); ++it)
    if (it->stores(o)) return &*it;
  return nullptr;
}

std::int64_t Core::memory_capacity() const {
  if (is_aie2()) return aie2_memory.capacity;
  const Memory* top = top_memory(Operand::I1);
  return top == nullptr ? 0 : top->size;
}

std::int64_t Core::max_memory_bandwidth(PortType type) const {
  if (is_aie2()) return aie2_memory.bandwidth_max;
  const Memory* top = top_memory(Operand::I1);
  if (top == nullptr) return 0;
  for (const Port& p : top->ports)
    if (p.type == type || p.type == PortType::ReadWrite) return p.bandwidth_max;
  return 0;
}

std::int64_t Core::memory_instances(std::size_t index) const {
  const Memory& m = memories.at(index);
  std::int64_t n = 1;
  const auto& oa = operational_array;
  for (std::size_t d = 0; d < oa.dimensions.size() && d < oa.sizes.size(); ++d) {
    const bool served =
        std::find(m.served_dimensions.begin(), m.served_dimensions.end(), oa.dimensions[d]) != m.served_dimensions.end();
    if (!served) n *= oa.sizes[d];
  }
  return n;
}

std::int64_t Core::total_unit_count() const { return is_aie2() ? 1 : operational_array.total_unit_count(); }

bool Core::accepts(std::string_view op_type) const {
  if (!operator_types) return true;
  return std::find(operator_types->begin(), operator_types->end(), op_type) != operator_types->end();
}

bool Core::same_performance(const Core& other) const {
  if (type != other.type) return false;
  if (is_aie2())
    return aie2_memory == other.aie2_memory && utilization == other.utilization &&
           max_object_fifo_depth == other.max_object_fifo_depth;
  if (!(operational_array == other.operational_array) || dataflows != other.dataflows) return false;
  if (memories.size() != other.memories.size()) return false;
  for (std::size_t i = 0; i < memories.size(); ++i)
    if (!same_memory_performance(memories[i], other.memories[i])) return false;
  return true;
}

}  // namespace stream::hardware
