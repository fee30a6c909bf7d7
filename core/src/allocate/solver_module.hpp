// Opening one of the MILP solver's modules. The solver's libraries are loaded on first use, not
// linked: Clp with CoinUtils, Osi, LAPACK, BLAS and gfortran (libstream_clp.so, which solves every
// relaxation), and CBC's branch and bound with Cgl (libstream_cbc.so, which only a relaxation
// with a fractional optimum needs) are some 8,000 and 5,000 dynamic relocations. Linked into
// libstream_core, every start of `stream` paid for both, whether it solved anything or not
// (--version, plugins, parse, validate), and every plugin's symbol lookups walked a dozen more
// libraries. A module lies at a fixed place relative to the library that opens it (the build tree
// mirrors the install layout), found through dladdr, and stays loaded for the process.
#pragma once

#include <dlfcn.h>

#include <filesystem>
#include <string>

#include "stream/error.hpp"
#include "stream/out_of_memory.hpp"

namespace stream::allocate {

/// libstream_core opens lib/stream/libstream_clp.so; that module opens libstream_cbc.so beside it.
inline constexpr const char* kClpModule = "stream/libstream_clp.so";
inline constexpr const char* kClpEntry = "stream_clp_backend";
inline constexpr const char* kCbcModule = "libstream_cbc.so";
inline constexpr const char* kCbcEntry = "stream_cbc_search";

/// Calls the entry function `entry` (no arguments, returning `T*`) of the module at `module`,
/// relative to the directory of the library that holds `anchor`; a missing module or entry is an
/// internal error naming the file.
template <class T>
const T& open_solver_module(const void* anchor, const char* module, const char* entry) {
  Dl_info self{};
  if (dladdr(anchor, &self) == 0 || self.dli_fname == nullptr)
    throw Error("cannot locate the library that loads the MILP solver", Location{}, ErrorKind::Internal);
  const auto path = (std::filesystem::path(self.dli_fname).parent_path() / module).lexically_normal();
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const std::string why = dlerror();
    if (loader_out_of_memory(why))
      throw OutOfMemory("allocation", "cannot load the MILP solver module " + path.string() + ": " + why);
    throw Error("cannot load the MILP solver module: " + why, Location{.file = path.string()}, ErrorKind::Internal);
  }
  using Entry = const T* (*)();
  auto fn = reinterpret_cast<Entry>(dlsym(handle, entry));
  const T* found = fn != nullptr ? fn() : nullptr;
  if (found == nullptr)
    throw Error(std::string("the MILP solver module has no ") + entry, Location{.file = path.string()},
                ErrorKind::Internal);
  return *found;
}

}  // namespace stream::allocate
