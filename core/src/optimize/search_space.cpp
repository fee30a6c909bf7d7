#include "search_space.hpp"

#include <algorithm>
#include <map>
#include <numeric>

#include "stream/ir/iteration_space.hpp"
#include "stream/mapping/node_choice.hpp"
#include "stream/pipeline/fusion_groups.hpp"

namespace stream::optimize {

namespace {

std::string cores_text(const std::vector<int>& cores) {
  std::string out = "[";
  for (std::size_t i = 0; i < cores.size(); ++i) out += (i ? "," : "") + std::to_string(cores[i]);
  return out + "]";
}

std::string splits_text(const std::vector<mapping::DimSplit>& splits) {
  std::string out;
  for (const auto& s : splits) out += (out.empty() ? "" : "x") + ("D" + std::to_string(s.dim) + "/" + std::to_string(s.split));
  return out.empty() ? "unsplit" : out;
}

// `count` of `pool`, drawn without replacement (a partial Fisher-Yates shuffle).
std::vector<int> draw(std::vector<int> pool, std::size_t count, RandomStream& rng) {
  count = std::min(count, pool.size());
  for (std::size_t i = 0; i < count; ++i) std::swap(pool[i], pool[i + rng.below(pool.size() - i)]);
  pool.resize(count);
  return pool;
}

// Which group of the workload without cuts each compute node is in (FusionEdges still split).
std::map<std::string, std::size_t> uncut_groups(const Workload& w) {
  std::map<std::string, std::size_t> out;
  const auto groups = pipeline::split_fusion_groups(w, {});
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (std::size_t i : groups[g].computation_nodes()) out[groups[g].node(i).name] = g;
  return out;
}

}  // namespace

SearchSpace::SearchSpace(const Workload& w, const hardware::Accelerator& acc) {
  std::map<std::size_t, std::size_t> position;  // workload index -> index into nodes_
  for (std::size_t i : w.dataflow_order()) {
    if (!w.node(i).has_iteration_space()) continue;
    position[i] = nodes_.size();
    NodeSpace n;
    n.name = w.node(i).name;
    n.allowed = mapping::allowed_cores(w.node(i), acc);
    n.sizes = loop_sizes(w.node(i));
    const auto free = mapping::splittable_dims(w, i);
    for (std::size_t d = 0; d < free.size(); ++d)
      if (free[d]) n.free_dims.push_back(static_cast<int>(d));
    nodes_.push_back(std::move(n));
  }
  for (const auto& [i, k] : position)
    for (const auto& t : w.node(i).inputs) {
      const std::size_t p = w.producer_of(t->name);
      auto it = position.find(p);
      if (p == Workload::npos || it == position.end()) continue;
      nodes_[k].neighbours.push_back(it->second);
      nodes_[it->second].neighbours.push_back(k);
    }
  const auto group_of = uncut_groups(w);
  for (std::size_t k = 0; k + 1 < nodes_.size(); ++k)
    if (group_of.at(nodes_[k].name) == group_of.at(nodes_[k + 1].name)) cuttable_.push_back(nodes_[k].name);
}

std::vector<mapping::DimSplit> SearchSpace::split_for(std::size_t k, std::size_t& cores, RandomStream& rng) const {
  const NodeSpace& n = nodes_[k];
  const auto c = static_cast<std::int64_t>(cores);
  std::vector<std::vector<mapping::DimSplit>> options;
  for (std::size_t a = 0; a < n.free_dims.size() && c > 1; ++a) {
    const int d1 = n.free_dims[a];
    if (n.sizes[static_cast<std::size_t>(d1)] >= c) options.push_back({{d1, c}});
    for (std::size_t b = a + 1; b < n.free_dims.size(); ++b) {
      const int d2 = n.free_dims[b];
      for (std::int64_t f = 2; f < c; ++f)
        if (c % f == 0 && f <= n.sizes[static_cast<std::size_t>(d1)] && c / f <= n.sizes[static_cast<std::size_t>(d2)])
          options.push_back({{d1, f}, {d2, c / f}});
    }
  }
  if (!options.empty()) return options[rng.below(options.size())];
  // No split of that many cores: the most one free dim takes (one core when none is free).
  std::int64_t most = 1;
  int dim = -1;
  for (int d : n.free_dims)
    if (std::min(n.sizes[static_cast<std::size_t>(d)], c) > most) {
      most = std::min(n.sizes[static_cast<std::size_t>(d)], c);
      dim = d;
    }
  cores = static_cast<std::size_t>(most);
  if (dim < 0) return {};
  return {{dim, most}};
}

Candidate SearchSpace::new_cores(const Candidate& from, std::size_t k, RandomStream& rng, std::string& move) const {
  const NodeSpace& n = nodes_[k];
  const auto& now = from.choices.at(n.name);
  const std::size_t most = n.allowed.size();
  std::size_t count = 1 + rng.below(most);
  if (rng.unit() < 0.5) {  // near the current count: halve, double, one fewer, one more
    const std::size_t c = now.cores.size();
    const std::size_t pick[] = {std::max<std::size_t>(1, c / 2), c * 2, c > 1 ? c - 1 : 1, c + 1};
    count = std::clamp<std::size_t>(pick[rng.below(4)], 1, most);
  }
  std::vector<int> cores = draw(n.allowed, count, rng);
  Candidate out = from;
  auto& choice = out.choices[n.name];
  choice.splits = split_for(k, count, rng);
  cores.resize(count);
  std::sort(cores.begin(), cores.end());
  choice.cores = std::move(cores);
  move = "cores " + n.name + ": " + cores_text(now.cores) + " -> " + cores_text(choice.cores) + " " + splits_text(choice.splits);
  return out;
}

Candidate SearchSpace::swap_core(const Candidate& from, std::size_t k, RandomStream& rng, std::string& move) const {
  const NodeSpace& n = nodes_[k];
  const auto& now = from.choices.at(n.name);
  std::vector<int> outside;
  for (int c : n.allowed)
    if (std::find(now.cores.begin(), now.cores.end(), c) == now.cores.end()) outside.push_back(c);
  if (outside.empty()) return new_cores(from, k, rng, move);
  Candidate out = from;
  auto& choice = out.choices[n.name];
  choice.cores[rng.below(choice.cores.size())] = outside[rng.below(outside.size())];
  std::sort(choice.cores.begin(), choice.cores.end());
  move = "swap " + n.name + ": " + cores_text(now.cores) + " -> " + cores_text(choice.cores);
  return out;
}

Candidate SearchSpace::resplit(const Candidate& from, std::size_t k, RandomStream& rng, std::string& move) const {
  const NodeSpace& n = nodes_[k];
  const auto& now = from.choices.at(n.name);
  if (now.cores.size() < 2) return new_cores(from, k, rng, move);
  Candidate out = from;
  auto& choice = out.choices[n.name];
  std::size_t count = choice.cores.size();
  choice.splits = split_for(k, count, rng);
  choice.cores.resize(count);
  move = "split " + n.name + ": " + splits_text(now.splits) + " -> " + splits_text(choice.splits);
  return out;
}

Candidate SearchSpace::copy_neighbour(const Candidate& from, std::size_t k, RandomStream& rng, std::string& move) const {
  const NodeSpace& n = nodes_[k];
  if (n.neighbours.empty()) return new_cores(from, k, rng, move);
  const NodeSpace& other = nodes_[n.neighbours[rng.below(n.neighbours.size())]];
  std::vector<int> cores;
  for (int c : from.choices.at(other.name).cores)
    if (std::binary_search(n.allowed.begin(), n.allowed.end(), c)) cores.push_back(c);
  if (cores.empty()) return new_cores(from, k, rng, move);
  Candidate out = from;
  auto& choice = out.choices[n.name];
  std::size_t count = cores.size();
  choice.splits = split_for(k, count, rng);
  cores.resize(count);
  std::sort(cores.begin(), cores.end());
  choice.cores = std::move(cores);
  move = "like " + other.name + " " + n.name + ": " + cores_text(choice.cores) + " " + splits_text(choice.splits);
  return out;
}

Candidate SearchSpace::toggle_cut(const Candidate& from, RandomStream& rng, std::string& move) const {
  const std::string& at = cuttable_[rng.below(cuttable_.size())];
  Candidate out = from;
  if (out.cuts.erase(at) == 0) {
    out.cuts.insert(at);
    move = "cut after " + at;
  } else {
    move = "fuse across " + at;
  }
  return out;
}

Candidate SearchSpace::neighbour(const Candidate& from, RandomStream& rng, std::string& move) const {
  if (!cuttable_.empty() && rng.unit() < 0.2) return toggle_cut(from, rng, move);
  const std::size_t k = rng.below(nodes_.size());
  switch (rng.below(4)) {
    case 0: return new_cores(from, k, rng, move);
    case 1: return swap_core(from, k, rng, move);
    case 2: return resplit(from, k, rng, move);
    default: return copy_neighbour(from, k, rng, move);
  }
}

}  // namespace stream::optimize
