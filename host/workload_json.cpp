#include "workload_json.hpp"

#include <map>

#include <stream/ir/dimensions.hpp>
#include <stream/ir/iteration_space.hpp>

namespace stream::host {

std::vector<LoopDim> reported_loops(const Node& n) {
  auto loops = loop_dims(n);
  for (int a : n.reduction_axes)
    if (a >= 0 && static_cast<std::size_t>(a) < loops.size()) loops[static_cast<std::size_t>(a)].iterator = IteratorKind::Reduction;
  return loops;
}

nlohmann::json layout_json(const Tensor& t) {
  nlohmann::json j{{"order", t.layout.order_for(t.rank())}, {"block", nullptr}, {"text", t.layout.str(t.rank())}};
  if (t.layout.block) j["block"] = {{"axis", t.layout.block->axis}, {"size", t.layout.block->size}};
  return j;
}

namespace {

nlohmann::json operand_json(const Node& n, std::size_t i) {
  const auto& t = *n.operand(i);
  nlohmann::json j{{"tensor", t.name},
                   {"role", n.is_output_operand(i) ? "output" : "input"},
                   {"dtype", std::string(name(t.dtype))},
                   {"shape", n.has_iteration_space() ? t.shape : t.model_shape()},
                   {"layout", layout_json(t)}};
  // A graph edge reports the model's shape; the split one its readers index is there too.
  if (!n.has_iteration_space() && !t.declared_shape.empty()) j["folded_shape"] = t.shape;
  if (n.has_iteration_space()) {
    j["map"] = n.operand_mapping[i].str();
    j["access"] = std::string(name(access_relation(n, i).kind));
  } else {
    j["map"] = nullptr;
    j["access"] = nullptr;
  }
  return j;
}

}  // namespace

nlohmann::json workload_json(const Workload& w) {
  nlohmann::json nodes = nlohmann::json::array();
  std::map<std::string, int> by_type;
  std::int64_t loop_total = 0;
  std::map<std::string, std::int64_t> kinds;
  for (const auto& n : w.nodes()) {
    nlohmann::json j{{"name", n.name}, {"type", n.type}, {"kind", std::string(name(n.kind))}};
    nlohmann::json loops = nlohmann::json::array();
    if (n.has_iteration_space()) {
      ++by_type[n.type];
      for (const auto& l : reported_loops(n))
        loops.push_back({{"name", l.name}, {"size", l.size}, {"iterator", std::string(name(l.iterator))}});
      loop_total += n.num_dims();
    }
    j["loop_dims"] = loops;
    nlohmann::json ops = nlohmann::json::array();
    for (std::size_t i = 0; i < n.num_operands(); ++i) ops.push_back(operand_json(n, i));
    j["operands"] = ops;
    if (n.kind == NodeKind::Normalization) j["reduction_axes"] = n.reduction_axes;
    if (n.fused_kernel) j["fused_kernel"] = *n.fused_kernel;
    ++kinds[std::string(name(n.kind))];
    nodes.push_back(j);
  }
  nlohmann::json totals{{"nodes", w.size()},
                        {"edges", w.edges().size()},
                        {"computation_nodes", w.computation_nodes().size()},
                        {"in_edges", kinds["in_edge"]},
                        {"out_edges", kinds["out_edge"]},
                        {"fusion_edges", kinds["fusion_edge"]},
                        {"normalization_nodes", kinds["normalization"]},
                        {"tensors", w.tensors().size()},
                        {"loop_dims", loop_total},
                        {"unique_dims", w.unified_dimensions().num_unique()},
                        {"by_type", by_type}};
  return {{"nodes", nodes}, {"totals", totals}};
}

}  // namespace stream::host
