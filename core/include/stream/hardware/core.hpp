// A core: one node of the accelerator (compute array, memory tile, DMA shim or DRAM controller).
//
// The structs mirror the reference's core YAML one to one (spec §1.2) and keep its order: a
// ZigZag core lists its memories lowest level first, and for each operand (I1, I2, O) the last
// memory that stores it is that operand's top level. Units are those of the files: sizes and
// capacities in bits, bandwidths in bits/cycle, latencies in cycles, energies in pJ per access
// (r_cost/w_cost are per access of one port-width word) and pJ per MAC (unit_energy).
//
// Two schemas exist, chosen by the `type` namespace: `zigzag.*` cores have memories, ports and an
// operational array; `aie2.*` tiles have a single memory block (capacity, bandwidth range) and a
// maximum object-FIFO depth. Derived facts (capacity of the top I1 memory, unit count, memory
// instances, the operand hierarchy, performance equality) are free functions or members here so
// that every consumer (cost model, mapper, scheduler) computes them the same way.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "stream/error.hpp"
#include "stream/export.hpp"

namespace stream::hardware {

/// Memory operands of ZigZag: I1 (activations / first input), I2 (weights / second input), O.
enum class Operand { I1, I2, O };
inline constexpr Operand kOperands[] = {Operand::I1, Operand::I2, Operand::O};
[[nodiscard]] STREAM_API std::string_view name(Operand o);  ///< "I1", "I2", "O"
[[nodiscard]] STREAM_API std::optional<Operand> parse_operand(std::string_view text);

enum class PortType { Read, Write, ReadWrite };
[[nodiscard]] STREAM_API std::string_view name(PortType t);  ///< "read", "write", "read_write"

/// ZigZag DataDirection tags as written in `allocation` entries.
enum class DataDirection {
  WrInByHigh,   ///< "fh": written from the higher level
  WrInByLow,    ///< "fl": written from the lower level (partial sums coming up)
  RdOutToHigh,  ///< "th": read out to the higher level
  RdOutToLow,   ///< "tl": read out to the lower level (towards the MACs)
};
[[nodiscard]] STREAM_API std::string_view tag(DataDirection d);  ///< "fh", "fl", "th", "tl"
[[nodiscard]] STREAM_API bool is_write(DataDirection d);         ///< fh and fl write into the memory

struct PortAllocation {
  Operand operand = Operand::I1;
  DataDirection direction = DataDirection::WrInByHigh;
  bool operator==(const PortAllocation&) const = default;
};

struct Port {
  std::string name;  ///< "r_port_1", "w_port_1", "rw_port_1", ...
  PortType type = PortType::ReadWrite;
  std::int64_t bandwidth_min = 0;  ///< bits/cycle
  std::int64_t bandwidth_max = 0;  ///< bits/cycle
  std::vector<PortAllocation> allocation;  ///< file order
  bool operator==(const Port&) const = default;
};

struct STREAM_API Memory {
  std::string name;
  std::int64_t size = 0;             ///< capacity in bits (of one instance)
  std::optional<double> r_cost;      ///< pJ per read access; absent with auto_cost_extraction
  std::optional<double> w_cost;      ///< pJ per write access
  std::optional<double> area;
  std::int64_t latency = 0;          ///< cycles
  std::string mem_type = "sram";
  bool auto_cost_extraction = false;
  bool force_double_buffering = false;
  std::vector<Operand> operands;     ///< file order
  std::vector<Port> ports;           ///< file order
  /// Operational-array dimensions ("D1", ...) this memory is shared across; it is replicated over
  /// the dimensions it does not serve ([] = one instance per PE).
  std::vector<std::string> served_dimensions;
  Location where;                    ///< the memory's key in its file

  [[nodiscard]] bool stores(Operand o) const;
  bool operator==(const Memory& other) const;  ///< every field except `where`
};

struct STREAM_API OperationalArray {
  std::vector<std::string> dimensions;  ///< "D1", "D2", ...
  std::vector<std::int64_t> sizes;      ///< same length as dimensions
  double unit_energy = 0.0;             ///< pJ per MAC
  double unit_area = 0.0;
  std::vector<std::int64_t> input_precision;  ///< IMC only; may be empty
  bool is_imc = false;
  std::optional<std::string> imc_type;
  double adc_resolution = 0.0;
  std::optional<double> bit_serial_precision;

