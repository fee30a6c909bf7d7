// The workload graph.
//
// A Workload owns its nodes in insertion order (an order that reaches outputs, so it is kept)
// and derives the producer->consumer edges: each input tensor's producer is the first node that
// lists it among its outputs. dataflow_order() is the topological order that, among the ready
// nodes, always takes the one inserted first (the reference's lexicographic topological sort), so
// it is deterministic and independent of names. Workload-wide unified dimensions are computed on
// first use and cached (see dimensions.hpp). A Workload is immutable once built.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "stream/export.hpp"
#include "stream/ir/node.hpp"

namespace stream {

struct UnifiedDimensions;

class STREAM_API Workload {
 public:
  Workload();
  /// Validates every node, checks names are unique and every input has a producer, and that the
  /// graph is acyclic. Throws stream::Error naming the offending node and tensor.
  explicit Workload(std::vector<Node> nodes);

  [[nodiscard]] const std::vector<Node>& nodes() const { return nodes_; }
  [[nodiscard]] std::size_t size() const { return nodes_.size(); }
  [[nodiscard]] const Node& node(std::size_t index) const { return nodes_.at(index); }
  /// Index of the node with that name; throws if absent.
  [[nodiscard]] std::size_t index_of(const std::string& node_name) const;
  [[nodiscard]] const Node& node_by_name(const std::string& node_name) const { return nodes_[index_of(node_name)]; }

  /// Producer->consumer edges as (producer index, consumer index), sorted, without duplicates.
  [[nodiscard]] const std::vector<std::pair<std::size_t, std::size_t>>& edges() const { return edges_; }
  [[nodiscard]] const std::vector<std::size_t>& predecessors(std::size_t index) const { return preds_.at(index); }
  [[nodiscard]] const std::vector<std::size_t>& successors(std::size_t index) const { return succs_.at(index); }
  [[nodiscard]] const std::vector<std::size_t>& dataflow_order() const { return order_; }
  /// Index of the node that produces `tensor_name`, or npos for a tensor nobody produces.
  [[nodiscard]] std::size_t producer_of(const std::string& tensor_name) const;
  /// Every distinct tensor, first occurrence in node order.
  [[nodiscard]] std::vector<TensorPtr> tensors() const;

  /// Indices, in insertion order, of nodes of the given kinds.
  [[nodiscard]] std::vector<std::size_t> computation_nodes() const;  ///< Computation and Normalization
  [[nodiscard]] std::vector<std::size_t> nodes_of_kind(NodeKind kind) const;

  /// Loop sizes of node `index` (empty for edges), derived once at construction.
  [[nodiscard]] const std::vector<std::int64_t>& loop_sizes(std::size_t index) const { return sizes_.at(index); }

  /// Unified dimensions (computed once, then cached; thread-safe).
  [[nodiscard]] const UnifiedDimensions& unified_dimensions() const;

  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

 private:
  std::vector<Node> nodes_;
  std::unordered_map<std::string, std::size_t> by_name_;
  std::unordered_map<std::string, std::size_t> producer_;
  std::vector<std::pair<std::size_t, std::size_t>> edges_;
  std::vector<std::vector<std::size_t>> preds_, succs_;
  std::vector<std::size_t> order_;
  std::vector<std::vector<std::int64_t>> sizes_;
  struct Cache;
  std::shared_ptr<Cache> cache_;  // shared by copies: a Workload is immutable
};

}  // namespace stream
