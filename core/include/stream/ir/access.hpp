// Operand access relations.
//
// How a node reads or writes an operand, as fusion analysis needs it: a plain affine access
// (its operand map), a piecewise-affine access (a union of affine pieces: masked, windowed or
// banded regions, or a map using floordiv/mod), or a data-dependent access (gather, routing),
// which is bounded by an affine access but whose real footprint depends on an index tensor.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stream/export.hpp"
#include "stream/ir/affine_map.hpp"

namespace stream {

enum class AccessKind { Affine, PiecewiseAffine, DataDependent };

[[nodiscard]] STREAM_API std::string_view name(AccessKind k);  ///< "affine", "piecewise_affine", "data_dependent"

struct AccessRelation {
  AccessKind kind = AccessKind::Affine;
  std::vector<AffineMap> pieces;  ///< Affine: one (the operand map); Piecewise: >= 1; DataDependent: the bound
  std::string index_tensor;       ///< DataDependent: the tensor whose values route the access ("" if unknown)
  std::optional<double> reuse;    ///< DataDependent: expected reuse; unset means worst case

  [[nodiscard]] bool is_static() const { return kind != AccessKind::DataDependent; }
};

}  // namespace stream
