// Spec §4.7: the steady state's time slots, in lexicographic topological order keyed by (class
// rank, insertion position), with the rule that the nodes of one slot use disjoint resources.
#include <algorithm>
#include <functional>
#include <map>
#include <queue>
#include <set>

#include "stream/schedule/steady_state.hpp"
#include "steady_state_util.hpp"

namespace stream::schedule {

using detail::contains;
using detail::graph_of;
using detail::Graph;

namespace {

int class_rank(SsKind k) {
  switch (k) {
    case SsKind::Compute: return 0;
    case SsKind::Transfer: return 1;
    case SsKind::InEdge: return 3;
    case SsKind::OutEdge: return 4;
  }
  return 5;
}

// Can every node of the bucket pick one option so that all picks are pairwise disjoint?
bool disjoint_choice(const std::vector<const std::vector<std::vector<int>>*>& options) {
  std::vector<int> used;
  std::function<bool(std::size_t)> rec = [&](std::size_t k) {
    if (k == options.size()) return true;
    for (const auto& opt : *options[k]) {
      if (std::any_of(opt.begin(), opt.end(), [&](int r) { return contains(used, r); })) continue;
      const auto mark = used.size();
      used.insert(used.end(), opt.begin(), opt.end());
      if (rec(k + 1)) return true;
      used.resize(mark);
    }
    return false;
  };
  return rec(0);
}

// The slots known to be too full for a node of a given kind and set of options. Slots only fill up, and
// a bucket with no disjoint choice keeps none when more nodes join it, so a slot once refused to
// a set of options refuses it for good: the search for a free slot skips it (a union-find over
// the slots, per distinct options, with path halving). Without this, every node whose earliest
// slot is 0 (a weight's transfer, say) re-tested every slot filled before it: quadratic in the
// group's size. Same slots as testing each in turn.
class RefusedSlots {
 public:
  RefusedSlots(const SteadyState& ss, const std::vector<std::vector<std::vector<int>>>& options)
      : id_of_(options.size()) {
    // Compute and transfer nodes fill buckets of their own (and core and link ids may coincide).
    std::map<std::pair<bool, std::vector<std::vector<int>>>, std::size_t> ids;
    for (std::size_t i = 0; i < options.size(); ++i)
      id_of_[i] = ids.emplace(std::make_pair(ss.nodes[i].kind == SsKind::Compute, options[i]), ids.size()).first->second;
    next_.resize(ids.size());
  }
  /// The first slot >= `slot` not yet refused to node `i`'s options.
  int first_open(std::size_t i, int slot) {
    auto& next = next_[id_of_[i]];
    while (static_cast<std::size_t>(slot) < next.size() && next[static_cast<std::size_t>(slot)] != slot) {
      auto& here = next[static_cast<std::size_t>(slot)];
      if (static_cast<std::size_t>(here) < next.size()) here = next[static_cast<std::size_t>(here)];
      slot = here;
    }
    return slot;
  }
  void refuse(std::size_t i, int slot) {
    auto& next = next_[id_of_[i]];
    for (auto s = static_cast<int>(next.size()); s <= slot; ++s) next.push_back(s);
    next[static_cast<std::size_t>(slot)] = slot + 1;
  }

 private:
  std::vector<std::size_t> id_of_;
  std::vector<std::vector<int>> next_;
};

}  // namespace

SteadyState assign_time_slots(SteadyState ss) {
  const Graph g = graph_of(ss);
  const std::size_t n = ss.nodes.size();
  std::vector<std::vector<std::vector<int>>> options(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& nd = ss.nodes[i];
    if (nd.kind == SsKind::Compute) options[i] = {nd.cores};
    if (nd.kind == SsKind::Transfer)
      for (const auto& p : nd.plans) options[i].push_back(p.links);
  }
  using Key = std::pair<int, std::size_t>;
  std::priority_queue<Key, std::vector<Key>, std::greater<>> ready;
  std::vector<std::size_t> pending(n);
  for (std::size_t i = 0; i < n; ++i) {
    pending[i] = g.preds[i].size();
    if (pending[i] == 0) ready.push({class_rank(ss.nodes[i].kind), i});
  }
  std::map<int, std::vector<std::size_t>> compute_bucket, transfer_bucket;
  RefusedSlots refused(ss, options);
  ss.max_slot = -1;
  while (!ready.empty()) {
    const std::size_t i = ready.top().second;
    ready.pop();
    auto& nd = ss.nodes[i];
    int earliest = 0;
    for (int p : g.preds[i]) earliest = std::max(earliest, ss.nodes[static_cast<std::size_t>(p)].slot + 1);
    int slot = earliest;
    if (nd.kind == SsKind::Compute || nd.kind == SsKind::Transfer) {
      auto& buckets = nd.kind == SsKind::Compute ? compute_bucket : transfer_bucket;
      for (;; ++slot) {
        slot = refused.first_open(i, slot);
        std::vector<const std::vector<std::vector<int>>*> opts;
        for (std::size_t m : buckets[slot]) opts.push_back(&options[m]);
        opts.push_back(&options[i]);
        if (disjoint_choice(opts)) break;
        refused.refuse(i, slot);
      }
      buckets[slot].push_back(i);
    }
    nd.slot = slot;
    ss.max_slot = std::max(ss.max_slot, slot);
    for (int s : g.succs[i])
      if (--pending[static_cast<std::size_t>(s)] == 0) ready.push({class_rank(ss.nodes[static_cast<std::size_t>(s)].kind), static_cast<std::size_t>(s)});
  }
  return ss;
}

}  // namespace stream::schedule
