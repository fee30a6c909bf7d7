// ONNX operator schemas built one at a time, instead of libonnx's registry building all of them.
//
// libonnx 1.12's `OpSchemaRegistry` constructs every schema of every opset (about 420 of the
// default domain, with their type constraints) on its first use: a third of the CPU of a small
// `stream run`. Each schema comes from its own exported function, `onnx::GetOpSchema<Op_Onnx_verN>()`
// (declared for every schema in onnx/defs/operator_sets.h), so the schema of `Op` at opset `V` is
// the one of the greatest N <= V for which that function exists: this registry finds it by its
// symbol in libonnx, builds and finalizes it as the registry's registration does, and keeps it.
// Other domains, and every lookup when libonnx cannot be found, go to the full registry.
// tests/plugins/onnx-frontend/schema_lookup_test.cpp checks it against the full registry on every
// schema of the installed libonnx.
#pragma once

#include <onnx/defs/schema.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

namespace stream::onnx_frontend {

class LazySchemaRegistry final : public onnx::ISchemaRegistry {
 public:
  /// The process's instance (schemas are immutable once built; lookups are thread-safe).
  static LazySchemaRegistry& instance();

  /// False when libonnx's schema functions were not found and every lookup is the full registry's.
  [[nodiscard]] bool builds_one_at_a_time() const { return library_ != nullptr; }

  const onnx::OpSchema* GetSchema(const std::string& key, int maxInclusiveVersion,
                                  const std::string& domain = onnx::ONNX_DOMAIN) const override;

 private:
  LazySchemaRegistry();
  const onnx::OpSchema* build(const std::string& op, int since) const;

  void* library_ = nullptr;  ///< libonnx's handle; null: every lookup goes to the full registry
  int max_opset_ = 0;
  mutable std::mutex mutex_;
  mutable std::map<std::pair<std::string, int>, const onnx::OpSchema*> by_request_;      ///< (op, V)
  mutable std::map<std::pair<std::string, int>, std::unique_ptr<onnx::OpSchema>> built_;  ///< (op, N)
};

}  // namespace stream::onnx_frontend
