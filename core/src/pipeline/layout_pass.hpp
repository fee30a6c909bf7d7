// `--layout choose` as a pass of its own (layout/choice.hpp): from the first pass's groups it
// plans (gathers every off-chip tensor's options, prices a core conversion by running its group,
// chooses) and, when anything changes, runs the groups again with the choices: the first pass's
// groups rewritten, each core conversion group just before the first group reading its output,
// then the DMA conversions, which have no group.
#pragma once

#include <cstdint>
#include <vector>

#include "group_pass.hpp"
#include "stream/layout/choice.hpp"
#include "stream/layout/outcome.hpp"

namespace stream::pipeline {

struct LayoutPass {
  GroupPass pass;  ///< the second pass, or the first when nothing changes
  std::vector<layout::LayoutChoice> choices;
  std::int64_t first_pass_latency = 0;  ///< set when a second pass ran
  std::vector<layout::DmaConversion> dma_conversions;
};

[[nodiscard]] LayoutPass choose_layouts(GroupPass first, RunContext& ctx);

}  // namespace stream::pipeline
