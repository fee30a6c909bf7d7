#include "sweep_point.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string_view>

#include <stream/error.hpp>
#include <stream/hardware/accelerator_reader.hpp>
#include <stream/optimize/optimize_spec.hpp>
#include <stream/pipeline/mapping_search.hpp>

#include "inputs.hpp"

namespace stream::host {

namespace fs = std::filesystem;

namespace {

// An axis `input/NAME` gives the graph input NAME its values, as `stream run --input NAME=VALUE`.
constexpr std::string_view kInputPrefix = "input/";

bool is_named_axis(const std::string& name) {
  return std::any_of(std::begin(sweep::kNamedAxes), std::end(sweep::kNamedAxes),
                     [&](const char* n) { return name == n; });
}

std::string hex(std::uint64_t h) {
  char b[17];
  std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(h));
  return b;
}

// A file value: relative to the sweep file, else under the bundled inputs' folder for the axis
// (`hardware/`, `workload/`, `mapping/`), else the problem of the point.
std::optional<fs::path> find_file(const sweep::SweepFile& s, const std::string& axis, const std::string& value,
                                  std::string& problem) {
  std::error_code ec;
  const fs::path given(value);
  std::vector<fs::path> candidates{given.is_absolute() ? given : s.path.parent_path() / given};
  if (!given.is_absolute()) {
    candidates.push_back(bundled_inputs_dir() / axis / given);
    for (auto& c : input_candidates(given))  // the rule of every command (inputs.hpp)
      if (std::find(candidates.begin(), candidates.end(), c) == candidates.end()) candidates.push_back(std::move(c));
  }
  std::string tried;
  for (const auto& candidate : candidates) {
    if (fs::is_regular_file(candidate, ec)) return candidate;
    tried += (tried.empty() ? "" : ", ") + fs::absolute(candidate, ec).lexically_normal().string();
  }
  problem = axis + " '" + value + "': no such file (tried " + tried + ")";
  return std::nullopt;
}

// FNV-1a over the file in chunks (the same hash as over its whole bytes), so a large input costs
// no memory: reading it whole made a bad_alloc there a failed row instead of a retried point.
std::string file_hash(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  in.exceptions(std::ios::badbit);  // a read error (EIO on /proc/self/mem) is thrown, not a short hash
  std::uint64_t h = fnv1a({});
  std::string chunk(std::size_t{1} << 20, '\0');
  while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0)
    h = fnv1a(std::string_view(chunk.data(), static_cast<std::size_t>(in.gcount())), h);
  return hex(h);
}

}  // namespace

// The hashes of the sweep's files, each read once however many points name it (thread-safe: a
// sweep's workers resolve their points as they take them). Outside the anonymous namespace, as
// the base of PointResolver::Hashes.
class FileHashes {
 public:
  std::string file(const fs::path& path) {
    const std::lock_guard lock(mutex_);
    return file_locked(path);
  }
  // Where a file value is (find_file), looked up once per axis and value: a sweep of 10^7 points
  // resolves each several times, and the file system calls were most of that.
  std::optional<fs::path> find(const sweep::SweepFile& s, const std::string& axis, const std::string& value,
                               std::string& problem) {
    const std::lock_guard lock(mutex_);
    auto [it, fresh] = found_.try_emplace(axis + '\n' + value);
    if (fresh) it->second.first = find_file(s, axis, value, it->second.second);
    if (!it->second.first) problem = it->second.second;
    return it->second.first;
  }
  // A hardware file's hash covers the core files it names too, so that editing a core file changes
  // the points that use it (a file that does not parse is hashed alone; loading it reports why).
  std::string hardware(const fs::path& path) {
    const std::lock_guard lock(mutex_);
    auto [it, fresh] = hardware_.try_emplace(path.string());
    if (fresh) try {
        it->second = file_locked(path);
        for (const auto& core : hardware::core_files_of(path)) it->second += "+" + file_locked(core);
      } catch (...) {
        hardware_.erase(it);  // every point naming the file fails alike
        throw;
      }
    return it->second;
  }

