/* test_tools_debug_common.c - helpers of the tools_debug.* suites
 * (test_tools_debug_common.h). */
#include "test_tools_debug_common.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "files.h"
#include "loader.h"
#include "ptrvec.h"

#ifndef MH_PLUGIN_BUILD_DIR
#error "MH_PLUGIN_BUILD_DIR must be defined"
#endif

int tdt_setup(mh_harness *h)
{
    char error[1024];
    if (mh_harness_init(h, 1) != 0) return -1; /* with the fixture machine (no CPU) */
    const char *plugins[] = {MH_BARE6502_PLUGIN, MH_C64_PLUGIN, MH_PLUGIN_BUILD_DIR "/tools-debug.so"};
    for (size_t i = 0; i < 3; i++)
        if (mh_loader_load_file(&h->ctx, plugins[i], error, sizeof error) != MH_OK) {
            fprintf(stderr, "loading %s: %s\n", plugins[i], error);
            return -1;
        }
    mh_harness_initialize(h, "2025-11-25");
    return 0;
}

void tdt_teardown(mh_harness *h)
{
    mh_files_free(&h->ctx); /* the harness does not own the allowed directories */
    mh_harness_free(h);
}

int tdt_allow_dir(mh_harness *h, const char *dir)
{
    char error[512];
    mh_ptrvec dirs = {0};
    mh_ptrvec_push(&dirs, (void *)dir);
    mh_files_free(&h->ctx);
    int rc = mh_files_setup(&h->ctx, &dirs, error, sizeof error);
    if (rc != 0) fprintf(stderr, "allow %s: %s\n", dir, error);
    mh_ptrvec_free(&dirs);
    return rc;
}

const cJSON *tdt_call(mh_harness *h, const char *tool, const char *format, ...)
{
    char args[16384];
    va_list ap;
    va_start(ap, format);
    vsnprintf(args, sizeof args, format, ap);
    va_end(ap);
    return mh_harness_call_tool(h, tool, args);
}

const cJSON *tdt_sc(const cJSON *result)
{
    return cJSON_GetObjectItemCaseSensitive(result, "structuredContent");
}

double tdt_num(const cJSON *object, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(object, key);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

const char *tdt_str(const cJSON *object, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(object, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

int tdt_bool(const cJSON *object, const char *key)
{
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(object, key));
}

int tdt_error_has(const cJSON *result, ...)
{
    if (!result) {
        fprintf(stderr, "  no result (a JSON-RPC error?)\n");
        return 0;
    }
    const char *text = mh_harness_text(result);
    int ok = mh_harness_is_error(result);
    va_list ap;
    va_start(ap, result);
    const char *part;
    while ((part = va_arg(ap, const char *)) != NULL)
        if (!strstr(text, part)) ok = 0;
    va_end(ap);
    if (!ok) fprintf(stderr, "  unexpected result (isError %d): %s\n", mh_harness_is_error(result), text);
    return ok;
}

int tdt_ok(const cJSON *result)
{
    if (result && !mh_harness_is_error(result)) return 1;
    fprintf(stderr, "  tool error: %s\n", result ? mh_harness_text(result) : "(no result)");
    return 0;
}
