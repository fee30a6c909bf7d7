#include "stream/ir/tensor.hpp"

#include "stream/error.hpp"

namespace stream {

std::int64_t Tensor::size_elements() const {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}

TensorPtr make_tensor(std::string name, DType dtype, std::vector<std::int64_t> shape) {
  for (auto d : shape)
    if (d < 0) throw Error("tensor '" + name + "' has a negative dimension " + std::to_string(d));
  return std::make_shared<const Tensor>(Tensor{std::move(name), dtype, std::move(shape)});
}

}  // namespace stream
