// The optimizer's option text: every option in its field, defaults, and each bad value an error
// naming the option and its range.
#include <gtest/gtest.h>

#include <string>

#include "stream/error.hpp"
#include "stream/optimize/optimize_spec.hpp"

using namespace stream;
using namespace stream::optimize;

TEST(OptimizeSpec, ReadsEveryOption) {
  const auto s = parse_optimize_spec("optimize?objective=edp&evaluations=300&seed=9&jobs=3");
  EXPECT_EQ(s.objective, Objective::Edp);
  EXPECT_EQ(s.evaluations, 300u);
  EXPECT_EQ(s.seed, 9u);
  EXPECT_EQ(s.jobs, 3);
  const auto d = parse_optimize_spec("optimize");
  EXPECT_EQ(d.objective, Objective::Latency);
  EXPECT_EQ(d.evaluations, 2000u);
  EXPECT_EQ(d.jobs, 0);  // the machine's cores
  EXPECT_EQ(parse_optimize_spec("optimize?objective=pareto").objective, Objective::Pareto);
  EXPECT_TRUE(is_optimize_spec("optimize?seed=2"));
  EXPECT_FALSE(is_optimize_spec("optimized.yaml"));
  EXPECT_FALSE(is_optimize_spec("search"));
}

TEST(OptimizeSpec, ABadOptionNamesItselfAndItsRange) {
  struct Case {
    const char* text;
    const char* says;
  };
  for (const Case& c : {Case{"optimize?evaluations=0", "evaluations must be an integer from 1 to 1000000, got '0'"},
                        Case{"optimize?evaluations=-5", "evaluations must be an integer from 1 to 1000000"},
                        Case{"optimize?evaluations=2000000", "evaluations must be an integer from 1 to 1000000"},
                        Case{"optimize?jobs=x", "jobs must be an integer from 1 to 1024, got 'x'"},
                        Case{"optimize?jobs=0", "jobs must be an integer from 1 to 1024"},
                        Case{"optimize?seed=1.5", "seed must be an integer"},
                        Case{"optimize?objective=speed", "objective must be latency, energy, edp or pareto, got 'speed'"},
                        Case{"optimize?budget=5", "unknown option 'budget'"},
                        Case{"optimize?evaluations", "expected key=value, got 'evaluations'"}}) {
    try {
      (void)parse_optimize_spec(c.text);
      ADD_FAILURE() << c.text << " was accepted";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(c.says), std::string::npos) << c.text << ": " << e.what();
    }
  }
}
