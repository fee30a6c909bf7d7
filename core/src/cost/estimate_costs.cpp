#include "stream/cost/estimate_costs.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <utility>

#include "stream/cost/core_model.hpp"
#include "stream/cost/fallback_reason.hpp"
#include "stream/cost/traffic_model.hpp"
#include "stream/tiling/tensor_accessors.hpp"

namespace stream::cost {

namespace {

std::string tile_key(const Tile& t) {
  std::ostringstream s;
  s << t.op_type << '|';
  for (const auto& d : t.dims) s << d.size << ',';
  for (const auto& o : t.operands) {
    s << '|' << o.role << o.precision_bits << ':';
    for (auto x : o.tensor_shape) s << x << ',';
    for (const auto& a : o.axes) {
      s << '[';
      for (const auto& tm : a.terms) s << tm.dim << '*' << tm.coef << '+';
      s << a.constant << '/' << a.window_size << ']';
    }
  }
  return s.str();
}

// The reference leaves an estimate at 0 pJ; ours is the traffic model's, and its port cycles are
// kept for the full profile.
void add_traffic_model(CostEntry& e, const Tile& tile, const hardware::Core& core) {
  const TrafficCost t = traffic_cost(tile, core);
  e.energy_total = t.energy();
  e.energy_model = "traffic";
  e.traffic_cycles = t.port_cycles;
}

CostEntry fallback_entry(const Tile& tile, const hardware::Core& core, FallbackReason reason) {
  CostEntry e;
  double macs = 1;
  for (const auto& d : tile.dims) macs *= static_cast<double>(d.size);
  const double units = static_cast<double>(std::max<std::int64_t>(core.total_unit_count(), 1));
  e.latency_total = std::ceil(macs / units) * fallback_cycles_per_op(tile.op_type);
  e.ideal_cycle = std::ceil(macs / units);
  e.ideal_temporal_cycle = e.ideal_cycle;
  e.backend = "ideal-cycle";
  e.reason = std::move(reason.reason);
  e.detail = std::move(reason.detail);
  add_traffic_model(e, tile, core);
  return e;
}


// What a backend other than the built-in model may read beyond the tile; part of the dedup key,
// since two nodes with equal tiles can differ in it (an inexact split, a kernel, bf16 vs f16).
CostRequest backend_request(const tiling::TiledGroup& tiled, std::size_t node_index, const Tile& tile,
                            const hardware::Core& core) {
  const Node& n = tiled.workload.node(node_index);
  const auto& m = tiled.mapping.at(node_index);
  CostRequest r{tile, tiled.workload.loop_sizes(node_index), core, {}, m.kernel_utilization, {}, DType::f32};
  for (const auto& [d, f] : m.inter_core_tiling) r.split_factors.push_back(f);
  for (const auto& t : n.inputs) r.input_dtypes.push_back(t->dtype);
  if (!n.outputs.empty()) r.output_dtype = n.outputs.front()->dtype;
  return r;
}

std::string request_key(const CostRequest& r) {
  std::ostringstream s;
  s << '#';
  for (auto d : r.tiled_dims) s << d << ',';
  s << '/';
  for (auto f : r.split_factors) s << f << ',';
  s << '/' << (r.kernel_utilization ? std::to_string(*r.kernel_utilization) : "-") << '/';
  for (auto t : r.input_dtypes) s << name(t) << ',';
  s << "->" << name(r.output_dtype);
  return s.str();
}

struct Job {
  std::pair<std::string, int> key;  ///< the dedup key (tile and request, representative)
  bool cached = false;              ///< result taken from the run's cache
  Tile tile;
  std::size_t node = 0;
  int core = -1;  // representative
  const CostBackend* backend = nullptr;  // nullptr: the built-in model
  CostEntry result;
  std::exception_ptr error;
};

CostEntry builtin_entry(const Job& j, const hardware::Core& core, const CoreModel* model,
                                      const CostOptions& copt) {
  if (model == nullptr) {
    const std::string why = "no per-core cost model for core type '" + core.type.str() + "'";
    return fallback_entry(j.tile, core, {why, why});
  }
  const CoreCost r = estimate(j.tile, *model, copt);
  if (r.status == CostStatus::StreamError)
    return fallback_entry(j.tile, core, explain_fallback(r.reason, j.tile, model));
  CostEntry e;
  e.latency_total = r.latency_total;
  e.energy_total = r.energy_total;
  e.ideal_cycle = r.ideal_cycle;
  e.ideal_temporal_cycle = r.ideal_temporal_cycle;
  e.mac_spatial_utilization = r.mac_spatial_utilization;
  e.backend = r.status == CostStatus::Ok ? kBuiltinCostBackend : "ideal-cycle";
  if (r.status == CostStatus::Ok) e.memory_bits = r.memory_bits;
  if (r.status != CostStatus::Ok) {
    auto why = explain_fallback(r.reason, j.tile, model);
    e.reason = std::move(why.reason);
    e.detail = std::move(why.detail);
    add_traffic_model(e, j.tile, core);
  }
  return e;
}

// One costing job per distinct (tile, backend request, representative core), and every
// (node, core) pair that uses one.
struct JobPlan {
  struct Use {
    std::string node;
    int core;
    std::size_t job;
  };
  std::vector<Job> jobs;
  std::vector<Use> uses;
};

JobPlan plan_jobs(const tiling::TiledGroup& tiled, const hardware::Accelerator& acc,
                  const std::vector<CostBackend>& backends, CostCache* cache) {
  const Workload& w = tiled.workload;
  const auto reps = acc.performance_representatives();
  // The key's core: the representative, or with a cache its performance class there (one per
  // representative and backend, so the scan over the cache's classes runs once per core).
  std::map<std::pair<int, const CostBackend*>, int> class_of;
  auto key_core = [&](int rep, const CostBackend* backend) {
    if (cache == nullptr) return rep;
    auto [it, fresh] = class_of.try_emplace({rep, backend}, 0);
    if (fresh) it->second = cache->performance_class(acc.core(rep), backend == nullptr ? "" : backend->name);
    return it->second;
  };
  JobPlan plan;
  std::map<std::pair<std::string, int>, std::size_t> job_of;
  const tiling::TensorAccessors accessors(w);
  for (std::size_t i : w.computation_nodes()) {
    const Tile tile = core_tile(tiled, accessors, i);
    const std::string key = tile_key(tile);
    for (int c : tiled.mapping.at(i).cores) {
      // A backend may claim cores by what performance equivalence ignores (a vendor's by name): the
      // representative stands in for a core only when the same backend claims both.
      const CostBackend* backend = select_cost_backend(backends, acc.core(c));
      int rep = reps.at(static_cast<std::size_t>(c));
      if (select_cost_backend(backends, acc.core(rep)) != backend) rep = c;
      const std::string full_key =
          backend == nullptr ? key : key + backend->name + request_key(backend_request(tiled, i, tile, acc.core(rep)));
      auto [it, fresh] = job_of.try_emplace({full_key, key_core(rep, backend)}, plan.jobs.size());
      if (fresh) plan.jobs.push_back({it->first, false, tile, i, rep, backend, {}, nullptr});
      plan.uses.push_back({w.node(i).name, c, it->second});
    }
  }
  return plan;
}

// Runs the uncached jobs on `threads` threads; the first failing job in job order rethrows, so
// that the error does not depend on the threads' timing.
void run_jobs(std::vector<Job>& jobs, const tiling::TiledGroup& tiled, const hardware::Accelerator& acc,
              const CostEstimateOptions& options) {
  std::map<int, CoreModel> models;
  for (const auto& j : jobs)
    if (!j.cached && j.backend == nullptr && !models.count(j.core) && acc.core(j.core).is_zigzag())
      models.emplace(j.core, CoreModel::from_core(acc.core(j.core)));
  CostOptions copt;
  copt.lpf_limit = options.lpf_limit;
  copt.detail = false;
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t k = next++; k < jobs.size(); k = next++) {
      Job& j = jobs[k];
      if (j.cached) continue;
      const auto& core = acc.core(j.core);
      try {  // an exception must not leave a worker thread: it is rethrown after the join
        if (j.backend != nullptr) {
          j.result = j.backend->cost(backend_request(tiled, j.node, j.tile, core));
          j.result.backend = j.backend->name;
        } else {
          auto m = models.find(j.core);
          j.result = builtin_entry(j, core, m == models.end() ? nullptr : &m->second, copt);
        }
      } catch (...) {
        j.error = std::current_exception();
      }
    }
  };
  const int nthreads = std::clamp(options.threads, 1, static_cast<int>(std::max<std::size_t>(jobs.size(), 1)));
  std::vector<std::thread> pool;
  for (int t = 1; t < nthreads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  for (const auto& j : jobs)
    if (j.error) std::rethrow_exception(j.error);
}

}  // namespace

CostTable estimate_costs(const tiling::TiledGroup& tiled, const hardware::Accelerator& acc,
                               const CostEstimateOptions& options) {
  JobPlan plan = plan_jobs(tiled, acc, options.backends, options.cache);
  if (options.cache != nullptr)
    for (auto& j : plan.jobs)
      if (const auto* hit = options.cache->find(j.key)) {
        j.result = *hit;
        j.cached = true;
      }
  run_jobs(plan.jobs, tiled, acc, options);
  if (options.cache != nullptr)
    for (const auto& j : plan.jobs)
      if (!j.cached) options.cache->add(j.key, j.result);
  CostTable out;
  for (const auto& u : plan.uses) {
    CostEntry e = plan.jobs[u.job].result;
    e.core_id = u.core;
    e.core_type = acc.core(u.core).type.str();
    apply_profile(e, options.profile);
    out[u.node].push_back(e);
  }
  return out;
}

}  // namespace stream::cost
