// The single file writer (io/file_output.hpp) and the UTF-8 repair every writer applies
// (io/utf8.hpp), in process.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <stream/error.hpp>
#include <stream/io/file_output.hpp>
#include <stream/io/utf8.hpp>

#include "stream_cli.hpp"

namespace fs = std::filesystem;
using stream::io::FileMode;

namespace {

fs::path scratch(const std::string& name) { return stream::test::fresh_scratch_dir("io", name); }

}  // namespace

// /dev/full accepts the open and fails every write with ENOSPC: the writer must say so, naming
// the file, as an internal failure (exit 1), instead of returning as if the text were written.
TEST(FileOutput, DevFullIsAnErrorNamingTheFile) {
  try {
    stream::io::write_file("/dev/full", "total_latency: 14344\n");
    FAIL() << "writing /dev/full succeeded";
  } catch (const stream::Error& e) {
    EXPECT_EQ(e.where().file, "/dev/full");
    EXPECT_EQ(e.kind(), stream::ErrorKind::Internal);
    EXPECT_NE(e.message().find("No space left on device"), std::string::npos) << e.what();
  }
}

TEST(FileOutput, MissingDirectoryIsAnErrorNamingTheFile) {
  const auto path = scratch("missing_dir") / "no" / "summary.yaml";
  try {
    stream::io::write_file(path, "x\n");
    FAIL() << "writing under a missing directory succeeded";
  } catch (const stream::Error& e) {
    EXPECT_EQ(e.where().file, path.string());
  }
}

// Inside a result directory a symbolic link is refused, so a planted link cannot redirect a
// result file elsewhere; the file it points to keeps its content.
TEST(FileOutput, RefuseLinkDoesNotWriteThroughALink) {
  const auto dir = scratch("refuse_link");
  stream::io::write_file(dir / "victim", "keep\n");
  fs::create_symlink(dir / "victim", dir / "summary.yaml");
  EXPECT_THROW(stream::io::write_file(dir / "summary.yaml", "new\n", FileMode::RefuseLink), stream::Error);
  EXPECT_EQ(stream::test::read(dir / "victim"), "keep\n");
  // A path the user chose is followed, as before.
  stream::io::write_file(dir / "summary.yaml", "new\n", FileMode::FollowLink);
  EXPECT_EQ(stream::test::read(dir / "victim"), "new\n");
}

TEST(FileOutput, WritesInvalidUtf8AsReplacementCharacters) {
  const auto path = scratch("utf8") / "names.yaml";
  stream::io::write_file(path, "name: conv\xE9\n");
  // 0xE9 alone (Latin-1 e-acute) starts a 3-byte sequence that "\n" does not continue: U+FFFD.
  EXPECT_EQ(stream::test::read(path), "name: conv\xEF\xBF\xBD\n");
}

// Hand-derived from Unicode table 3-7: each byte that cannot begin a well-formed sequence is
// replaced by U+FFFD (EF BF BD); well-formed sequences of 1 to 4 bytes are kept.
TEST(Utf8, RepairsEachIllFormedByteAndKeepsWellFormedText) {
  const std::string fffd = "\xEF\xBF\xBD";
  EXPECT_TRUE(stream::io::is_valid_utf8("plain \xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"));  // é, €, 😀
  EXPECT_EQ(stream::io::to_valid_utf8("a\xC3\xA9"), "a\xC3\xA9");
  EXPECT_EQ(stream::io::to_valid_utf8("a\xFF" "b"), "a" + fffd + "b");   // never a lead byte
  EXPECT_EQ(stream::io::to_valid_utf8("\xC0\xAF"), fffd + fffd);          // overlong '/'
  EXPECT_EQ(stream::io::to_valid_utf8("\xED\xA0\x80"), fffd + fffd + fffd);  // surrogate U+D800
  EXPECT_EQ(stream::io::to_valid_utf8("\xF4\x90\x80\x80"), fffd + fffd + fffd + fffd);  // past U+10FFFF
  EXPECT_EQ(stream::io::to_valid_utf8("x\xE2\x82"), "x" + fffd + fffd);   // cut at the end
  EXPECT_FALSE(stream::io::is_valid_utf8("\x80"));
}

TEST(FileWriter, PiecesPastTheBufferAreTheWholeText) {
  // 200,000 pieces of 7 bytes (past the 64 kB buffer many times), one with an invalid byte that
  // becomes U+FFFD (3 bytes): the file is the pieces in order.
  const auto path = scratch("writer") / "results.jsonl";
  std::string expected;
  {
    stream::io::FileWriter out(path);
    for (int i = 0; i < 200000; ++i) {
      const std::string piece = i == 1000 ? std::string("ab\xff" "cde\n") : std::to_string(100000 + i) + "\n";
      out.write(piece);
      expected += i == 1000 ? std::string("ab\xef\xbf\xbd" "cde\n") : piece;
    }
    out.close();
  }
  EXPECT_EQ(stream::test::read(path), expected);
}

TEST(FileWriter, AFullDeviceIsReportedAtTheLatestOnClose) {
  stream::io::FileWriter out("/dev/full");
  out.write("total_latency: 14344\n");  // buffered: the failure shows when it goes out
  EXPECT_THROW(out.close(), stream::Error);
}
