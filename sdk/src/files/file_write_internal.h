/* file_write_internal.h - what file_write.c shares with its unit tests
 * only (not installed). */
#ifndef MH_FILE_WRITE_INTERNAL_H
#define MH_FILE_WRITE_INTERNAL_H

/* Renames from to to (both names in dir_fd) unless to exists: renameat2
 * with RENAME_NOREPLACE, or link() + unlink() where the filesystem refuses
 * that flag (use_link: go straight to the fallback, as tests do). 0, or -1
 * with errno (EEXIST: to exists and was left alone). */
int mh_file_rename_noreplace_at(int dir_fd, const char *from, const char *to, int use_link);

#endif
