#include "stream/cost/core_model.hpp"

#include <algorithm>

#include "stream/error.hpp"
#include "stream/hardware/core.hpp"
#include "stream/ir/dtype.hpp"

namespace stream::cost {

const char* dir_name(int dir) {
  static const char* const names[] = {"RD_OUT_TO_LOW", "WR_IN_BY_LOW", "RD_OUT_TO_HIGH", "WR_IN_BY_HIGH"};
  return names[dir];
}

namespace {

int memop_index(hardware::Operand o) {
  switch (o) {
    case hardware::Operand::I1: return kI1;
    case hardware::Operand::I2: return kI2;
    case hardware::Operand::O: return kO;
  }
  return kO;
}

int dir_index(hardware::DataDirection d) {
  switch (d) {
    case hardware::DataDirection::RdOutToLow: return kTL;
    case hardware::DataDirection::WrInByLow: return kFL;
    case hardware::DataDirection::RdOutToHigh: return kTH;
    case hardware::DataDirection::WrInByHigh: return kFH;
  }
  return kTL;
}

}  // namespace

int precision_bits(const std::string& text, const Location& where) {
  if (text == "fp64") return 64;
  if (text == "fp32") return 32;
  if (text == "fp16") return 16;
  if (text == "fp8" || text == "f8") return 8;
  if (text == "fp4" || text == "f4") return 4;
  if (auto t = parse_dtype(text)) return bits(*t);
  throw Error("unknown precision '" + text + "'", where);
}

int CoreModel::memop_count() const {
  int n = 0;
  for (int m = 0; m < kNumMemOps; ++m) n += has_memop(m) ? 1 : 0;
  return n;
}

const CorePort* CoreModel::port(int memop, int level, int dir) const {
  const PortRef& r = port_of[static_cast<std::size_t>(memop)][static_cast<std::size_t>(level)][static_cast<std::size_t>(dir)];
  if (r.mem < 0) return nullptr;
  return &mems[static_cast<std::size_t>(r.mem)].ports[static_cast<std::size_t>(r.port)];
}

CoreModel CoreModel::from_core(const hardware::Core& core) {
  CoreModel cm;
  cm.name = core.name;
  cm.oa_names = core.operational_array.dimensions;
  cm.oa_sizes = core.operational_array.sizes;
  cm.unit_energy = core.operational_array.unit_energy;
  cm.total_units = 1;
  for (auto s : cm.oa_sizes) cm.total_units *= s;
  for (std::size_t mi = 0; mi < core.memories.size(); ++mi) {
    const hardware::Memory& m = core.memories[mi];
    CoreMemory cmem;
    cmem.name = m.name;
    cmem.size = static_cast<double>(m.size);
    cmem.r_cost = m.r_cost.value_or(0.0);
    cmem.w_cost = m.w_cost.value_or(0.0);
    bool has_lower = false;
    for (auto o : m.operands) {
      const int op = memop_index(o);
      cmem.memops.push_back(op);
      if (!cm.levels[static_cast<std::size_t>(op)].empty()) has_lower = true;
      cmem.level_of[static_cast<std::size_t>(op)] = static_cast<int>(cm.levels[static_cast<std::size_t>(op)].size());
      cm.levels[static_cast<std::size_t>(op)].push_back(static_cast<int>(mi));
      cm.port_of[static_cast<std::size_t>(op)].push_back({});
    }
    cmem.inner = !has_lower;
    for (const auto& sd : m.served_dimensions) {
      auto it = std::find(cm.oa_names.begin(), cm.oa_names.end(), sd);
      if (it == cm.oa_names.end())
        throw Error("memory '" + m.name + "' serves unknown array dimension " + sd, m.where);
      cmem.served_oa.push_back(static_cast<int>(it - cm.oa_names.begin()));
    }
    std::sort(cmem.served_oa.begin(), cmem.served_oa.end());
    for (const auto& p : m.ports) {
      CorePort cp;
      cp.name = p.name;
      cp.bw_min = p.bandwidth_min;
      cp.bw_max = p.bandwidth_max;
      bool i1 = false, i2 = false;
      for (const auto& a : p.allocation) {
        const int op = memop_index(a.operand);
        const int lvl = cmem.level_of[static_cast<std::size_t>(op)];
        if (lvl < 0)
          throw Error("memory '" + m.name + "' port '" + p.name + "' allocates an operand the memory does not hold",
                      m.where);
        cp.serves.push_back({op, lvl, dir_index(a.direction)});
        i1 = i1 || op == kI1;
        i2 = i2 || op == kI2;
      }
      cp.shared_by_two_inputs = i1 && i2;
      cmem.ports.push_back(std::move(cp));
    }
    cm.mems.push_back(std::move(cmem));
  }
  for (std::size_t mi = 0; mi < cm.mems.size(); ++mi) {
    const CoreMemory& cmem = cm.mems[mi];
    for (std::size_t pi = 0; pi < cmem.ports.size(); ++pi)
      for (const auto& s : cmem.ports[pi].serves) {
        PortRef& ref = cm.port_of[static_cast<std::size_t>(s.memop)][static_cast<std::size_t>(s.level)][static_cast<std::size_t>(s.dir)];
        if (ref.mem < 0) ref = {static_cast<int>(mi), static_cast<int>(pi)};
      }
  }
  if (core.operand_precision && !core.operand_precision->accumulator.empty())
    cm.accumulator_bits = precision_bits(core.operand_precision->accumulator, core.where);
  cm.dataflows.resize(cm.oa_names.size());
  for (const auto& df : core.dataflows) {
    auto it = std::find(cm.oa_names.begin(), cm.oa_names.end(), df.array_dimension);
    if (it == cm.oa_names.end()) continue;
    for (const auto& u : df.unrolling)
      cm.dataflows[static_cast<std::size_t>(it - cm.oa_names.begin())].emplace_back(u.layer_dim, u.factor);
  }
  return cm;
}

}  // namespace stream::cost
