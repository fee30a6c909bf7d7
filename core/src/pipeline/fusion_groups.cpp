#include "stream/pipeline/fusion_groups.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_set>

#include "stream/error.hpp"
#include "stream/ir/iteration_space.hpp"

namespace stream::pipeline {

namespace {


std::vector<std::size_t> compute_in_order(const Workload& w) {
  std::vector<std::size_t> out;
  for (std::size_t i : w.dataflow_order())
    if (w.node(i).has_iteration_space()) out.push_back(i);
  return out;
}

// The tensor a chain of layout FusionEdges ending in `t` starts from: what the producing group
// writes off-chip, the layout ops being reinterpretations of that off-chip copy.
TensorPtr before_layout_ops(const Workload& w, TensorPtr t) {
  for (;;) {
    const Node& p = w.node(w.producer_of(t->name));
    if (p.kind != NodeKind::FusionEdge) return t;
    t = p.inputs.front();
  }
}

}  // namespace

std::vector<std::string> determine_fusion_cut_points(const Workload& w) {
  std::set<std::string> cuts;
  for (const auto& [p, c] : w.edges()) {
    const Node& pn = w.node(p);
    const Node& cn = w.node(c);
    if (!pn.has_iteration_space() || !cn.has_iteration_space()) continue;
    for (std::size_t op = 0; op < cn.inputs.size(); ++op) {
      const bool shared = std::any_of(pn.outputs.begin(), pn.outputs.end(),
                                      [&](const TensorPtr& t) { return t->name == cn.inputs[op]->name; });
      if (shared && !access_relation(cn, op).is_static()) cuts.insert(pn.name);
    }
  }
  for (std::size_t i = 0; i < w.size(); ++i) {
    const Node& n = w.node(i);
    if (!n.has_iteration_space()) continue;
    if (n.type == "MaxPool") cuts.insert(n.name);
    // A node whose outputs the data decides (TopK, ArgMax, a scatter) cannot feed a tiled consumer.
    for (std::size_t o = n.inputs.size(); o < n.num_operands(); ++o)
      if (!access_relation(n, o).is_static()) cuts.insert(n.name);
    if (n.type == "Add") {
      std::vector<std::size_t> cs;
      for (std::size_t s : w.successors(i))
        if (w.node(s).has_iteration_space()) cs.push_back(s);
      if (cs.size() == 1 && w.node(cs.front()).type == "Relu") cuts.insert(w.node(cs.front()).name);
    }
  }
  const auto order = compute_in_order(w);
  std::vector<std::string> out;
  for (std::size_t i : order)
    if (cuts.count(w.node(i).name)) out.push_back(w.node(i).name);
  if (!out.empty() && !order.empty() && out.back() == w.node(order.back()).name) out.pop_back();
  return out;
}

std::vector<std::string> per_layer_cut_points(const Workload& w) {
  const auto order = compute_in_order(w);
  std::vector<std::string> out;
  for (std::size_t k = 0; k + 1 < order.size(); ++k) out.push_back(w.node(order[k]).name);
  return out;
}

std::vector<std::string> mapped_cut_points(const Workload& w, const mapping::Mapping& m) {
  std::map<std::string, std::size_t> fused_group_of;
  for (std::size_t k = 0; k < m.fused_groups.size(); ++k)
    for (const auto& layer : m.fused_groups[k].layers) fused_group_of.emplace(layer, k);
  const Location file{.file = m.source_file};
  const auto order = compute_in_order(w);
  std::vector<std::string> out;
  std::set<std::size_t> closed;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::string& name = w.node(order[k]).name;
    const auto it = fused_group_of.find(name);
    if (it == fused_group_of.end())
      throw Error("with " + std::to_string(m.fused_groups.size()) + " fused groups, every compute node must be in one by name; '" +
                  name + "' is in none", file);
    if (closed.count(it->second))
      throw Error("fused group '" + m.fused_groups[it->second].name + "' is not one run of consecutive compute nodes (at '" +
                  name + "'): a fusion group must be", file);
    const auto next = k + 1 == order.size() ? fused_group_of.end() : fused_group_of.find(w.node(order[k + 1]).name);
    const bool last = next == fused_group_of.end() || next->second != it->second;
    if (last && k + 1 < order.size()) {
      out.push_back(name);
      closed.insert(it->second);
    }
  }
  return out;
}

std::vector<std::string> size_capped_cut_points(const Workload& w, const std::vector<std::string>& cut_points,
                                                std::size_t max_nodes) {
  const std::unordered_set<std::string> cut(cut_points.begin(), cut_points.end());
  std::unordered_set<std::string> out = cut;
  std::vector<std::string> run;  // the compute nodes of the group being walked, in dataflow order
  auto close_run = [&] {
    const std::size_t chunks = (run.size() + max_nodes - 1) / max_nodes;
    if (chunks > 1) {
      const std::size_t size = (run.size() + chunks - 1) / chunks;
      for (std::size_t k = size; k < run.size(); k += size) out.insert(run[k - 1]);
    }
    run.clear();
  };
  for (std::size_t i : w.dataflow_order()) {
    const Node& n = w.node(i);
    if (n.kind == NodeKind::FusionEdge) close_run();
    if (!n.has_iteration_space()) continue;
    run.push_back(n.name);
    if (cut.count(n.name)) close_run();
  }
  close_run();
  std::vector<std::string> ordered;
  for (std::size_t i : compute_in_order(w))
    if (out.count(w.node(i).name)) ordered.push_back(w.node(i).name);
  return ordered;
}

