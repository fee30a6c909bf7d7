// Private: a homogeneous array written as its size instead of its cores. An accelerator file may
// give, instead of `cores`, `offchip_core_id`, `core_connectivity` and `core_coordinates`:
//
//   array:
//     core: ./cores/tpu_like.yaml   # each compute core (a core reference)
//     count: 8                      # compute cores 0..count-1
//     columns: 4                    # mesh width; default: the smallest c with c x c >= count
//     topology: mesh                # mesh (links between neighbours) or bus (the bus alone)
//     link_bandwidth: 32            # each mesh link (bits/cycle), required for a mesh of 2+
//     offchip: ./cores/offchip.yaml # core `count`, the off-chip core
//     bus_bandwidth: 128            # one bus joining every core and the off-chip core
//
// Core i sits at [i % columns, i / columns]; the off-chip core at [0, rows]. The bus is listed
// first and the mesh links after it, so each link takes its pair from the bus (the later
// connection wins, as the reference's graph keeps one edge per pair): neighbours talk over their
// link, every other pair, the off-chip core's among them, over the shared bus. The expansion is
// done on the tree, before reading, so a sweep's override `hardware/array/count` makes another
// array, connectivity included.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <vector>

#include "stream/yaml/yaml_reader.hpp"

namespace stream::hardware::detail {

/// The most directed core pairs an accelerator's connectivity may list (a bus of 4,096 cores):
/// the routing tables grow with them.
inline constexpr std::uint64_t kMaxDirectedPairs = std::uint64_t{1} << 24;

/// Whether `root` is written with an `array` mapping (a const lookup: it adds no key, and yaml-cpp
/// throws on the type of a missing one).
[[nodiscard]] bool has_array(const YAML::Node& root);

/// The nodes of `root` that name a core file: each value of `cores`, or an array's `core` and
/// `offchip` (scalars only; handles into `root`, so assigning one replaces it in place).
[[nodiscard]] std::vector<YAML::Node> core_references(const YAML::Node& root);

/// `root` with its `array` replaced by the cores, coordinates and connectivity it stands for;
/// `root` itself when it has no `array`. Problems go to ctx.diag, at the array's places.
[[nodiscard]] YAML::Node expand_array(const YAML::Node& root, const yamlx::Ctx& ctx);

}  // namespace stream::hardware::detail
