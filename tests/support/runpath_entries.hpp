// The RUNPATH/RPATH entries of every ELF executable and shared object under a directory, read with
// `readelf -d`, and the rule they must keep: each entry absolute or $ORIGIN-based. An empty entry
// (a trailing ':') or a relative one makes the loader search the current directory, so a stranger's
// libfmt.so.9 in the working directory would run at `stream --version`.
#pragma once

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace stream_test {

// ELF executables and shared objects (e_type ET_EXEC = 2 or ET_DYN = 3), not object files.
inline bool is_linked_elf(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  char h[18] = {};
  if (!in.read(h, sizeof h) || std::string(h, 4) != "\x7f" "ELF") return false;
  return h[16] == 2 || h[16] == 3;  // little-endian e_type, as on every platform this builds for
}

// "file: entry" for every RUNPATH/RPATH entry that is empty or relative; `count` gets the number of
// linked ELF files examined (so that a test can tell it looked at something).
inline std::vector<std::string> unsafe_runpath_entries(const std::filesystem::path& root, int& count) {
  std::vector<std::string> bad;
  count = 0;
  for (auto it = std::filesystem::recursive_directory_iterator(root); it != decltype(it)(); ++it) {
    if (it->is_directory() && it->path().filename() == "CMakeFiles") it.disable_recursion_pending();
    if (it->is_symlink() || !it->is_regular_file() || !is_linked_elf(it->path())) continue;
    ++count;
    const auto command = "readelf -d '" + it->path().string() + "' 2>/dev/null";
    FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr) return {"cannot run readelf"};
    std::string out;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
    ::pclose(pipe);
    // Lines like: 0x...1d (RUNPATH)  Library runpath: [/a/lib:]
    for (std::size_t at = out.find("path: ["); at != std::string::npos; at = out.find("path: [", at + 1)) {
      const auto begin = at + 7;
      const auto list = out.substr(begin, out.find(']', begin) - begin);
      std::size_t from = 0;
      while (true) {
        const auto colon = list.find(':', from);
        const auto entry = list.substr(from, colon == std::string::npos ? std::string::npos : colon - from);
        if (!entry.starts_with('/') && !entry.starts_with("$ORIGIN"))
          bad.push_back(it->path().string() + ": '" + entry + "' in [" + list + "]");
        if (colon == std::string::npos) break;
        from = colon + 1;
      }
    }
  }
  return bad;
}

}  // namespace stream_test
