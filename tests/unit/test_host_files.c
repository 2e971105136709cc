/* host.files - the mh.files/1 service (host/files/files.c): paths clients name
 * are confined to the allowed directories; "..", absolute paths elsewhere,
 * symbolic links that lead out and the /allowed-evil prefix trick are
 * refused with a message that names the path, the allowed directories and
 * --allow-dir. Works on a real directory tree made under /tmp. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"
#include "host_harness.h"
#include "hostctx.h"
#include "loader.h"
#include "mh_test.h"
#include "run_mcphost.h"

static char base[PATH_MAX];    /* realpath of the temp root */
static char allowed[PATH_MAX + 16]; /* base/allowed */
static char second[PATH_MAX + 16];  /* base/second */

static void make_file(const char *rel, const char *text)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", base, rel);
    FILE *f = fopen(path, "wb");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void make_link(const char *target, const char *rel)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", base, rel);
    if (symlink(target, path) != 0) perror("symlink");
}

static void make_dir(const char *rel)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", base, rel);
    mkdir(path, 0755);
}

static int suite_init(void)
{
    char tmpl[] = "/tmp/mh_files_XXXXXX";
    if (!mkdtemp(tmpl) || !realpath(tmpl, base)) return -1;
    make_dir("allowed");
    make_dir("allowed/sub");
    make_dir("allowed-evil");
    make_dir("outside");
    make_dir("second");
    make_file("allowed/a.prg", "A");
    make_file("allowed/sub/b.prg", "B");
    make_file("allowed-evil/x.prg", "X");
    make_file("outside/secret.txt", "S");
    make_file("second/c.prg", "C");
    make_link("../outside/secret.txt", "allowed/link_out");
    make_link("a.prg", "allowed/link_in");
    make_link("../outside", "allowed/dirlink_out");
    make_link("../outside/nofile", "allowed/dangling");
    make_link(base, "allowed/up"); /* a link to the parent of the allowed dir */
    snprintf(allowed, sizeof allowed, "%s/allowed", base);
    snprintf(second, sizeof second, "%s/second", base);
    return 0;
}

static int suite_cleanup(void)
{
    char cmd[PATH_MAX + 32];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    return system(cmd) == 0 ? 0 : -1;
}

/* dirs = {allowed} or {allowed, second} */
static mh_ptrvec dirs_of(int two)
{
    static void *items[2];
    items[0] = allowed;
    items[1] = second;
    mh_ptrvec v = {items, two ? 2u : 1u, 2};
    return v;
}

static char out[PATH_MAX];
static char error[2048];

static mh_status resolve(const char *path, uint32_t mode)
{
    mh_ptrvec dirs = dirs_of(0);
    memset(out, 'Z', sizeof out);
    error[0] = '\0';
    return mh_files_resolve_in(&dirs, path, mode, out, sizeof out, error, sizeof error);
}

static void expect_ok(const char *path, uint32_t mode, const char *rel_expected)
{
    char expected[PATH_MAX + 64];
    snprintf(expected, sizeof expected, "%s/%s", base, rel_expected);
    mh_status st = resolve(path, mode);
    CU_ASSERT_EQUAL(st, MH_OK);
    if (st != MH_OK) fprintf(stderr, "\n  %s: %s\n", path, error);
    else CU_ASSERT_STRING_EQUAL(out, expected);
}

/* A refusal names the path, the allowed directory and --allow-dir. */
static void expect_denied(const char *path, uint32_t mode, const char *also)
{
    mh_status st = resolve(path, mode);
    CU_ASSERT_EQUAL(st, MH_ERR_DENIED);
    if (st != MH_ERR_DENIED) fprintf(stderr, "\n  %s: %d %s\n", path, st, out);
    CU_ASSERT_STRING_EQUAL(out, "");
    char quoted[PATH_MAX + 4];
    snprintf(quoted, sizeof quoted, "\"%s\"", path);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, quoted));
    CU_ASSERT_PTR_NOT_NULL(strstr(error, allowed));
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "--allow-dir"));
    if (also) {
        CU_ASSERT_PTR_NOT_NULL(strstr(error, also));
        if (!strstr(error, also)) fprintf(stderr, "\n  %s: %s\n", path, error);
    }
}

