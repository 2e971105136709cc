/* files.write: the SDK's file writer (mcphost/file_write.h) against what a
 * hostile or careless neighbour plants in the directory: symbolic links at
 * every name a writer could be predicted to use (pointing outside), a FIFO
 * at the target (with a reader waiting, so a write into it would show
 * rather than block), a directory at the target, a dangling link, an
 * existing file without overwrite. Also the link()+unlink() fallback of
 * the no-replace rename. */
#include "mh_test.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <mcphost/file_write.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_write_internal.h"

static char base_dir[] = "/tmp/mh_file_write_XXXXXX";
static char dir[128], outside[128];

static int suite_init(void)
{
    if (!mkdtemp(base_dir)) return -1;
    snprintf(dir, sizeof dir, "%s/allowed", base_dir);
    snprintf(outside, sizeof outside, "%s/outside", base_dir);
    return mkdir(dir, 0700) || mkdir(outside, 0700) ? -1 : 0;
}

static void remove_tree(const char *path)
{
    DIR *d = opendir(path);
    if (!d) {
        unlink(path);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char child[512];
        snprintf(child, sizeof child, "%s/%s", path, e->d_name);
        struct stat st;
        if (lstat(child, &st) == 0 && S_ISDIR(st.st_mode)) remove_tree(child);
        else unlink(child);
    }
    closedir(d);
    rmdir(path);
}

static int suite_cleanup(void)
{
    remove_tree(base_dir);
    return 0;
}

/* Empties both directories between tests. */
static void reset(void)
{
    remove_tree(dir);
    remove_tree(outside);
    mkdir(dir, 0700);
    mkdir(outside, 0700);
}

static void path_in(char *out, size_t size, const char *where, const char *name)
{
    snprintf(out, size, "%s/%s", where, name);
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
}

/* The file's content (at most 255 bytes), "" when unreadable. */
static const char *content(const char *path)
{
    static char buf[256];
    buf[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f) return buf;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static size_t entries(const char *where)
{
    size_t n = 0;
    DIR *d = opendir(where);
    if (!d) return 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

static void test_new_file(void)
{
    reset();
    char target[256], error[512];
    path_in(target, sizeof target, dir, "new.bin");
    CU_ASSERT_EQUAL(mh_file_write(target, "hello", 5, 0, error, sizeof error), MH_OK);
    CU_ASSERT_STRING_EQUAL(content(target), "hello");
    CU_ASSERT_EQUAL(entries(dir), 1); /* no temporary file left */
    mode_t mask = umask(0);
    umask(mask);
    struct stat st;
    CU_ASSERT_EQUAL(stat(target, &st), 0);
    CU_ASSERT_EQUAL(st.st_mode & 0777, 0666 & ~mask);
    /* Zero bytes is a file too. */
    path_in(target, sizeof target, dir, "empty.bin");
    CU_ASSERT_EQUAL(mh_file_write(target, NULL, 0, 0, error, sizeof error), MH_OK);
    CU_ASSERT_EQUAL(stat(target, &st), 0);
    CU_ASSERT_EQUAL(st.st_size, 0);
}

static void test_existing_needs_overwrite(void)
{
    reset();
    char target[256], error[512];
    path_in(target, sizeof target, dir, "precious.prg");
    put(target, "precious");
    chmod(target, 0640);
    CU_ASSERT_EQUAL(mh_file_write(target, "junk", 4, 0, error, sizeof error), MH_ERR_EXISTS);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, target));
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "already exists"));
    CU_ASSERT_STRING_EQUAL(content(target), "precious");
    CU_ASSERT_EQUAL(entries(dir), 1);
    /* With overwrite it is replaced, keeping its permission bits. */
    CU_ASSERT_EQUAL(mh_file_write(target, "new", 3, MH_FILE_OVERWRITE, error, sizeof error), MH_OK);
    CU_ASSERT_STRING_EQUAL(content(target), "new");
    struct stat st;
    CU_ASSERT_EQUAL(stat(target, &st), 0);
    CU_ASSERT_EQUAL(st.st_mode & 0777, 0640);
    CU_ASSERT_EQUAL(entries(dir), 1);
}

