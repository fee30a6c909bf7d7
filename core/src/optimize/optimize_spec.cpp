#include "stream/optimize/optimize_spec.hpp"

#include <sstream>

#include "stream/error.hpp"

namespace stream::optimize {

namespace {

constexpr const char* kPrefix = "optimize";

std::uint64_t integer(const std::string& key, const std::string& value, std::uint64_t lo, std::uint64_t hi) {
  std::size_t used = 0;
  unsigned long long v = 0;
  const bool digits = !value.empty() && value.find_first_not_of("0123456789") == std::string::npos;
  try {
    if (digits) v = std::stoull(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (!digits || used != value.size() || v < lo || v > hi)
    throw Error("mapping optimize: " + key + " must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi) +
                ", got '" + value + "'");
  return v;
}

Objective objective(const std::string& value) {
  for (Objective o : {Objective::Latency, Objective::Energy, Objective::Edp, Objective::Pareto})
    if (value == name(o)) return o;
  throw Error("mapping optimize: objective must be latency, energy, edp or pareto, got '" + value + "'");
}

void set(OptimizeSpec& s, const std::string& key, const std::string& value) {
  if (key == "objective") s.objective = objective(value);
  else if (key == "evaluations") s.evaluations = integer(key, value, 1, 1'000'000);
  else if (key == "seed") s.seed = integer(key, value, 0, (std::uint64_t{1} << 63) - 1);
  else if (key == "jobs") s.jobs = static_cast<int>(integer(key, value, 1, 1024));
  else
    throw Error("mapping optimize: unknown option '" + key + "' (expected objective, evaluations, seed, jobs)");
}

}  // namespace

const char* name(Objective objective) {
  switch (objective) {
    case Objective::Latency: return "latency";
    case Objective::Energy: return "energy";
    case Objective::Edp: return "edp";
    case Objective::Pareto: return "pareto";
  }
  return "latency";
}

bool is_optimize_spec(const std::string& text) { return text == kPrefix || text.rfind("optimize?", 0) == 0; }

OptimizeSpec parse_optimize_spec(const std::string& text) {
  if (!is_optimize_spec(text)) throw Error("not a mapping optimization: '" + text + "' (expected optimize or optimize?key=value&...)");
  OptimizeSpec spec;
  std::stringstream ss(text.substr(std::string(kPrefix).size() + (text.size() > 8 ? 1 : 0)));
  for (std::string kv; std::getline(ss, kv, '&');) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos) throw Error("mapping optimize: expected key=value, got '" + kv + "' in '" + text + "'");
    set(spec, kv.substr(0, eq), kv.substr(eq + 1));
  }
  return spec;
}

}  // namespace stream::optimize
