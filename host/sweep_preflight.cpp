#include "sweep_preflight.hpp"

#include <stream/error.hpp>
#include <stream/hardware/hardware_overrides.hpp>
#include <stream/optimize/optimize_spec.hpp>

#include "sweep_point.hpp"

namespace stream::host {

void check_sweep_overrides(const sweep::SweepFile& sweep, const PointResolver& resolver) {
  std::vector<hardware::OverrideAxis> axes;
  std::vector<const sweep::Axis*> from;  ///< the sweep's axis of each override axis
  for (const auto& axis : sweep.axes)
    if (sweep::is_hardware_override(axis.name)) {
      axes.push_back({std::string(sweep::override_path(axis.name)), axis.values});
      from.push_back(&axis);
    }
  if (axes.empty()) return;
  const auto hardware = resolver.first_hardware();
  if (!hardware) return;
  const auto problem = hardware::check_overrides(*hardware, axes);
  if (!problem) return;
  const sweep::Axis& axis = *from[problem->axis];
  const Location where = problem->value ? axis.where[*problem->value] : axis.key_where;
  throw Error(problem->message + " (checked against the sweep's first hardware file, " + hardware->string() +
                  ", before any point runs)",
              where);
}

void check_sweep_mapping_options(const sweep::SweepFile& sweep) {
  for (const auto& axis : sweep.axes) {
    if (axis.name != "mapping") continue;
    for (std::size_t v = 0; v < axis.values.size(); ++v) {
      if (!optimize::is_optimize_spec(axis.values[v])) continue;
      try {
        (void)optimize::parse_optimize_spec(axis.values[v]);
      } catch (const Error& e) {
        throw Error(e.message() + " (axis mapping, value '" + axis.values[v] + "', checked before any point runs)", axis.where[v]);
      }
    }
  }
}

}  // namespace stream::host
