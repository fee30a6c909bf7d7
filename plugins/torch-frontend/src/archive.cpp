// Reading a .pt2's zip container (libzip): the archive's model entries and their JSON, with the
// size limits that keep a hostile archive from inflating without bound.
#include <algorithm>
#include <memory>

#include <zip.h>

#include <stream/error.hpp>

#include "stream_torch/torch_frontend.hpp"

namespace stream::torch_frontend {

namespace {

struct ZipCloser {
  void operator()(zip_t* z) const { zip_discard(z); }
};

class Zip {
 public:
  explicit Zip(const std::filesystem::path& path) : file_(path.string()) {
    int err = 0;
    zip_.reset(zip_open(file_.c_str(), ZIP_RDONLY, &err));
    if (!zip_) {
      zip_error_t e;
      zip_error_init_with_code(&e, err);
      std::string why = zip_error_strerror(&e);
      zip_error_fini(&e);
      throw Error("cannot open the archive: " + why + " (a .pt2 written by torch.export.save is a zip file)",
                  Location{.file = file_});
    }
    const auto n = zip_get_num_entries(zip_.get(), 0);
    for (zip_int64_t i = 0; i < n; ++i) {
      const char* name = zip_get_name(zip_.get(), static_cast<zip_uint64_t>(i), 0);
      names_.emplace_back(name ? name : "");
    }
  }
  [[nodiscard]] const std::vector<std::string>& names() const { return names_; }
  [[nodiscard]] bool has(const std::string& name) const {
    return std::find(names_.begin(), names_.end(), name) != names_.end();
  }
  // At most `limit` bytes once inflated: the size the entry declares is checked first, and the
  // inflated stream is counted as it arrives (a declared size can lie), so a small archive never
  // inflates into gigabytes.
  [[nodiscard]] std::string read(const std::string& name, std::uint64_t limit) const {
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat(zip_.get(), name.c_str(), 0, &st) != 0) fail("entry '" + name + "' is missing");
    if ((st.valid & ZIP_STAT_COMP_METHOD) && st.comp_method != ZIP_CM_STORE && st.comp_method != ZIP_CM_DEFLATE)
      fail("entry '" + name + "' uses compression method " + std::to_string(st.comp_method) +
           "; only stored and deflated entries are supported");
    if ((st.valid & ZIP_STAT_SIZE) && st.size > limit) too_large(name, std::to_string(st.size) + " bytes", limit);
    std::unique_ptr<zip_file_t, int (*)(zip_file_t*)> f(zip_fopen(zip_.get(), name.c_str(), 0), zip_fclose);
    if (!f) fail("cannot read entry '" + name + "': " + zip_strerror(zip_.get()));
    std::string data;
    std::array<char, 65536> buf{};
    for (;;) {
      const auto got = zip_fread(f.get(), buf.data(), buf.size());
      if (got < 0) fail("cannot read entry '" + name + "': " + zip_file_strerror(f.get()));
      if (got == 0) break;
      if (data.size() + static_cast<std::uint64_t>(got) > limit) too_large(name, "more than that", limit);
      data.append(buf.data(), static_cast<std::size_t>(got));
    }
    return data;
  }
  [[noreturn]] void too_large(const std::string& name, const std::string& size, std::uint64_t limit) const {
    fail("entry '" + name + "' inflates to " + size + "; at most " + std::to_string(limit) +
         " bytes are read from a .pt2 entry (see the torch frontend README)");
  }
  [[noreturn]] void fail(const std::string& message) const { throw Error(message, Location{.file = file_}); }

 private:
  std::string file_;
  std::unique_ptr<zip_t, ZipCloser> zip_;
  std::vector<std::string> names_;
};

std::string trimmed(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

}  // namespace

ArchiveProgram read_archive(const std::filesystem::path& path, const std::string& model) {
  Zip zip(path);
  ArchiveProgram out;
  if (zip.has("serialized_exported_program.json")) {
    out.layout = ArchiveLayout::Legacy;
    out.json_entry = "serialized_exported_program.json";
    out.json = zip.read(out.json_entry, kMaxProgramJsonBytes);
    return out;
  }
  if (zip.names().empty()) zip.fail("the archive is empty; expected a torch.export.save archive");
  // PT2: the first entry's top folder is the archive name, provided P/archive_format exists;
  // otherwise the flat variant (entries at the root).
  std::string prefix;
  const auto& first = zip.names().front();
  const auto slash = first.find('/');
  if (slash != std::string::npos && zip.has(first.substr(0, slash + 1) + "archive_format")) prefix = first.substr(0, slash + 1);
  else if (!zip.has("archive_format"))
    zip.fail("not a torch.export archive: no serialized_exported_program.json (torch <= 2.7) and no archive_format "
             "record (PT2 archive, torch >= 2.8)");
  const auto format = trimmed(zip.read(prefix + "archive_format", kMaxRecordBytes));
  if (format != "pt2") zip.fail("archive_format is '" + format + "', expected 'pt2'");
  if (!prefix.empty())
    for (const auto& n : zip.names())
      if (n.rfind(prefix, 0) != 0)
        zip.fail("entry '" + n + "' is outside the archive folder '" + prefix + "' that the first entry defines");
  std::vector<std::string> models;
  const auto models_dir = prefix + "models/";
  for (const auto& n : zip.names()) {
    if (n.rfind(models_dir, 0) != 0 || n.size() <= models_dir.size() + 5) continue;
    const auto rest = n.substr(models_dir.size());
    if (rest.find('/') != std::string::npos || rest.substr(rest.size() - 5) != ".json") continue;
    models.push_back(rest.substr(0, rest.size() - 5));
  }
  if (models.empty())
    zip.fail("the PT2 archive holds no ExportedProgram (no " + models_dir +
             "*.json; an AOTInductor package holds compiled code only)");
  std::string pick = model;
  if (pick.empty()) {
    if (std::find(models.begin(), models.end(), "model") != models.end()) pick = "model";
    else if (models.size() == 1) pick = models.front();
  }
  if (pick.empty() || std::find(models.begin(), models.end(), pick) == models.end()) {
    std::string list;
    for (const auto& m : models) list += (list.empty() ? "" : ", ") + m;
    zip.fail((model.empty() ? std::string("the archive holds several models") : "the archive has no model '" + model + "'") +
             " (" + list + "); choose one with the frontend option model=<name>");
  }
  out.layout = ArchiveLayout::Pt2;
  out.prefix = prefix.empty() ? "" : prefix.substr(0, prefix.size() - 1);
  out.model = pick;
  out.json_entry = models_dir + pick + ".json";
  out.json = zip.read(out.json_entry, kMaxProgramJsonBytes);
  return out;
}

}  // namespace stream::torch_frontend
