# Writes weft's public headers into WEFT_INCLUDE_DIR/weft/ (run at build time, cmake -P; see
# public_targets.cmake). They are the umbrella header WEFT_UMBRELLA, written as weft/weft.hpp,
# and every header it includes, transitively, each at weft/<its path in the source tree>. In
# the copies each include of another weft header, "sim/api/core.hpp", reads
# "weft/sim/api/core.hpp": users see weft's headers under one prefix, and its folder names
# (model/, sim/, ...) never mix with theirs. Headers are looked up in the source tree, then in
# WEFT_GENERATED_DIR (version.hpp). A file is rewritten only when its text changes, so users'
# objects are not rebuilt for nothing, and a header no longer public is removed.
#
# Inputs (-D): WEFT_SOURCE_DIR, WEFT_GENERATED_DIR, WEFT_INCLUDE_DIR, WEFT_UMBRELLA, WEFT_STAMP.
cmake_minimum_required(VERSION 3.25)

function(locate header result)
  foreach(root ${WEFT_SOURCE_DIR} ${WEFT_GENERATED_DIR})
    if(EXISTS ${root}/${header})
      set(${result} ${root}/${header} PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "a public weft header includes \"${header}\", which is not a path from the top of weft's source tree")
endfunction()

# The umbrella header and its closure under #include "...".
set(pending ${WEFT_UMBRELLA})
set(public "")
while(pending)
  list(POP_FRONT pending header)
  if(header IN_LIST public)
    continue()
  endif()
  list(APPEND public ${header})
  locate(${header} path)
  file(STRINGS ${path} includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" included "${line}")
    list(APPEND pending ${included})
  endforeach()
endwhile()

set(written "")
foreach(header IN LISTS public)
  locate(${header} path)
  if(header STREQUAL WEFT_UMBRELLA)
    set(target weft.hpp)
  else()
    set(target ${header})
  endif()
  file(READ ${path} text)
  string(REGEX REPLACE "(^|\n)([ \t]*#[ \t]*include[ \t]*\")" "\\1\\2weft/" text "${text}")
  file(WRITE ${WEFT_INCLUDE_DIR}/weft/${target}.new "${text}")
  file(COPY_FILE ${WEFT_INCLUDE_DIR}/weft/${target}.new ${WEFT_INCLUDE_DIR}/weft/${target} ONLY_IF_DIFFERENT)
  file(REMOVE ${WEFT_INCLUDE_DIR}/weft/${target}.new)
  list(APPEND written ${target})
endforeach()

file(GLOB_RECURSE present RELATIVE ${WEFT_INCLUDE_DIR}/weft ${WEFT_INCLUDE_DIR}/weft/*)
foreach(file IN LISTS present)
  if(NOT file IN_LIST written)
    file(REMOVE ${WEFT_INCLUDE_DIR}/weft/${file})
  endif()
endforeach()
file(TOUCH ${WEFT_STAMP})
