#include "stream/pipeline/memory_accesses.hpp"

#include <map>
#include <set>

namespace stream::pipeline {

const char* name(AccessRole role) { return role == AccessRole::Source ? "source" : "target"; }

const CoreMemoryAccesses* MemoryAccesses::core(int id) const {
  for (const auto& c : cores)
    if (c.core == id) return &c;
  return nullptr;
}

namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

const std::vector<int>& chosen_placement(const schedule::SsTensor& t, const allocate::Allocation& a, std::size_t index) {
  const std::size_t p = index < a.placement.size() ? static_cast<std::size_t>(a.placement[index]) : 0;
  return t.placements.at(p < t.placements.size() ? p : 0);
}

// The accesses of every core a transfer reads from or writes to, by core id.
class AccessTally {
 public:
  explicit AccessTally(const hardware::Accelerator& acc) : acc_(acc) {}

  void record(int core, const schedule::SsNode& n, const std::string& tensor, AccessRole role, std::int64_t tile_bits,
              std::int64_t fires) {
    auto& c = entry(core);
    TransferAccess t;
    t.transfer = n.name;
    t.tensor = tensor;
    t.role = role;
    t.tile_bits = tile_bits;
    t.bandwidth = role == AccessRole::Source ? c.read_bandwidth : c.write_bandwidth;
    t.fires = fires;
    t.accesses = t.bandwidth > 0 ? ceil_div(tile_bits, t.bandwidth) * fires : 0;
    t.bits = tile_bits * fires;
    if (role == AccessRole::Source) {
      c.reads += t.accesses;
      c.bits_read += t.bits;
    } else {
      c.writes += t.accesses;
      c.bits_written += t.bits;
    }
    c.transfers.push_back(std::move(t));
  }

  void add_to(MemoryAccesses& out) {
    for (auto& [id, c] : per_core_) {
      out.reads += c.reads;
      out.writes += c.writes;
      out.bits_read += c.bits_read;
      out.bits_written += c.bits_written;
      out.cores.push_back(std::move(c));
    }
  }

 private:
  CoreMemoryAccesses& entry(int core) {
    auto [it, fresh] = per_core_.try_emplace(core);
    if (fresh) {
      const auto& c = acc_.core(core);
      it->second.core = core;
      it->second.core_name = c.name;
      it->second.read_bandwidth = c.max_memory_bandwidth(hardware::PortType::Read);
      it->second.write_bandwidth = c.max_memory_bandwidth(hardware::PortType::Write);
    }
    return it->second;
  }

  const hardware::Accelerator& acc_;
  std::map<int, CoreMemoryAccesses> per_core_;
};

// One transfer of the steady state: its reads on the input's cores, its writes on the union of
// its outputs' cores (several outputs, one per consumer node, land there once).
void tally_transfer(const schedule::SteadyState& ss, const allocate::Allocation& a, const schedule::SsNode& n, AccessTally& tally) {
  const auto in = static_cast<std::size_t>(n.inputs.front());
  const auto out0 = static_cast<std::size_t>(n.outputs.front());
  std::int64_t applicable = 1;
  for (const auto& l : n.loops)
    if (l.effect != schedule::LoopEffect::Absent) applicable *= l.size;
  const std::int64_t reuse = a.reuse_factor[out0] > 0 ? a.reuse_factor[out0] : 1;
  const std::int64_t fires = applicable / reuse;
  const auto& input = ss.tensors[in];
  for (int c : chosen_placement(input, a, in)) tally.record(c, n, input.name, AccessRole::Source, input.tile_bits, fires);
  std::set<int> targets;
  std::string written;
  for (int o : n.outputs) {
    const auto& t = ss.tensors[static_cast<std::size_t>(o)];
    const auto& p = chosen_placement(t, a, static_cast<std::size_t>(o));
    targets.insert(p.begin(), p.end());
    written += (written.empty() ? "" : ", ") + t.name;
  }
  for (int c : targets) tally.record(c, n, written, AccessRole::Target, ss.tensors[out0].tile_bits, fires);
}

}  // namespace

MemoryAccesses estimate_memory_accesses(const schedule::SteadyState& ss, const allocate::Allocation& a,
                                        const hardware::Accelerator& acc) {
  MemoryAccesses out;
  out.iterations = ss.iterations;
  if (a.plan.size() != ss.nodes.size() || a.reuse_factor.size() != ss.tensors.size()) return out;
  AccessTally tally(acc);
  for (std::size_t i = 0; i < ss.nodes.size(); ++i) {
    const auto& n = ss.nodes[i];
    if (n.kind != schedule::SsKind::Transfer || a.plan[i] < 0 || n.inputs.empty() || n.outputs.empty()) continue;
    tally_transfer(ss, a, n, tally);
  }
  tally.add_to(out);
  return out;
}

}  // namespace stream::pipeline
