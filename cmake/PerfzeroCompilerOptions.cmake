# Compiler flags shared by every perfzero target, collected in one interface target.
add_library(perfzero_compile_options INTERFACE)
add_library(perfzero::compile_options ALIAS perfzero_compile_options)
target_compile_options(perfzero_compile_options INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                                          -Wno-sign-conversion)
if(PERFZERO_WARNINGS_AS_ERRORS)
  target_compile_options(perfzero_compile_options INTERFACE -Werror)
endif()
if(PERFZERO_SANITIZE)
  target_compile_options(perfzero_compile_options INTERFACE -fsanitize=${PERFZERO_SANITIZE}
                                                            -fno-omit-frame-pointer -fno-sanitize-recover=all
                                                            # GCC 12 warns inside libstdc++ (regex, function)
                                                            # under -fsanitize; not our code.
                                                            -Wno-maybe-uninitialized)
  target_link_options(perfzero_compile_options INTERFACE -fsanitize=${PERFZERO_SANITIZE})
endif()
