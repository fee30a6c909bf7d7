// The ONNX frontend's one-at-a-time schema lookup (plugins/onnx-frontend/src/schema_lookup.hpp)
// against libonnx's own registry, which builds every schema: the same schema for every operator
// of the default domain at every opset, and the registry's answers for what is not there.
#include <gtest/gtest.h>

#include <onnx/defs/schema.h>

#include <map>
#include <set>

#include "schema_lookup.hpp"

using stream::onnx_frontend::LazySchemaRegistry;

namespace {

constexpr int kMaxOpset = 17;  // libonnx 1.12's last default-domain opset

}  // namespace

TEST(LazySchemaRegistry, GivesTheRegistrysSchemaForEveryOperatorAtEveryOpset) {
  std::map<std::string, std::set<int>> versions;  // op -> its since-versions
  for (const auto& s : onnx::OpSchemaRegistry::get_all_schemas_with_history())
    if (s.domain() == onnx::ONNX_DOMAIN) versions[s.Name()].insert(s.SinceVersion());
  ASSERT_GT(versions.size(), 150u);
  ASSERT_TRUE(LazySchemaRegistry::instance().builds_one_at_a_time());  // else this compares the registry with itself
  std::size_t compared = 0;
  for (const auto& [op, sinces] : versions)
    for (int v = 1; v <= kMaxOpset + 1; ++v) {
      const auto* full = onnx::OpSchemaRegistry::Schema(op, v, onnx::ONNX_DOMAIN);
      const auto* lazy = LazySchemaRegistry::instance().GetSchema(op, v, onnx::ONNX_DOMAIN);
      ASSERT_EQ(full == nullptr, lazy == nullptr) << op << " at opset " << v;
      if (!full) continue;
      EXPECT_EQ(lazy->Name(), full->Name());
      EXPECT_EQ(lazy->SinceVersion(), full->SinceVersion()) << op << " at opset " << v;
      EXPECT_EQ(lazy->min_input(), full->min_input()) << op;
      EXPECT_EQ(lazy->max_output(), full->max_output()) << op;
      EXPECT_EQ(lazy->attributes().size(), full->attributes().size()) << op;
      EXPECT_EQ(lazy->has_type_and_shape_inference_function(), full->has_type_and_shape_inference_function()) << op;
      ++compared;
    }
  EXPECT_GT(compared, 1000u);
}

TEST(LazySchemaRegistry, AnswersAsTheRegistryWhereThereIsNoSchema) {
  auto& lazy = LazySchemaRegistry::instance();
  EXPECT_EQ(lazy.GetSchema("NoSuchOperator", 13), nullptr);
  EXPECT_EQ(lazy.GetSchema("Conv", 0), nullptr);
  EXPECT_EQ(lazy.GetSchema("Conv_Onnx_ver11", 11), nullptr);  // not an operator's name
  EXPECT_EQ(lazy.GetSchema("Conv\"; rm", 11), nullptr);
  EXPECT_EQ(lazy.GetSchema("Gelu", 17), onnx::OpSchemaRegistry::Schema("Gelu", 17));  // both null in 1.12
  // An opset past libonnx's last: its last schema, as the registry answers.
  EXPECT_EQ(lazy.GetSchema("Conv", 1000000)->SinceVersion(), onnx::OpSchemaRegistry::Schema("Conv", 1000000)->SinceVersion());
  // Another domain is the registry's own.
  EXPECT_EQ(lazy.GetSchema("LinearClassifier", 1, onnx::AI_ONNX_ML_DOMAIN),
            onnx::OpSchemaRegistry::Schema("LinearClassifier", 1, onnx::AI_ONNX_ML_DOMAIN));
  // The same schema object for the same question.
  EXPECT_EQ(lazy.GetSchema("Relu", 14), lazy.GetSchema("Relu", 15));
}
