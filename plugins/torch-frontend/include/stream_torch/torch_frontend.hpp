// The torch.export frontend: `.pt2` archives written by torch.export.save, read without libtorch.
//
// The archive is opened with libzip (the legacy zip with serialized_exported_program.json, torch
// 2.1-2.7, and the PT2 archive with <prefix>/models/<name>.json, torch 2.8+), the serialized
// ExportedProgram JSON is decoded tolerantly (every schema generation the format document lists),
// and each ATen call is lowered by a converter into affine nodes. Parameters, buffers and lifted
// constants become InEdges; layout calls (view, permute, ...) become FusionEdges that the core
// layout folding removes, as the ONNX frontend does; expand becomes a broadcast copy that is
// folded into its readers when they are all computations.
//
// Converters are looked up, for an ATen call `aten::<op>.<overload>`, in this order:
//   1. an ONNX-parser registration (Registries::onnx_parsers) under "aten::<op>.<overload>",
//      then "aten::<op>": this is how another plugin adds or overrides one (it lists the key under
//      provides.onnx_ops in its manifest, so it is loaded lazily). The parser receives the call as
//      an OnnxNodeView with domain "aten": tensor arguments are its inputs (in argument order),
//      every other argument an attribute under its schema name;
//   2. the built-in table (AtenConverterTable), which code linking this library may extend with
//      add() (tests do).
// Options (FrontendOptions): `<symbol>=<size>` binds a symbolic size (`--dim s0=128`);
// `report_unsupported=1` makes load() fail with one error listing every unsupported operator and
// its count; `model=<name>` picks a model of a multi-model PT2 archive.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <stream/ir/node.hpp>
#include <stream/registry/frontends.hpp>
#include <stream/registry/registries.hpp>

namespace stream::torch_frontend {

/// One decoded argument of a call (the schema's Argument union).
struct AtenArg {
  enum class Kind { None, Tensor, Tensors, Int, Ints, Float, Floats, Bool, Bools, String, Strings, SymInt, SymInts, Other };
  Kind kind = Kind::None;
  std::string tag;                   ///< the JSON union tag ("as_tensor", "as_ints", ...)
  std::vector<std::string> tensors;  ///< Tensor: one name; Tensors: names ("" for a None element)
  std::vector<std::int64_t> ints;    ///< Int/Ints/Bool/Bools/SymInt(s) (a symbolic element is its value)
  std::vector<double> floats;        ///< Float/Floats
  std::vector<std::string> strings;  ///< String/Strings

  [[nodiscard]] bool is_tensor() const { return kind == Kind::Tensor; }
  [[nodiscard]] bool is_scalar() const { return kind == Kind::Int || kind == Kind::Float || kind == Kind::Bool; }
};

/// One ATen call of the graph.
struct AtenCall {
  std::string target;    ///< "torch.ops.aten.linear.default"
  std::string op;        ///< "aten::linear"
  std::string overload;  ///< "default"
  std::string name;      ///< the node name (its first output's name)
  std::vector<std::pair<std::string, AtenArg>> args;  ///< named arguments in file order
  std::vector<std::string> outputs;                   ///< output value names ("" for none)

