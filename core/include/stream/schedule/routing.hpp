// Transfer routing: which interconnect links carry a tensor from a group of source cores to a group
// of target cores (the reference's multicast path plans, spec §4.5).
//
// As the reference (CommunicationManager._get_simple_no_meeting_node_plans with k_paths 4, beam
// width 8, one plan, unit edge weights): every (source, target) pair, sorted by (source, target),
// gets up to k candidate paths — the BFS shortest path first (Accelerator::shortest_path), then
// the k shortest simple paths (Accelerator::shortest_simple_paths) that are not already listed;
// a pair with source == target has the single trivial path without links. A beam search walks the
// pairs: a state is the set of directed edges used so far and its score, the number of edges it
// added; each state is extended with each candidate of the next pair, the states are stably
// sorted by (score, edge count) and the best `beam_width` kept. The first final state is the plan,
// so sharing edges between pairs (a multicast tree) beats independent shortest paths.
// A Router caches the candidate paths per pair and the plan per (sources, targets) in a RouteMemo,
// so a fusion group's transfers between the same core groups are routed once; the memo depends
// on the interconnect's directed edges alone, so accelerators of one topology may share it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "stream/export.hpp"
#include "stream/hardware/accelerator.hpp"

namespace stream::schedule {

/// What moving one transfer's box over one link costs (schedule/transfer_cost.hpp).
struct LinkCost {
  std::int64_t cycles = 0;       ///< setup of every descriptor + the words
  std::int64_t words = 0;        ///< link words moved, burst padding included
  std::int64_t runs = 0;         ///< contiguous runs of the box
  std::int64_t descriptors = 0;  ///< DMA descriptors (0 without a DMA model)
  double setup_energy = 0;       ///< pJ, descriptors x the model's setup_energy
};

/// One way to move a tensor: one path per (source, target) core pair.
struct TransferPlan {
  std::vector<int> sources;
  std::vector<int> targets;
  std::vector<int> links;  ///< distinct link ids, order of first use over the pairs' paths
  std::int64_t hops = 0;   ///< the beam score: distinct directed edges used (unit weights)
  std::int64_t latency = 0;  ///< ceil(tensor bits / slowest link bandwidth); 0 without links
  double min_bandwidth = 0;
  /// The chosen path (core ids) of every pair, pairs sorted by (source, target).
  std::vector<std::vector<int>> paths;
  /// One per link (same order) when some link of the plan has a DMA model, and `latency` is then
  /// the largest of their cycles; empty otherwise (latency from the bandwidth alone).
  std::vector<LinkCost> link_costs;
};

struct RoutingOptions {
  std::size_t k_paths = 4;     ///< candidate paths per pair
  std::size_t beam_width = 8;  ///< states kept between pairs
};

/// What a Router found: the candidate paths per pair and the chosen paths per (sources, targets).
/// A function of the accelerator's edges() (with their link ids) and the routing options only, not
/// of bandwidths, DMA models or cores: accelerators with the same topology_key() and options may
/// share one (pipeline/run_cache.hpp).
struct RouteMemo {
  struct Route {
    std::vector<int> links;
    std::int64_t hops = 0;
    std::vector<std::vector<int>> paths;
  };
  std::map<std::pair<int, int>, std::vector<std::vector<int>>> candidates;
  std::map<std::pair<std::vector<int>, std::vector<int>>, Route> routes;
  /// Held by a Router while it reads or fills the memo, so that routers on several threads may
  /// share one; entries are only ever added, so what a Router returned stays valid.
  std::recursive_mutex mutex;
};

/// The accelerator's directed edges (from, to, link id) in order: equal keys, equal routes.
[[nodiscard]] STREAM_API std::string topology_key(const hardware::Accelerator& acc);

class STREAM_API Router {
 public:
  /// `memo`: routes found before on an accelerator of the same topology_key (null: a new one).
  explicit Router(const hardware::Accelerator& acc, RoutingOptions options = {},
                  std::shared_ptr<RouteMemo> memo = nullptr);

  /// The plan moving `bits` from every source to every target. Throws stream::Error when a
  /// target cannot be reached from a source.
  [[nodiscard]] TransferPlan plan(const std::vector<int>& sources, const std::vector<int>& targets, std::int64_t bits);

  /// The candidate paths of one pair, in the order the beam search tries them.
  [[nodiscard]] const std::vector<std::vector<int>>& candidates(int source, int target);

 private:
  using Route = RouteMemo::Route;
  const Route& route(const std::vector<int>& sources, const std::vector<int>& targets);

  const hardware::Accelerator& acc_;
  RoutingOptions options_;
  std::shared_ptr<RouteMemo> memo_;
};

/// One-shot Router(acc).plan(sources, targets, bits).
[[nodiscard]] STREAM_API TransferPlan multicast_plan(const hardware::Accelerator& acc, const std::vector<int>& sources,
                                                     const std::vector<int>& targets, std::int64_t bits);

}  // namespace stream::schedule
