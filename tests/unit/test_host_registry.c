/* Registry validation, ownership and removal, and URI template matching. */
#include <string.h>

#include "loader.h"
#include "mh_test.h"
#include "registry.h"

static void noop(void *user, mh_call *call)
{
    (void)user;
    (void)call;
}

static mh_tool_desc tool(const char *name)
{
    mh_tool_desc d = {sizeof d, name, NULL, "a tool", NULL, NULL, 0, 0, NULL, NULL, noop, NULL};
    return d;
}

static void test_tool_names(void)
{
    CU_ASSERT_TRUE(mh_tool_name_valid("vic2_sprites_get"));
    CU_ASSERT_TRUE(mh_tool_name_valid("a-b_C9"));
    CU_ASSERT_FALSE(mh_tool_name_valid("vice.vic2.sprites.get"));
    CU_ASSERT_FALSE(mh_tool_name_valid(""));
    CU_ASSERT_FALSE(mh_tool_name_valid("has space"));
    char long_name[66];
    memset(long_name, 'a', 65);
    long_name[65] = '\0';
    CU_ASSERT_FALSE(mh_tool_name_valid(long_name));
    long_name[64] = '\0';
    CU_ASSERT_TRUE(mh_tool_name_valid(long_name));
}

static void test_add_and_reject(void)
{
    mh_registry reg = {0};
    mh_plugin_record a = {0}, b = {0};
    mh_tool_desc d = tool("first");
    CU_ASSERT_EQUAL(mh_registry_add_tool(&reg, &a, &d), MH_OK);
    CU_ASSERT_EQUAL(mh_registry_add_tool(&reg, &b, &d), MH_ERR_EXISTS);
    d = tool("dotted.name");
    CU_ASSERT_EQUAL(mh_registry_add_tool(&reg, &a, &d), MH_ERR_INVALID_ARGUMENT);
    d = tool("bad_schema");
    d.input_schema = "{not json";
    CU_ASSERT_EQUAL(mh_registry_add_tool(&reg, &a, &d), MH_ERR_INVALID_ARGUMENT);
    d.input_schema = "{\"type\":\"array\"}";
    CU_ASSERT_EQUAL(mh_registry_add_tool(&reg, &a, &d), MH_ERR_INVALID_ARGUMENT);
    d = tool("small");
    d.struct_size = 16;
    CU_ASSERT_EQUAL(mh_registry_add_tool(&reg, &a, &d), MH_ERR_INVALID_ARGUMENT);
    d = tool("no_handler");
    d.call = NULL;
    CU_ASSERT_EQUAL(mh_registry_add_tool(&reg, &a, &d), MH_ERR_INVALID_ARGUMENT);
    d = tool("second");
    CU_ASSERT_EQUAL(mh_registry_add_tool(&reg, &b, &d), MH_OK);
    CU_ASSERT_EQUAL(reg.tools.count, 2);
    CU_ASSERT_EQUAL(mh_registry_count_owner(&reg, &a), 1);
    CU_ASSERT_EQUAL(mh_registry_remove_owner(&reg, &a), 1);
    CU_ASSERT_PTR_NULL(mh_registry_tool(&reg, "first"));
    CU_ASSERT_PTR_NOT_NULL(mh_registry_tool(&reg, "second"));
    mh_registry_free(&reg);
}

static void test_session_conventions(void)
{
    mh_registry reg = {0};
    mh_plugin_record a = {0};
    mh_tool_desc d = tool("chip_tool");
    d.requires = "mh.chip.vic2/1";
    CU_ASSERT_EQUAL(mh_registry_add_tool(&reg, &a, &d), MH_OK);
    const mh_reg_tool *t = mh_registry_tool(&reg, "chip_tool");
    const cJSON *props = cJSON_GetObjectItemCaseSensitive(t->input_schema, "properties");
    CU_ASSERT_PTR_NOT_NULL(cJSON_GetObjectItemCaseSensitive(props, "session"));
    CU_ASSERT_PTR_NOT_NULL(cJSON_GetObjectItemCaseSensitive(props, "instance"));
    CU_ASSERT_TRUE(t->flags & MH_TOOL_NEEDS_SESSION);
    d = tool("plain_tool");
    CU_ASSERT_EQUAL(mh_registry_add_tool(&reg, &a, &d), MH_OK);
    props = cJSON_GetObjectItemCaseSensitive(mh_registry_tool(&reg, "plain_tool")->input_schema,
                                             "properties");
    CU_ASSERT_PTR_NULL(cJSON_GetObjectItemCaseSensitive(props, "session"));
    mh_registry_free(&reg);
}

static void test_templates(void)
{
    mh_registry reg = {0};
    mh_plugin_record a = {0};
    mh_resource_desc r = {sizeof r, "mem://{session}/at/{address}", 1, "mem", NULL, NULL, NULL,
                          noop, NULL, NULL};
    CU_ASSERT_EQUAL(mh_registry_add_resource(&reg, &a, &r), MH_OK);
    mh_resource_desc fixed = {sizeof fixed, "mem://info", 0, "info", NULL, NULL, NULL, noop,
                              NULL, NULL};
    CU_ASSERT_EQUAL(mh_registry_add_resource(&reg, &a, &fixed), MH_OK);
    CU_ASSERT_EQUAL(mh_registry_add_resource(&reg, &a, &fixed), MH_ERR_EXISTS);

    cJSON *vars = NULL;
    CU_ASSERT_PTR_NOT_NULL(mh_registry_resource_for_uri(&reg, "mem://info", &vars));
    CU_ASSERT_PTR_NULL(vars);
    const mh_reg_resource *hit = mh_registry_resource_for_uri(&reg, "mem://c64-1/at/$C000", &vars);
    CU_ASSERT_PTR_NOT_NULL_FATAL(hit);
    CU_ASSERT_STRING_EQUAL(cJSON_GetObjectItemCaseSensitive(vars, "session")->valuestring, "c64-1");
    CU_ASSERT_STRING_EQUAL(cJSON_GetObjectItemCaseSensitive(vars, "address")->valuestring, "$C000");
    cJSON_Delete(vars);
    CU_ASSERT_PTR_NULL(mh_registry_resource_for_uri(&reg, "mem://c64-1/at/", &vars));
    CU_ASSERT_PTR_NULL(mh_registry_resource_for_uri(&reg, "mem://a/b/at/1", &vars));
    CU_ASSERT_PTR_NULL(mh_registry_resource_for_uri(&reg, "other://x", &vars));
    mh_registry_free(&reg);
}

MH_SUITE("host.registry", NULL, NULL, MH_TEST(test_tool_names), MH_TEST(test_add_and_reject),
         MH_TEST(test_session_conventions), MH_TEST(test_templates))
