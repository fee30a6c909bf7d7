# Warnings are errors in our own code only; third-party headers come in as SYSTEM includes.
function(stream_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror -Wno-error=deprecated-declarations)
endfunction()