/* The file appears between the check and the rename: the rename refuses. */
static void test_no_replace_at_rename(void)
{
    reset();
    char target[256], error[512];
    path_in(target, sizeof target, dir, "late.bin");
    mh_file_out *out = NULL;
    CU_ASSERT_EQUAL_FATAL(mh_file_begin(target, 0, &out, error, sizeof error), MH_OK);
    CU_ASSERT_EQUAL(mh_file_out_write(out, "mine", 4, error, sizeof error), MH_OK);
    put(target, "theirs");
    CU_ASSERT_EQUAL(mh_file_commit(out, error, sizeof error), MH_ERR_EXISTS);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, target));
    CU_ASSERT_STRING_EQUAL(content(target), "theirs");
    CU_ASSERT_EQUAL(entries(dir), 1);
    /* Abort leaves nothing behind. */
    path_in(target, sizeof target, dir, "aborted.bin");
    CU_ASSERT_EQUAL_FATAL(mh_file_begin(target, 0, &out, error, sizeof error), MH_OK);
    CU_ASSERT(mh_file_out_fd(out) >= 0);
    mh_file_abort(out);
    CU_ASSERT_FALSE(exists(target));
    CU_ASSERT_EQUAL(entries(dir), 1);
}

static void test_link_fallback(void)
{
    reset();
    int dir_fd = open(dir, O_RDONLY | O_DIRECTORY);
    CU_ASSERT_FATAL(dir_fd >= 0);
    char a[256], b[256];
    path_in(a, sizeof a, dir, "a");
    path_in(b, sizeof b, dir, "b");
    put(a, "A");
    put(b, "B");
    errno = 0;
    CU_ASSERT_EQUAL(mh_file_rename_noreplace_at(dir_fd, "a", "b", 1), -1);
    CU_ASSERT_EQUAL(errno, EEXIST);
    CU_ASSERT_STRING_EQUAL(content(a), "A");
    CU_ASSERT_STRING_EQUAL(content(b), "B");
    unlink(b);
    CU_ASSERT_EQUAL(mh_file_rename_noreplace_at(dir_fd, "a", "b", 1), 0);
    CU_ASSERT_FALSE(exists(a));
    CU_ASSERT_STRING_EQUAL(content(b), "A");
    /* The same through renameat2. */
    put(a, "A2");
    CU_ASSERT_EQUAL(mh_file_rename_noreplace_at(dir_fd, "a", "b", 0), -1);
    CU_ASSERT_EQUAL(errno, EEXIST);
    CU_ASSERT_STRING_EQUAL(content(b), "A");
    close(dir_fd);
}

/* Symbolic links (to files outside that do not exist yet) at every name a
 * writer could be expected to use for its temporary file: nothing may be
 * written through them. */
static void test_planted_links(void)
{
    reset();
    char target[256], error[512];
    path_in(target, sizeof target, dir, "snap.mhsnap");
    char pid_name[64];
    snprintf(pid_name, sizeof pid_name, "snap.mhsnap.tmp%ld", (long)getpid());
    const char *names[] = {pid_name, "snap.mhsnap.tmp", "snap.mhsnap~", ".snap.mhsnap.tmp",
                           "snap.mhsnap.new", ".snap.mhsnap.swp", "snap.tmp"};
    size_t count = sizeof names / sizeof names[0];
    for (size_t i = 0; i < count; i++) {
        char link_path[256], victim[256];
        path_in(link_path, sizeof link_path, dir, names[i]);
        snprintf(victim, sizeof victim, "%s/victim%zu", outside, i);
        CU_ASSERT_EQUAL(symlink(victim, link_path), 0);
    }
    for (int round = 0; round < 2; round++)
        CU_ASSERT_EQUAL(mh_file_write(target, "state", 5, round ? MH_FILE_OVERWRITE : 0, error,
                                      sizeof error),
                        MH_OK);
    CU_ASSERT_STRING_EQUAL(content(target), "state");
    struct stat st;
    CU_ASSERT_EQUAL(lstat(target, &st), 0);
    CU_ASSERT_TRUE(S_ISREG(st.st_mode));
    CU_ASSERT_EQUAL(entries(outside), 0); /* nothing written through a link */
    CU_ASSERT_EQUAL(entries(dir), count + 1);
    for (size_t i = 0; i < count; i++) {
        char link_path[256];
        path_in(link_path, sizeof link_path, dir, names[i]);
        CU_ASSERT_EQUAL(lstat(link_path, &st), 0);
        CU_ASSERT_TRUE(S_ISLNK(st.st_mode));
    }
}