 private:
  const std::string& file_locked(const fs::path& path) {
    auto [it, fresh] = files_.try_emplace(path.string());
    if (fresh) try {
        it->second = file_hash(path);
      } catch (...) {
        files_.erase(it);
        throw;
      }
    return it->second;
  }
  std::mutex mutex_;
  std::map<std::string, std::string> files_, hardware_;
  std::map<std::string, std::pair<std::optional<fs::path>, std::string>> found_;  ///< by axis and value: path or problem
};

namespace {

// "block:KEY?a=1&b=2" -> block KEY with parameters a=1, b=2.
void read_block(const std::string& value, WorkloadSource& w) {
  const auto spec = value.substr(6);
  const auto q = spec.find('?');
  w.block = spec.substr(0, q);
  if (q == std::string::npos) return;
  std::stringstream ss(spec.substr(q + 1));
  for (std::string kv; std::getline(ss, kv, '&');)
    if (!kv.empty()) w.params.push_back(kv);
}

// Sets the named axis `name` of `p` from `value`; returns its canonical text for the identity.
std::string apply_axis(const sweep::SweepFile& s, const std::string& name, const std::string& value, ResolvedPoint& p,
                       FileHashes& hashes) {
  if (name == "intra_core_tiling") {
    p.intra_core_tiling = value;
    return value;
  }
  if (name == "cast") {
    p.workload.cast = value == "none" ? "" : value;
    return p.workload.cast;
  }
  if (name == "cost_profile") {
    try {
      p.cost_profile = cost::parse_cost_profile(value, "cost_profile");
    } catch (const Error& e) {
      p.problem = e.message();
    }
    return value;
  }
  if (name == "compat") {
    try {
      p.compat = parse_compat(value, "compat");
      p.workload.keep_layout_ops = p.compat == Compat::Stream113;  // A1: the reference's FusionEdges
    } catch (const Error& e) {
      p.problem = e.message();
    }
    return value;
  }
  if (name == "mapping" && value == "auto") return "auto";
  if (name == "mapping" && pipeline::is_search_spec(value)) {
    p.mapping_search = value;
    try {
      (void)pipeline::parse_search_spec(value);
    } catch (const Error& e) {
      p.problem = e.message();
    }
    return value;
  }
  if (name == "mapping" && optimize::is_optimize_spec(value)) {
    p.mapping_optimize = value;  // checked before any point runs (sweep_preflight.hpp); here for a caller that did not
    try {
      (void)optimize::parse_optimize_spec(value);
    } catch (const Error& e) {
      p.problem = e.message();
    }
    return value;
  }
  if (name == "workload" && value.rfind("block:", 0) == 0) {
    read_block(value, p.workload);
    return value;
  }
  const auto file = hashes.find(s, name, value, p.problem);
  if (!file) return value;
  if (name == "hardware") p.hardware = *file;
  else if (name == "workload") p.workload.file = file->string();
  else p.mapping = *file;
  try {
    return name == "hardware" ? hashes.hardware(*file) : hashes.file(*file);
  } catch (const std::exception& e) {
    // A file that is there but cannot be read (/proc/self/mem, a device, an I/O error) fails the
    // points that name it, and says which it is; the others run.
    p.problem = name + " '" + value + "': cannot read " + file->string() + ": " + e.what();
    return value;
  }
}

}  // namespace

