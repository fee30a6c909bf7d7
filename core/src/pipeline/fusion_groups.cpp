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

std::vector<Workload> split_fusion_groups(const Workload& w, const std::vector<std::string>& cut_list) {
  for (const auto& c : cut_list) (void)w.index_of(c);  // unknown names are an error
  const std::unordered_set<std::string> cut_points(cut_list.begin(), cut_list.end());
  auto has = [](const std::unordered_set<std::string>& set, const std::string& name) { return set.count(name) > 0; };
  const bool any_fe = !w.nodes_of_kind(NodeKind::FusionEdge).empty();
  if (!any_fe && cut_points.empty()) return {w};

  // Group of every compute / OutEdge node, walking the dataflow order.
  const std::size_t npos = Workload::npos;
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
      group[i] = p != npos && group[p] >= 0 ? group[p] : g;
      continue;
    }
    group[i] = g;
    used = true;
    if (has(cut_points, n.name)) {
      ++g;
      used = false;
    }
  }
  const int ngroups = g + 1;
  std::vector<std::vector<Node>> members(static_cast<std::size_t>(ngroups));
  std::vector<std::vector<Node>> inputs(static_cast<std::size_t>(ngroups));
  std::vector<std::vector<Node>> outputs(static_cast<std::size_t>(ngroups));
  std::vector<std::set<std::string>> have_in(static_cast<std::size_t>(ngroups));
  std::vector<std::set<std::string>> have_out(static_cast<std::size_t>(ngroups));

  // Where a tensor read by group `cg` comes from, and the edge pair to add.
  auto group_input = [&](int cg, const TensorPtr& t) -> TensorPtr {
    const std::size_t p = w.producer_of(t->name);
    const Node& pn = w.node(p);
    if (pn.kind == NodeKind::InEdge) {
      if (have_in[static_cast<std::size_t>(cg)].insert(pn.name).second)
        inputs[static_cast<std::size_t>(cg)].push_back(pn);
      return t;
    }
    std::string in_name, out_name;
    TensorPtr src = t;
    if (pn.kind == NodeKind::FusionEdge) {
      // The layout op sits between groups: its input leaves the producer's group, its output enters.
      in_name = pn.name + "_in";
      out_name = pn.name + "_out";
      const TensorPtr before = before_layout_ops(w, t);
      const int pg = group[w.producer_of(before->name)];
      if (pg >= 0 && have_out[static_cast<std::size_t>(pg)].insert(out_name).second)
        outputs[static_cast<std::size_t>(pg)].push_back(make_out_edge(out_name, before));
    } else {
      const int pg = group[p];
      if (pg == cg) return t;
      const bool cut = has(cut_points, pn.name);
      in_name = cut ? pn.name + "_cut_in" : t->name + "_bridge_in";
      out_name = cut ? pn.name + "_cut_out" : t->name + "_bridge_out";
      if (pg >= 0 && have_out[static_cast<std::size_t>(pg)].insert(out_name).second)
        outputs[static_cast<std::size_t>(pg)].push_back(make_out_edge(out_name, t));
    }
    if (have_in[static_cast<std::size_t>(cg)].insert(in_name).second)
      inputs[static_cast<std::size_t>(cg)].push_back(make_in_edge(in_name, src));
    return src;
  };
  for (std::size_t i : w.dataflow_order()) {
    const Node& n = w.node(i);
    if (group[i] < 0) continue;
    if (n.kind == NodeKind::OutEdge) {
      const TensorPtr& t = n.inputs.front();
      const NodeKind from = w.node(w.producer_of(t->name)).kind;
      if (from == NodeKind::FusionEdge) {
        // A graph output behind layout ops: the producing group writes the tensor before them
        // off-chip under the output's name (nothing to write when a graph input is reshaped).
        const TensorPtr before = before_layout_ops(w, t);
        const int pg = group[w.producer_of(before->name)];
        if (pg >= 0 && have_out[static_cast<std::size_t>(pg)].insert(n.name).second)
          outputs[static_cast<std::size_t>(pg)].push_back(make_out_edge(n.name, before));
        continue;
      }
      if (from == NodeKind::InEdge) (void)group_input(group[i], t);  // a graph input passed through
      if (have_out[static_cast<std::size_t>(group[i])].insert(n.name).second)
        outputs[static_cast<std::size_t>(group[i])].push_back(n);
      continue;
    }
    Node copy = n;
    for (auto& t : copy.inputs) t = group_input(group[i], t);
    members[static_cast<std::size_t>(group[i])].push_back(std::move(copy));
  }
  std::vector<Workload> out;
  for (int k = 0; k < ngroups; ++k) {
    auto& m = members[static_cast<std::size_t>(k)];
    if (std::none_of(m.begin(), m.end(), [](const Node& n) { return n.has_iteration_space(); })) continue;
    std::vector<Node> nodes = inputs[static_cast<std::size_t>(k)];
    nodes.insert(nodes.end(), m.begin(), m.end());
    for (auto& o : outputs[static_cast<std::size_t>(k)]) nodes.push_back(o);
    out.emplace_back(std::move(nodes));
  }
  return out;
}

}  // namespace stream::pipeline
