// schedule.svg: one steady-state iteration as a picture anyone can open in a browser. Resources
// are rows (cores, then links), time runs left to right, every slot is a band and every compute
// node or transfer a labelled bar over its slot on each resource it occupies.
#pragma once

#include <string>

#include "stream/hardware/accelerator.hpp"
#include "stream/pipeline/run.hpp"

namespace stream::report {

[[nodiscard]] std::string schedule_svg(const pipeline::GroupResult& group, const hardware::Accelerator& accelerator);

}  // namespace stream::report
