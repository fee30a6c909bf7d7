#include "graph_builder.hpp"

#include <stream/error.hpp>
#include <utility>

namespace stream::blocks {

AffineMap dims_map(int num_dims, std::initializer_list<int> dims) {
  return AffineMap::of_dims(num_dims, std::span<const int>(dims.begin(), dims.size()));
}

AffineMap dims_map(int num_dims, const std::vector<int>& dims) { return AffineMap::of_dims(num_dims, dims); }

TensorPtr GraphBuilder::tensor(const std::string& name, std::vector<std::int64_t> shape) const {
  return make_tensor(name, dtype_, std::move(shape));
}

TensorPtr GraphBuilder::input(const std::string& name, std::vector<std::int64_t> shape) {
  TensorPtr t = tensor(name, std::move(shape));
  nodes_.push_back(make_in_edge(name, t));
  return t;
}

Node& GraphBuilder::compute(const std::string& name, const std::string& type, std::vector<TensorPtr> inputs,
                            std::vector<TensorPtr> outputs, std::vector<AffineMap> maps,
                            std::vector<std::string> dim_names) {
  Node n = make_computation(name, type, std::move(inputs), std::move(outputs), std::move(maps));
  n.dim_names = std::move(dim_names);
  nodes_.push_back(std::move(n));
  return nodes_.back();
}

TensorPtr GraphBuilder::normalization(const std::string& name, const std::string& type, const TensorPtr& input,
                                      const std::string& output_name, std::vector<int> reduction_axes) {
  TensorPtr out = tensor(output_name, input->shape);
  nodes_.push_back(make_normalization(name, type, input, out, std::move(reduction_axes)));
  return out;
}

Node& GraphBuilder::add(Node node) {
  nodes_.push_back(std::move(node));
  return nodes_.back();
}

void GraphBuilder::output(const std::string& name, const TensorPtr& tensor) {
  nodes_.push_back(make_out_edge(name, tensor));
}

Workload GraphBuilder::build() && { return Workload(std::move(nodes_)); }

std::int64_t positive_int(const BlockParams& params, const std::string& block, const std::string& param) {
  const std::int64_t v = params.get_int(param);
  if (v <= 0)
    throw Error("block '" + block + "': parameter '" + param + "' must be a positive integer, got " +
                std::to_string(v));
  return v;
}

}  // namespace stream::blocks
