// YamlText against yaml-cpp's Emitter: the same manipulators and scalars must give the same bytes.
// The expectation is yaml-cpp itself (the writer replaced it, and every result file must stay
// byte-identical), on hand-picked layouts and on seeded random documents mixing block and flow
// maps and sequences, empty collections, literals and scalars of every kind the writers emit.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <random>
#include <string>
#include <vector>

#include "stream/yaml/yaml_text.hpp"

using stream::yamlx::YamlText;

namespace {

const std::vector<std::string> kStrings = {
    "Conv0", "zigzag.compute", "core 0", "whole group", "z3[4] temporal", "a: b", "a:b", "x #y", "#x", "-", "-x",
    "- x", "", "~", "null", "Null", "true", "False", "yes", "no", "on", "1", "1.5", "0x1F", "1e3", ".inf", "a,b",
    "[x]", "{x}", "a b ", " a", "it's", "say \"hi\"", "back\\slash", "tab\there", "line\nbreak", "caf\xc3\xa9",
    "?x", "? x", "!x", "&x", "*x", "%x", "@x", "`x", "|x", ">x", "x>", "Fused_Group_1", "Conv0.D2", "../timings.yaml",
    "(x)", "a=b", "a+b", "a/b", "group_1/mapping.yaml", "=", "x:", "x ", "X-Y_z.9"};

struct Gen {
  std::mt19937 rng;
  explicit Gen(unsigned seed) : rng(seed) {}
  int pick(int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); }

  template <class E>
  void scalar(E& e, bool in_flow) {
    switch (pick(in_flow ? 8 : 9)) {
      case 0: e << kStrings[static_cast<std::size_t>(pick(static_cast<int>(kStrings.size())))]; break;
      case 1: e << pick(2000) - 1000; break;
      case 2: e << static_cast<long long>(rng()) * 977; break;
      case 3: e << static_cast<std::size_t>(rng()); break;
      case 4: e << (pick(2) == 0); break;
      case 5: {
        const double vals[] = {0.1, 1.0 / 3, -2.5, 1e300, 1e-7, 1234567.0, -0.0, 100.0, 0.61803398874989479};
        e << vals[pick(9)];
        break;
      }
      case 6: e << YAML::Null; break;
      case 7: e << ("k" + std::to_string(pick(50))).c_str(); break;
      default: e << YAML::Literal << (pick(2) ? std::string("first line\n\nthird\n") : std::string("one\ntwo")); break;
    }
  }

  template <class E>
  void node(E& e, int depth, bool in_flow) {
    const int kind = depth > 3 ? 0 : pick(4);
    if (kind == 0) return scalar(e, in_flow);
    const bool flow = in_flow || pick(3) == 0;
    if (flow && !in_flow) e << YAML::Flow;
    const int n = pick(4);
    if (kind == 1 || kind == 3) {
      e << YAML::BeginMap;
      for (int i = 0; i < n; ++i) {
        e << YAML::Key << ("key" + std::to_string(i)) << YAML::Value;
        node(e, depth + 1, flow);
      }
      e << YAML::EndMap;
    } else {
      e << YAML::BeginSeq;
      for (int i = 0; i < n; ++i) node(e, depth + 1, flow);
      e << YAML::EndSeq;
    }
  }
};

template <class E>
std::string random_document(unsigned seed) {
  Gen g(seed);
  E e;
  // Documents are maps or sequences at the top, as every result file is.
  if (g.pick(2) == 0) {
    e << YAML::BeginMap;
    const int n = 1 + g.pick(5);
    for (int i = 0; i < n; ++i) {
      e << YAML::Key << ("top" + std::to_string(i)) << YAML::Value;
      g.node(e, 0, false);
    }
    e << YAML::EndMap;
  } else {
    e << YAML::BeginSeq;
    const int n = 1 + g.pick(5);
    for (int i = 0; i < n; ++i) g.node(e, 0, false);
    e << YAML::EndSeq;
  }
  return e.c_str();
}

// The layouts of mapping.yaml and core_cost_lut.yaml: sequences of sequences, vectors, flow maps
// in block sequences, and empty collections as values and as items.
template <class E>
std::string fixed_document() {
  E e;
  e << YAML::BeginMap << YAML::Key << "layers" << YAML::Value << YAML::BeginSeq;
  e << YAML::BeginMap << YAML::Key << "name" << YAML::Value << "Conv0";
  e << YAML::Key << "core_allocation" << YAML::Value << YAML::BeginSeq << YAML::Flow << std::vector<int>{0, 1} << YAML::EndSeq;
  e << YAML::Key << "inter_core_tiling" << YAML::Value << YAML::BeginSeq << YAML::BeginSeq;
  e << YAML::Flow << YAML::BeginMap << YAML::Key << "dim" << YAML::Value << "D0" << YAML::Key << "split" << YAML::Value << 2
    << YAML::EndMap;
  e << YAML::EndSeq << YAML::BeginSeq << YAML::EndSeq << YAML::EndSeq << YAML::EndMap;
  e << YAML::BeginMap << YAML::EndMap << YAML::BeginSeq << YAML::EndSeq << YAML::EndSeq;
  e << YAML::Key << "names" << YAML::Value << YAML::Flow << std::vector<std::string>{"a", "b c", "d: e"};
  e << YAML::Key << "block_names" << YAML::Value << std::vector<std::string>{"a", "#b"};
  e << YAML::Key << "empty_map" << YAML::Value << YAML::BeginMap << YAML::EndMap;
  e << YAML::Key << "why" << YAML::Value << YAML::Literal << "no core fits\n  indented\n";
  e << YAML::Key << "after" << YAML::Value << 1.5 << YAML::EndMap;
  return e.c_str();
}

}  // namespace

TEST(YamlText, FixedLayoutsMatchYamlCpp) { EXPECT_EQ(fixed_document<YamlText>(), fixed_document<YAML::Emitter>()); }

TEST(YamlText, RandomDocumentsMatchYamlCpp) {
  for (unsigned seed = 1; seed <= 3000; ++seed) {
    const std::string mine = random_document<YamlText>(seed), theirs = random_document<YAML::Emitter>(seed);
    ASSERT_EQ(mine, theirs) << "seed " << seed;
  }
}

TEST(YamlText, EveryStringRoundTripsThroughTheParser) {
  // Quoting must keep each string a string with the same value, in block and in flow context.
  for (const auto& s : kStrings) {
    YamlText block, flow;
    block << YAML::BeginMap << YAML::Key << "v" << YAML::Value << s << YAML::EndMap;
    flow << YAML::Flow << YAML::BeginSeq << s << YAML::EndSeq;
    EXPECT_EQ(YAML::Load(block.str())["v"].as<std::string>(), s) << block.str();
    EXPECT_EQ(YAML::Load(flow.str())[0].as<std::string>(), s) << flow.str();
  }
}
