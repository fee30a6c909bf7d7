#include "stream/pipeline/structural_key.hpp"

#include <bit>
#include <cstdint>

namespace stream::pipeline {

namespace {

// A flat, unambiguous encoding: every value is 8 bytes, every list is prefixed by its length.
class Key {
 public:
  void put(std::int64_t v) { out_.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void put(double v) { put(std::bit_cast<std::int64_t>(v)); }
  void put(const std::string& s) {
    put(static_cast<std::int64_t>(s.size()));
    out_ += s;
  }
  template <class T>
  void put(const std::vector<T>& v) {
    put(static_cast<std::int64_t>(v.size()));
    for (const auto& x : v) put_one(x);
  }
  std::string take() { return std::move(out_); }

 private:
  void put_one(int v) { put(static_cast<std::int64_t>(v)); }
  void put_one(std::int64_t v) { put(v); }
  void put_one(const std::vector<int>& v) { put(v); }
  void put_one(const std::pair<int, std::int64_t>& p) {
    put(static_cast<std::int64_t>(p.first));
    put(p.second);
  }
  void put_one(const schedule::TemporalLoop& l) {
    put(static_cast<std::int64_t>(l.dim));
    put(l.size);
    put(static_cast<std::int64_t>(l.effect));
  }
  void put_one(const schedule::TransferPlan& p) {
    put(p.sources);
    put(p.targets);
    put(p.links);
    put(p.hops);
    put(p.latency);
    put(p.min_bandwidth);
    put(p.paths);
  }
  std::string out_;
};

}  // namespace

std::string allocation_key(const schedule::SteadyState& ss, const allocate::AllocateOptions& o) {
  Key k;
  k.put(static_cast<std::int64_t>(o.constraints.memory_capacity));
  k.put(static_cast<std::int64_t>(o.constraints.object_fifo_depth));
  k.put(static_cast<std::int64_t>(o.constraints.buffer_descriptors));
  k.put(static_cast<std::int64_t>(o.constraints.dma_channels));
  k.put(static_cast<std::int64_t>(o.constraints.pipelining));
  k.put(static_cast<std::int64_t>(o.nb_cols_to_use));
  k.put(static_cast<std::int64_t>(o.double_buffering));
  k.put(static_cast<std::int64_t>(o.diagnosis));
  k.put(o.solve.time_limit_s);
  k.put(static_cast<std::int64_t>(o.solve.threads));
  k.put(static_cast<std::int64_t>(ss.nodes.size()));
  for (const auto& n : ss.nodes) {
    k.put(static_cast<std::int64_t>(n.kind));
    k.put(n.op_type);
    k.put(static_cast<std::int64_t>(n.source));
    k.put(n.inputs);
    k.put(n.outputs);
    k.put(n.dims);
    k.put(n.cores);
    k.put(n.inter_core_tiling);
    k.put(static_cast<std::int64_t>(n.transfer_type));
    k.put(n.plans);
    k.put(n.loops);
    k.put(n.lut_latency);
    k.put(n.active_latency);
    k.put(static_cast<std::int64_t>(n.slot));
  }
  k.put(static_cast<std::int64_t>(ss.tensors.size()));
  for (const auto& t : ss.tensors) {
    k.put(t.bits);
    k.put(t.shape);
    k.put(t.dims);
    k.put(static_cast<std::int64_t>(t.producer));
    k.put(t.placements);
    k.put(t.tile_bits);
    k.put(t.capacity_tile_bits);
    k.put(t.loops);
  }
  k.put(ss.fusion_splits);
  k.put(ss.iterations);
  k.put(static_cast<std::int64_t>(ss.max_slot));
  k.put(static_cast<std::int64_t>(ss.offchip_core));
  return k.take();
}

}  // namespace stream::pipeline
