// Bounded fuzzing of the hardware readers under gcc: every reference hardware file is mutated in
// many deterministic ways (byte flips, deletions, YAML punctuation insertions, duplicated and
// swapped lines, truncation) and read back. The only acceptable outcomes are a value or a
// stream::Error; anything else (a crash, another exception type) fails the test.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "stream/hardware/accelerator_reader.hpp"
#include "stream/hardware/core_reader.hpp"

namespace fs = std::filesystem;
using namespace stream::hardware;

namespace {

const fs::path kInputs = fs::path(STREAM_TEST_DATA_DIR) / "reference" / "stream-inputs";

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

std::string mutate(const std::string& text, std::mt19937& rng) {
  static const std::string punctuation = ":-[]{},&*!|>'\"#%@ \t\n?0123456789_.~";
  std::string s = text;
  auto pick = [&](std::size_t n) { return n == 0 ? std::size_t{0} : std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
  const int rounds = 1 + static_cast<int>(pick(3));
  for (int r = 0; r < rounds; ++r) {
    switch (pick(8)) {
      case 0:  // delete a byte
        if (!s.empty()) s.erase(pick(s.size()), 1);
        break;
      case 1:  // insert YAML punctuation
        s.insert(pick(s.size() + 1), 1, punctuation[pick(punctuation.size())]);
        break;
      case 2:  // replace a byte
        if (!s.empty()) s[pick(s.size())] = punctuation[pick(punctuation.size())];
        break;
      case 3: {  // duplicate a line
        auto lines = split_lines(s);
        if (!lines.empty()) {
          const std::size_t i = pick(lines.size());
          lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(i), lines[i]);
        }
        s = join_lines(lines);
        break;
      }
      case 4: {  // swap two lines
        auto lines = split_lines(s);
        if (lines.size() > 1) std::swap(lines[pick(lines.size())], lines[pick(lines.size())]);
        s = join_lines(lines);
        break;
      }
      case 5:  // truncate
        s.resize(pick(s.size() + 1));
        break;
      case 6: {  // change a number into something odd
        const auto pos = s.find_first_of("0123456789", pick(s.size() + 1));
        static const char* odd[] = {"-1", "0", "1e99", "99999999999999999999", "1.5", "0x", "nan", "", "[]", "{}"};
        if (pos != std::string::npos) s.replace(pos, 1, odd[pick(10)]);
        break;
      }
      default: {  // re-indent a line
        auto lines = split_lines(s);
        if (!lines.empty()) {
          auto& l = lines[pick(lines.size())];
          if (pick(2) == 0 && l.size() >= 2 && l.substr(0, 2) == "  ") l.erase(0, 2);
          else l = "  " + l;
        }
        s = join_lines(lines);
        break;
      }
    }
  }
  return s;
}

}  // namespace

TEST(HardwareRobustness, MutatedReferenceFilesNeverCrash) {
  std::vector<fs::path> accelerators, cores;
  for (const char* dir : {"hardware", "testing/hardware", "aie/hardware"}) {
    for (const auto& e : fs::directory_iterator(kInputs / dir))
      if (e.path().extension() == ".yaml") accelerators.push_back(e.path());
    for (const auto& e : fs::directory_iterator(kInputs / dir / "cores"))
      if (e.path().extension() == ".yaml") cores.push_back(e.path());
  }
  std::sort(accelerators.begin(), accelerators.end());
  std::sort(cores.begin(), cores.end());
  ASSERT_FALSE(accelerators.empty());
  ASSERT_FALSE(cores.empty());

  std::mt19937 rng(20261129);
  int failures_reported = 0, accepted = 0, total = 0;
  auto run = [&](const std::function<void()>& fn, const std::string& what) {
    ++total;
    try {
      fn();
      ++accepted;
    } catch (const stream::Error&) {
      ++failures_reported;
    } catch (const std::exception& e) {
      ADD_FAILURE() << what << ": unexpected exception " << e.what();
    } catch (...) {
      ADD_FAILURE() << what << ": unexpected non-std exception";
    }
  };
  constexpr int kPerFile = 60;
  for (const auto& f : accelerators) {
    const std::string text = slurp(f);
    for (int i = 0; i < kPerFile; ++i) {
      const std::string m = mutate(text, rng);
      run([&] { (void)parse_accelerator_text(m, "mutant.yaml", f.parent_path()); }, f.string() + " #" + std::to_string(i));
    }
  }
  for (const auto& f : cores) {
    const std::string text = slurp(f);
    for (int i = 0; i < kPerFile; ++i) {
      const std::string m = mutate(text, rng);
      run([&] { (void)parse_core_text(m, "mutant.yaml"); }, f.string() + " #" + std::to_string(i));
    }
  }
  // Both outcomes occur: most mutants are rejected, some (comments, whitespace) still read.
  EXPECT_GT(failures_reported, 0);
  EXPECT_GT(accepted, 0);
  EXPECT_EQ(total, kPerFile * static_cast<int>(accelerators.size() + cores.size()));
}

TEST(HardwareRobustness, PathologicalDocuments) {
  const std::vector<std::string> docs = {
      "",
      "~",
      "[",
      "&a [*a]",
      "name: x\ncores: &c {0: *c}\noffchip_core_id: 0\ncore_connectivity: []\n",
      std::string(3000, '[') + std::string(3000, ']'),
      std::string(3000, '{'),
      "name: x\ncores:\n  0: {name: y, memories: {m: &m {ports: [*m]}}, operational_array: {}}\n",
      "name: x\ncores: {99999999999999999999: a}\noffchip_core_id: 0\ncore_connectivity: []\n",
      "name: x\ncores: {0: ./cores/tpu_like.yaml}\noffchip_core_id: 0\ncore_connectivity: [{cores: [0, 0], bandwidth: 1}]\n",
      "name: x\ncores: {0: ./cores/tpu_like.yaml}\noffchip_core_id: 0\ncore_connectivity: [{cores: [0, 99999999999], bandwidth: .inf}]\n",
      "name: x\ncores: {0: ./cores/tpu_like.yaml, 1: ./cores/tpu_like.yaml}\noffchip_core_id: 0\ncore_connectivity: []\n"
      "core_memory_sharing: ['0, 1, 99999999999999']\n",
      "\t\t: :\n- - -\n? ? ?\n",
      "name: !!binary AAAA\n",
      "%YAML 1.1\n---\nname: x\n...\n---\nname: y\n",
  };
  const fs::path dir = kInputs / "hardware";
  for (const auto& d : docs) {
    try {
      (void)parse_accelerator_text(d, "p.yaml", dir);
    } catch (const stream::Error&) {
    } catch (const std::exception& e) {
      ADD_FAILURE() << "accelerator: " << d.substr(0, 60) << ": " << e.what();
    }
    try {
      (void)parse_core_text(d, "p.yaml");
    } catch (const stream::Error&) {
    } catch (const std::exception& e) {
      ADD_FAILURE() << "core: " << d.substr(0, 60) << ": " << e.what();
    }
  }
}
