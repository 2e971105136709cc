/* exe_dir.c - the running binary's directory (exe_dir.h). */
#include "exe_dir.h"

#include <string.h>
#include <unistd.h>

int mh_exe_dir(char *out, size_t size)
{
    if (size < 2) return -1;
    ssize_t n = readlink("/proc/self/exe", out, size - 1);
    if (n <= 0 || (size_t)n >= size - 1) return -1;
    out[n] = '\0';
    char *slash = strrchr(out, '/');
    if (!slash) return -1;
    *slash = '\0';
    if (out[0] == '\0') strcpy(out, "/");
    return 0;
}
