// `stream`: the command-line host. Parses the command line, hands the work to a subcommand, and
// is the only place where errors become exit codes (2: bad input, 1: internal failure).
#include <malloc.h>
#include <sys/resource.h>

#include <iostream>
#include <new>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <stream/error.hpp>
#include <stream/version.hpp>

#include "command.hpp"
#include "interrupt.hpp"

namespace {

// Under an address-space limit (`ulimit -v`), glibc gives each thread that allocates an arena of
// its own, reserving 64 MB that count against the limit whether used or not: ResNet-50 ran out of
// memory at 119-131 MB but not at 90, and a 2-job sweep lost all 32 points at 120 MB and none at
// 90. With one arena the limit means what it says (every limit from 66 MB on succeeds). Before
// any thread starts.
void one_malloc_arena_under_a_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) mallopt(M_ARENA_MAX, 1);
}

}  // namespace

int main(int argc, char** argv) {
  one_malloc_arena_under_a_limit();
  stream::host::watch_interrupts();
  // Progress and warnings go to stderr; stdout carries results only.
  spdlog::set_default_logger(spdlog::stderr_color_mt("stream"));
  spdlog::set_pattern("%^%l%$: %v");

  stream::host::HostContext ctx;
  CLI::App app{"Stream: maps neural-network workloads onto multi-core dataflow accelerators and predicts their "
               "latency, energy and memory use."};
  app.set_version_flag("--version", std::string("stream ") + stream::version_string);
  app.require_subcommand(1);
  app.add_option("--plugin-dir", ctx.plugin_dirs, "Extra directory to search for plugins (repeatable)");
  bool verbose = false;
  app.add_flag("-v,--verbose", verbose, "Show debug messages on stderr");
  app.parse_complete_callback([&] { spdlog::set_level(verbose ? spdlog::level::debug : spdlog::level::info); });
  for (auto& [name, setup] : stream::host::registered_commands()) setup(app, ctx);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version end parsing too, with CLI11's code 0; every other parse error is the
    // user's command line, bad input like any other (CLI11's own codes, 105-109, say nothing).
    return app.exit(e) == 0 ? 0 : 2;
  } catch (const stream::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return e.kind() == stream::ErrorKind::BadInput ? 2 : 1;
  } catch (const std::bad_alloc&) {  // outside the steps that name themselves (stream/out_of_memory.hpp)
    std::cerr << "error: out of memory\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "internal error: " << e.what() << "\n";
    return 1;
  }
  // Results printed to a full disk or /dev/full fail only here, when the buffer goes out.
  if (!std::cout.flush()) {
    std::cerr << "error: cannot write the standard output (is the disk full?)\n";
    return 1;
  }
  return ctx.exit_code;
}
