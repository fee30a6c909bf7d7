// Which optional constraint families the allocation MILP builds, and how it models pipelining
// (the reference's ConstraintSelection, aie-and-defaults §2.20).
//
// memory_capacity, object_fifo_depth, buffer_descriptors and dma_channels switch a family on or
// off; pipelining picks how the idle time of a resource (which bounds the overlap between
// iterations) is counted: OCCUPANCY (the default) counts every slot in which the resource is not
// active, SPAN only the slots before its first and after its last use. The object-FIFO depth,
// buffer-descriptor and DMA-channel caps bind only on aie2 hardware; the DMA-channel maxima enter
// the first objective level on every accelerator. The selection is written on the command line as
// "pipelining=span,dma_channels=off" (parse_constraint_selection) or as a YAML map of the same
// fields (run_config.hpp).
#pragma once

#include <string>
#include <string_view>

#include "stream/export.hpp"

namespace stream::allocate {

enum class PipeliningModel { Occupancy, Span };
[[nodiscard]] STREAM_API const char* name(PipeliningModel p);  ///< "occupancy", "span"

struct ConstraintSelection {
  bool memory_capacity = true;
  bool object_fifo_depth = true;
  bool buffer_descriptors = true;
  bool dma_channels = true;
  PipeliningModel pipelining = PipeliningModel::Occupancy;
  bool operator==(const ConstraintSelection&) const = default;
};

/// Sets one field from its text: a switch takes on/off, true/false, yes/no or 1/0, pipelining takes
/// occupancy or span (case-insensitive). Throws stream::Error naming `where`, the field and the
/// accepted values for an unknown field or a bad value.
void set_constraint_field(ConstraintSelection& selection, std::string_view field, std::string_view value,
                          const std::string& where);

/// Parses "field=value,field=value" onto `base` (later entries win). Throws stream::Error.
[[nodiscard]] STREAM_API ConstraintSelection parse_constraint_selection(std::string_view spec, ConstraintSelection base = {});

/// "memory_capacity=on,object_fifo_depth=on,buffer_descriptors=on,dma_channels=on,pipelining=occupancy"
[[nodiscard]] STREAM_API std::string to_string(const ConstraintSelection& selection);

}  // namespace stream::allocate