namespace {

// The group of every compute and OutEdge node, walking the dataflow order: a FusionEdge or a cut
// point closes the group; an OutEdge joins its producer's group. -1 for the others.
std::vector<int> assign_groups(const Workload& w, const std::unordered_set<std::string>& cut_points) {
  std::vector<int> group(w.size(), -1);
  int g = 0;
  bool used = false;
  for (std::size_t i : w.dataflow_order()) {
    const Node& n = w.node(i);
    if (n.kind == NodeKind::FusionEdge) {
      if (used) ++g;
      used = false;
      continue;
    }
    if (n.kind == NodeKind::InEdge) continue;
    if (n.kind == NodeKind::OutEdge) {
      const std::size_t p = w.producer_of(n.inputs.front()->name);
      group[i] = p != Workload::npos && group[p] >= 0 ? group[p] : g;
      continue;
    }
    group[i] = g;
    used = true;
    if (cut_points.count(n.name)) {
      ++g;
      used = false;
    }
  }
  return group;
}

// Builds each group's workload: its members, the InEdges it reads and the OutEdges it writes, each
// edge added once.
class GroupBuilder {
 public:
  GroupBuilder(const Workload& w, const std::unordered_set<std::string>& cut_points)
      : w_(w), cut_points_(cut_points), group_(assign_groups(w, cut_points)) {
    const auto n = static_cast<std::size_t>(*std::max_element(group_.begin(), group_.end()) + 1);
    groups_.resize(std::max<std::size_t>(n, 1));
  }

  void place_all() {
    for (std::size_t i : w_.dataflow_order()) {
      if (group_[i] < 0) continue;
      const Node& n = w_.node(i);
      if (n.kind == NodeKind::OutEdge) {
        place_graph_output(n, group_[i]);
        continue;
      }
      Node copy = n;
      for (auto& t : copy.inputs) t = group_input(group_[i], t);
      groups_[static_cast<std::size_t>(group_[i])].members.push_back(std::move(copy));
    }
  }

  // The groups with at least one compute node, in order.
  std::vector<Workload> workloads() {
    std::vector<Workload> out;
    for (auto& g : groups_) {
      if (std::none_of(g.members.begin(), g.members.end(), [](const Node& n) { return n.has_iteration_space(); }))
        continue;
      std::vector<Node> nodes = std::move(g.inputs);
      nodes.insert(nodes.end(), g.members.begin(), g.members.end());
      nodes.insert(nodes.end(), g.outputs.begin(), g.outputs.end());
      out.emplace_back(std::move(nodes));
    }
    return out;
  }

 private:
  struct Group {
    std::vector<Node> members, inputs, outputs;
    std::set<std::string> have_in, have_out;
  };

  void add_input(int g, Node edge) {
    auto& grp = groups_[static_cast<std::size_t>(g)];
    if (grp.have_in.insert(edge.name).second) grp.inputs.push_back(std::move(edge));
  }
  void add_output(int g, const std::string& name, const TensorPtr& t) {
    if (g < 0) return;
    auto& grp = groups_[static_cast<std::size_t>(g)];
    if (grp.have_out.insert(name).second) grp.outputs.push_back(make_out_edge(name, t));
  }

  // Where a tensor read by group `cg` comes from, adding the edge pair when it crosses groups.
  TensorPtr group_input(int cg, const TensorPtr& t) {
    const std::size_t p = w_.producer_of(t->name);
    const Node& pn = w_.node(p);
    if (pn.kind == NodeKind::InEdge) {
      add_input(cg, pn);
      return t;
    }
    std::string in_name;
    if (pn.kind == NodeKind::FusionEdge) {
      // The layout op sits between groups: its input leaves the producer's group, its output enters.
      in_name = pn.name + "_in";
      const TensorPtr before = before_layout_ops(w_, t);
      add_output(group_[w_.producer_of(before->name)], pn.name + "_out", before);
    } else {
      const int pg = group_[p];
      if (pg == cg) return t;
      const bool cut = cut_points_.count(pn.name) > 0;
      in_name = cut ? pn.name + "_cut_in" : t->name + "_bridge_in";
      add_output(pg, cut ? pn.name + "_cut_out" : t->name + "_bridge_out", t);
    }
    add_input(cg, make_in_edge(in_name, t));
    return t;
  }

  void place_graph_output(const Node& n, int g) {
    const TensorPtr& t = n.inputs.front();
    const NodeKind from = w_.node(w_.producer_of(t->name)).kind;
    if (from == NodeKind::FusionEdge) {
      // A graph output behind layout ops: the producing group writes the tensor before them
      // off-chip under the output's name (nothing to write when a graph input is reshaped).
      const TensorPtr before = before_layout_ops(w_, t);
      add_output(group_[w_.producer_of(before->name)], n.name, before);
      return;
    }
    if (from == NodeKind::InEdge) (void)group_input(g, t);  // a graph input passed through
    auto& grp = groups_[static_cast<std::size_t>(g)];
    if (grp.have_out.insert(n.name).second) grp.outputs.push_back(n);
  }

  const Workload& w_;
  const std::unordered_set<std::string>& cut_points_;
  std::vector<int> group_;
  std::vector<Group> groups_;
};

}  // namespace

std::vector<Workload> split_fusion_groups(const Workload& w, const std::vector<std::string>& cut_list) {
  for (const auto& c : cut_list) (void)w.index_of(c);  // unknown names are an error
  const std::unordered_set<std::string> cut_points(cut_list.begin(), cut_list.end());
  if (w.nodes_of_kind(NodeKind::FusionEdge).empty() && cut_points.empty()) return {w};
  GroupBuilder builder(w, cut_points);
  builder.place_all();
  return builder.workloads();
}

}  // namespace stream::pipeline