  [[nodiscard]] const AtenArg* arg(const std::string& key) const;
  /// Argument `key`, else positional argument `position` when the file names none (HOP style).
  [[nodiscard]] bool has(const std::string& key) const { return arg(key) != nullptr && arg(key)->kind != AtenArg::Kind::None; }
  [[nodiscard]] std::int64_t int_arg(const std::string& key, std::int64_t fallback) const;
  [[nodiscard]] std::vector<std::int64_t> ints_arg(const std::string& key, std::vector<std::int64_t> fallback) const;
  [[nodiscard]] double float_arg(const std::string& key, double fallback) const;
  [[nodiscard]] std::string string_arg(const std::string& key, const std::string& fallback) const;
  /// The tensor name of argument `key`, or "" when it is absent, None or a scalar.
  [[nodiscard]] std::string tensor_arg(const std::string& key) const;
};

/// What a converter may ask of the frontend while lowering one call.
class AtenContext {
 public:
  virtual ~AtenContext() = default;
  /// The tensor of a value (graph input or earlier output); fails naming the call when the value
  /// is unknown or its element type is outside the IR's set.
  [[nodiscard]] virtual TensorPtr tensor(const std::string& value) = 0;
  /// The tensor of the call's output i.
  [[nodiscard]] virtual TensorPtr output(std::size_t i) = 0;
  /// A new intermediate tensor for a multi-node lowering; the name is made unique if needed.
  [[nodiscard]] virtual TensorPtr new_tensor(const std::string& name, DType dtype, std::vector<std::int64_t> shape) = 0;
  /// True when some call or the graph output reads the value (unused split parts are skipped).
  [[nodiscard]] virtual bool used(const std::string& value) const = 0;
  /// True when the value is a tensor whose element type the IR models (not int64, bool, ...).
  [[nodiscard]] virtual bool modelled(const std::string& value) const = 0;
  /// Makes output value `value` the same tensor as value `of` (contiguous, clone, no-op views).
  virtual void alias(const std::string& value, const std::string& of) = 0;
  /// Records the permutation of a Transpose FusionEdge: output axis k is input axis perm[k].
  virtual void set_permutation(const std::string& node, std::vector<std::int64_t> perm) = 0;
  /// Throws a stream::Error naming the archive, the call and (optionally) a tensor.
  [[noreturn]] virtual void fail(const std::string& message, const std::string& tensor = "") const = 0;
};

using AtenConverter = std::function<std::vector<Node>(const AtenCall& call, AtenContext& context)>;

/// The built-in converters, keyed "aten::<op>" (every overload) or "aten::<op>.<overload>".
class AtenConverterTable {
 public:
  /// The process-wide table, filled with the built-in converters on first use.
  static AtenConverterTable& builtin();
  /// Adds or replaces a converter (the last registration of a key wins).
  void add(const std::string& key, AtenConverter converter);
  /// The converter for a call: "<op>.<overload>" first, then "<op>"; nullptr when none.
  [[nodiscard]] const AtenConverter* find(const std::string& op, const std::string& overload) const;
  /// Registered keys, sorted.
  [[nodiscard]] std::vector<std::string> keys() const;

 private:
  std::map<std::string, AtenConverter> table_;
};

/// Targets that carry no tensor computation and are skipped (assertions, symbolic-size arithmetic).
[[nodiscard]] bool is_skipped_target(const std::string& target);

/// Which archive layout a .pt2 uses.
enum class ArchiveLayout { Legacy, Pt2 };

struct ArchiveProgram {
  ArchiveLayout layout = ArchiveLayout::Legacy;
  std::string prefix;      ///< PT2: the archive folder ("model"), "" for the flat variant
  std::string model;       ///< PT2: the model name ("model")
  std::string json_entry;  ///< the entry the JSON was read from
  std::string json;        ///< the ExportedProgram JSON text
};

/// The most an archive's ExportedProgram JSON may inflate to (256 MiB; the JSON holds the graph,
/// not the weights, and the largest exported models stay far below it), and the most a small
/// record such as archive_format may. A larger entry is rejected before it is inflated (by its
/// declared size) or while it is (a declared size can lie): a zip bomb cannot exhaust memory.
inline constexpr std::uint64_t kMaxProgramJsonBytes = std::uint64_t{256} << 20;
inline constexpr std::uint64_t kMaxRecordBytes = std::uint64_t{1} << 16;

/// Opens a .pt2 and returns its ExportedProgram JSON; throws a stream::Error naming the file.
[[nodiscard]] ArchiveProgram read_archive(const std::filesystem::path& path, const std::string& model = "");

/// The `torch_export` frontend (accepts paths ending in `.pt2`).
class TorchExportFrontend : public WorkloadFrontend {
 public:
  [[nodiscard]] std::string name() const override { return "torch_export"; }
  [[nodiscard]] bool can_load(const std::filesystem::path& source) const override;
  [[nodiscard]] Workload load(const std::filesystem::path& source, const FrontendOptions& options,
                              const Registries& registries) const override;
  /// Lowers an ExportedProgram JSON document directly (`file` names it in errors).
  [[nodiscard]] Workload load_json(const std::string& json, const std::string& file, const FrontendOptions& options,
                                   const Registries& registries) const;
};

/// Registers the frontend (what the plugin's entry point does).
void register_torch_frontend(PluginRegistrar& registrar);

}  // namespace stream::torch_frontend
