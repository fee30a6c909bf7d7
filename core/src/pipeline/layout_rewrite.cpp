#include "layout_rewrite.hpp"

namespace stream::pipeline {

Workload conversion_group(const TensorPtr& from, const Layout& to) {
  const std::string name = converted_name(from->name, to, from->rank());
  auto out = make_tensor(name, from->dtype, from->shape, to);
  const int rank = static_cast<int>(from->rank());
  return Workload({make_in_edge(from->name, from),
                   make_computation(conversion_node_name(from->name), kLayoutConversionType, {from}, {out},
                                    {AffineMap::identity(rank), AffineMap::identity(rank)}),
                   make_out_edge(name + "_out", out)});
}

TensorPtr replacement(const TensorPtr& tensor, const LayoutChoice& choice) {
  if (!choice.changes()) return nullptr;
  const auto& o = choice.chosen_option();
  if (o.conversion) return make_tensor(converted_name(tensor->name, o.layout, tensor->rank()), tensor->dtype, tensor->shape, o.layout);
  return make_tensor(tensor->name, tensor->dtype, tensor->shape, o.layout);
}

Workload with_tensors(const Workload& group, const std::map<std::string, TensorPtr>& replace) {
  auto swap = [&](std::vector<TensorPtr>& ts) {
    for (auto& t : ts)
      if (auto it = replace.find(t->name); it != replace.end()) t = it->second;
  };
  std::vector<Node> nodes = group.nodes();
  for (auto& n : nodes) {
    swap(n.inputs);
    swap(n.outputs);
  }
  return Workload(std::move(nodes));
}

}  // namespace stream::pipeline
