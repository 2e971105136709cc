/* exe_dir.h - the directory the running mcphost binary is in, from which
 * the host finds what is installed beside it (plugins, docs). Any thread. */
#ifndef MH_EXE_DIR_H
#define MH_EXE_DIR_H

#include <stddef.h>

/* Writes the binary's directory (no trailing slash) to out; 0 on success,
 * -1 when /proc/self/exe cannot be read or out is too small. */
int mh_exe_dir(char *out, size_t size);

#endif
