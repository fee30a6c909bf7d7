#!/usr/bin/env python3
"""Checks docs/architecture.md's map against the source tree.

Rules: the map is a layering (no two areas may include each other, directly or through others: the
areas a run is built from, as cost under registry and pipeline, cannot reach back up);
a core area includes only itself and the areas its row lists; a public header includes no
private header and declares its area's namespace; a private header (core/src/<area>/*.hpp) is
included only from its own folder; outside the core (host/, plugins/<name>/, python/) a quoted
include is a public header (stream/...) or a file of the same component; tests mirror the
sources: a .cpp file directly in tests/<area>/ is <name>_test.cpp, <name> a source or public header
of that area (core/src/<area>/, core/include/stream/<area>/; for tests/host/ a file under host/,
for tests/plugins/<p>/ a file under plugins/<p>/), and the cross-cutting tests live in
tests/<area>/scenarios/; the repository stands on its own: no file (source, test, script, document,
build file) names the team's folder beside the clone or the CMake variable that once pointed there,
so a test that reads outside the repository cannot come back. Prints one line per violation and
exits 1 if any.

The run pipeline (core/src/pipeline/ and core/include/stream/pipeline/) has two rules of its own
(docs/architecture.md, "A run, one way through"):
* no function longer than 60 lines, counted from the first line of its head (template line,
  return type, signature) to its closing brace, both included; a lambda or a block inside a
  function is part of it, a function defined inside a class body is a function of its own
  (scripts/cpp_functions.py: comments, strings and preprocessor lines are blanked, then braces
  matched; its docstring says how a function body is told from an initializer);
* no use of the plugin host or its registries: no include of stream/registry/..., no mention (in
  code, not comments) of the registry types (Registries, PluginRegistrar, KeyedRegistry,
  WorkloadFrontend, Decomposer, OnnxParseContext) or of the plugin host (PluginHost), and no
  workload-rewriting hook (a std::function returning a Workload, as RunOptions::expand): the host
  expands the workload before the run.
Usage: scripts/check_architecture.py [source-root]
"""
import pathlib
import re
import sys

import cpp_functions

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)
ROW = re.compile(r"^\|\s*`([a-z_]+)`\s*\|[^|]*\|\s*([^|]*?)\s*\|\s*`([a-z_:]+)`\s*\|\s*$")
COMMON = {"stream/error.hpp", "stream/version.hpp"}
# Spelled in parts so that this file does not name them itself.
OUTSIDE = re.compile("|".join(re.escape(s) for s in ("../" + "shared", "/work/" + "shared", "STREAM_" + "SHARED_DIR")))
# Folders of the tree that are not the repository's files: builds, installs, results, caches.
NOT_SOURCES = re.compile(r"^(\.git|build.*|install.*|outputs|out|node_modules|__pycache__|\.cache|\.pytest_cache)$")


def read_map(root):
    """area -> (the areas it may include, its namespace), from the table under '## Map'."""
    text = (root / "docs/architecture.md").read_text(encoding="utf-8")
    section = text.split("## Map", 1)[1].split("\n## ", 1)[0]
    allowed = {}
    for line in section.splitlines():
        m = ROW.match(line)
        if m:
            allowed[m.group(1)] = (set(re.findall(r"`([a-z_]+)`", m.group(2))), m.group(3))
    if not allowed:
        raise SystemExit(f"{root / 'docs/architecture.md'}: no area table under '## Map'")
    return allowed


def check_layering(allowed, problems):
    """The map's 'may include' relation has no cycle; each cycle is named once, from its first area."""
    state, reported = {}, set()

    def visit(area, path):
        state[area] = "open"
        for other in sorted(allowed.get(area, (set(), ""))[0]):
            if other not in allowed:
                continue
            if state.get(other) == "open":
                cycle = path[path.index(other):] + [other]
                if frozenset(cycle) not in reported:
                    reported.add(frozenset(cycle))
                    problems.append("docs/architecture.md's map: areas include each other: " + " -> ".join(cycle))
            elif other not in state:
                visit(other, path + [other])
        state[area] = "done"

    for area in sorted(allowed):
        if area not in state:
            visit(area, [area])


def sources(folder):
    return sorted(p for p in folder.rglob("*") if p.suffix in (".hpp", ".cpp", ".h") and p.is_file())


def check_core(root, allowed, problems):
    include_root = root / "core/include/stream"
    src_root = root / "core/src"
    areas = {p.name for p in include_root.iterdir() if p.is_dir()} | {p.name for p in src_root.iterdir() if p.is_dir()}
    for area in sorted(areas - set(allowed)):
        problems.append(f"core area '{area}' has no row in docs/architecture.md's map")
    for area in sorted(areas):
        for public in (False, True):
            folder = (include_root if public else src_root) / area
            if not folder.is_dir():
                continue
            for f in sources(folder):
                text = f.read_text(encoding="utf-8", errors="replace")
                for target in INCLUDE.findall(text):
                    check_core_include(root, f, area, public, target, allowed, problems)
                if public and area in allowed:
                    check_namespace(root, f, allowed[area][1], text, problems)


def check_core_include(root, f, area, public, target, allowed, problems):
    where = f.relative_to(root)
    if target.startswith("stream/"):
        if target in COMMON or "/" not in target[len("stream/"):]:
            return
        other = target.split("/")[1]
        if other != area and other not in allowed.get(area, (set(), ""))[0]:
            problems.append(f"{where}: includes {target}, but area '{area}' may not include area '{other}'")
        return
    if public:
        problems.append(f"{where}: a public header includes the private header \"{target}\"")
        return
    resolved = (f.parent / target).resolve()
    if resolved.parent != (root / "core/src" / area).resolve() and resolved.parent != f.parent.resolve():
        problems.append(f"{where}: includes \"{target}\", a private header outside its own area")


