// Runs of `stream mcp` as jobs, for mappings that take long: submit returns at once with a job id
// and the run goes on in a thread of its own; status, result and cancel look it up. A run is
// prepared (inputs read, plugins resolved) before it is submitted, so its thread uses no plugin
// host except through the expansion, which the caller guards (run_experiment.hpp). Cancelling
// takes effect at the run's next step (before a group's allocation is solved, or after it): the
// partial result directory is removed and the job ends as cancelled; a mapping optimizer's job
// instead stops its search between batches and ends done with the best found (the optimizer
// checks the flag itself, optimize/optimizer.hpp). The table joins every
// thread when it is destroyed, cancelling those still running.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "run_experiment.hpp"

namespace stream::host {

class McpJobs {
 public:
  /// `summarise` turns a finished run into the job's result (called in the job's thread).
  explicit McpJobs(std::function<nlohmann::json(const RunOutcome&)> summarise);
  ~McpJobs();
  McpJobs(const McpJobs&) = delete;
  McpJobs& operator=(const McpJobs&) = delete;

  /// Starts the run; returns the job id ("job-1", "job-2", ...).
  std::string submit(PreparedRun run);
  /// {job, status (running, done, failed, cancelled), last_step, error when failed}; throws
  /// stream::Error for an unknown id.
  [[nodiscard]] nlohmann::json status(const std::string& id);
  /// The run's figures once done; a stream::Error naming the job otherwise.
  [[nodiscard]] nlohmann::json result(const std::string& id);
  /// Asks the run to stop; returns its status.
  nlohmann::json cancel(const std::string& id);

 private:
  struct Job {
    std::atomic<bool> cancel{false};
    std::string status = "running", last_step, error;
    nlohmann::json result;
    std::thread thread;
  };
  Job& find(const std::string& id);
  void work(Job& job, PreparedRun run);

  std::function<nlohmann::json(const RunOutcome&)> summarise_;
  std::mutex mutex_;  // guards every Job's strings and result, and jobs_
  std::map<std::string, std::unique_ptr<Job>> jobs_;
  int next_ = 1;
};

}  // namespace stream::host
