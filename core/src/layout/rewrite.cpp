#include "stream/layout/rewrite.hpp"

#include <set>

namespace stream::layout {

Workload conversion_group(const TensorPtr& from, const Layout& to) {
  const std::string name = converted_name(from->name, to, from->rank());
  auto out = make_tensor(name, from->dtype, from->shape, to);
  const int rank = static_cast<int>(from->rank());
  return Workload({make_in_edge(from->name, from),
                   make_computation(conversion_node_name(from->name), kLayoutConversionType, {from}, {out},
                                    {AffineMap::identity(rank), AffineMap::identity(rank)}),
                   make_out_edge(name + "_out", out)});
}

Rewrite rewrite_of(const TensorPtr& tensor, const LayoutChoice& choice) {
  if (!choice.changes()) return {};
  const auto& o = choice.chosen_option();
  Rewrite r;
  if (!o.written.same_as(tensor->layout, tensor->rank()))
    r.written = make_tensor(tensor->name, tensor->dtype, tensor->shape, o.written);
  r.read = o.converts() ? make_tensor(converted_name(tensor->name, o.layout, tensor->rank()), tensor->dtype, tensor->shape, o.layout)
                        : r.written;
  return r;
}

Workload with_tensors(const Workload& group, const std::map<std::string, Rewrite>& rewrites) {
  std::set<std::string> written;
  for (std::size_t i : group.computation_nodes())
    for (const auto& t : group.node(i).outputs) written.insert(t->name);
  auto swap = [&](std::vector<TensorPtr>& ts) {
    for (auto& t : ts) {
      const auto it = rewrites.find(t->name);
      if (it == rewrites.end()) continue;
      const auto& by = written.count(t->name) ? it->second.written : it->second.read;
      if (by) t = by;
    }
  };
  std::vector<Node> nodes = group.nodes();
  for (auto& n : nodes) {
    swap(n.inputs);
    swap(n.outputs);
  }
  return Workload(std::move(nodes));
}

}  // namespace stream::layout