static void expect_status(const char *path, uint32_t mode, mh_status status, const char *text)
{
    mh_status st = resolve(path, mode);
    CU_ASSERT_EQUAL(st, status);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, text));
    if (st != status || !strstr(error, text))
        fprintf(stderr, "\n  %s: %d %s\n", path ? path : "(null)", st, error);
}

static void test_inside(void)
{
    char abs[PATH_MAX + 64];
    expect_ok("a.prg", MH_FILES_READ, "allowed/a.prg");
    expect_ok("./a.prg", MH_FILES_READ, "allowed/a.prg");
    expect_ok("sub/b.prg", MH_FILES_READ, "allowed/sub/b.prg");
    expect_ok("sub//./b.prg", MH_FILES_READ, "allowed/sub/b.prg");
    snprintf(abs, sizeof abs, "%s/sub/b.prg", allowed);
    expect_ok(abs, MH_FILES_READ, "allowed/sub/b.prg");
    expect_ok("link_in", MH_FILES_READ, "allowed/a.prg"); /* a link that stays inside */
    expect_ok("sub", MH_FILES_DIR, "allowed/sub");
    expect_ok(".", MH_FILES_DIR, "allowed");
    expect_ok(allowed, MH_FILES_DIR, "allowed");
    expect_ok("new.snap", MH_FILES_WRITE, "allowed/new.snap");
    expect_ok("sub/new.snap", MH_FILES_WRITE, "allowed/sub/new.snap");
    expect_ok("a.prg", MH_FILES_WRITE, "allowed/a.prg"); /* overwrite */
    expect_ok("link_in", MH_FILES_WRITE, "allowed/a.prg");
    expect_ok("....", MH_FILES_WRITE, "allowed/...."); /* a name, not ".." */
}

static void test_traversal(void)
{
    expect_denied("../outside/secret.txt", MH_FILES_READ, "\"..\"");
    expect_denied("sub/../a.prg", MH_FILES_READ, "\"..\""); /* even when it stays inside */
    expect_denied("..", MH_FILES_DIR, NULL);
    expect_denied("sub/..", MH_FILES_DIR, NULL);
    expect_denied("../new.snap", MH_FILES_WRITE, NULL);
    char abs[PATH_MAX + 64];
    snprintf(abs, sizeof abs, "%s/../outside/secret.txt", allowed);
    expect_denied(abs, MH_FILES_READ, NULL);
}

static void test_absolute_elsewhere(void)
{
    expect_denied("/etc/passwd", MH_FILES_READ, "is outside");
    expect_denied("/etc", MH_FILES_DIR, "is outside");
    expect_denied("/etc/mcphost-test.snap", MH_FILES_WRITE, "is outside");
    expect_denied("/", MH_FILES_DIR, NULL);
    /* A missing file elsewhere is refused, not reported missing. */
    expect_denied("/nonexistent-mh-dir/x.prg", MH_FILES_READ, "is outside");
    expect_denied("/nonexistent-mh-dir/x.snap", MH_FILES_WRITE, "is outside");
    char abs[PATH_MAX + 64];
    snprintf(abs, sizeof abs, "%s/outside/secret.txt", base);
    expect_denied(abs, MH_FILES_READ, NULL);
}

/* /base/allowed-evil starts with /base/allowed but is not inside it. */
static void test_prefix_trick(void)
{
    char abs[PATH_MAX + 64];
    snprintf(abs, sizeof abs, "%s-evil/x.prg", allowed);
    expect_denied(abs, MH_FILES_READ, "is outside");
    snprintf(abs, sizeof abs, "%s-evil/new.snap", allowed);
    expect_denied(abs, MH_FILES_WRITE, "is outside");
    snprintf(abs, sizeof abs, "%s-evil", allowed);
    expect_denied(abs, MH_FILES_DIR, "is outside");
}

