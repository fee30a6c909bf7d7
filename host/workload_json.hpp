// A workload as `stream parse --format json` prints it (schema in docs/workload-json.md): every
// node with its loops and operands, and the totals. Shared by `stream parse` and the Python
// module's parse_workload().
#pragma once

#include <vector>

#include <nlohmann/json.hpp>
#include <stream/ir/iteration_space.hpp>
#include <stream/ir/workload.hpp>

namespace stream::host {

/// A node's loops with iterator kinds as reported: a normalization's normalised axes are
/// reductions (the node's identity maps alone would call them parallel).
[[nodiscard]] std::vector<LoopDim> reported_loops(const Node& n);

/// A tensor's layout: {"order": [axes, outermost first], "block": null or {"axis", "size"},
/// "text": "(0,2,3,1)"}.
[[nodiscard]] nlohmann::json layout_json(const Tensor& t);

[[nodiscard]] nlohmann::json workload_json(const Workload& w);

}  // namespace stream::host
