#include "slurm_script.hpp"

#include <stream/error.hpp>

namespace stream::host {

namespace {

bool plain(std::string_view text) {
  if (text.empty()) return false;
  for (const char c : text) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    std::string_view("_@%+=:,./-").find(c) != std::string_view::npos;
    if (!ok) return false;
  }
  return true;
}

// A literal '%' in an --output path would start one of Slurm's filename patterns (%a, %j, ...).
std::string literal_percent(const std::string& path) {
  std::string out;
  for (const char c : path) out += c == '%' ? std::string("%%") : std::string(1, c);
  return out;
}

void require_one_line(std::string_view text) {
  if (text.find('\n') != std::string_view::npos)
    throw Error("a Slurm batch script cannot hold a newline in '" + std::string(text) + "'");
}

// Paths go into comment and command lines too.
void require_one_line(const SlurmArrayJob& job) {
  for (const auto* p : {&job.stream, &job.sweep_file, &job.out}) require_one_line(p->string());
}

// The #SBATCH lines both jobs share: partition and time limit when given, and the log file.
std::string common_directives(const SlurmArrayJob& job, const std::string& log_name) {
  std::string s;
  if (!job.partition.empty()) s += "#SBATCH --partition=" + sbatch_quote(job.partition) + "\n";
  if (!job.time.empty()) s += "#SBATCH --time=" + sbatch_quote(job.time) + "\n";
  s += "#SBATCH --output=" + sbatch_quote(literal_percent((job.out / "logs").string()) + "/" + log_name) + "\n";
  return s;
}

}  // namespace

std::string shell_quote(std::string_view text) {
  if (plain(text)) return std::string(text);
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string sbatch_quote(std::string_view text) {
  require_one_line(text);
  if (plain(text)) return std::string(text);
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string shard_script(const SlurmArrayJob& job) {
  require_one_line(job);
  const auto n = std::to_string(job.tasks);
  const auto sweep_file = shell_quote(job.sweep_file.string());
  std::string s = "#!/bin/bash\n";
  s += "# Written by `stream sweep submit`: array task I evaluates shard I of " + n + " of the sweep\n";
  s += "#   " + sweep_file + "\n";
  s += "# into $out/shard-I; merge.sbatch, beside this file, then combines them.\n";
  s += "#SBATCH --job-name=stream-sweep\n";
  s += "#SBATCH --array=0-" + std::to_string(job.tasks - 1) + "\n";
  s += "#SBATCH --cpus-per-task=" + std::to_string(job.jobs) + "\n";
  s += common_directives(job, "shard-%a.out");
  s += "set -euo pipefail\n";
  s += "out=" + shell_quote(job.out.string()) + "\n";
  s += "exec " + shell_quote(job.stream.string()) + " sweep " + sweep_file + " --shard \"$SLURM_ARRAY_TASK_ID/" + n +
       "\" --out \"$out/shard-$SLURM_ARRAY_TASK_ID\" --jobs " + std::to_string(job.jobs) + "\n";
  return s;
}

std::string merge_script(const SlurmArrayJob& job) {
  require_one_line(job);
  const auto n = std::to_string(job.tasks);
  std::string s = "#!/bin/bash\n";
  s += "# Written by `stream sweep submit`: merges the " + n + " shards of the sweep\n";
  s += "#   " + shell_quote(job.sweep_file.string()) + "\n";
  s += "# into $out, once every task of shards.sbatch has succeeded.\n";
  s += "#SBATCH --job-name=stream-sweep-merge\n";
  // A failed shard leaves the dependency unsatisfiable: end the job then rather than let it wait.
  s += "#SBATCH --kill-on-invalid-dep=yes\n";
  s += common_directives(job, "merge.out");
  s += "set -euo pipefail\n";
  s += "out=" + shell_quote(job.out.string()) + "\n";
  s += "shards=()\n";
  s += "for ((i = 0; i < " + n + "; i++)); do shards+=(\"$out/shard-$i\"); done\n";
  s += "exec " + shell_quote(job.stream.string()) + " sweep merge \"${shards[@]}\" --out \"$out\"\n";
  return s;
}

}  // namespace stream::host