static void test_symlink_escape(void)
{
    expect_denied("link_out", MH_FILES_READ, "symbolic link");
    expect_denied("dirlink_out/secret.txt", MH_FILES_READ, "symbolic link");
    expect_denied("dirlink_out", MH_FILES_DIR, "symbolic link");
    expect_denied("up/outside/secret.txt", MH_FILES_READ, "symbolic link");
    /* writes: through an existing link, a dangling link, a linked directory */
    expect_denied("link_out", MH_FILES_WRITE, "symbolic link");
    expect_denied("dangling", MH_FILES_WRITE, "symbolic link");
    expect_denied("dirlink_out/new.snap", MH_FILES_WRITE, NULL);
    expect_denied("up/new.snap", MH_FILES_WRITE, NULL);
    expect_denied("dangling", MH_FILES_READ, "symbolic link");
    expect_denied("dirlink_out/nofile", MH_FILES_READ, "is outside");
}

static void test_missing_and_kinds(void)
{
    expect_status("nothere.prg", MH_FILES_READ, MH_ERR_NOT_FOUND, "does not exist");
    expect_status("nothere", MH_FILES_DIR, MH_ERR_NOT_FOUND, "does not exist");
    expect_status("nodir/new.snap", MH_FILES_WRITE, MH_ERR_NOT_FOUND,
                  "directory");
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "does not exist"));
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "nodir"));
    expect_status("nodir/deeper/new.snap", MH_FILES_WRITE, MH_ERR_NOT_FOUND, "does not exist");
    expect_status("a.prg/x", MH_FILES_WRITE, MH_ERR_INVALID_ARGUMENT, "not a directory");
    expect_status("a.prg/x", MH_FILES_READ, MH_ERR_NOT_FOUND, "does not exist");
    expect_status("sub", MH_FILES_READ, MH_ERR_INVALID_ARGUMENT, "a directory");
    expect_status("a.prg", MH_FILES_DIR, MH_ERR_INVALID_ARGUMENT, "not a directory");
    expect_status("sub", MH_FILES_WRITE, MH_ERR_INVALID_ARGUMENT, "directory");
    expect_status("sub/", MH_FILES_WRITE, MH_ERR_INVALID_ARGUMENT, "directory");
    expect_status(".", MH_FILES_WRITE, MH_ERR_INVALID_ARGUMENT, "directory");
}

static void test_bad_arguments(void)
{
    expect_status("", MH_FILES_READ, MH_ERR_INVALID_ARGUMENT, "empty");
    CU_ASSERT_PTR_NOT_NULL(strstr(error, allowed));
    expect_status(NULL, MH_FILES_READ, MH_ERR_INVALID_ARGUMENT, "empty");
    char *long_path = malloc(PATH_MAX + 10);
    memset(long_path, 'a', PATH_MAX + 9);
    long_path[PATH_MAX + 9] = '\0';
    expect_status(long_path, MH_FILES_READ, MH_ERR_INVALID_ARGUMENT, "too long");
    /* long once joined to the directory */
    long_path[PATH_MAX - 5] = '\0';
    expect_status(long_path, MH_FILES_WRITE, MH_ERR_INVALID_ARGUMENT, "too long");
    /* a long component */
    long_path[300] = '\0';
    mh_status st = resolve(long_path, MH_FILES_READ);
    CU_ASSERT(st == MH_ERR_INVALID_ARGUMENT || st == MH_ERR_NOT_FOUND);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "aaaa"));
    free(long_path);
    expect_status("a.prg", 3, MH_ERR_INVALID_ARGUMENT, "mode");
    expect_status("a.prg", 0, MH_ERR_INVALID_ARGUMENT, "mode");
    /* too small an output buffer */
    mh_ptrvec dirs = dirs_of(0);
    char small[8];
    CU_ASSERT_EQUAL(mh_files_resolve_in(&dirs, "a.prg", MH_FILES_READ, small, sizeof small, error,
                                        sizeof error),
                    MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_STRING_EQUAL(small, "");
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "too long"));
    /* no error buffer: still refused, nothing written */
    CU_ASSERT_EQUAL(mh_files_resolve_in(&dirs, "/etc/passwd", MH_FILES_READ, out, sizeof out, NULL,
                                        0),
                    MH_ERR_DENIED);
    /* a tiny error buffer is truncated, never overrun */
    char tiny[16];
    memset(tiny, 'Q', sizeof tiny);
    CU_ASSERT_EQUAL(mh_files_resolve_in(&dirs, "../x", MH_FILES_READ, out, sizeof out, tiny, 5),
                    MH_ERR_DENIED);
    CU_ASSERT_EQUAL(strlen(tiny), 4);
    CU_ASSERT_EQUAL(tiny[5], 'Q');
    /* odd but harmless names stay inside */
    expect_status("na\nme", MH_FILES_READ, MH_ERR_NOT_FOUND, "does not exist");
    expect_status("-rf", MH_FILES_READ, MH_ERR_NOT_FOUND, "does not exist");
}

