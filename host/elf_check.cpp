#include "elf_check.hpp"

#include <elf.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <vector>

namespace stream::host {

namespace {

using Ehdr = Elf64_Ehdr;
using Phdr = Elf64_Phdr;
using Shdr = Elf64_Shdr;

// True when [offset, offset + count * size) lies within a file of `file_size` bytes, without overflow.
bool within(std::uint64_t offset, std::uint64_t count, std::uint64_t size, std::uint64_t file_size) {
  if (offset > file_size) return false;
  if (size != 0 && count > (file_size - offset) / size) return false;
  return true;
}

template <typename T>
std::vector<T> read_table(std::ifstream& in, std::uint64_t offset, std::uint64_t count) {
  std::vector<T> table(count);
  in.seekg(static_cast<std::streamoff>(offset));
  in.read(reinterpret_cast<char*>(table.data()), static_cast<std::streamsize>(count * sizeof(T)));
  if (!in) table.clear();
  return table;
}

std::optional<std::string> header_defect(const Ehdr& h) {
  if (std::memcmp(h.e_ident, ELFMAG, SELFMAG) != 0) return "not an ELF file (bad magic number)";
  if (h.e_ident[EI_CLASS] != ELFCLASS64) return "not a 64-bit ELF file";
  const bool little = std::endian::native == std::endian::little;
  if (h.e_ident[EI_DATA] != (little ? ELFDATA2LSB : ELFDATA2MSB)) return "ELF byte order differs from this machine's";
  if (h.e_type != ET_DYN) return "not an ELF shared object (e_type " + std::to_string(h.e_type) + ")";
  if (h.e_phnum == 0) return "the ELF file has no program headers";
  if (h.e_phentsize != sizeof(Phdr)) return "ELF program header size " + std::to_string(h.e_phentsize) + " is wrong";
  if (h.e_shnum != 0 && h.e_shentsize != sizeof(Shdr))
    return "ELF section header size " + std::to_string(h.e_shentsize) + " is wrong";
  return std::nullopt;
}

}  // namespace

std::optional<std::string> elf_defect(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) return "not a regular file";
  const std::uint64_t size = std::filesystem::file_size(file, ec);
  if (ec) return "cannot read its size: " + ec.message();
  std::ifstream in(file, std::ios::binary);
  Ehdr h{};
  if (size < sizeof(Ehdr) || !in.read(reinterpret_cast<char*>(&h), sizeof(Ehdr)))
    return "truncated: " + std::to_string(size) + " bytes, shorter than an ELF header";
  if (auto why = header_defect(h)) return why;
  const auto truncated = [&](const std::string& what, std::uint64_t end) {
    return "truncated: " + what + " ends at byte " + std::to_string(end) + ", but the file has " + std::to_string(size) +
           " bytes";
  };
  if (!within(h.e_phoff, h.e_phnum, sizeof(Phdr), size))
    return truncated("the program header table", h.e_phoff + std::uint64_t{h.e_phnum} * sizeof(Phdr));
  for (const auto& p : read_table<Phdr>(in, h.e_phoff, h.e_phnum))
    if (p.p_type == PT_LOAD && !within(p.p_offset, 1, p.p_filesz, size))
      return truncated("a loadable segment", p.p_offset + p.p_filesz);
  if (!within(h.e_shoff, h.e_shnum, sizeof(Shdr), size))
    return truncated("the section header table", h.e_shoff + std::uint64_t{h.e_shnum} * sizeof(Shdr));
  for (const auto& s : read_table<Shdr>(in, h.e_shoff, h.e_shnum))
    if (s.sh_type != SHT_NOBITS && !within(s.sh_offset, 1, s.sh_size, size))
      return truncated("a section", s.sh_offset + s.sh_size);
  return std::nullopt;
}

}  // namespace stream::host