  /// Product of sizes (the MAC count); 1 for an array without dimensions.
  [[nodiscard]] std::int64_t total_unit_count() const;
  /// Size of an array dimension, or 0 when it does not exist.
  [[nodiscard]] std::int64_t size_of(std::string_view dimension) const;
  bool operator==(const OperationalArray&) const = default;
};

/// One fixed spatial unrolling factor: layer dim `layer_dim` unrolled `factor` times.
struct UnrollFactor {
  std::string layer_dim;
  std::int64_t factor = 1;
  bool operator==(const UnrollFactor&) const = default;
};

/// `dataflows: {D1: ["K, 32", ...], ...}`: per array dimension the unrolled layer dims.
struct Dataflow {
  std::string array_dimension;  ///< "D1", ...
  std::vector<UnrollFactor> unrolling;
  bool operator==(const Dataflow&) const = default;
};

struct OperandPrecision {
  std::string input;        ///< "bf16", "fp32", ... (costing only)
  std::string accumulator;  ///< (costing only)
  bool operator==(const OperandPrecision&) const = default;
};

enum class Namespace { ZigZag, Aie2 };
enum class CoreKind { Compute, Memory, Shim, Offchip };
[[nodiscard]] STREAM_API std::string_view name(Namespace n);  ///< "zigzag", "aie2"
[[nodiscard]] STREAM_API std::string_view name(CoreKind k);   ///< "compute", "memory", "shim", "offchip"

struct STREAM_API CoreType {
  Namespace ns = Namespace::ZigZag;
  CoreKind kind = CoreKind::Compute;
  [[nodiscard]] std::string str() const;  ///< "zigzag.compute"
  bool operator==(const CoreType&) const = default;
};

/// aie2 tiles: one memory block.
struct Aie2Memory {
  std::int64_t capacity = 0;       ///< bits
  std::int64_t bandwidth_min = 0;  ///< bits/cycle
  std::int64_t bandwidth_max = 0;  ///< bits/cycle
  bool operator==(const Aie2Memory&) const = default;
};

struct STREAM_API Core {
  int id = -1;  ///< set by the accelerator (-1 for a core file read on its own)
  std::string name;
  CoreType type;

  // ---- zigzag.* ----
  std::vector<Memory> memories;  ///< lowest level first (file order)
  OperationalArray operational_array;
  std::vector<Dataflow> dataflows;  ///< empty = let the cost model generate the spatial mapping
  /// Op types the core accepts (auto-mapper); absent = accepts anything.
  std::optional<std::vector<std::string>> operator_types;
  std::optional<OperandPrecision> operand_precision;

  // ---- aie2.* ----
  std::int64_t max_object_fifo_depth = 0;
  Aie2Memory aie2_memory;
  double utilization = 100.0;  ///< percent; aie2.compute may set it, zigzag cores are always 100

  std::string source_file;  ///< the file the core was read from
  Location where;           ///< where the core starts (its file, or its inline entry)

  [[nodiscard]] bool is_zigzag() const { return type.ns == Namespace::ZigZag; }
  [[nodiscard]] bool is_aie2() const { return type.ns == Namespace::Aie2; }
  [[nodiscard]] CoreKind kind() const { return type.kind; }

  /// Indices into `memories` of the levels storing `o`, lowest first (empty for aie2 cores).
  [[nodiscard]] std::vector<std::size_t> hierarchy(Operand o) const;
  /// The top memory level of `o`, or nullptr (aie2 cores, or no memory stores o).
  [[nodiscard]] const Memory* top_memory(Operand o) const;
  /// The per-core capacity used by the mapper and scheduler: size of the top I1 memory (zigzag)
  /// or the memory capacity (aie2); 0 when there is none.
  [[nodiscard]] std::int64_t memory_capacity() const;
  /// bandwidth_max of the first port of the top I1 memory whose type is `type` or read_write
  /// (aie2: bandwidth_max). `type` must be Read or Write. 0 when there is none.
  [[nodiscard]] std::int64_t max_memory_bandwidth(PortType type) const;
  /// Number of instances of memory `index`: product of the array sizes of the dimensions the
  /// memory does not serve (each served dimension shares one instance).
  [[nodiscard]] std::int64_t memory_instances(std::size_t index) const;
  /// Operational-array unit count (aie2: 1).
  [[nodiscard]] std::int64_t total_unit_count() const;
  /// True when `op_type` may run here by operator_types (absent list = anything).
  [[nodiscard]] bool accepts(std::string_view op_type) const;
  /// The reference's has_same_performance: same array, same memory hierarchy performance, same
  /// dataflows (and for aie2 the same memory block). Names and ids do not matter.
  [[nodiscard]] bool same_performance(const Core& other) const;
};

}  // namespace stream::hardware
