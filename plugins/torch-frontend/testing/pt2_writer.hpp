// Builds serialized ExportedPrograms in memory and writes them as torch.export.save archives, in
// the format plugins/torch-frontend/README.md describes: the legacy zip (torch 2.1-2.7), the PT2
// archive (2.8 and the 2.9+ raw-weights variant), optionally with the PyTorch writer's zip quirks
// (64-byte 'FB' padding, data descriptors, ZIP64 end records). No torch needed: the fixtures of
// inputs/workload/torch/ and the tests' negative cases come from here.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace stream::torch_testing {

using json = nlohmann::json;

// Schema ScalarType codes.
constexpr int kU8 = 1, kI8 = 2, kI32 = 4, kI64 = 5, kF16 = 6, kF32 = 7, kBool = 12, kBF16 = 13;

// Argument union members.
json T(const std::string& name);  ///< {"as_tensor": {"name": ...}}
json I(std::int64_t v);
json Is(const std::vector<std::int64_t>& v);
json F(double v);
json B(bool v);
json S(const std::string& v);
json None();
/// A symbolic size: srepr form (`Symbol('s0', integer=True, positive=True)`) or plain (`s0`).
json sym(const std::string& expr, std::int64_t hint, bool srepr = true);

/// Sizes: plain integers or sym() objects.
using Sizes = std::vector<json>;

class ProgramBuilder {
 public:
  ProgramBuilder& parameter(const std::string& placeholder, const std::string& fqn, int dtype, const Sizes& sizes);
  ProgramBuilder& buffer(const std::string& placeholder, const std::string& fqn, int dtype, const Sizes& sizes);
  ProgramBuilder& input(const std::string& name, int dtype, const Sizes& sizes);
  /// A call with one tensor output `out` (its tensor_values entry is added).
  ProgramBuilder& call(const std::string& target, const std::vector<std::pair<std::string, json>>& args, const std::string& out,
                       int dtype, const Sizes& sizes);
  /// A call with several outputs (each a tensor with its own entry) or none.
  ProgramBuilder& call_multi(const std::string& target, const std::vector<std::pair<std::string, json>>& args,
                             const std::vector<std::pair<std::string, std::pair<int, Sizes>>>& outs);
  ProgramBuilder& value(const std::string& name, int dtype, const Sizes& sizes);
  ProgramBuilder& output(const std::string& name);
  ProgramBuilder& range(const std::string& symbol, std::int64_t min, std::int64_t max);
  ProgramBuilder& torch_version(const std::string& v);

  enum class Style { Current, Old };  ///< Old: schema 5.3, "dialect", no kind / is_hop fields
  [[nodiscard]] json build(Style style = Style::Current) const;

 private:
  json tensor_meta(int dtype, const Sizes& sizes) const;
  json inputs_ = json::array(), specs_ = json::array(), nodes_ = json::array(), outputs_ = json::array(),
       out_specs_ = json::array(), values_ = json::object(), ranges_ = json::object();
  std::string torch_version_ = "2.10.0";
};

enum class ArchiveLayout { Legacy, Pt2, Pt2Torch28 };

struct ZipOptions {
  bool pytorch_quirks = false;            ///< FB padding to 64 bytes, data descriptors, ZIP64 end records
  std::set<std::string> deflate;          ///< entries to deflate (written through libzip then)
};

/// The entries of an archive for `program`, in the real writer's order. `stem` is the PT2 folder.
[[nodiscard]] std::vector<std::pair<std::string, std::string>> archive_entries(const json& program, ArchiveLayout layout,
                                                                               const std::string& stem = "model");
/// Writes a zip with exactly these entries, in order.
void write_zip(const std::filesystem::path& path, const std::vector<std::pair<std::string, std::string>>& entries,
               const ZipOptions& options = {});
/// archive_entries + write_zip; the PT2 folder is the file's stem, as torch.export.save names it.
void write_pt2(const std::filesystem::path& path, const json& program, ArchiveLayout layout, const ZipOptions& options = {});

/// A zip bomb: a legacy archive whose one entry, `name`, is deflated and inflates to `inflated`
/// spaces (a multiple of 1 MiB) from about inflated / 1000 bytes on disk. The headers declare
/// `declared` as the entry's size (the true size by default; a smaller one is a lying header).
void write_deflate_bomb(const std::filesystem::path& path, const std::string& name, std::uint64_t inflated,
                        std::optional<std::uint32_t> declared = std::nullopt);

}  // namespace stream::torch_testing
