#include "stream/hardware/accelerator.hpp"

#include <algorithm>
#include <deque>
#include <set>
#include <unordered_set>
#include <sstream>


namespace stream::hardware {

std::string_view name(ConnectionType t) { return t == ConnectionType::Link ? "link" : "bus"; }

namespace {
std::string format_number(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}
std::string format_ids(const std::vector<int>& ids) {
  std::string out = "[";
  for (std::size_t i = 0; i < ids.size(); ++i) out += (i ? ", " : "") + std::to_string(ids[i]);
  return out + "]";
}
}  // namespace

std::string Connection::str() const {
  return std::string(name(type)) + " " + format_ids(cores) + " bw " + format_number(bandwidth);
}


const Core& Accelerator::core(int id) const {
  if (id < 0 || static_cast<std::size_t>(id) >= cores.size())
    throw Error("accelerator '" + name + "' has no core " + std::to_string(id), file_location(source_file));
  return cores[static_cast<std::size_t>(id)];
}

Namespace Accelerator::core_namespace() const { return cores.empty() ? Namespace::ZigZag : cores.front().type.ns; }

namespace {

// One warning per replacing connection, naming every entry it replaces (`stream validate`'s list).
Diagnostic replacement_detail(const std::vector<Connection>& connectivity, std::size_t ci,
                              const std::map<std::size_t, std::vector<std::pair<int, int>>>& replaced) {
  std::string list;
  std::size_t pairs = 0;
  for (const auto& [old, p] : replaced) {
    list += (list.empty() ? "" : "; ") + std::string("core_connectivity[") + std::to_string(old) + "] (" +
            connectivity[old].str() + ")";
    pairs += p.size();
  }
  const Connection& c = connectivity[ci];
  return {Diagnostic::Severity::Warning, c.where,
          "core_connectivity[" + std::to_string(ci) + "] (" + c.str() + ") replaces " + list + " on " +
              std::to_string(pairs) +
              " directed core pair(s): the reference keeps one connection per ordered core pair and the later "
              "entry wins"};
}

}  // namespace

void Accelerator::build_interconnect(bool warn_replacements) {
  links_.clear();
  replacements.clear();
  replacement_details.clear();
  edge_index_.clear();
  edge_list_.clear();
  graph_order_.clear();
  succ_.clear();
  pred_.clear();
  std::unordered_set<int> seen_nodes;
  // Which connection owns each edge (parallel to edge_list_), to name what a later connection
  // replaces. Every step is O(1) per directed pair: a bus of n cores has n(n-1) of them, and an
  // O(edges) scan per replaced pair made a 2,001-core bus over a chain take minutes.
  std::vector<std::size_t> owner;
  std::size_t pairs = 0;  // before replacement: an upper bound, so the table never rehashes
  for (const auto& c : connectivity) pairs += c.cores.size() * (c.cores.size() > 0 ? c.cores.size() - 1 : 0);
  edge_index_.reserve(pairs);
  edge_list_.reserve(pairs);
  owner.reserve(pairs);

  for (std::size_t ci = 0; ci < connectivity.size(); ++ci) {
    const Connection& c = connectivity[ci];
    std::map<std::size_t, std::vector<std::pair<int, int>>> replaced;  // old connection -> pairs
    auto add_edge = [&](int from, int to, int link) {
      for (int n : {from, to})
        if (seen_nodes.insert(n).second) graph_order_.push_back(n);
      const auto [it, added] = edge_index_.try_emplace(pair_key(from, to), edge_list_.size());
      if (added) {
        edge_list_.push_back({from, to, link});
        owner.push_back(ci);
        succ_[from].push_back(to);
        pred_[to].push_back(from);
        return;
      }
      const std::size_t e = it->second;
      if (owner[e] != ci) replaced[owner[e]].emplace_back(from, to);
      edge_list_[e][2] = link;
      owner[e] = ci;
    };
    if (c.type == ConnectionType::Link) {
      if (c.cores.size() != 2) continue;  // reported by the reader
      CommunicationLink ab{static_cast<int>(links_.size()), c.cores[0], c.cores[1], c.bandwidth, c.unit_energy_cost,
                           false, ci};
      links_.push_back(ab);
      CommunicationLink ba{static_cast<int>(links_.size()), c.cores[1], c.cores[0], c.bandwidth, c.unit_energy_cost,
                           false, ci};
      links_.push_back(ba);
      add_edge(c.cores[0], c.cores[1], ab.id);
      add_edge(c.cores[1], c.cores[0], ba.id);
    } else {
      CommunicationLink bus{static_cast<int>(links_.size()), -1, -1, c.bandwidth, c.unit_energy_cost, true, ci};
      links_.push_back(bus);
      for (std::size_t i = 0; i < c.cores.size(); ++i)
        for (std::size_t j = i + 1; j < c.cores.size(); ++j) {
          add_edge(c.cores[i], c.cores[j], bus.id);
          add_edge(c.cores[j], c.cores[i], bus.id);
        }
    }
    for (const auto& [old, taken] : replaced) replacements.emplace_back(old, ci);
    if (warn_replacements && !replaced.empty())
      replacement_details.push_back(replacement_detail(connectivity, ci, replaced));
  }
  if (!replacement_details.empty()) warnings.push_back(replacement_summary());
}

// One line for the whole file, whatever the number of replacements: a user who wrote a bus after
// the links on purpose (the reference's own files do) reads it once and moves on.
Diagnostic Accelerator::replacement_summary() const {
  std::set<std::size_t> replaced;
  std::vector<std::size_t> replacing;
  for (const auto& [old, by] : replacements) {
    replaced.insert(old);
    if (std::find(replacing.begin(), replacing.end(), by) == replacing.end()) replacing.push_back(by);
  }
  const auto all = [&](ConnectionType t) {
    return std::all_of(replaced.begin(), replaced.end(), [&](std::size_t i) { return connectivity[i].type == t; });
  };
  const bool one = replaced.size() == 1;
  const std::string kind = all(ConnectionType::Link) ? (one ? "link" : "links")
                           : all(ConnectionType::Bus) ? (one ? "bus" : "buses")
                                                      : (one ? "entry" : "entries");
  const auto at = [&](std::size_t i) {
    const Connection& c = connectivity[i];
    const std::string line = c.where.line > 0 ? " at line " + std::to_string(c.where.line) : "";
    return "the " + std::string(hardware::name(c.type)) + line;
  };
  std::string by = at(replacing.front());
  if (replacing.size() == 2) by += " and " + at(replacing[1]);
  if (replacing.size() > 2) by += " and " + std::to_string(replacing.size() - 1) + " later entries";
  Location where;
  where.file = connectivity[replacing.front()].where.file;
  return {Diagnostic::Severity::Warning, where,
          std::to_string(replaced.size()) + " " + kind + " of core_connectivity " + (one ? "is" : "are") +
              " replaced by " + by + " (a later entry wins on the core pairs they share); `stream validate` lists them"};
}

std::vector<int> Accelerator::active_links() const {
  std::set<int> used;
  for (const auto& e : edge_list_) used.insert(e[2]);
  return {used.begin(), used.end()};
}

std::uint64_t Accelerator::pair_key(int from, int to) {
  return (std::uint64_t{static_cast<std::uint32_t>(from)} << 32) | std::uint64_t{static_cast<std::uint32_t>(to)};
}

int Accelerator::edge(int from, int to) const {
  const auto e = edge_position(from, to);
  return e < 0 ? -1 : edge_list_[static_cast<std::size_t>(e)][2];
}

std::int64_t Accelerator::edge_position(int from, int to) const {
  auto it = edge_index_.find(pair_key(from, to));
  return it == edge_index_.end() ? -1 : static_cast<std::int64_t>(it->second);
}

bool Accelerator::in_graph(int id) const { return succ_.count(id) > 0 || pred_.count(id) > 0; }

const std::vector<int>& Accelerator::successors(int id) const {
  static const std::vector<int> none;
  auto it = succ_.find(id);
  return it == succ_.end() ? none : it->second;
}

const std::vector<int>& Accelerator::predecessors(int id) const {
  static const std::vector<int> none;
  auto it = pred_.find(id);
  return it == pred_.end() ? none : it->second;
}

std::vector<int> Accelerator::shortest_path(int from, int to) const {
  // networkx.bidirectional_shortest_path: grow the smaller fringe one level at a time, succ from
  // the source, pred from the target, in adjacency insertion order; stop at the first meeting node.
  if (!in_graph(from) || !in_graph(to)) return {};
  if (from == to) return {from};
  std::map<int, int> pred{{from, -1}}, succ{{to, -1}};
  std::vector<int> forward{from}, reverse{to};
  int meet = -1;
  while (!forward.empty() && !reverse.empty() && meet < 0) {
    if (forward.size() <= reverse.size()) {
      std::vector<int> level;
      level.swap(forward);
      for (int v : level) {
        for (int w : successors(v)) {
          if (!pred.count(w)) {
            forward.push_back(w);
            pred[w] = v;
          }
          if (succ.count(w)) {
            meet = w;
            break;
          }
        }
        if (meet >= 0) break;
      }
    } else {
      std::vector<int> level;
      level.swap(reverse);
      for (int v : level) {
        for (int w : predecessors(v)) {
          if (!succ.count(w)) {
            succ[w] = v;
            reverse.push_back(w);
          }
          if (pred.count(w)) {
            meet = w;
            break;
          }
        }
        if (meet >= 0) break;
      }
    }
  }
  if (meet < 0) return {};
  std::vector<int> path;
  for (int w = meet; w != -1; w = pred.at(w)) path.push_back(w);
  std::reverse(path.begin(), path.end());
  for (int w = succ.at(meet); w != -1; w = succ.at(w)) path.push_back(w);
  return path;
}

std::vector<std::vector<int>> Accelerator::all_shortest_paths(int from, int to) const {
  // networkx.predecessor (BFS, predecessor lists at the right level, in discovery order) and
  // _build_paths_from_predecessors (an explicit stack from the target).
  if (!in_graph(from) || !in_graph(to)) return {};
  std::map<int, int> level_of{{from, 0}};
  std::map<int, std::vector<int>> pred{{from, {}}};
  std::vector<int> next{from};
  int level = 0;
  while (!next.empty()) {
    ++level;
    std::vector<int> current;
    current.swap(next);
    for (int v : current)
      for (int w : successors(v)) {
        auto it = level_of.find(w);
        if (it == level_of.end()) {
          pred[w] = {v};
          level_of[w] = level;
          next.push_back(w);
        } else if (it->second == level) {
          pred[w].push_back(v);
        }
      }
  }
  if (!pred.count(to)) return {};
  std::vector<std::vector<int>> out;
  std::vector<std::pair<int, std::size_t>> stack{{to, 0}};
  std::set<int> seen{to};
  int top = 0;
  while (top >= 0) {
    auto& [node, i] = stack[static_cast<std::size_t>(top)];
    if (node == from) {
      std::vector<int> path;
      for (int k = top; k >= 0; --k) path.push_back(stack[static_cast<std::size_t>(k)].first);
      out.push_back(std::move(path));
    }
    const auto& preds = pred[node];
    if (preds.size() > i) {
      const int nxt = preds[i];
      ++i;
      if (seen.count(nxt)) continue;
      seen.insert(nxt);
      ++top;
      if (static_cast<std::size_t>(top) == stack.size()) stack.emplace_back(nxt, 0);
      else stack[static_cast<std::size_t>(top)] = {nxt, 0};
    } else {
      seen.erase(node);
      --top;
    }
  }
  return out;
}

std::string Accelerator::link_name(int link_id) const {
  const auto& link = links_.at(static_cast<std::size_t>(link_id));
  if (!link.is_bus()) return "link " + std::to_string(link.sender) + "->" + std::to_string(link.receiver);
  std::string members;
  if (link.connection < connectivity.size())
    for (int c : connectivity[link.connection].cores) members += (members.empty() ? "" : ", ") + std::to_string(c);
  return "bus " + std::to_string(link.connection) + " (cores " + members + ")";
}

bool Accelerator::touches_offchip(const CommunicationLink& link) const {
  if (offchip_core_id < 0) return false;
  if (!link.is_bus()) return link.sender == offchip_core_id || link.receiver == offchip_core_id;
  if (link.connection >= connectivity.size()) return false;
  const auto& members = connectivity[link.connection].cores;
  return std::find(members.begin(), members.end(), offchip_core_id) != members.end();
}

const DmaModel* Accelerator::dma_of(const CommunicationLink& link) const {
  if (link.connection >= connectivity.size()) return nullptr;
  const auto& d = connectivity[link.connection].dma;
  return d ? &*d : nullptr;
}

std::vector<int> Accelerator::path_links(const std::vector<int>& path) const {
  std::vector<int> out;
  for (std::size_t i = 0; i + 1 < path.size(); ++i) out.push_back(edge(path[i], path[i + 1]));
  return out;
}

std::vector<int> Accelerator::compute_cores() const {
  std::vector<int> out;
  for (int id : graph_order_)
    if (id >= 0 && static_cast<std::size_t>(id) < cores.size() && cores[static_cast<std::size_t>(id)].kind() == CoreKind::Compute)
      out.push_back(id);
  for (std::size_t id = 0; id < cores.size(); ++id)
    if (!in_graph(static_cast<int>(id)) && cores[id].kind() == CoreKind::Compute) out.push_back(static_cast<int>(id));
  return out;
}

std::vector<int> Accelerator::performance_representatives() const {
  std::vector<int> rep(cores.size());
  for (std::size_t i = 0; i < cores.size(); ++i) {
    rep[i] = static_cast<int>(i);
    for (std::size_t j = 0; j < i; ++j)
      if (rep[j] == static_cast<int>(j) && cores[j].same_performance(cores[i])) {
        rep[i] = static_cast<int>(j);
        break;
      }
  }
  return rep;
}

std::vector<int> Accelerator::shared_memory_groups() const {
  // Union the sharing groups, then number classes by their lowest core id.
  std::vector<int> parent(cores.size());
  for (std::size_t i = 0; i < parent.size(); ++i) parent[i] = static_cast<int>(i);
  auto find = [&](int x) {
    while (parent[static_cast<std::size_t>(x)] != x) x = parent[static_cast<std::size_t>(x)];
    return x;
  };
  for (const auto& g : memory_sharing)
    for (std::size_t k = 1; k < g.cores.size(); ++k) {
      const int a = g.cores[0], b = g.cores[k];
      if (a < 0 || b < 0 || static_cast<std::size_t>(a) >= cores.size() || static_cast<std::size_t>(b) >= cores.size())
        continue;
      const int ra = find(a), rb = find(b);
      if (ra != rb) parent[static_cast<std::size_t>(std::max(ra, rb))] = std::min(ra, rb);
    }
  std::vector<int> out(cores.size());
  std::map<int, int> index;
  for (std::size_t i = 0; i < cores.size(); ++i) {
    const int r = find(static_cast<int>(i));
    auto [it, added] = index.emplace(r, static_cast<int>(index.size()));
    out[i] = it->second;
    (void)added;
  }
  return out;
}

int Accelerator::nb_shared_mem_groups() const {
  auto groups = shared_memory_groups();
  return groups.empty() ? 0 : *std::max_element(groups.begin(), groups.end()) + 1;
}

}  // namespace stream::hardware