std::uint64_t fnv1a(std::string_view bytes, std::uint64_t h) {
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string workload_key(const WorkloadSource& w) {
  // label() carries the --input values, which change what a file loads as.
  std::string key = w.block.empty() ? "file:" + w.file + "|" + w.label() : "block:" + w.label();
  return key + "|cast=" + w.cast + (w.keep_layout_ops ? "|keep_layout_ops" : "");
}

// The files and the defaults (no hardware or workload axis), looked up once.
struct PointResolver::Hashes : FileHashes {
  // Not thrown here when missing: a sweep that names its own files does not need them.
  fs::path default_hardware = find_input("hardware/tpu_like_quad_core.yaml").value_or("hardware/tpu_like_quad_core.yaml");
  fs::path default_workload =
      find_input("workload/2conv_1_8_32_32_16_32_3.onnx").value_or("workload/2conv_1_8_32_32_16_32_3.onnx");
};

PointResolver::PointResolver(const sweep::SweepFile& sweep) : sweep_(sweep), hashes_(std::make_unique<Hashes>()) {}
PointResolver::~PointResolver() = default;

ResolvedPoint PointResolver::resolve(const sweep::Point& point) const {
  const auto& s = sweep_;
  auto& hashes = *hashes_;
  ResolvedPoint p;
  p.index = point.index;
  p.hardware = hashes.default_hardware;
  p.workload.file = hashes.default_workload.string();
  std::string identity;
  std::vector<std::string> params, inputs;
  for (std::size_t a = 0; a < s.axes.size(); ++a) {
    const auto& axis = s.axes[a];
    const auto& value = axis.values[point.value[a]];
    p.axis_values.push_back(value);
    p.typed_values.push_back(sweep::typed_value(axis, point.value[a]));
    if (sweep::is_hardware_override(axis.name)) p.overrides.push_back({std::string(sweep::override_path(axis.name)), value});
    else if (is_named_axis(axis.name)) identity += axis.name + "=" + apply_axis(s, axis.name, value, p, hashes) + "\n";
    else if (axis.name.starts_with(kInputPrefix)) inputs.push_back(axis.name.substr(kInputPrefix.size()) + "=" + value);
    else params.push_back(axis.name + "=" + value);
  }
  if (!p.workload.block.empty()) p.workload.file.clear();
  // Defaults (no such axis) are inputs too.
  if (identity.find("hardware=") == std::string::npos) identity += "hardware=" + hashes.hardware(p.hardware) + "\n";
  if (identity.find("workload=") == std::string::npos) identity += "workload=" + hashes.file(p.workload.file) + "\n";
  for (const auto& o : p.overrides) identity += "hardware/" + o.path + "=" + o.value + "\n";
  std::sort(params.begin(), params.end());
  for (const auto& kv : params) identity += "param " + kv + "\n";
  std::sort(inputs.begin(), inputs.end());
  for (const auto& kv : inputs) identity += "input " + kv + "\n";
  p.workload.inputs = std::move(inputs);
  if (!params.empty() && p.workload.block.empty() && p.problem.empty())
    p.problem = "block parameter axes (" + params.front().substr(0, params.front().find('=')) +
                ", ...) apply to block workloads, and this point's workload is a file";
  p.workload.params.insert(p.workload.params.end(), params.begin(), params.end());
  p.id = hex(fnv1a(identity));
  return p;
}

std::optional<fs::path> PointResolver::first_hardware() const {
  for (const auto& axis : sweep_.axes)
    if (axis.name == "hardware") {
      std::string problem;
      return hashes_->find(sweep_, axis.name, axis.values.front(), problem);
    }
  return hashes_->default_hardware;
}

std::string PointResolver::sweep_identity() const {
  const auto& s = sweep_;
  std::string text;
  bool has_hardware = false, has_workload = false;
  for (const auto& axis : s.axes) {
    text += "axis " + axis.name + "\n";
    has_hardware = has_hardware || axis.name == "hardware";
    has_workload = has_workload || axis.name == "workload";
    for (const auto& value : axis.values) {
      ResolvedPoint scratch;
      text += " " + (is_named_axis(axis.name) ? apply_axis(s, axis.name, value, scratch, *hashes_) : value) + "\n";
    }
  }
  for (const auto& factor : s.factors) {
    text += "factor";
    for (auto a : factor) text += " " + std::to_string(a);
    text += "\n";
  }
  if (s.sample) text += "sample " + std::to_string(s.sample->count) + " " + std::to_string(s.sample->seed) + "\n";
  char budget[80];
  std::snprintf(budget, sizeof budget, "budget %.17g %.17g\n", s.budget.max_area_mm2.value_or(-1),
                s.budget.max_peak_energy_pj_per_cycle.value_or(-1));
  text += budget;
  if (!has_hardware) text += "hardware " + hashes_->hardware(hashes_->default_hardware) + "\n";
  if (!has_workload) text += "workload " + hashes_->file(hashes_->default_workload) + "\n";
  return hex(fnv1a(text));
}

}  // namespace stream::host
