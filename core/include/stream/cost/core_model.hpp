// The cost model's flat view of a ZigZag core (hardware::Core).
//
// Precomputed once per core: per memory operand (I1, I2, O) its levels innermost first; per
// (memory operand, level, direction) the port that carries it; per memory its instance size,
// costs, served array dims, whether it is an "inner" memory (no memory below it for any of its
// operands: only those limit the spatial unrolling), and the ports with the (operand, level,
// direction) triples they serve in allocation order. Memory order is the file order, which is
// also a valid bottom-up order for the allocator.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "stream/error.hpp"
#include "stream/export.hpp"

namespace stream::hardware {
struct Core;
}

namespace stream::cost {

/// Memory operands, in the index order used throughout the cost model.
enum MemOp : int { kI1 = 0, kI2 = 1, kO = 2 };
inline constexpr int kNumMemOps = 3;

/// Data directions, in the order the oracle lists word accesses.
enum Dir : int { kTL = 0, kFL = 1, kTH = 2, kFH = 3 };  // RD_OUT_TO_LOW, WR_IN_BY_LOW, RD_OUT_TO_HIGH, WR_IN_BY_HIGH
inline constexpr int kNumDirs = 4;
const char* dir_name(int dir);

/// Bits of a precision name as core files write it in `operand_precision` ("fp32", "bf16",
/// "int8", ...); throws a stream::Error at `where` for a name it does not know.
[[nodiscard]] STREAM_API int precision_bits(const std::string& text, const Location& where);

struct PortServe {
  int memop = 0;
  int level = 0;
  int dir = 0;
};

struct CorePort {
  std::string name;
  std::int64_t bw_min = 0;
  std::int64_t bw_max = 0;
  std::vector<PortServe> serves;     ///< allocation order
  bool shared_by_two_inputs = false; ///< carries both I1 and I2
};

struct CoreMemory {
  std::string name;
  double size = 0;  ///< bits per instance
  double r_cost = 0, w_cost = 0;
  std::vector<int> memops;     ///< file order
  std::vector<int> served_oa;  ///< indices of the array dims it is shared along
  std::vector<CorePort> ports;
  std::array<int, kNumMemOps> level_of{-1, -1, -1};
  bool inner = false;
};

struct PortRef {
  int mem = -1;
  int port = -1;
};

struct STREAM_API CoreModel {
  std::string name;
  std::vector<std::string> oa_names;
  std::vector<std::int64_t> oa_sizes;
  double unit_energy = 0;
  std::int64_t total_units = 1;
  std::vector<CoreMemory> mems;
  std::array<std::vector<int>, kNumMemOps> levels;  ///< memory indices per memory operand
  /// port_of[memop][level][dir]
  std::array<std::vector<std::array<PortRef, kNumDirs>>, kNumMemOps> port_of;
  /// Partial-sum precision in bits from the file's `operand_precision: {accumulator: ...}`; 0 when
  /// the file declares none (partial sums then keep the output's precision, as the reference).
  int accumulator_bits = 0;
  /// Fixed spatial mapping (`dataflows`): per array dim, (layer dim name, factor); empty if none.
  std::vector<std::vector<std::pair<std::string, std::int64_t>>> dataflows;

  [[nodiscard]] bool has_memop(int m) const { return !levels[static_cast<std::size_t>(m)].empty(); }
  [[nodiscard]] int memop_count() const;
  [[nodiscard]] const CorePort* port(int memop, int level, int dir) const;

  static CoreModel from_core(const hardware::Core& core);
};

}  // namespace stream::cost