static void test_two_dirs_and_root(void)
{
    mh_ptrvec dirs = dirs_of(1);
    char abs[PATH_MAX + 64];
    snprintf(abs, sizeof abs, "%s/c.prg", second);
    CU_ASSERT_EQUAL(mh_files_resolve_in(&dirs, abs, MH_FILES_READ, out, sizeof out, error,
                                        sizeof error),
                    MH_OK);
    CU_ASSERT_STRING_EQUAL(out, abs);
    /* relative paths are relative to the first */
    CU_ASSERT_EQUAL(mh_files_resolve_in(&dirs, "c.prg", MH_FILES_READ, out, sizeof out, error,
                                        sizeof error),
                    MH_ERR_NOT_FOUND);
    CU_ASSERT_EQUAL(mh_files_resolve_in(&dirs, "/etc/passwd", MH_FILES_READ, out, sizeof out,
                                        error, sizeof error),
                    MH_ERR_DENIED);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, allowed));
    CU_ASSERT_PTR_NOT_NULL(strstr(error, second));
    /* "/" allowed: everything real is inside, ".." still refused */
    void *root_item[1] = {"/"};
    mh_ptrvec root = {root_item, 1, 1};
    CU_ASSERT_EQUAL(mh_files_resolve_in(&root, "/etc/passwd", MH_FILES_READ, out, sizeof out,
                                        error, sizeof error),
                    MH_OK);
    CU_ASSERT_EQUAL(mh_files_resolve_in(&root, "etc/passwd", MH_FILES_READ, out, sizeof out,
                                        error, sizeof error),
                    MH_OK);
    CU_ASSERT_STRING_EQUAL(out, "/etc/passwd");
    CU_ASSERT_EQUAL(mh_files_resolve_in(&root, "/etc/../etc/passwd", MH_FILES_READ, out,
                                        sizeof out, error, sizeof error),
                    MH_ERR_DENIED);
    /* no list: the working directory */
    char cwd[PATH_MAX];
    CU_ASSERT_PTR_NOT_NULL(getcwd(cwd, sizeof cwd));
    mh_ptrvec none = {0};
    CU_ASSERT_EQUAL(mh_files_resolve_in(&none, ".", MH_FILES_DIR, out, sizeof out, error,
                                        sizeof error),
                    MH_OK);
    char real_cwd[PATH_MAX];
    CU_ASSERT_PTR_NOT_NULL(realpath(cwd, real_cwd));
    CU_ASSERT_STRING_EQUAL(out, real_cwd);
}

