#include "stream/pipeline/mapping_search.hpp"

#include <limits>
#include <memory>
#include <sstream>

#include "stream/error.hpp"
#include "stream/out_of_memory.hpp"

namespace stream::pipeline {

namespace {

// `value` as an integer in [lo, hi]; `range` says which in the error.
std::int64_t integer(const std::string& key, const std::string& value, long long lo, long long hi, const char* range) {
  std::size_t used = 0;
  long long v = lo - 1;
  try {
    v = std::stoll(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != value.size() || v < lo || v > hi)
    throw Error("mapping search: " + key + " must be " + range + ", got '" + value + "'");
  return v;
}

std::int64_t positive(const std::string& key, const std::string& value) {
  return integer(key, value, 1, std::numeric_limits<long long>::max(), "a positive integer");
}

mapping::MappingOrder order(const std::string& value) {
  if (value == "descending") return mapping::MappingOrder::UtilizationDescending;
  if (value == "ascending") return mapping::MappingOrder::UtilizationAscending;
  if (value == "random") return mapping::MappingOrder::Random;
  throw Error("mapping search: order must be descending, ascending or random, got '" + value + "'");
}

void set(SearchSpec& s, const std::string& key, const std::string& value) {
  auto& g = s.generator;
  if (key == "max") s.max = static_cast<std::size_t>(positive(key, value));
  else if (key == "seq_tile") g.seq_len_tile_size = positive(key, value);
  else if (key == "emb_tile") g.embedding_tile_size = positive(key, value);
  else if (key == "hidden_tile") g.hidden_tile_size = positive(key, value);
  else if (key == "rows") g.nb_rows = static_cast<int>(positive(key, value));
  else if (key == "cols") g.nb_cols = static_cast<int>(positive(key, value));
  else if (key == "order") g.ordering = order(value);
  else if (key == "seed") g.shuffle_seed = static_cast<std::uint32_t>(integer(key, value, 0, 0xffffffffLL, "an integer from 0 to 2^32-1"));
  else
    throw Error("mapping search: unknown key '" + key +
                "' (expected max, seq_tile, emb_tile, hidden_tile, rows, cols, order, seed)");
}

// Each unsolved group's diagnosis, headed by its index.
std::string diagnoses(const RunResult& r) {
  std::string out;
  for (const auto& g : r.groups)
    if (!g.allocation.infeasibility.empty())
      out += "group " + std::to_string(g.index) + ":\n" + g.allocation.infeasibility + "\n";
  return out;
}

}  // namespace

bool is_search_spec(const std::string& text) { return text == "search" || text.rfind("search?", 0) == 0; }

SearchSpec parse_search_spec(const std::string& text) {
  if (!is_search_spec(text)) throw Error("not a mapping search: '" + text + "' (expected search or search?max=N&...)");
  SearchSpec spec;
  if (text.size() <= 7) return spec;
  std::stringstream ss(text.substr(7));
  for (std::string kv; std::getline(ss, kv, '&');) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos) throw Error("mapping search: expected key=value, got '" + kv + "' in '" + text + "'");
    set(spec, kv.substr(0, eq), kv.substr(eq + 1));
  }
  return spec;
}

std::size_t SearchResult::failed() const {
  std::size_t n = 0;
  for (const auto& v : variants) n += v.reason.empty() ? 0 : 1;
  return n;
}

SearchResult search_mapping(const Workload& workload, const hardware::Accelerator& accelerator, const SearchSpec& spec,
                            RunSpec base, const RunEnv& env) {
  auto options = spec.generator;
  options.max_variants = spec.max;
  auto variants = mapping::generate_mapping_variants(workload, accelerator, options);
  if (variants.empty())
    throw Error("mapping search: no variant fits the accelerator's " + std::to_string(accelerator.compute_cores().size()) +
                " compute cores");
  if (options.nb_cols) base.nb_cols_to_use = *options.nb_cols;
  base.mapping.reset();
  // The variants differ in mapping only: routes and (tile, core) costs carry over between them.
  RunEnv variant_env = env;
  if (!variant_env.cache) variant_env.cache = std::make_shared<RunCache>();
  RunTimings timings;
  variant_env.timings = &timings;
  SearchResult result;
  for (auto& v : variants) {
    VariantOutcome out{v.index, v.tag, std::numeric_limits<double>::infinity(), "", v.mapping, ""};
    base.mapping_data = std::make_shared<const mapping::Mapping>(std::move(v.mapping));
    std::optional<RunResult> run_result;
    try {
      run_result = run(workload, accelerator, base, variant_env);
      if (run_result->solved()) {
        out.latency = static_cast<double>(run_result->total_latency);
      } else {
        out.reason = "a group's allocation MILP has no optimal solution";
        out.infeasibility = diagnoses(*run_result);
      }
    } catch (const OutOfMemory&) {  // the machine's, not the variant's: the best of the rest would be a wrong answer
      throw;
    } catch (const Error& e) {
      out.reason = e.what();
    }
    // The first strictly lower latency wins (ties keep the earlier variant).
    if (out.reason.empty() && (!result.best || out.latency < result.variants[*result.best].latency)) {
      result.best = result.variants.size();
      result.best_run = std::move(run_result);
      result.best_timings = timings;
      result.best_mapping = out.mapping;
    }
    result.variants.push_back(std::move(out));
  }
  return result;
}

}  // namespace stream::pipeline
