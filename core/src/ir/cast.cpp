#include "stream/ir/cast.hpp"

#include <map>

namespace stream {

bool is_floating_point(DType t) { return t == DType::f64 || t == DType::f32 || t == DType::f16 || t == DType::bf16; }

CastResult cast_floating_point(const Workload& workload, DType target) {
  CastResult r;
  std::map<const Tensor*, TensorPtr> retyped;
  auto convert = [&](const TensorPtr& t) -> TensorPtr {
    if (!is_floating_point(t->dtype) || t->dtype == target) return t;
    auto [it, fresh] = retyped.try_emplace(t.get());
    if (fresh) {
      auto retyped_tensor = std::make_shared<Tensor>(*make_tensor(t->name, target, t->shape, t->layout));
      retyped_tensor->declared_shape = t->declared_shape;
      it->second = retyped_tensor;
    }
    return it->second;
  };
  std::vector<Node> nodes = workload.nodes();
  for (auto& n : nodes) {
    for (auto& t : n.inputs) t = convert(t);
    for (auto& t : n.outputs) t = convert(t);
  }
  r.retyped = retyped.size();
  r.workload = Workload(std::move(nodes));
  return r;
}

}  // namespace stream