/* A link at the target itself (to an existing file outside, or dangling)
 * is refused, with or without overwrite, and stays as it was. */
static void test_link_at_target(void)
{
    reset();
    char target[256], victim[256], error[512];
    path_in(target, sizeof target, dir, "out.wav");
    path_in(victim, sizeof victim, outside, "victim");
    put(victim, "secret");
    CU_ASSERT_EQUAL(symlink(victim, target), 0);
    for (unsigned flags = 0; flags <= MH_FILE_OVERWRITE; flags++) {
        mh_status st = mh_file_write(target, "x", 1, flags, error, sizeof error);
        CU_ASSERT_EQUAL(st, MH_ERR_INVALID_ARGUMENT);
        CU_ASSERT_PTR_NOT_NULL(strstr(error, "a symbolic link"));
        int fd = -1;
        CU_ASSERT_EQUAL(mh_file_open_stream(target, flags, &fd, error, sizeof error),
                        MH_ERR_INVALID_ARGUMENT);
        CU_ASSERT_EQUAL(fd, -1);
    }
    CU_ASSERT_STRING_EQUAL(content(victim), "secret");
    /* Dangling: the link's destination is not created. */
    unlink(victim);
    for (unsigned flags = 0; flags <= MH_FILE_OVERWRITE; flags++) {
        CU_ASSERT_EQUAL(mh_file_write(target, "x", 1, flags, error, sizeof error),
                        MH_ERR_INVALID_ARGUMENT);
        int fd = -1;
        CU_ASSERT_EQUAL(mh_file_open_stream(target, flags, &fd, error, sizeof error),
                        MH_ERR_INVALID_ARGUMENT);
    }
    CU_ASSERT_FALSE(exists(victim));
    CU_ASSERT_EQUAL(entries(outside), 0);
    CU_ASSERT_EQUAL(entries(dir), 1);
}

/* A FIFO at the target with a reader waiting: a writer that opened it
 * would not block but its bytes would arrive; none may. */
static void test_fifo_at_target(void)
{
    reset();
    char target[256], error[512];
    path_in(target, sizeof target, dir, "pipe.png");
    CU_ASSERT_EQUAL_FATAL(mkfifo(target, 0600), 0);
    int reader = open(target, O_RDONLY | O_NONBLOCK);
    CU_ASSERT_FATAL(reader >= 0);
    for (unsigned flags = 0; flags <= MH_FILE_OVERWRITE; flags++) {
        mh_status st = mh_file_write(target, "x", 1, flags, error, sizeof error);
        CU_ASSERT_EQUAL(st, MH_ERR_INVALID_ARGUMENT);
        CU_ASSERT_PTR_NOT_NULL(strstr(error, "a FIFO"));
        CU_ASSERT_PTR_NOT_NULL(strstr(error, target));
        int fd = -1;
        CU_ASSERT_EQUAL(mh_file_open_stream(target, flags, &fd, error, sizeof error),
                        MH_ERR_INVALID_ARGUMENT);
        CU_ASSERT_EQUAL(fd, -1);
    }
    char byte;
    CU_ASSERT(read(reader, &byte, 1) <= 0); /* nothing arrived */
    close(reader);
    /* Without a reader too (an open for writing would block for ever). */
    CU_ASSERT_EQUAL(mh_file_write(target, "x", 1, MH_FILE_OVERWRITE, error, sizeof error),
                    MH_ERR_INVALID_ARGUMENT);
    int fd = -1;
    CU_ASSERT_EQUAL(mh_file_open_stream(target, MH_FILE_OVERWRITE, &fd, error, sizeof error),
                    MH_ERR_INVALID_ARGUMENT);
    struct stat st;
    CU_ASSERT_EQUAL(lstat(target, &st), 0);
    CU_ASSERT_TRUE(S_ISFIFO(st.st_mode));
    CU_ASSERT_EQUAL(entries(dir), 1);
}