static void test_setup(void)
{
    mh_hostctx ctx;
    memset(&ctx, 0, sizeof ctx);
    char linked[PATH_MAX + 64];
    snprintf(linked, sizeof linked, "%s/allowed/sub/../sub", base);
    void *given[3] = {allowed, linked, allowed};
    mh_ptrvec dirs = {given, 3, 3};
    CU_ASSERT_EQUAL(mh_files_setup(&ctx, &dirs, error, sizeof error), 0);
    CU_ASSERT_EQUAL(ctx.allowed_dirs.count, 2); /* duplicates collapse */
    char sub[PATH_MAX + 64];
    snprintf(sub, sizeof sub, "%s/sub", allowed);
    CU_ASSERT_STRING_EQUAL(ctx.allowed_dirs.items[0], allowed);
    CU_ASSERT_STRING_EQUAL(ctx.allowed_dirs.items[1], sub); /* realpath'd */
    mh_files_free(&ctx);
    CU_ASSERT_EQUAL(ctx.allowed_dirs.count, 0);

    /* a missing directory: an error naming it, nothing kept */
    char missing[PATH_MAX + 64];
    snprintf(missing, sizeof missing, "%s/nothere", base);
    void *bad[2] = {allowed, missing};
    mh_ptrvec bad_dirs = {bad, 2, 2};
    CU_ASSERT_EQUAL(mh_files_setup(&ctx, &bad_dirs, error, sizeof error), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "--allow-dir"));
    CU_ASSERT_PTR_NOT_NULL(strstr(error, missing));
    CU_ASSERT_EQUAL(ctx.allowed_dirs.count, 0);
    /* a file is not a directory */
    char file[PATH_MAX + 64];
    snprintf(file, sizeof file, "%s/a.prg", allowed);
    void *filev[1] = {file};
    mh_ptrvec file_dirs = {filev, 1, 1};
    CU_ASSERT_EQUAL(mh_files_setup(&ctx, &file_dirs, error, sizeof error), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "not a directory"));
    /* none given: the working directory */
    mh_ptrvec none = {0};
    CU_ASSERT_EQUAL(mh_files_setup(&ctx, &none, error, sizeof error), 0);
    CU_ASSERT_EQUAL(ctx.allowed_dirs.count, 1);
    char cwd[PATH_MAX], real_cwd[PATH_MAX];
    CU_ASSERT_PTR_NOT_NULL(getcwd(cwd, sizeof cwd));
    CU_ASSERT_PTR_NOT_NULL(realpath(cwd, real_cwd));
    CU_ASSERT_STRING_EQUAL(ctx.allowed_dirs.items[0], real_cwd);
    mh_files_free(&ctx);
}

/* Files and directories named on the command line are allowed one by one,
 * not what lies beside or below them. */
