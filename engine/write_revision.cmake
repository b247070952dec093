# Run at every build (cmake -P, from engine/CMakeLists.txt): writes OUTPUT
# with the source tree's git revision, 12 hex digits and "-dirty" when
# tracked files differ from that commit ("unknown" outside a git checkout),
# and rewrites it only when the revision changed, so that a build recompiles
# build_info.cpp only then. Read at configure time instead, the revision
# stayed whatever HEAD was when the build folder was made.
execute_process(COMMAND git rev-parse --short=12 HEAD
  WORKING_DIRECTORY ${SOURCE_DIR}
  OUTPUT_VARIABLE revision OUTPUT_STRIP_TRAILING_WHITESPACE
  ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR revision STREQUAL "")
  set(revision "unknown")
else()
  execute_process(COMMAND git status --porcelain --untracked-files=no
    WORKING_DIRECTORY ${SOURCE_DIR}
    OUTPUT_VARIABLE changes ERROR_QUIET RESULT_VARIABLE rc)
  if(rc EQUAL 0 AND NOT changes STREQUAL "")
    string(APPEND revision "-dirty")
  endif()
endif()
set(text "#define LBMC_GIT_REVISION \"${revision}\"\n")
set(old "")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUTPUT} "${text}")
endif()
