// The cost backends plugins register (PluginRegistrar::add_cost_backend, Registries::
// cost_backend_list()). What a backend is and which one costs a core are the cost area's
// (cost/cost_backend.hpp); the registry only stores the registrations and hands them over. This
// header keeps the names plugins and SDK users have always written (stream::CostBackend,
// stream::CostRequest, stream::select_cost_backend, stream::kBuiltinCostBackend).
#pragma once

#include "stream/cost/cost_backend.hpp"

namespace stream {

using cost::kBuiltinCostBackend;
using cost::select_cost_backend;

}  // namespace stream
