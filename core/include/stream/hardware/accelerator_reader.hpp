// Reading accelerator (system) files (spec §1.1), the reference's YAML unchanged.
//
// Keys: name, cores (id -> core file reference or inline core), offchip_core_id,
// unit_energy_cost, core_connectivity, core_memory_sharing, core_coordinates, technology_node,
// memory_aliases. Core file references resolve, in order: relative to the accelerator's folder,
// in its `cores/` subfolder (bare names try `cores/` first, as the reference), relative to the
// working directory (the reference's behaviour for `a/b.yaml`), then by base name in the
// accelerator's folder and its `cores/`, then (with a warning) in any folder named like
// `*hardware*` (or its `cores/`) under the accelerator's parent and grandparent folders — the
// reference's legacy walk of its inputs tree, needed by `testing/hardware/simple_example_hw.yaml`. Each file is read once.
//
// Validation collects every problem, with file:line:column and the rule broken, before failing:
// unknown keys, ids 0..N-1, the offchip id exists, one namespace for all cores (aie2 needs
// coordinates), link = 2 cores / bus >= 2 cores, known core ids, bandwidth > 0, energy >= 0,
// memory sharing groups (>= 2 known cores, never connected explicitly, equal top capacity),
// coordinates (known ids, two integers), memory aliases (known cores and memories).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "stream/diagnostics/diagnostics.hpp"
#include "stream/export.hpp"
#include "stream/hardware/accelerator.hpp"

namespace stream::hardware {

/// Reads and validates an accelerator file. Throws ValidationError listing every problem;
/// warnings are logged and kept in Accelerator::warnings (and added to `diagnostics` if given).
[[nodiscard]] STREAM_API Accelerator load_accelerator(const std::filesystem::path& path, Diagnostics* diagnostics = nullptr);

/// Same from text; core references resolve against `base_dir`.
[[nodiscard]] STREAM_API Accelerator parse_accelerator_text(const std::string& text, const std::string& file_label,
                                                            const std::filesystem::path& base_dir,
                                                            Diagnostics* diagnostics = nullptr);

/// Non-throwing form: problems go to `diagnostics`; the accelerator when there was no error.
[[nodiscard]] STREAM_API std::optional<Accelerator> read_accelerator(const std::filesystem::path& path, Diagnostics& diagnostics);

/// Where a core reference resolves (see above); nullopt when not found. `searched` receives the
/// candidates tried, for the error message. `by_search` is set when the legacy walk found it.
[[nodiscard]] std::optional<std::filesystem::path> resolve_core_reference(const std::string& reference,
                                                                          const std::filesystem::path& accelerator_dir,
                                                                          std::vector<std::filesystem::path>* searched = nullptr,
                                                                          bool* by_search = nullptr);

/// The core files an accelerator file names, in `cores` order, each once; references that do not
/// resolve are left out, and a file that is not YAML names none (reading it reports why).
[[nodiscard]] STREAM_API std::vector<std::filesystem::path> core_files_of(const std::filesystem::path& accelerator);

}  // namespace stream::hardware
