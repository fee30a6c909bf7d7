// A cost backend for tests: every core `claims` accepts costs every tile at `latency` cycles (no
// energy), so that which backend costed a (node, core) pair shows in the cost table's figures.
// Header-only; tests/CMakeLists.txt puts this folder on every test's include path.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "stream/cost/cost_backend.hpp"

namespace stream::test {

inline CostBackend fixed_cost_backend(const std::string& name, std::int64_t priority, double latency,
                                      std::function<bool(const hardware::Core&)> claims) {
  CostBackend b;
  b.name = name;
  b.priority = priority;
  b.claims = std::move(claims);
  b.cost = [latency](const CostRequest&) {
    cost::CostEntry e;
    e.latency_total = latency;
    return e;
  };
  return b;
}

}  // namespace stream::test
