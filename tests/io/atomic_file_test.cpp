// io/atomic_file.hpp: a file is its previous version until commit() and the new one after, a
// writer that fails or is dropped leaves no trace, a link at the target is replaced rather than
// written through, and a killed writer's temporary file is removed by the next writer.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include <stream/error.hpp>
#include <stream/io/atomic_file.hpp>

#include "stream_cli.hpp"

namespace fs = std::filesystem;
using stream::test::read;

namespace {

fs::path atomic_scratch(const std::string& name) { return stream::test::fresh_scratch_dir("io_atomic", name); }

std::size_t entries(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

}  // namespace

TEST(AtomicFile, TheTargetIsThePreviousVersionUntilCommit) {
  const auto dir = atomic_scratch("commit");
  stream::io::write_file_atomically(dir / "results.csv", "a,b\n1,2\n");
  EXPECT_EQ(read(dir / "results.csv"), "a,b\n1,2\n");
  {
    stream::io::AtomicFileWriter out(dir / "results.csv");
    out.write("a,b\n");
    out.write(std::string(100000, 'x') + "\n");  // past the writer's buffer: some of it is on disk
    EXPECT_EQ(read(dir / "results.csv"), "a,b\n1,2\n");
    EXPECT_EQ(entries(dir), 2u);  // the target and the temporary file
    out.commit();
  }
  EXPECT_EQ(read(dir / "results.csv"), "a,b\n" + std::string(100000, 'x') + "\n");
  EXPECT_EQ(entries(dir), 1u);
}

TEST(AtomicFile, AWriterDroppedBeforeCommitLeavesThePreviousFileAndNoTrace) {
  const auto dir = atomic_scratch("dropped");
  stream::io::write_file_atomically(dir / "report.html", "<html>whole</html>\n");
  {
    stream::io::AtomicFileWriter out(dir / "report.html");
    out.write("<html>half");
  }
  EXPECT_EQ(read(dir / "report.html"), "<html>whole</html>\n");
  EXPECT_EQ(entries(dir), 1u);
  // A file that cannot be made (its folder is missing) is an error naming it, and nothing is made.
  EXPECT_THROW(stream::io::write_file_atomically(dir / "missing" / "x.csv", "x\n"), stream::Error);
}

TEST(AtomicFile, ALinkAtTheTargetIsReplacedNotWrittenThrough) {
  const auto dir = atomic_scratch("link");
  stream::io::write_file_atomically(dir / "victim", "keep\n");
  fs::create_symlink(dir / "victim", dir / "pareto.csv");
  stream::io::write_file_atomically(dir / "pareto.csv", "new\n");
  EXPECT_EQ(read(dir / "victim"), "keep\n");
  EXPECT_FALSE(fs::is_symlink(dir / "pareto.csv"));
  EXPECT_EQ(read(dir / "pareto.csv"), "new\n");
}

// The temporary file of a process killed before commit() (named with its host and pid) is
// removed by the next writer of that target once the process is gone; a live process's is kept.
TEST(AtomicFile, TheNextWriterRemovesAKilledWritersTemporaryFile) {
  const auto dir = atomic_scratch("abandoned");
  const pid_t child = fork();
  if (child == 0) {
    stream::io::AtomicFileWriter out(dir / "results.jsonl");
    out.write("{\"point\": 0}\n");
    _exit(0);  // no destructor runs: as a SIGKILL leaves it
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_EQ(entries(dir), 1u);  // the dead child's temporary file
  stream::io::AtomicFileWriter live(dir / "results.jsonl");  // this process's, left alone below
  live.write("{\"point\": 1}\n");
  EXPECT_EQ(entries(dir), 1u);  // the dead one's was removed; this writer's is there
  stream::io::write_file_atomically(dir / "results.jsonl", "{\"point\": 2}\n");
  EXPECT_EQ(entries(dir), 2u);  // the target, and the live writer's temporary file
  live.commit();
  EXPECT_EQ(read(dir / "results.jsonl"), "{\"point\": 1}\n");
  EXPECT_EQ(entries(dir), 1u);
}
