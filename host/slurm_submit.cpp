#include "slurm_submit.hpp"

#include <stream/error.hpp>
#include <stream/io/file_output.hpp>

#include "subprocess.hpp"

namespace fs = std::filesystem;

namespace stream::host {

namespace {

void write_script(const fs::path& path, const std::string& text) {
  io::write_file(path, text);
  std::error_code ec;  // executable for whoever runs it by hand; sbatch itself only reads it
  fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec, fs::perm_options::add, ec);
}

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  return text;
}

// `sbatch --parsable` prints "ID" or "ID;CLUSTER".
std::string job_id(const std::string& printed) {
  const auto id = trimmed(printed.substr(0, printed.find(';')));
  const bool digits = !id.empty() && id.find_first_not_of("0123456789") == std::string::npos;
  if (!digits) throw Error("sbatch --parsable printed '" + trimmed(printed) + "', not a job id");
  return id;
}

std::string sbatch(const std::vector<std::string>& argv, const fs::path& script) {
  const auto r = run_process(argv);
  if (!r.started)
    throw Error("cannot run sbatch (" + r.err + "): is this a Slurm submission host with sbatch on PATH? "
                "--dry-run writes the scripts without submitting them");
  if (r.exit_code != 0)
    throw Error("sbatch failed (exit " + std::to_string(r.exit_code) + "): " + trimmed(r.err), Location{.file = script.string()});
  return job_id(r.out);
}

}  // namespace

SlurmSubmission write_slurm_scripts(const SlurmArrayJob& job) {
  SlurmSubmission s{job.out / "shards.sbatch", job.out / "merge.sbatch", {}, {}};
  const auto shards = shard_script(job);
  const auto merge = merge_script(job);
  std::error_code ec;
  fs::create_directories(job.out / "logs", ec);
  if (ec) throw Error("cannot create the directory: " + ec.message(), Location{.file = (job.out / "logs").string()});
  write_script(s.shard_script, shards);
  write_script(s.merge_script, merge);
  return s;
}

std::vector<std::string> array_submit_command(const SlurmSubmission& s) {
  return {"sbatch", "--parsable", s.shard_script.string()};
}

std::vector<std::string> merge_submit_command(const SlurmSubmission& s, const std::string& array_job_id) {
  return {"sbatch", "--parsable", "--dependency=afterok:" + array_job_id, s.merge_script.string()};
}

void submit_slurm(SlurmSubmission& s) {
  s.array_job_id = sbatch(array_submit_command(s), s.shard_script);
  try {
    s.merge_job_id = sbatch(merge_submit_command(s, s.array_job_id), s.merge_script);
  } catch (const Error& e) {
    throw Error(e.message() + " (the array job " + s.array_job_id + " is submitted: `scancel " + s.array_job_id +
                    "` cancels it, or submit the merge job by hand once it is done)",
                e.where());
  }
}

}  // namespace stream::host
