# Warnings are errors in our own code only; third-party headers come in as SYSTEM includes.
# Designated initializers omit fields on purpose, hence -Wno-missing-field-initializers.
function(stream_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror
    -Wno-error=deprecated-declarations -Wno-missing-field-initializers)
endfunction()
