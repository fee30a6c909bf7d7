# Warnings are errors in our own code only; third-party headers come in as SYSTEM includes.
# Designated initializers omit fields on purpose, hence -Wno-missing-field-initializers.
# -Werror is for Stream's own development and CI (STREAM_WARNINGS_AS_ERRORS, on when Stream is the
# top-level project): a packager or a parent project with another compiler, whose new warnings
# should not stop the build, turns it off or gets it off. Nothing of it reaches a consumer of the
# SDK: the flags are PRIVATE and this file is not installed.
option(STREAM_WARNINGS_AS_ERRORS "Treat warnings in Stream's own targets as errors" ${PROJECT_IS_TOP_LEVEL})
function(stream_warnings target)
  set(werror)
  if(STREAM_WARNINGS_AS_ERRORS)
    set(werror -Werror)
  endif()
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic ${werror}
    -Wno-error=deprecated-declarations -Wno-missing-field-initializers)
endfunction()
