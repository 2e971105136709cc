/* hello.c - a minimal mcphost toolset: one tool, `hello_greet`, that reads
 * its arguments with the SDK's JSON helper and answers with text and
 * structured content. Copy this folder to start a plugin of your own:
 * change the id, the tool, and the CMake project name. */
#include <stdio.h>
#include <stdlib.h>

#include <mcphost/args.h>
#include <mcphost/json.h>
#include <mcphost/mcphost.h>

typedef struct hello_plugin {
    const mh_call_service *call; /* looked up once in init */
} hello_plugin;

/* Runs on a host thread for each tools/call; arguments are already validated
 * against the input schema below. */
static void greet(void *user, mh_call *call)
{
    hello_plugin *plugin = user;
    char error[256];
    mh_json_doc *doc = NULL;
    const mh_json *args = mh_args_parse(plugin->call->args(call), &doc, error, sizeof error);
    const char *name = args ? mh_json_get_string(args, "name", "world") : "world";

    char text[160];
    snprintf(text, sizeof text, "Hello, %s!", name);
    mh_json_writer *w = mh_json_writer_new();
    mh_json_write_object_begin(w);
    mh_json_write_key(w, "greeting");
    mh_json_write_string(w, text);
    mh_json_write_object_end(w);
    char *json = mh_json_writer_finish(w, NULL);
    mh_json_writer_free(w);

    plugin->call->text(call, text);
    plugin->call->structured(call, json ? json : "{}");
    free(json);
    mh_json_free(doc);
}

static mh_status hello_init(const mh_host *host, void **data)
{
    const mh_registry_service *registry = host->get_service(host, MH_REGISTRY_SERVICE_ID);
    hello_plugin *plugin = calloc(1, sizeof *plugin);
    if (!registry || !plugin) {
        free(plugin);
        return MH_ERR_UNSUPPORTED;
    }
    plugin->call = host->get_service(host, MH_CALL_SERVICE_ID);
    *data = plugin;

    mh_tool_desc tool = {0};
    tool.struct_size = sizeof tool;
    tool.name = "hello_greet";
    tool.title = "Greet";
    tool.description = "Greets someone by name.";
    tool.input_schema = "{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\","
                        "\"description\":\"Who to greet\"}},\"additionalProperties\":false}";
    tool.output_schema = "{\"type\":\"object\",\"properties\":{\"greeting\":{\"type\":\"string\"}},"
                         "\"required\":[\"greeting\"]}";
    tool.annotations = MH_TOOL_READ_ONLY | MH_TOOL_IDEMPOTENT;
    tool.call = greet;
    tool.user_data = plugin;
    mh_status status = registry->add_tool(host, &tool);
    if (status != MH_OK) free(plugin); /* the host does not call deinit after a failed init */
    return status;
}

static void hello_deinit(void *data) { free(data); }

MH_PLUGIN_DEFINE("org.example.hello-tools", "hello-tools", "1.0.0",
                 "Template toolset: says hello", MH_PLUGIN_TOOLSET, hello_init, hello_deinit);
