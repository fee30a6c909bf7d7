// What a sweep checks before any point runs: its hardware overrides against its first hardware
// file (the hardware axis's first value, or the default). A typo in an override path
// (`hardware/array/cuont`) would otherwise fail every point one by one, each row with the same
// reason, and the sweep would end "successfully"; a value of the wrong type (a number where the
// file has a list) would fail the same way. Stopping at once, at the sweep file's line, names the
// mistake where it was made.
#pragma once

#include <stream/sweep/sweep_file.hpp>

namespace stream::host {

class PointResolver;

/// Throws stream::Error (bad input, exit 2) at the axis's line for a path that reaches nothing in
/// the first hardware file, naming the path and what the file has where it stops matching; at the
/// value's line for a value of another kind than the file's there. A first hardware file that does
/// not resolve or read is left to the points, which report it.
void check_sweep_overrides(const sweep::SweepFile& sweep, const PointResolver& resolver);

/// Throws stream::Error (bad input, exit 2) at the value's line for a `mapping: optimize?...` value
/// whose option is bad (`evaluations=0`, `objective=speed`, an unknown key), naming the option:
/// every point with it would fail alike, after the points before it had spent their budgets.
void check_sweep_mapping_options(const sweep::SweepFile& sweep);

}  // namespace stream::host
