// The workload graph with its fusion groups, as report.html draws it: one vertex per layer
// (computation node of some group), an edge where one layer's output reaches another's input
// (through layout operators and across groups, matched by tensor name), and a layered drawing
// computed here: a layer's column is the length of the longest chain of layers before it, its row
// its place among the column's layers in the order the groups run. Only the page's script draws.
#pragma once

#include <nlohmann/json.hpp>

#include "stream/pipeline/run.hpp"

namespace stream::report::detail {

/// {"nodes": [{"name", "type", "group", "column", "row"}], "edges": [[from, to]], "columns",
/// "rows"}; edges index `nodes`, sorted, without duplicates.
[[nodiscard]] nlohmann::ordered_json workload_graph_data(const pipeline::RunResult& run);

}  // namespace stream::report::detail
