#include "schema_lookup.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>

namespace stream::onnx_frontend {

namespace {

// The symbol of `onnx::OpSchema onnx::GetOpSchema<onnx::<op>_Onnx_ver<since>>()` (Itanium ABI).
std::string schema_symbol(const std::string& op, int since) {
  const std::string cls = op + "_Onnx_ver" + std::to_string(since);
  return "_ZN4onnx11GetOpSchemaINS_" + std::to_string(cls.size()) + cls + "EEENS_8OpSchemaEv";
}

bool is_identifier(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// libonnx's handle, found from one of its functions (it is loaded with the plugin, RTLD_LOCAL, so
// the global scope does not see it).
void* libonnx_handle() {
  Dl_info info{};
  auto* probe = reinterpret_cast<void*>(&onnx::OpSchemaRegistry::DomainToVersionRange::Instance);
  if (dladdr(probe, &info) == 0 || info.dli_fname == nullptr) return nullptr;
  return dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
}

}  // namespace

LazySchemaRegistry& LazySchemaRegistry::instance() {
  static LazySchemaRegistry registry;
  return registry;
}

LazySchemaRegistry::LazySchemaRegistry() : library_(libonnx_handle()) {
  const auto& range = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
  if (auto it = range.find(onnx::ONNX_DOMAIN); it != range.end()) max_opset_ = it->second.second;
  // A libonnx whose schemas are not all exported: the self-check's operator must be there.
  if (library_ && dlsym(library_, schema_symbol("Abs", 1).c_str()) == nullptr) library_ = nullptr;
}

const onnx::OpSchema* LazySchemaRegistry::GetSchema(const std::string& key, int maxInclusiveVersion,
                                                    const std::string& domain) const {
  if (!library_ || domain != onnx::ONNX_DOMAIN) return onnx::OpSchemaRegistry::Schema(key, maxInclusiveVersion, domain);
  if (!is_identifier(key) || maxInclusiveVersion < 1) return nullptr;
  const int top = std::min(maxInclusiveVersion, max_opset_);
  const std::lock_guard lock(mutex_);
  auto [it, fresh] = by_request_.try_emplace({key, top}, nullptr);
  if (!fresh) return it->second;
  // The registry's answer: the greatest since-version at most the one asked for.
  for (int since = top; since >= 1 && !it->second; --since) it->second = build(key, since);
  return it->second;
}

const onnx::OpSchema* LazySchemaRegistry::build(const std::string& op, int since) const {
  if (auto done = built_.find({op, since}); done != built_.end()) return done->second.get();
  void* symbol = dlsym(library_, schema_symbol(op, since).c_str());
  if (symbol == nullptr) return nullptr;
  auto* make = reinterpret_cast<onnx::OpSchema (*)()>(symbol);
  auto schema = std::make_unique<onnx::OpSchema>(make());
  schema->Finalize();  // as OpSchemaRegisterOnce does before registering
  return built_.emplace(std::make_pair(op, since), std::move(schema)).first->second.get();
}

}  // namespace stream::onnx_frontend