static void test_trusted_files(void)
{
    mh_hostctx ctx;
    memset(&ctx, 0, sizeof ctx);
    char secret[PATH_MAX + 64], other[PATH_MAX + 64], made[PATH_MAX + 64], link[PATH_MAX + 64];
    snprintf(secret, sizeof secret, "%s/outside/secret.txt", base);
    snprintf(other, sizeof other, "%s/allowed-evil/x.prg", base);
    snprintf(made, sizeof made, "%s/outside/out.txt", base);
    snprintf(link, sizeof link, "%s/link_out", allowed);
    CU_ASSERT_EQUAL(mh_files_trust(&ctx, secret), 0);
    CU_ASSERT_EQUAL(mh_files_trust(&ctx, made), 0);       /* to be made: its dir exists */
    CU_ASSERT_EQUAL(mh_files_trust(&ctx, "pal"), 0);      /* not a file: ignored */
    CU_ASSERT_EQUAL(mh_files_trust(&ctx, "/nonexistent-mh/x"), 0); /* kept as given */
    CU_ASSERT_EQUAL(mh_files_trust(&ctx, base), 0);       /* a directory (--rom-dir) */
    CU_ASSERT_EQUAL(mh_files_trust(&ctx, secret), 0);     /* once */
    CU_ASSERT_EQUAL(ctx.allowed_files.count, 4);
    mh_ptrvec dirs = dirs_of(0);
    CU_ASSERT_EQUAL(mh_files_resolve_with(&dirs, &ctx.allowed_files, secret, MH_FILES_READ, out,
                                          sizeof out, error, sizeof error),
                    MH_OK);
    CU_ASSERT_STRING_EQUAL(out, secret);
    CU_ASSERT_EQUAL(mh_files_resolve_with(&dirs, &ctx.allowed_files, "../outside/secret.txt",
                                          MH_FILES_READ, out, sizeof out, error, sizeof error),
                    MH_OK);
    CU_ASSERT_EQUAL(mh_files_resolve_with(&dirs, &ctx.allowed_files, "link_out", MH_FILES_READ,
                                          out, sizeof out, error, sizeof error),
                    MH_OK);
    CU_ASSERT_EQUAL(mh_files_resolve_with(&dirs, &ctx.allowed_files, made, MH_FILES_WRITE, out,
                                          sizeof out, error, sizeof error),
                    MH_OK);
    CU_ASSERT_STRING_EQUAL(out, made);
    /* Named but missing: reported missing, not outside. */
    CU_ASSERT_EQUAL(mh_files_resolve_with(&dirs, &ctx.allowed_files, made, MH_FILES_READ, out,
                                          sizeof out, error, sizeof error),
                    MH_ERR_NOT_FOUND);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "does not exist"));
    CU_ASSERT_EQUAL(mh_files_resolve_with(&dirs, &ctx.allowed_files, "/nonexistent-mh/x",
                                          MH_FILES_WRITE, out, sizeof out, error, sizeof error),
                    MH_ERR_NOT_FOUND);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "/nonexistent-mh does not exist"));
    /* ... and nothing else there */
    CU_ASSERT_EQUAL(mh_files_resolve_with(&dirs, &ctx.allowed_files, "/nonexistent-mh/y",
                                          MH_FILES_WRITE, out, sizeof out, error, sizeof error),
                    MH_ERR_DENIED);
    CU_ASSERT_EQUAL(mh_files_resolve_with(&dirs, &ctx.allowed_files, other, MH_FILES_READ, out,
                                          sizeof out, error, sizeof error),
                    MH_ERR_DENIED);
    CU_ASSERT_EQUAL(mh_files_resolve_with(&dirs, &ctx.allowed_files, "../outside/new.txt",
                                          MH_FILES_WRITE, out, sizeof out, error, sizeof error),
                    MH_ERR_DENIED);
    char outside_dir[PATH_MAX + 64];
    snprintf(outside_dir, sizeof outside_dir, "%s/outside", base);
    CU_ASSERT_EQUAL(mh_files_resolve_with(&dirs, &ctx.allowed_files, outside_dir, MH_FILES_DIR,
                                          out, sizeof out, error, sizeof error),
                    MH_ERR_DENIED);
    /* The trusted directory itself is a directory to use, nothing in it. */
    CU_ASSERT_EQUAL(mh_files_resolve_with(&dirs, &ctx.allowed_files, base, MH_FILES_DIR, out,
                                          sizeof out, error, sizeof error),
                    MH_OK);
    char beside[PATH_MAX + 64];
    snprintf(beside, sizeof beside, "%s/new.txt", base);
    CU_ASSERT_EQUAL(mh_files_resolve_with(&dirs, &ctx.allowed_files, beside, MH_FILES_WRITE, out,
                                          sizeof out, error, sizeof error),
                    MH_ERR_DENIED);
    mh_files_free(&ctx);
    CU_ASSERT_EQUAL(ctx.allowed_files.count, 0);
}

