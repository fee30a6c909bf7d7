// CBC's branch and bound, the module libstream_cbc.so (cbc_search.hpp): what a model whose
// relaxation has a fractional optimum gets.
#include "cbc_search.hpp"

#include <coin/CbcHeuristic.hpp>
#include <coin/CbcHeuristicFPump.hpp>
#include <coin/CbcModel.hpp>
#include <coin/CglClique.hpp>
#include <coin/CglFlowCover.hpp>
#include <coin/CglGomory.hpp>
#include <coin/CglKnapsackCover.hpp>
#include <coin/CglMixedIntegerRounding2.hpp>
#include <coin/CglPreProcess.hpp>
#include <coin/CglProbing.hpp>

namespace stream::allocate {
namespace {

// Above these sizes a model is "large": its plain search before the full one is shorter.
constexpr int kPreprocessRows = 400;
constexpr int kPreprocessIntegers = 150;
constexpr int kQuickNodes = 100;     // the plain search a model gets before the full one
constexpr int kQuickNodesLarge = 5;  // the same for a large model, whose nodes cost more

bool is_large(const OsiSolverInterface& osi) {
  return osi.getNumRows() > kPreprocessRows || osi.getNumIntegers() > kPreprocessIntegers;
}

// The cut generators and heuristics of CBC's default (command-line) setting, for large models.
void add_search_aids(CbcModel& cbc) {
  CglProbing probing;
  probing.setUsingObjective(1);
  probing.setMaxPass(1);
  probing.setMaxPassRoot(5);
  probing.setMaxProbe(10);
  probing.setMaxProbeRoot(50);
  probing.setMaxLook(10);
  probing.setMaxLookRoot(50);
  probing.setRowCuts(3);
  cbc.addCutGenerator(&probing, -1, "Probing");
  CglGomory gomory;
  gomory.setLimit(300);
  cbc.addCutGenerator(&gomory, -98, "Gomory");
  CglKnapsackCover knapsack;
  cbc.addCutGenerator(&knapsack, -98, "KnapsackCover");
  CglClique clique;
  clique.setStarCliqueReport(false);
  clique.setRowCliqueReport(false);
  cbc.addCutGenerator(&clique, -98, "Clique");
  CglMixedIntegerRounding2 mir;
  cbc.addCutGenerator(&mir, -98, "MixedIntegerRounding2");
  CglFlowCover flow;
  cbc.addCutGenerator(&flow, -98, "FlowCover");
  CbcRounding rounding(cbc);
  cbc.addHeuristic(&rounding);
  CbcHeuristicFPump pump(cbc);
  cbc.addHeuristic(&pump);
}

void configure(CbcModel& cbc, const SolveOptions& options, bool large) {
  const int log = options.verbose ? 1 : 0;
  cbc.setLogLevel(log);
  cbc.messageHandler()->setLogLevel(log);
  cbc.solver()->messageHandler()->setLogLevel(0);
  // Exact optimality: no relative or absolute gap.
  cbc.setAllowableGap(0);
  cbc.setAllowableFractionGap(0);
  cbc.setAllowablePercentageGap(0);
  if (options.time_limit_s > 0) cbc.setMaximumSeconds(options.time_limit_s);
  if (large) add_search_aids(cbc);
}

SolveStatus status_of(const CbcModel& cbc) {
  if (cbc.isProvenOptimal()) return SolveStatus::Optimal;
  if (cbc.isProvenInfeasible()) return SolveStatus::Infeasible;
  if (cbc.isSecondsLimitReached()) return SolveStatus::TimeLimit;
  if (cbc.isContinuousUnbounded()) return SolveStatus::Unbounded;
  return SolveStatus::Error;
}

// Runs the search and fills `out` but the values; false when it found no solution.
bool search(CbcModel& cbc, SolveResult& out) {
  cbc.initialSolve();
  cbc.branchAndBound();
  out.status = status_of(cbc);
  out.nodes = cbc.getNodeCount();
  out.iterations = cbc.getIterationCount();
  out.best_bound = cbc.getBestPossibleObjValue();
  return cbc.bestSolution() != nullptr;
}

// Branch and bound on `problem` (the caller's copy is left as it was), at most `max_nodes` nodes
// (< 0: no limit); fills everything of `out` but the values, and returns the best solution in the
// problem's columns (empty: none).
std::vector<double> branch_and_bound(const OsiClpSolverInterface& problem, const SolveOptions& options, SolveResult& out,
                                     int max_nodes) {
  CbcModel cbc(problem);
  configure(cbc, options, false);
  if (max_nodes >= 0) cbc.setMaximumNodes(max_nodes);
  if (!search(cbc, out)) return {};
  return {cbc.bestSolution(), cbc.bestSolution() + problem.getNumCols()};
}

// CglPreProcess first, then branch and bound with cuts and heuristics on the reduced model.
std::vector<double> preprocessed_search(const OsiClpSolverInterface& problem, const SolveOptions& options, SolveResult& out) {
  OsiClpSolverInterface original(problem);
  original.initialSolve();
  if (original.isProvenPrimalInfeasible() || original.isProvenDualInfeasible() || !original.isProvenOptimal())
    return branch_and_bound(problem, options, out, -1);  // let CBC classify the relaxation
  CglPreProcess process;
  process.messageHandler()->setLogLevel(0);
  OsiSolverInterface* reduced = process.preProcess(original, false, 5);
  if (reduced == nullptr) {
    out.status = SolveStatus::Infeasible;
    return {};
  }
  reduced->messageHandler()->setLogLevel(0);
  CbcModel cbc(*reduced);
  configure(cbc, options, true);
  if (!search(cbc, out)) return {};
  // The solution goes back through the reductions into `original`.
  cbc.solver()->setColSolution(cbc.bestSolution());
  process.postProcess(*cbc.solver());
  const double* sol = original.getColSolution();
  return {sol, sol + original.getNumCols()};
}

// Every model first gets a short plain search: most allocation MILPs are solved at the root or
// in a few nodes, and CglPreProcess, the cut loop and the heuristics cost more than that search
// (CglPreProcess's presolve alone was 75% of a 500-node chain's run). A model the short search
// leaves open gets the full treatment: CglPreProcess, CBC's default cuts and heuristics.
class StagedSearch final : public CbcSearch {
 public:
  [[nodiscard]] std::vector<double> solve(const OsiClpSolverInterface& problem, const SolveOptions& options,
                                          SolveResult& out) const override {
    std::vector<double> sol = branch_and_bound(problem, options, out, is_large(problem) ? kQuickNodesLarge : kQuickNodes);
    if (out.status == SolveStatus::Optimal || out.status == SolveStatus::Infeasible) return sol;
    const long long nodes = out.nodes, iterations = out.iterations;
    sol = preprocessed_search(problem, options, out);
    out.nodes += nodes;
    out.iterations += iterations;
    return sol;
  }
};

}  // namespace
}  // namespace stream::allocate

extern "C" __attribute__((visibility("default"))) const stream::allocate::CbcSearch* stream_cbc_search() {
  static const stream::allocate::StagedSearch search;
  return &search;
}
