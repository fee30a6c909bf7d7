#include "workload_graph.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace stream::report::detail {

namespace {

struct Layer {
  std::string name, type;
  int group = 0;
  std::vector<std::string> inputs;  ///< tensor names
};

// Tensor name -> the layers whose outputs it carries: a computation node's output is its own; a
// layout operator's or edge's output carries whatever its inputs carry (a fusion edge between two
// groups is an OutEdge in one group and an InEdge in the next, joined by the tensor's name).
class Producers {
 public:
  explicit Producers(const pipeline::RunResult& r) {
    for (const auto& g : r.groups)
      for (const auto& n : g.workload.nodes())
        for (const auto& t : n.outputs) {
          if (n.kind == NodeKind::Computation || n.kind == NodeKind::Normalization) {
            own_[t->name] = n.name;
          } else {
            auto& via = through_[t->name];
            for (const auto& in : n.inputs) via.push_back(in->name);
          }
        }
  }

  // Iterative, with a visited set: a chain of thousands of reshapes stays linear.
  [[nodiscard]] std::set<std::string> layers_behind(const std::string& tensor) const {
    std::set<std::string> found, seen{tensor};
    std::vector<std::string> todo{tensor};
    while (!todo.empty()) {
      const std::string t = todo.back();
      todo.pop_back();
      if (auto it = own_.find(t); it != own_.end()) {
        found.insert(it->second);
        continue;
      }
      if (auto it = through_.find(t); it != through_.end())
        for (const auto& in : it->second)
          if (seen.insert(in).second) todo.push_back(in);
    }
    return found;
  }

 private:
  std::map<std::string, std::string> own_;
  std::map<std::string, std::vector<std::string>> through_;
};

std::vector<Layer> layers_of(const pipeline::RunResult& r) {
  std::vector<Layer> out;
  std::set<std::string> have;  // a layer appears once even if a conversion group repeats a name
  for (const auto& g : r.groups)
    for (std::size_t i : g.workload.computation_nodes()) {
      const Node& n = g.workload.node(i);
      if (!have.insert(n.name).second) continue;
      Layer l{n.name, n.type, g.index, {}};
      for (const auto& t : n.inputs) l.inputs.push_back(t->name);
      out.push_back(std::move(l));
    }
  return out;
}

}  // namespace

nlohmann::ordered_json workload_graph_data(const pipeline::RunResult& r) {
  const auto layers = layers_of(r);
  std::map<std::string, int> index;
  for (std::size_t i = 0; i < layers.size(); ++i) index[layers[i].name] = static_cast<int>(i);
  const Producers producers(r);
  std::set<std::pair<int, int>> edges;
  for (std::size_t i = 0; i < layers.size(); ++i)
    for (const auto& t : layers[i].inputs)
      for (const auto& p : producers.layers_behind(t))
        if (auto it = index.find(p); it != index.end() && it->second != static_cast<int>(i))
          edges.insert({it->second, static_cast<int>(i)});
  // Groups run in order and each group's layers are in topological order, so the layers list is
  // topological and one pass gives every longest chain.
  std::vector<int> column(layers.size(), 0);
  for (const auto& [from, to] : edges)
    if (from < to) column[static_cast<std::size_t>(to)] = std::max(column[static_cast<std::size_t>(to)], column[static_cast<std::size_t>(from)] + 1);
  std::map<int, int> rows_used;
  nlohmann::ordered_json nodes = nlohmann::ordered_json::array();
  int columns = 0, rows = 0;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const int c = column[i], row = rows_used[c]++;
    columns = std::max(columns, c + 1);
    rows = std::max(rows, row + 1);
    nodes.push_back({{"name", layers[i].name}, {"type", layers[i].type}, {"group", layers[i].group}, {"column", c}, {"row", row}});
  }
  nlohmann::ordered_json edge_list = nlohmann::ordered_json::array();
  for (const auto& [from, to] : edges) edge_list.push_back({from, to});
  return {{"nodes", nodes}, {"edges", edge_list}, {"columns", columns}, {"rows", rows}};
}

}  // namespace stream::report::detail
