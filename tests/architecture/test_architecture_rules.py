"""scripts/check_architecture.py: the tree obeys docs/architecture.md's map, and each rule catches a
planted violation."""
import os
import pathlib
import shutil
import subprocess
import sys

ROOT = pathlib.Path(os.environ.get("STREAM_SOURCE_DIR", pathlib.Path(__file__).parents[2]))
CHECKER = ROOT / "scripts/check_architecture.py"


def check(root):
    r = subprocess.run([sys.executable, str(CHECKER), str(root)], capture_output=True, text=True)
    return r.returncode, r.stdout.splitlines()


def test_the_tree_obeys_the_map():
    code, lines = check(ROOT)
    assert lines == []
    assert code == 0


def write(root, rel, text):
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)


def small_tree(tmp_path):
    (tmp_path / "docs").mkdir()
    shutil.copy(ROOT / "docs/architecture.md", tmp_path / "docs/architecture.md")
    write(tmp_path, "core/include/stream/ir/node.hpp", '#include "stream/error.hpp"\nnamespace stream {\n}\n')
    write(tmp_path, "core/include/stream/hardware/core.hpp",
          '#include "stream/yaml/yaml_reader.hpp"\nnamespace stream::hardware {\n}\n')
    write(tmp_path, "core/src/hardware/tree.hpp", "#pragma once\n")
    write(tmp_path, "core/src/hardware/core.cpp", '#include "tree.hpp"\n#include "stream/ir/node.hpp"\n')
    write(tmp_path, "host/main.cpp", '#include "stream/hardware/core.hpp"\n#include "commands/run.hpp"\n')
    write(tmp_path, "host/commands/run.hpp", '#include "../main.hpp"\n')
    (tmp_path / "plugins/onnx").mkdir(parents=True)
    write(tmp_path, "tests/hardware/core_test.cpp", "\n")
    write(tmp_path, "tests/hardware/scenarios/reference_files_test.cpp", "\n")
    write(tmp_path, "tests/host/main_test.cpp", "\n")
    write(tmp_path, "tests/support/stream_cli.hpp", "\n")
    return tmp_path


def test_a_clean_small_tree_passes_except_for_its_undeclared_dependency(tmp_path):
    root = small_tree(tmp_path)
    code, lines = check(root)
    # hardware including ir is not in the map: the one violation of the small tree.
    assert lines == ["core/src/hardware/core.cpp: includes stream/ir/node.hpp, but area 'hardware' may not include area 'ir'"]
    assert code == 1


def test_each_rule_catches_its_violation(tmp_path):
    root = small_tree(tmp_path)
    write(root, "core/src/hardware/core.cpp", '#include "tree.hpp"\n')
    write(root, "core/include/stream/ir/bad.hpp",
          '#include "stream/hardware/core.hpp"\n#include "helper.hpp"\nnamespace stream {\n}\n')
    write(root, "core/include/stream/hardware/other.hpp", "namespace stream::hw {\n}\n")
    write(root, "core/src/ir/peek.cpp", '#include "../hardware/tree.hpp"\n')
    write(root, "core/src/gadgets/x.cpp", "\n")
    write(root, "plugins/onnx/p.cpp", '#include "../../core/src/hardware/tree.hpp"\n')
    write(root, "tests/plugins/onnx/p_test.cpp", "\n")
    write(root, "tests/hardware/reader_test.cpp", "\n")
    write(root, "tests/host/core_test.cpp", "\n")
    code, lines = check(root)
    assert code == 1
    assert sorted(lines) == sorted([
        "core area 'gadgets' has no row in docs/architecture.md's map",
        "core/include/stream/ir/bad.hpp: includes stream/hardware/core.hpp, but area 'ir' may not include area 'hardware'",
        'core/include/stream/ir/bad.hpp: a public header includes the private header "helper.hpp"',
        'core/src/ir/peek.cpp: includes "../hardware/tree.hpp", a private header outside its own area',
        "core/include/stream/hardware/other.hpp: declares nothing in its area's namespace stream::hardware",
        'plugins/onnx/p.cpp: includes "../../core/src/hardware/tree.hpp" from outside plugins/onnx/',
        "tests/hardware/reader_test.cpp: not <source>_test.cpp for a source of its area"
        " (a cross-cutting test goes in tests/hardware/scenarios/)",
        "tests/host/core_test.cpp: not <source>_test.cpp for a source of its area"
        " (a cross-cutting test goes in tests/host/scenarios/)",
    ])


def test_a_map_whose_areas_include_each_other_is_refused(tmp_path):
    root = small_tree(tmp_path)
    write(root, "core/src/hardware/core.cpp", '#include "tree.hpp"\n')
    doc = root / "docs/architecture.md"
    text = doc.read_text()
    row = next(line for line in text.splitlines() if line.startswith("| `cost` |"))
    # cost given pipeline, which includes cost: the cost table could then reach back into a run.
    cyclic = row.replace("| `ir` `hardware`", "| `pipeline` `ir` `hardware`", 1)
    assert cyclic != row
    doc.write_text(text.replace(row, cyclic))
    code, lines = check(root)
    assert code == 1
    assert "docs/architecture.md's map: areas include each other: cost -> pipeline -> cost" in lines
    # The longer cycles (pipeline reaches cost through schedule and allocate too) all take that edge.
    assert all("cost -> pipeline" in line for line in lines), lines


