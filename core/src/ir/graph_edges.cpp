#include "stream/ir/graph_edges.hpp"

#include <set>
#include <utility>

#include "stream/error.hpp"

namespace stream {

std::vector<Node> add_graph_edges(std::vector<Node> body, const GraphEdgeOptions& options) {
  std::set<std::string> names, produced, read;
  for (const auto& n : body) {
    names.insert(n.name);
    for (const auto& t : n.outputs) produced.insert(t->name);
    for (const auto& t : n.inputs) read.insert(t->name);
  }
  auto unique_name = [&](const std::string& base, const std::string& suffix) {
    auto name = base;
    while (names.count(name) != 0) name += suffix;
    names.insert(name);
    return name;
  };
  std::vector<Node> nodes;
  std::set<std::string> edged;
  auto add_in_edge = [&](const std::string& value) {
    if (!edged.insert(value).second) return;
    nodes.push_back(make_in_edge(unique_name(value, "_in"), options.tensor(value)));
  };
  for (const auto& in : options.inputs) {
    if (in.unless_produced && produced.count(in.value) != 0) continue;
    if (in.unless_unread && read.count(in.value) == 0) continue;
    add_in_edge(in.value);
  }
  for (const auto& n : body)
    for (const auto& t : n.inputs) {
      if (produced.count(t->name) != 0 || edged.count(t->name) != 0) continue;
      if (!options.admit_unbound_read)
        throw Error("tensor '" + t->name + "' read by node '" + n.name + "' is neither a graph input nor produced by a node",
                    Location{.node = n.name, .operand = t->name});
      options.admit_unbound_read(n, t);
      add_in_edge(t->name);
    }
  for (auto& n : body) nodes.push_back(std::move(n));
  std::set<std::string> out_edged;
  for (const auto& out : options.outputs) {
    if (produced.count(out.value) == 0 && edged.count(out.value) == 0) continue;
    if (options.one_out_edge_per_value && !out_edged.insert(out.value).second) continue;
    nodes.push_back(make_out_edge(unique_name(out.edge_name, "_out"), options.tensor(out.value)));
  }
  return nodes;
}

}  // namespace stream
