// Submitting a sharded sweep to Slurm: the two batch scripts (slurm_script.hpp) are written to
// OUT/shards.sbatch and OUT/merge.sbatch, then `sbatch --parsable` submits the array and, with
// the array's job id, the merge job that depends on it. The sbatch command lines are kept as
// argv, so a dry run can show exactly what a submission would run.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "slurm_script.hpp"

namespace stream::host {

struct SlurmSubmission {
  std::filesystem::path shard_script;  ///< OUT/shards.sbatch
  std::filesystem::path merge_script;  ///< OUT/merge.sbatch
  std::string array_job_id;            ///< filled by submit_slurm()
  std::string merge_job_id;            ///< filled by submit_slurm()
};

/// Writes both scripts (and creates OUT/logs/ for the jobs' output); throws stream::Error when
/// they cannot be written.
[[nodiscard]] SlurmSubmission write_slurm_scripts(const SlurmArrayJob& job);

/// The sbatch command that submits the array.
[[nodiscard]] std::vector<std::string> array_submit_command(const SlurmSubmission& s);
/// The sbatch command that submits the merge job after the array job `array_job_id`.
[[nodiscard]] std::vector<std::string> merge_submit_command(const SlurmSubmission& s, const std::string& array_job_id);

/// Runs both commands and records the job ids. Throws stream::Error when sbatch is not on PATH,
/// fails (its stderr in the message) or prints no job id; when the merge job fails to submit,
/// the message names the array job already submitted.
void submit_slurm(SlurmSubmission& s);

}  // namespace stream::host
