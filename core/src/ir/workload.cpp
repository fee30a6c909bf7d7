#include "stream/ir/workload.hpp"

#include <algorithm>
#include <mutex>
#include <queue>

#include "stream/error.hpp"
#include "stream/ir/checked.hpp"
#include "stream/ir/dimensions.hpp"
#include "stream/ir/iteration_space.hpp"

namespace stream {

struct Workload::Cache {
  std::once_flag once;
  std::unique_ptr<UnifiedDimensions> dims;
};

Workload::Workload() : cache_(std::make_shared<Cache>()) {}

Workload::Workload(std::vector<Node> nodes) : nodes_(std::move(nodes)), cache_(std::make_shared<Cache>()) {
  std::unordered_map<std::string, const Tensor*> tensor_by_name;
  auto check_tensor = [&](const Node& n, const TensorPtr& t) {
    auto [it, inserted] = tensor_by_name.try_emplace(t->name, t.get());
    if (!inserted && it->second != t.get())
      fail_node(n.name, t->name, "two different tensors are named '" + t->name + "' in this workload");
  };
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    const Node& n = nodes_[i];
    validate(n);
    if (!by_name_.try_emplace(n.name, i).second) fail_node(n.name, "", "two nodes are named '" + n.name + "'");
    for (const auto& t : n.inputs) check_tensor(n, t);
    for (const auto& t : n.outputs) {
      check_tensor(n, t);
      producer_.try_emplace(t->name, i);  // the first producer wins, as in the reference
    }
  }
  preds_.resize(nodes_.size());
  succs_.resize(nodes_.size());
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    for (const auto& t : nodes_[i].inputs) {
      auto it = producer_.find(t->name);
      if (it == producer_.end())
        fail_node(nodes_[i].name, t->name, "input tensor '" + t->name + "' has no producer (add an InEdge for it)");
      edges_.emplace_back(it->second, i);
    }
  }
  std::sort(edges_.begin(), edges_.end());
  edges_.erase(std::unique(edges_.begin(), edges_.end()), edges_.end());
  for (auto [p, c] : edges_) {
    succs_[p].push_back(c);
    preds_[c].push_back(p);
  }

  // Among ready nodes the earliest inserted goes first (networkx lexicographical_topological_sort).
  std::vector<std::size_t> pending(nodes_.size());
  std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    pending[i] = preds_[i].size();
    if (pending[i] == 0) ready.push(i);
  }
  while (!ready.empty()) {
    auto i = ready.top();
    ready.pop();
    order_.push_back(i);
    for (auto s : succs_[i])
      if (--pending[s] == 0) ready.push(s);
  }
  if (order_.size() != nodes_.size()) {
    for (std::size_t i = 0; i < nodes_.size(); ++i)
      if (pending[i] != 0) fail_node(nodes_[i].name, "", "the workload graph has a cycle through this node");
  }
  sizes_.resize(nodes_.size());
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    sizes_[i] = stream::loop_sizes(nodes_[i]);
    // The iteration-space size (the MAC count) bounds every tile and loop product downstream.
    (void)checked_product(sizes_[i], [&] { return "node '" + nodes_[i].name + "' (iteration space size)"; });
  }
}

std::size_t Workload::index_of(const std::string& node_name) const {
  auto it = by_name_.find(node_name);
  if (it == by_name_.end()) throw Error("no node named '" + node_name + "' in the workload");
  return it->second;
}

std::size_t Workload::producer_of(const std::string& tensor_name) const {
  auto it = producer_.find(tensor_name);
  return it == producer_.end() ? npos : it->second;
}

std::vector<TensorPtr> Workload::tensors() const {
  std::vector<TensorPtr> out;
  std::unordered_map<std::string, bool> seen;
  for (const auto& n : nodes_)
    for (std::size_t i = 0; i < n.num_operands(); ++i)
      if (seen.try_emplace(n.operand(i)->name, true).second) out.push_back(n.operand(i));
  return out;
}

std::vector<std::size_t> Workload::computation_nodes() const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < nodes_.size(); ++i)
    if (nodes_[i].has_iteration_space()) out.push_back(i);
  return out;
}

std::vector<std::size_t> Workload::nodes_of_kind(NodeKind kind) const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < nodes_.size(); ++i)
    if (nodes_[i].kind == kind) out.push_back(i);
  return out;
}

const UnifiedDimensions& Workload::unified_dimensions() const {
  std::call_once(cache_->once, [this] { cache_->dims = std::make_unique<UnifiedDimensions>(compute_unified_dimensions(*this)); });
  return *cache_->dims;
}

}  // namespace stream
