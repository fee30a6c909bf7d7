# STREAM_SANITIZE builds every target of the project with AddressSanitizer (LeakSanitizer included)
# and UndefinedBehaviorSanitizer, stopping at the first report so that a test fails on it.
# STREAM_FUZZ (clang only) adds libFuzzer's coverage instrumentation and the harnesses in fuzz/.
# Both are off by default: the ordinary gcc build is unaffected. Third-party libraries (Debian's
# yaml-cpp, protobuf, libonnx, libzip, Cbc) stay uninstrumented.
option(STREAM_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(STREAM_FUZZ "Build the libFuzzer harnesses in fuzz/ (clang; implies STREAM_SANITIZE)" OFF)

if(STREAM_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "STREAM_FUZZ needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++")
  endif()
  set(STREAM_SANITIZE ON CACHE BOOL "" FORCE)
endif()

if(STREAM_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
if(STREAM_FUZZ)
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
