#include "stream/ir/matmul_layout.hpp"

#include <utility>

#include "stream/error.hpp"

namespace stream {
namespace {

using E = AffineExpr;

[[noreturn]] void fail_operand(const Tensor& t, const std::string& message) {
  throw Error(message, Location{.operand = t.name});
}

// The index results of an operand's leading `own` batch axes, right-aligned to the output's p.
std::vector<E> batch_results(const Tensor& t, std::size_t own, const Tensor& y, std::size_t p) {
  if (own > p) fail_operand(t, "operand has more batch axes than the output");
  std::vector<E> r;
  for (std::size_t j = 0; j < own; ++j) {
    const auto o = p - own + j;
    if (t.shape[j] == y.shape[o]) r.push_back(E::dim(static_cast<int>(o)));
    else if (t.shape[j] == 1) r.push_back(E::constant(0));
    else
      fail_operand(t, "batch axis " + std::to_string(j) + " of size " + std::to_string(t.shape[j]) +
                          " does not broadcast to " + std::to_string(y.shape[o]));
  }
  return r;
}

}  // namespace

MatmulLayout matmul_layout(const Tensor& a, const Tensor& b, const Tensor& y, MatmulLayout::OperandB b_layout) {
  const bool nk = b_layout == MatmulLayout::OperandB::NK;
  if (a.rank() == 0 || b.rank() == 0) fail_operand(a.rank() == 0 ? a : b, "matrix product operands must have rank >= 1");
  if (nk && b.rank() < 2) fail_operand(b, "the second operand must be [..., n, k]");
  const bool has_m = a.rank() >= 2, has_n = b.rank() >= 2;
  const std::size_t sub = (has_m ? 1 : 0) + (has_n ? 1 : 0);
  if (y.rank() < sub)
    fail_operand(y, "output rank " + std::to_string(y.rank()) + " is smaller than the " + std::to_string(sub) +
                        " matrix axes the operands give it");
  MatmulLayout l;
  l.batch = y.rank() - sub;
  const auto ka = a.shape.back();
  const auto kb = nk || !has_n ? b.shape.back() : b.shape[b.rank() - 2];
  if (ka != kb)
    fail_operand(b, "contraction mismatch: A[..," + std::to_string(ka) + "] vs B" +
                        (nk ? "[..," + std::to_string(kb) + "]" : "[" + std::to_string(kb) + ",..]"));
  const int p = static_cast<int>(l.batch);
  l.m = has_m ? p : -1;
  l.n = has_n ? p + (has_m ? 1 : 0) : -1;
  l.k = p + static_cast<int>(sub);
  l.dims = l.k + 1;

  auto ar = batch_results(a, has_m ? a.rank() - 2 : 0, y, l.batch);
  if (has_m) ar.push_back(E::dim(l.m));
  ar.push_back(E::dim(l.k));
  auto br = batch_results(b, has_n ? b.rank() - 2 : 0, y, l.batch);
  if (nk) {
    br.push_back(E::dim(l.n));
    br.push_back(E::dim(l.k));
  } else {
    br.push_back(E::dim(l.k));
    if (has_n) br.push_back(E::dim(l.n));
  }
  std::vector<E> yr;
  for (int j = 0; j < p; ++j) {
    yr.push_back(E::dim(j));
    l.names.push_back("b" + std::to_string(j));
  }
  if (has_m) {
    yr.push_back(E::dim(l.m));
    l.names.emplace_back("m");
  }
  if (has_n) {
    yr.push_back(E::dim(l.n));
    l.names.emplace_back("n");
  }
  l.names.emplace_back("k");
  l.a = AffineMap(l.dims, std::move(ar));
  l.b = AffineMap(l.dims, std::move(br));
  l.y = AffineMap(l.dims, std::move(yr));
  return l;
}

Node matmul_node(std::string name, std::string type, const TensorPtr& a, const TensorPtr& b, const TensorPtr& y,
                 MatmulLayout::OperandB b_layout) {
  auto l = matmul_layout(*a, *b, *y, b_layout);
  auto node = make_computation(std::move(name), std::move(type), {a, b}, {y}, {std::move(l.a), std::move(l.b), std::move(l.y)});
  node.dim_names = std::move(l.names);
  validate(node);
  return node;
}

}  // namespace stream
