#include "mcp_jobs.hpp"

#include <stream/error.hpp>

namespace stream::host {

namespace {

}  // namespace

McpJobs::McpJobs(std::function<nlohmann::json(const RunOutcome&)> summarise) : summarise_(std::move(summarise)) {}

McpJobs::~McpJobs() {
  for (auto& [id, job] : jobs_) job->cancel = true;
  for (auto& [id, job] : jobs_)
    if (job->thread.joinable()) job->thread.join();
}

std::string McpJobs::submit(PreparedRun run) {
  const std::lock_guard lock(mutex_);
  const std::string id = "job-" + std::to_string(next_++);
  auto& job = *jobs_.emplace(id, std::make_unique<Job>()).first->second;
  job.thread = std::thread([this, &job, run = std::move(run)]() mutable { work(job, std::move(run)); });
  return id;
}

void McpJobs::work(Job& job, PreparedRun run) {
  run.env.cancel = &job.cancel;  // the pipeline stops at its next step
  run.env.progress = [this, &job](const std::string& step) {
    const std::lock_guard lock(mutex_);
    job.last_step = step;
  };
  std::string status = "done", error;
  nlohmann::json result;
  try {
    result = summarise_(execute_run(std::move(run)));
  } catch (const pipeline::Cancelled&) {
    status = "cancelled";
  } catch (const std::exception& e) {
    status = "failed";
    error = e.what();
  }
  const std::lock_guard lock(mutex_);
  job.status = status;
  job.error = error;
  job.result = std::move(result);
}

McpJobs::Job& McpJobs::find(const std::string& id) {
  const auto it = jobs_.find(id);
  if (it == jobs_.end()) throw Error("no job '" + id + "' (submit_run returns the ids)");
  return *it->second;
}

nlohmann::json McpJobs::status(const std::string& id) {
  const std::lock_guard lock(mutex_);
  const Job& job = find(id);
  nlohmann::json j{{"job", id}, {"status", job.status}, {"last_step", job.last_step}};
  if (!job.error.empty()) j["error"] = job.error;
  return j;
}

nlohmann::json McpJobs::result(const std::string& id) {
  const std::lock_guard lock(mutex_);
  const Job& job = find(id);
  if (job.status == "failed") throw Error("job '" + id + "' failed: " + job.error);
  if (job.status != "done") throw Error("job '" + id + "' is " + job.status + ", it has no result");
  return job.result;
}

nlohmann::json McpJobs::cancel(const std::string& id) {
  {
    const std::lock_guard lock(mutex_);
    find(id).cancel = true;
  }
  return status(id);
}

}  // namespace stream::host
