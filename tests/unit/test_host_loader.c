#include <stdlib.h>
#include <unistd.h>
/* The plugin loader against fixture .so files, good and broken. */
#include <string.h>

#include "hostctx.h"
#include "loader.h"
#include "mh_test.h"
#include "sessions.h"

static void fresh(mh_hostctx *ctx)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->sessions = mh_sessions_new(ctx);
}

static void release(mh_hostctx *ctx)
{
    mh_sessions_free(ctx->sessions);
    mh_loader_unload_all(ctx);
    mh_registry_free(&ctx->registry);
}

static mh_status load(mh_hostctx *ctx, const char *dir, const char *file, char *error,
                      size_t size)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    return mh_loader_load_file(ctx, path, error, size);
}

static void test_good_plugin(void)
{
    mh_hostctx ctx;
    char error[1024] = "";
    fresh(&ctx);
    CU_ASSERT_EQUAL(load(&ctx, MH_FIXTURE_DIR, "fixture-toolset.so", error, sizeof error), MH_OK);
    CU_ASSERT_EQUAL(ctx.plugins.count, 1);
    CU_ASSERT_PTR_NOT_NULL(mh_registry_tool(&ctx.registry, "fixture_echo"));
    CU_ASSERT_PTR_NOT_NULL(mh_registry_prompt(&ctx.registry, "fixture_prompt"));
    const mh_plugin_record *rec = ctx.plugins.items[0];
    CU_ASSERT_STRING_EQUAL(rec->entry->id, "org.mcphost.test.fixture-toolset");
    CU_ASSERT_EQUAL(rec->entry->kind, MH_PLUGIN_TOOLSET);
    release(&ctx);
}

static void test_wrong_major(void)
{
    mh_hostctx ctx;
    char error[1024] = "";
    fresh(&ctx);
    CU_ASSERT_EQUAL(load(&ctx, MH_FIXTURE_BAD_DIR, "bad-abi-major.so", error, sizeof error),
                    MH_ERR_VERSION);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "bad-abi-major.so"));
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "ABI major version 99"));
    CU_ASSERT_EQUAL(ctx.plugins.count, 0);
    release(&ctx);
}

static void test_small_struct(void)
{
    mh_hostctx ctx;
    char error[1024] = "";
    fresh(&ctx);
    CU_ASSERT_EQUAL(load(&ctx, MH_FIXTURE_BAD_DIR, "bad-small-struct.so", error, sizeof error),
                    MH_ERR_VERSION);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "too small"));
    CU_ASSERT_EQUAL(ctx.plugins.count, 0);
    release(&ctx);
}

static void test_missing_entry(void)
{
    mh_hostctx ctx;
    char error[1024] = "";
    fresh(&ctx);
    CU_ASSERT_EQUAL(load(&ctx, MH_FIXTURE_BAD_DIR, "bad-no-entry.so", error, sizeof error),
                    MH_ERR_INVALID_ARGUMENT);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "no 'mh_entry' symbol"));
    CU_ASSERT_EQUAL(load(&ctx, MH_FIXTURE_BAD_DIR, "does-not-exist.so", error, sizeof error),
                    MH_ERR_IO);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "does-not-exist.so"));
    release(&ctx);
}

static void test_init_fails_rolls_back(void)
{
    mh_hostctx ctx;
    char error[1024] = "";
    fresh(&ctx);
    CU_ASSERT_EQUAL(load(&ctx, MH_FIXTURE_BAD_DIR, "bad-init-fails.so", error, sizeof error),
                    MH_ERR_INTERNAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "removed the 1 item(s)"));
    CU_ASSERT_EQUAL(ctx.registry.tools.count, 0);
    CU_ASSERT_PTR_NULL(mh_registry_tool(&ctx.registry, "bad_tool"));
    CU_ASSERT_EQUAL(ctx.plugins.count, 0);
    release(&ctx);
}

static void test_duplicate_id(void)
{
    mh_hostctx ctx;
    char error[1024] = "";
    fresh(&ctx);
    CU_ASSERT_EQUAL(load(&ctx, MH_FIXTURE_DIR, "fixture-toolset.so", error, sizeof error), MH_OK);
    CU_ASSERT_EQUAL(load(&ctx, MH_FIXTURE_BAD_DIR, "bad-duplicate-id.so", error, sizeof error),
                    MH_ERR_EXISTS);
    CU_ASSERT_PTR_NOT_NULL(strstr(error, "already loaded"));
    CU_ASSERT_EQUAL(ctx.plugins.count, 1);
    CU_ASSERT_PTR_NOT_NULL(mh_registry_tool(&ctx.registry, "fixture_echo"));
    release(&ctx);
}

static void test_load_dir_survives_bad_plugins(void)
{
    mh_hostctx ctx;
    fresh(&ctx);
    /* bad/ holds only broken plugins except bad-duplicate-id, which is fine on
     * its own: exactly that one loads. */
    CU_ASSERT_EQUAL(mh_loader_load_dir(&ctx, MH_FIXTURE_BAD_DIR), 1);
    CU_ASSERT_EQUAL(ctx.registry.tools.count, 1);
    CU_ASSERT_EQUAL(mh_loader_load_dir(&ctx, "/nonexistent/dir"), 0);
    /* An empty directory: nothing to sort (qsort of NULL is undefined). */
    char empty[] = "/tmp/mh_loader_empty_XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(empty));
    CU_ASSERT_EQUAL(mh_loader_load_dir(&ctx, empty), 0);
    rmdir(empty);
    release(&ctx);
}

MH_SUITE("host.loader", NULL, NULL, MH_TEST(test_good_plugin), MH_TEST(test_wrong_major),
         MH_TEST(test_small_struct), MH_TEST(test_missing_entry),
         MH_TEST(test_init_fails_rolls_back), MH_TEST(test_duplicate_id),
         MH_TEST(test_load_dir_survives_bad_plugins))
