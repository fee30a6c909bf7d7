#include "stream/tiling/tensor_accessors.hpp"

#include <algorithm>

namespace stream::tiling {

TensorAccessors::TensorAccessors(const Workload& workload) {
  for (std::size_t i = 0; i < workload.size(); ++i) {
    const Node& n = workload.node(i);
    if (!n.has_iteration_space()) continue;
    // The operands Node::mapping_of can answer for: those with a map.
    const std::size_t mapped = std::min(n.num_operands(), n.operand_mapping.size());
    for (std::size_t k = 0; k < mapped; ++k) {
      auto& nodes = accessors_[n.operand(k).get()];
      if (nodes.empty() || nodes.back() != i) nodes.push_back(i);
    }
  }
}

const std::vector<std::size_t>& TensorAccessors::of(const Tensor& tensor) const {
  static const std::vector<std::size_t> none;
  auto it = accessors_.find(&tensor);
  return it == accessors_.end() ? none : it->second;
}

}  // namespace stream::tiling