def test_a_file_that_reaches_outside_the_repository_is_named_with_its_line(tmp_path):
    root = small_tree(tmp_path)
    write(root, "core/src/hardware/core.cpp", '#include "tree.hpp"\n')
    outside = "../" + "shared"  # spelled in parts, as the checker spells it, so this file passes
    write(root, "tests/hardware/core_test.cpp", f'// reads\nconst char* p = "{outside}/reference/x.yaml";\n')
    write(root, "docs/guide.md", "# Guide\n\nSee `/work/" + "shared/design.md`.\n")
    write(root, "tests/CMakeLists.txt", "set(X ${STREAM_" + "SHARED_DIR})\n")
    write(root, "build/CMakeCache.txt", outside + "\n")  # a build folder is not the repository's
    write(root, "inputs/model.onnx", "\0binary " + outside)  # nor is a binary file's content
    code, lines = check(root)
    assert code == 1
    tail = ", outside the repository (copy what is needed into tests/data/ with its origin)"
    assert sorted(lines) == sorted([
        "docs/guide.md:3: names /work/" + "shared" + tail,
        "tests/CMakeLists.txt:1: names STREAM_" + "SHARED_DIR" + tail,
        "tests/hardware/core_test.cpp:2: names " + outside + tail,
    ])


def padded_function(head_lines, filler, closing="}"):
    """A function of len(head_lines) + filler + 1 lines: its head, `filler` statements, its brace."""
    return "\n".join(head_lines + ["  k += 1;"] * filler + [closing]) + "\n"


def pipeline_tree(tmp_path):
    root = small_tree(tmp_path)
    write(root, "core/src/hardware/core.cpp", '#include "tree.hpp"\n')  # the small tree's one violation, gone
    return root


def test_a_pipeline_function_over_60_lines_is_named(tmp_path):
    root = pipeline_tree(tmp_path)
    # Line 1-2: include and namespace. A 61-line free function from line 3 (head on two lines),
    # whose lambda, comment, string and character braces are its own; then one of exactly 60 lines.
    too_long = padded_function([
        "std::vector<int> Runner::long_one(const Options& o,",
        "                                  int k) {",
        "  auto f = [&](int x) {  // a lambda's braces } belong to the function",
        "    return x + 1;",
        "  };",
        '  const char* s = "}}} not a brace {";',
        "  /* } */ char c = '}';",
    ], 53)
    just_right = padded_function(["int Runner::short_enough(int k) {"], 58)
    # A constructor whose initializer list has braces, and a member function defined in its class:
    # each is a function of its own, 61 lines.
    constructor = padded_function(["Runner::Runner(int a)", "    : a_{a}, b_(a, {}), c_{} {"], 58)
    member = "struct Holder {\n public:\n" + padded_function(["  int member() const {"], 59) + "};\n"
    text = "#include <vector>\nnamespace stream::pipeline {\n" + too_long + just_right + constructor + member + "}\n"
    write(root, "core/src/pipeline/run.cpp", text)
    code, lines = check(root)
    assert code == 1
    # too_long: lines 3-63; just_right: 64-123; constructor: 124-184; Holder from 185, member 187-247.
    assert lines == [
        "core/src/pipeline/run.cpp:3: function Runner::long_one is 61 lines (lines 3-63; at most 60 in the pipeline)",
        "core/src/pipeline/run.cpp:124: function Runner::Runner is 61 lines (lines 124-184; at most 60 in the pipeline)",
        "core/src/pipeline/run.cpp:187: function member is 61 lines (lines 187-247; at most 60 in the pipeline)",
    ]


def test_the_pipeline_may_not_use_the_plugin_host(tmp_path):
    root = pipeline_tree(tmp_path)
    write(root, "core/include/stream/pipeline/run.hpp", "\n".join([
        '#include "stream/registry/registries.hpp"',
        "namespace stream::pipeline {",
        "// Registries are mentioned in this comment only, which is allowed.",
        "struct RunOptions {",
        "  std::function<Workload(const Workload&)> expand;",
        "  const Registries* registries = nullptr;",
        "};",
        "}",
    ]) + "\n")
    write(root, "core/src/pipeline/clean.cpp", '#include "stream/pipeline/run.hpp"\nint f() { return 1; }\n')
    code, lines = check(root)
    assert code == 1
    assert lines == [
        "core/include/stream/pipeline/run.hpp: includes stream/registry/registries.hpp, but area 'pipeline' may not"
        " include area 'registry'",  # the map's rule says it too
        "core/include/stream/pipeline/run.hpp:1: the pipeline includes stream/registry/registries.hpp, a plugin registry"
        " (the registries are the host's: it hands the run what it needs)",
        "core/include/stream/pipeline/run.hpp:6: the pipeline names Registries, of the plugin host or its registries",
        "core/include/stream/pipeline/run.hpp:5: the pipeline takes a workload-rewriting hook (std::function returning"
        " a Workload): the host expands the workload before the run",
    ]
