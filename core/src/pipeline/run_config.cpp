#include "stream/pipeline/run_config.hpp"

#include "stream/yaml/yaml_reader.hpp"

namespace stream::pipeline {

RunConfig parse_run_config(const std::string& text, const std::string& file_label) {
  Diagnostics diag;
  const yamlx::Ctx ctx{file_label, diag};
  RunConfig config;
  if (auto root = yamlx::parse(text, ctx); root && !yamlx::is_null(*root)) {
    yamlx::MapReader top(ctx, *root, "run configuration");
    if (top.ok()) {
      top.reject_unknown({"constraint_selection", "nb_cols_to_use"});
      if (auto n = top.integer("nb_cols_to_use", false, 1)) config.nb_cols_to_use = static_cast<int>(*n);
      if (auto cs = top.node("constraint_selection", false); cs && !yamlx::is_null(*cs)) {
        yamlx::MapReader r(ctx, *cs, "constraint_selection");
        for (const auto& e : r.items()) {
          try {
            const auto value = yamlx::to_text(e.value);
            if (!e.value.IsScalar() || !value) throw Error("'" + e.key + "' must be a scalar, got " + yamlx::describe(e.value));
            allocate::set_constraint_field(config.constraints, e.key, *value, "constraint_selection");
          } catch (const Error& err) {
            diag.error(yamlx::loc(ctx, e.value), err.message());
          }
        }
      }
    }
  }
  diag.throw_if_errors("run configuration", file_label);
  return config;
}

RunConfig load_run_config(const std::filesystem::path& path) {
  Diagnostics diag;
  const auto text = yamlx::read_text(path, "run configuration", diag);
  diag.throw_if_errors("run configuration", path.string());
  return parse_run_config(*text, path.string());
}

}  // namespace stream::pipeline
