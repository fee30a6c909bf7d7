// Writes the torch.export fixtures of inputs/workload/torch/ (weights are 0-byte payloads: only
// names, types and shapes matter). Usage: stream-gen-torch-fixtures <output-dir>
#include <filesystem>
#include <iostream>

#include "torch_models.hpp"

using namespace stream::torch_testing;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: stream-gen-torch-fixtures <output-dir>\n";
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  const ZipOptions torch_zip{.pytorch_quirks = true};
  try {
    // PT2 archive (torch >= 2.9 layout) as PyTorch's own zip writer lays it out.
    write_pt2(dir / "mlp.pt2", mlp_training().build(), ArchiveLayout::Pt2, torch_zip);
    // Legacy zip (torch 2.4-2.7, Python zipfile), core-ATen form, older schema fields.
    write_pt2(dir / "mlp_core_aten_legacy.pt2", mlp_core_aten().build(ProgramBuilder::Style::Old), ArchiveLayout::Legacy);
    write_pt2(dir / "mlp_dynamic.pt2", mlp_dynamic().build(), ArchiveLayout::Legacy);
    // PT2 archive, torch 2.8 layout (pickled weights blob).
    write_pt2(dir / "conv_block.pt2", conv_block().build(), ArchiveLayout::Pt2Torch28, torch_zip);
    write_pt2(dir / "attention.pt2", attention().build(), ArchiveLayout::Pt2, torch_zip);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  std::cout << "wrote the torch.export fixtures to " << dir << "\n";
  return 0;
}
