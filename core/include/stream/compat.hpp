// `--compat`: which tool's automatic path a run reproduces (docs/pipeline.md, "Compatibility
// mode stream-1.13").
//
// None is this tool's own path: layout operators fold into their readers, the capacity tiler
// charges a node its real share, the memory rows use each node's own tiles. Stream113 follows the
// reference (Stream 1.13) where these deliberately differ, so that a user can reproduce any of its
// runs exactly: A1 layout operators stay FusionEdges and split the fusion groups, A2 the
// reference's fusion tiling and capacity tiler with their quirks, A3 the memory rows size a
// transfer's tiles in the steady-state dims where a transfer unifies its consumers' dims.
#pragma once

#include <string>

#include "stream/export.hpp"

namespace stream {

enum class Compat { None, Stream113 };

[[nodiscard]] STREAM_API const char* name(Compat compat);  ///< "none", "stream-1.13"
/// "none" or "stream-1.13"; anything else throws a stream::Error (bad input) naming `where`.
[[nodiscard]] STREAM_API Compat parse_compat(const std::string& text, const std::string& where);

}  // namespace stream
