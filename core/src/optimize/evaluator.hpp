// The optimizer's evaluator: a candidate's figures by the pipeline, group by group. A run's latency
// and energy are sums over its fusion groups (pipeline/run.hpp), and a group's figures depend on
// its own nodes and their choices only, so each distinct (group, choices) is run once, on one
// group, and remembered; a candidate whose groups are all known costs no pipeline run at all.
// Candidates of a batch are evaluated on up to `jobs` threads, each with its own RunCache (not
// thread-safe) sharing the route memos; the figures do not depend on which thread ran what.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "stream/optimize/optimizer.hpp"

namespace stream::optimize {

/// A node's choice as text ("0,1,D2/2"): a part of the keys candidates and groups are known by.
[[nodiscard]] std::string choice_key(const mapping::NodeChoice& choice);

/// The first unsolved group's diagnosis, headed by its index (a failed candidate's reason).
[[nodiscard]] std::string unsolved_reason(const pipeline::RunResult& run);

struct Outcome {
  std::optional<Figures> figures;  ///< none when a group failed
  std::string reason;
};

class Evaluator {
 public:
  /// `workload` is in the order the runs schedule (base.order is AsPrepared).
  /// `latency_only`: candidates are ranked by latency, so their groups' MILPs solve the latency
  /// level only (RunSpec::latency_level_only) and their energy is left unknown (NaN).
  Evaluator(const Workload& workload, const hardware::Accelerator& accelerator, pipeline::RunSpec base,
            const pipeline::RunEnv& env, int jobs, bool latency_only);

  /// Each candidate's outcome, in order. Throws pipeline::Cancelled when env.cancel was set during
  /// the batch, and OutOfMemory (the machine's, not a candidate's).
  [[nodiscard]] std::vector<Outcome> evaluate(const std::vector<Candidate>& batch);
  /// The spec of a candidate's whole run.
  [[nodiscard]] pipeline::RunSpec spec_of(const Candidate& candidate) const;
  [[nodiscard]] std::size_t group_runs() const { return group_runs_; }

 private:
  struct GroupFigures {
    bool solved = false;
    std::int64_t latency = 0;
    double energy = 0;
    std::string reason;
  };
  Outcome one(const Candidate& candidate, pipeline::RunCache& cache);
  GroupFigures group(const Workload& group, const std::shared_ptr<const mapping::NodeChoices>& choices,
                     pipeline::RunCache& cache);

  const Workload& workload_;
  const hardware::Accelerator& acc_;
  pipeline::RunSpec base_;
  bool latency_only_ = false;
  pipeline::RunEnv env_;
  std::vector<std::shared_ptr<pipeline::RunCache>> caches_;  ///< one per job
  std::mutex mutex_;
  std::unordered_map<std::string, GroupFigures> memo_;
  std::atomic<std::size_t> group_runs_{0};
};

}  // namespace stream::optimize