static void test_directory_at_target(void)
{
    reset();
    char target[256], inner[300], error[512];
    path_in(target, sizeof target, dir, "taken");
    CU_ASSERT_EQUAL_FATAL(mkdir(target, 0700), 0);
    snprintf(inner, sizeof inner, "%s/keep", target);
    put(inner, "kept");
    for (unsigned flags = 0; flags <= MH_FILE_OVERWRITE; flags++) {
        CU_ASSERT_EQUAL(mh_file_write(target, "x", 1, flags, error, sizeof error),
                        MH_ERR_INVALID_ARGUMENT);
        CU_ASSERT_PTR_NOT_NULL(strstr(error, "a directory"));
        int fd = -1;
        CU_ASSERT_EQUAL(mh_file_open_stream(target, flags, &fd, error, sizeof error),
                        MH_ERR_INVALID_ARGUMENT);
    }
    CU_ASSERT_STRING_EQUAL(content(inner), "kept");
    CU_ASSERT_EQUAL(entries(dir), 1);
    /* No file name at all, or a missing directory. */
    CU_ASSERT_EQUAL(mh_file_write(dir, "x", 1, 0, error, sizeof error), MH_ERR_INVALID_ARGUMENT);
    char slash[300];
    snprintf(slash, sizeof slash, "%s/", dir);
    CU_ASSERT_EQUAL(mh_file_write(slash, "x", 1, 0, error, sizeof error),
                    MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "give a file name"));
    char missing[300];
    snprintf(missing, sizeof missing, "%s/no-such-dir/x", dir);
    CU_ASSERT_EQUAL(mh_file_write(missing, "x", 1, 0, error, sizeof error), MH_ERR_NOT_FOUND);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, missing));
}

static void test_stream(void)
{
    reset();
    char target[256], error[512];
    path_in(target, sizeof target, dir, "precious.d64");
    put(target, "precious");
    int fd = -1;
    CU_ASSERT_EQUAL(mh_file_open_stream(target, 0, &fd, error, sizeof error), MH_ERR_EXISTS);
    CU_ASSERT_EQUAL(fd, -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, target));
    CU_ASSERT_STRING_EQUAL(content(target), "precious"); /* not truncated */
    CU_ASSERT_EQUAL(mh_file_open_stream(target, MH_FILE_OVERWRITE, &fd, error, sizeof error),
                    MH_OK);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_EQUAL(write(fd, "out", 3), 3);
    CU_ASSERT_TRUE(fcntl(fd, F_GETFD) & FD_CLOEXEC);
    CU_ASSERT_FALSE(fcntl(fd, F_GETFL) & O_NONBLOCK);
    close(fd);
    CU_ASSERT_STRING_EQUAL(content(target), "out");
    /* A new file is made. */
    path_in(target, sizeof target, dir, "fresh.txt");
    CU_ASSERT_EQUAL(mh_file_open_stream(target, 0, &fd, error, sizeof error), MH_OK);
    CU_ASSERT(fd >= 0);
    close(fd);
    CU_ASSERT_TRUE(exists(target));
}

MH_SUITE("files.write", suite_init, suite_cleanup, MH_TEST(test_new_file),
         MH_TEST(test_existing_needs_overwrite), MH_TEST(test_no_replace_at_rename),
         MH_TEST(test_link_fallback), MH_TEST(test_planted_links), MH_TEST(test_link_at_target),
         MH_TEST(test_fifo_at_target), MH_TEST(test_directory_at_target), MH_TEST(test_stream))
