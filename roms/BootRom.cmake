# roms/BootRom.cmake - mcphost_add_boot_rom(): assembles a boot ROM image at
# build time with the host tool mh-asm (tools/mh-asm).
#
#   mcphost_add_boot_rom(NAME RANGE $E000-$FFFF [FILL $FF]
#                        [DEFINES NAME=VALUE ...] SOURCES file.s ...)
#
# The sources (relative to the calling directory) are assembled as one text
# in the order given. Produces NAME.bin and NAME.c (const uint8_t
# mh_boot_rom_NAME[] and mh_boot_rom_NAME_size) in the binary directory and
# sets NAME_C_SOURCE in the caller's scope to the .c file, to be compiled
# into a library.
function(mcphost_add_boot_rom name)
  cmake_parse_arguments(ARG "" "RANGE;FILL" "DEFINES;SOURCES" ${ARGN})
  if(NOT ARG_RANGE OR NOT ARG_SOURCES)
    message(FATAL_ERROR "mcphost_add_boot_rom(${name}): RANGE and SOURCES are required")
  endif()
  set(args --range ${ARG_RANGE})
  if(ARG_FILL)
    list(APPEND args --fill ${ARG_FILL})
  endif()
  foreach(define ${ARG_DEFINES})
    list(APPEND args -D ${define})
  endforeach()
  set(sources "")
  foreach(source ${ARG_SOURCES})
    list(APPEND sources ${CMAKE_CURRENT_SOURCE_DIR}/${source})
  endforeach()
  set(bin ${CMAKE_CURRENT_BINARY_DIR}/${name}.bin)
  set(csrc ${CMAKE_CURRENT_BINARY_DIR}/${name}.c)
  add_custom_command(OUTPUT ${bin} ${csrc}
    COMMAND mh-asm ${args} -o ${bin} --c-array mh_boot_rom_${name} ${csrc} ${sources}
    DEPENDS mh-asm ${sources}
    COMMENT "Assembling boot ROM ${name}"
    VERBATIM)
  set(${name}_C_SOURCE ${csrc} PARENT_SCOPE)
endfunction()
