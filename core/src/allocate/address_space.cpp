#include "address_space.hpp"

#include <sys/mman.h>
#include <sys/resource.h>

#include <string>

#include "stream/out_of_memory.hpp"

namespace stream::allocate {

namespace {

// Measured on the bundled ResNet-50 under `ulimit -v` 54-70 MB: a solve started with 1 MB of
// address space left still crashed inside Clp (2 of 34 runs), with 2 MB none did. The fixed part
// is four times that, and also covers CBC's libraries (libCbc and libCgl, 2.3 MB of files, mapped
// when a search first needs them); the per-entry part the solvers' copies of a larger model, its
// factorisation and CBC's search tree, a generous multiple of their bytes per nonzero.
constexpr std::size_t kFixedBytes = std::size_t{8} << 20;
constexpr std::size_t kBytesPerEntry = 1024;

}  // namespace

std::size_t solver_headroom(const LinearModel& model) {
  return kFixedBytes + kBytesPerEntry * (model.num_vars() + model.num_rows() + model.num_nonzeros());
}

void require_address_space(std::size_t bytes) {
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return;
  // A reservation without access or backing store counts against RLIMIT_AS as the solver's
  // allocations would, and costs no memory.
  void* probe = mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (probe == MAP_FAILED)
    throw OutOfMemory("allocation", "less than " + std::to_string(bytes >> 20) +
                                        " MB of address space left for the MILP solver");
  munmap(probe, bytes);
}

}  // namespace stream::allocate
