#include "stream/ir/tensor.hpp"

#include "stream/error.hpp"
#include "stream/ir/checked.hpp"

namespace stream {

std::int64_t Tensor::size_elements() const {
  return checked_product(shape, [this] { return "tensor '" + name + "' (elements)"; });
}

std::int64_t Tensor::size_bits() const {
  return checked_mul(size_elements(), bits(dtype), [this] { return "tensor '" + name + "' (size in bits)"; });
}

TensorPtr make_tensor(std::string name, DType dtype, std::vector<std::int64_t> shape) {
  for (auto d : shape)
    if (d < 0) throw Error("tensor '" + name + "' has a negative dimension " + std::to_string(d));
  auto t = std::make_shared<const Tensor>(Tensor{std::move(name), dtype, std::move(shape)});
  (void)t->size_bits();
  return t;
}

TensorPtr make_tensor(std::string name, DType dtype, std::vector<std::int64_t> shape, Layout layout) {
  (void)make_tensor(name, dtype, shape);  // the shape's own checks first
  check_layout(layout, shape, name);
  return std::make_shared<const Tensor>(Tensor{std::move(name), dtype, std::move(shape), std::move(layout)});
}

}  // namespace stream
