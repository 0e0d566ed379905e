# Patches a file of whisper-rs-sys's copy of the whisper.cpp sources (in its build folder; the path
# is relative to whisper.cpp's root), once. Each pair of arguments after `marker` names a variable
# holding code to find and one holding what replaces it; `marker` is a word only the replacements
# contain, by which a patched copy is known. The build fails if the code no longer has the shape a
# patch expects.
function(verbatim_patch_source relative_path patch_name marker)
  set(_file "${CMAKE_SOURCE_DIR}/${relative_path}")
  if(NOT EXISTS "${_file}")
    return()
  endif()
  file(READ "${_file}" _source)
  string(FIND "${_source}" "${marker}" _patched)
  if(NOT _patched EQUAL -1)
    return()
  endif()
  set(_pairs ${ARGN})
  list(LENGTH _pairs _count)
  math(EXPR _last "${_count} - 2")
  foreach(_index RANGE 0 ${_last} 2)
    math(EXPR _next "${_index} + 1")
    list(GET _pairs ${_index} _anchor)
    list(GET _pairs ${_next} _replacement)
    string(FIND "${_source}" "${${_anchor}}" _at)
    if(_at EQUAL -1)
      message(FATAL_ERROR "${patch_name}: ${_file} no longer has the code it patches (${_anchor})")
    endif()
    string(REPLACE "${${_anchor}}" "${${_replacement}}" _source "${_source}")
  endforeach()
  file(WRITE "${_file}" "${_source}")
endfunction()

# A patch of whisper.cpp's own source file.
function(verbatim_patch_whisper patch_name marker)
  verbatim_patch_source(src/whisper.cpp ${patch_name} ${marker} ${ARGN})
endfunction()