/* The service as a plugin sees it, on a host set up like main() does. */
static void test_service(void)
{
    mh_harness h;
    CU_ASSERT_EQUAL_FATAL(mh_harness_init(&h, 0), 0);
    void *given[2] = {allowed, second};
    mh_ptrvec dirs = {given, 2, 2};
    CU_ASSERT_EQUAL(mh_files_setup(&h.ctx, &dirs, error, sizeof error), 0);
    const mh_plugin_record *rec = h.ctx.plugins.items[0];
    const mh_host *host = &rec->host;
    const mh_files_service *files = host->get_service(host, MH_FILES_SERVICE_ID);
    CU_ASSERT_PTR_NOT_NULL_FATAL(files);
    CU_ASSERT_EQUAL(files->struct_size, sizeof *files);
    CU_ASSERT_EQUAL(files->dir_count(host), 2);
    CU_ASSERT_STRING_EQUAL(files->dir_at(host, 0), allowed);
    CU_ASSERT_STRING_EQUAL(files->dir_at(host, 1), second);
    CU_ASSERT_PTR_NULL(files->dir_at(host, 2));
    CU_ASSERT_EQUAL(files->resolve(host, "sub/b.prg", MH_FILES_READ, out, sizeof out, error,
                                   sizeof error),
                    MH_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(out, "/allowed/sub/b.prg"));
    CU_ASSERT_EQUAL(files->resolve(host, "../outside/secret.txt", MH_FILES_READ, out, sizeof out,
                                   error, sizeof error),
                    MH_ERR_DENIED);
    CU_ASSERT_EQUAL(files->resolve(NULL, "a.prg", MH_FILES_READ, out, sizeof out, error,
                                   sizeof error),
                    MH_ERR_INVALID_ARGUMENT);
    mh_files_free(&h.ctx);
    mh_harness_free(&h);
}

/* Through the binary: --help shows --allow-dir, a missing one stops start-up. */
static void test_cli(void)
{
    mh_test_output r;
    const char *help[] = {"--help", NULL};
    CU_ASSERT_EQUAL_FATAL(mh_test_run_mcphost(help, 10, &r), 0);
    CU_ASSERT_EQUAL(r.exit_code, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "--allow-dir DIR"));
    char missing[PATH_MAX + 64];
    snprintf(missing, sizeof missing, "%s/nothere", base);
    const char *bad[] = {"--allow-dir", allowed, "--allow-dir", missing, "--list-plugins", NULL};
    CU_ASSERT_EQUAL_FATAL(mh_test_run_mcphost(bad, 10, &r), 0);
    CU_ASSERT_EQUAL(r.exit_code, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "--allow-dir"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, missing));
    CU_ASSERT_PTR_NULL(strstr(r.out, "machines:"));
    const char *good[] = {"--allow-dir", allowed, "--allow-dir", second, "--list-plugins", NULL};
    CU_ASSERT_EQUAL_FATAL(mh_test_run_mcphost(good, 10, &r), 0);
    CU_ASSERT_EQUAL(r.exit_code, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "machines:"));

    /* A program named on the command line runs from outside the allowed
     * directory: the user chose it (test_trusted_files: only that file). */
    static const uint8_t loop[] = {0x00, 0x02, 0xEA, 0x4C, 0x00, 0x02}; /* NOP; JMP $0200 */
    char prg[PATH_MAX + 64], option[PATH_MAX + 80];
    snprintf(prg, sizeof prg, "%s/outside/loop.prg", base);
    FILE *f = fopen(prg, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fwrite(loop, 1, sizeof loop, f);
    fclose(f);
    snprintf(option, sizeof option, "program=%s", prg);
    const char *run[] = {"--allow-dir", allowed, "--machine", "bare6502", "--transport", "none",
                         "--config", option, "--limit-cycles", "1000", NULL};
    CU_ASSERT_EQUAL_FATAL(mh_test_run_mcphost(run, 20, &r), 0);
    CU_ASSERT_EQUAL(r.exit_code, 1); /* the cycle limit: it ran */
    CU_ASSERT_PTR_NULL(strstr(r.err, "outside the allowed"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "loop.prg"));
}

MH_SUITE("host.files", suite_init, suite_cleanup, MH_TEST(test_inside), MH_TEST(test_traversal),
         MH_TEST(test_absolute_elsewhere), MH_TEST(test_prefix_trick),
         MH_TEST(test_symlink_escape), MH_TEST(test_missing_and_kinds),
         MH_TEST(test_bad_arguments), MH_TEST(test_two_dirs_and_root), MH_TEST(test_setup),
         MH_TEST(test_trusted_files), MH_TEST(test_service), MH_TEST(test_cli))