def check_namespace(root, f, namespace, text, problems):
    if not re.search(r"^namespace " + re.escape(namespace) + r"(::detail)? \{", text, re.MULTILINE):
        problems.append(f"{f.relative_to(root)}: declares nothing in its area's namespace {namespace}")


def check_components(root, problems):
    components = [root / "host", root / "python"]
    components += sorted(p for p in (root / "plugins").iterdir() if p.is_dir())
    for comp in components:
        if not comp.is_dir():
            continue
        for f in sources(comp):
            for target in INCLUDE.findall(f.read_text(encoding="utf-8", errors="replace")):
                if target.startswith("stream/"):
                    continue
                resolved = (f.parent / target).resolve()
                if not resolved.is_relative_to(comp.resolve()) and "/" in target:
                    problems.append(f"{f.relative_to(root)}: includes \"{target}\" from outside {comp.relative_to(root)}/")


def area_sources(root, test_dir):
    """The stems a unit test of tests/<area>/ (or tests/plugins/<p>/) may be named after."""
    if test_dir.parent == root / "tests/plugins":
        folders = [root / "plugins" / test_dir.name]
    elif test_dir.name == "host":
        folders = [root / "host"]
    else:
        folders = [root / "core/src" / test_dir.name, root / "core/include/stream" / test_dir.name]
    return {f.stem for folder in folders if folder.is_dir() for f in sources(folder)}


def check_tests(root, problems):
    tests = root / "tests"
    if not tests.is_dir():
        return
    dirs = [d for d in tests.iterdir() if d.is_dir() and d.name not in ("plugins", "support")]
    if (tests / "plugins").is_dir():
        dirs += [d for d in (tests / "plugins").iterdir() if d.is_dir()]
    for d in sorted(dirs):
        names = None
        for f in sorted(d.glob("*.cpp")):
            if names is None:
                names = area_sources(root, d)
            if not (f.stem.endswith("_test") and f.stem[: -len("_test")] in names):
                problems.append(f"{f.relative_to(root)}: not <source>_test.cpp for a source of its area "
                                f"(a cross-cutting test goes in {d.relative_to(root)}/scenarios/)")


def repository_files(root):
    stack = [root]
    while stack:
        folder = stack.pop()
        for p in sorted(folder.iterdir()):
            if p.is_dir() and not p.is_symlink():
                if not NOT_SOURCES.match(p.name):
                    stack.append(p)
            elif p.is_file():
                yield p


def check_self_contained(root, problems):
    for f in repository_files(root):
        data = f.read_bytes()
        if b"\0" in data[:8192]:
            continue  # binary: ONNX models, archives
        for n, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), 1):
            m = OUTSIDE.search(line)
            if m:
                problems.append(f"{f.relative_to(root)}:{n}: names {m.group(0)}, outside the repository "
                                "(copy what is needed into tests/data/ with its origin)")


PIPELINE_FOLDERS = ("core/src/pipeline", "core/include/stream/pipeline")
MAX_FUNCTION_LINES = 60
REGISTRY_INCLUDE = re.compile(r'^\s*#\s*include\s+"(stream/registry/[^"]+)"', re.MULTILINE)
REGISTRY_NAME = re.compile(r"\b(Registries|PluginRegistrar|KeyedRegistry|WorkloadFrontend|Decomposer|"
                           r"OnnxParseContext|PluginHost)\b")
WORKLOAD_HOOK = re.compile(r"std::function\s*<\s*(?:stream::)?Workload\s*\(")


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def check_function_length(root, problems):
    for folder in PIPELINE_FOLDERS:
        for f in sources(root / folder) if (root / folder).is_dir() else []:
            for fn in cpp_functions.functions(f.read_text(encoding="utf-8", errors="replace")):
                if fn.lines > MAX_FUNCTION_LINES:
                    problems.append(f"{f.relative_to(root)}:{fn.first_line}: function {fn.name} is {fn.lines} lines "
                                    f"(lines {fn.first_line}-{fn.last_line}; at most {MAX_FUNCTION_LINES} in the pipeline)")


def check_pipeline_uses_no_plugin_host(root, problems):
    for folder in PIPELINE_FOLDERS:
        for f in sources(root / folder) if (root / folder).is_dir() else []:
            text = f.read_text(encoding="utf-8", errors="replace")
            code = cpp_functions.blank(text)
            where = f.relative_to(root)
            for m in REGISTRY_INCLUDE.finditer(text):
                problems.append(f"{where}:{line_of(text, m.start())}: the pipeline includes {m.group(1)}, a plugin "
                                "registry (the registries are the host's: it hands the run what it needs)")
            for m in REGISTRY_NAME.finditer(code):
                problems.append(f"{where}:{line_of(code, m.start())}: the pipeline names {m.group(1)}, of the plugin "
                                "host or its registries")
            for m in WORKLOAD_HOOK.finditer(code):
                problems.append(f"{where}:{line_of(code, m.start())}: the pipeline takes a workload-rewriting hook "
                                "(std::function returning a Workload): the host expands the workload before the run")


def main():
    args = sys.argv[1:]
    if len(args) > 1 or any(a.startswith("-") for a in args):
        raise SystemExit("usage: scripts/check_architecture.py [source-root]")
    root = pathlib.Path(args[0] if args else pathlib.Path(__file__).parent.parent).resolve()
    problems = []
    allowed = read_map(root)
    check_layering(allowed, problems)
    check_core(root, allowed, problems)
    check_components(root, problems)
    check_tests(root, problems)
    check_self_contained(root, problems)
    check_function_length(root, problems)
    check_pipeline_uses_no_plugin_host(root, problems)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
