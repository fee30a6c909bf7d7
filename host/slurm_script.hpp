// The two Slurm batch scripts of a sharded sweep (`stream sweep submit --slurm`): a job array
// whose task I runs shard I of N (`stream sweep FILE --shard I/N --out OUT/shard-I`), and a merge
// job, submitted to start after every task succeeded, that runs `stream sweep merge` over the N
// shard folders into OUT. Every path in them is absolute, so they run from any directory, and
// quoted twice over: for bash in the commands, for sbatch's own reader in the #SBATCH lines
// (which splits at blanks outside quotes and ends at an unquoted '#'). The text depends on the
// job's fields alone: the same job gives the same bytes.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace stream::host {

struct SlurmArrayJob {
  std::filesystem::path stream;      ///< absolute path of the `stream` executable the tasks run
  std::filesystem::path sweep_file;  ///< absolute
  std::filesystem::path out;         ///< absolute: results in OUT, shard I in OUT/shard-I, logs in OUT/logs
  int tasks = 1;                     ///< array size, one shard per task
  int jobs = 1;                      ///< CPUs per task, and each shard's --jobs
  std::string partition;             ///< empty: the cluster's default partition
  std::string time;                  ///< sbatch --time of each job; empty: the partition's limit
};

/// `text` as one word for a POSIX shell: unchanged when it holds only characters no shell treats
/// specially, else in single quotes (a quote inside written '\'').
[[nodiscard]] std::string shell_quote(std::string_view text);
/// `text` as one argument of an #SBATCH line: unchanged when safe, else in double quotes with
/// '"' and '\' escaped by a backslash. Throws stream::Error for a newline, which no line can hold.
[[nodiscard]] std::string sbatch_quote(std::string_view text);

/// The job-array script (one shard per task). Both scripts throw stream::Error for a path with a
/// newline.
[[nodiscard]] std::string shard_script(const SlurmArrayJob& job);
/// The merge script; it is submitted with --dependency=afterok:<the array's job id>.
[[nodiscard]] std::string merge_script(const SlurmArrayJob& job);

}  // namespace stream::host
