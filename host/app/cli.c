#include "cli.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"

typedef enum opt_kind {
    OPT_STRING, OPT_LIST, OPT_PORT, OPT_U64, OPT_FLAG, OPT_LEVEL,
    OPT_ON_OFF, /* "on" (1) or "off" (-1) into an int; 0 when not given */
    OPT_CONFIG /* a machine configuration value: --NAME VALUE means --config KEY=VALUE */
} opt_kind;

typedef struct cli_option {
    const char *name;
    const char *arg;  /* placeholder in the help, NULL for flags */
    opt_kind kind;
    size_t offset;
    const char *help;
    const char *config; /* OPT_CONFIG: "key" (takes the value) or "key=value" (a flag) */
} cli_option;

#define FIELD(f) offsetof(mh_cli, f)

static const cli_option options[] = {
    {"--machine", "NAME", OPT_STRING, FIELD(machine),
     "start a machine session of this type (c64, vic20, plus4, ...)", NULL},
    {"--transport", "NAME", OPT_STRING, FIELD(transport),
     "stdio (default), http, or none (run the machine headless, no MCP; the default when --debugcart, --limit-cycles or --exit-screenshot is given)", NULL},
    {"--host", "ADDR", OPT_STRING, FIELD(bind_host), "address the http transport binds (127.0.0.1)", NULL},
    {"--port", "N", OPT_PORT, FIELD(port), "port of the http transport (6510; 0: any free port, logged)", NULL},
    {"--token", "TOKEN", OPT_STRING, FIELD(token),
     "bearer token clients must send (or MCPHOST_TOKEN)", NULL},
    {"--transport-option", "NAME=VALUE", OPT_LIST, FIELD(transport_options),
     "a setting of the transport, e.g. max_sessions=128 for http (repeatable)", NULL},
    {"--plugin-dir", "DIR", OPT_LIST, FIELD(plugin_dirs),
     "load plugins from DIR too (repeatable; searched before the default ones)", NULL},
    {"--allow-dir", "DIR", OPT_LIST, FIELD(allow_dirs),
     "let clients read and write files in DIR (repeatable; default: the working directory)",
     NULL},
    {"--config", "NAME=VALUE", OPT_LIST, FIELD(configs),
     "machine configuration value (repeatable)", NULL},
    {"--rom-dir", "DIR", OPT_CONFIG, 0, "load the machine's ROMs from DIR (VICE file names work)",
     "rom_dir"},
    {"--autostart", "FILE", OPT_CONFIG, 0, "load and start a program, disk, tape or cartridge",
     "autostart"},
    {"--pal", NULL, OPT_CONFIG, 0, "PAL video timing", "video=pal"},
    {"--ntsc", NULL, OPT_CONFIG, 0, "NTSC video timing", "video=ntsc"},
    {"--vicii-model", "MODEL", OPT_CONFIG, 0, "6569, 8565, 6567, 8562 or 6567r56a",
     "vicii_model"},
    {"--cia-model", "MODEL", OPT_CONFIG, 0, "6526 or 6526a", "cia_model"},
    {"--sid-model", "MODEL", OPT_CONFIG, 0, "6581 or 8580", "sid_model"},
    {"--vic20-memory", "SIZE", OPT_CONFIG, 0, "none, 3k, 8k, 16k, 24k or all", "vic20_memory"},
    {"--debugcart", NULL, OPT_CONFIG, 0,
     "a write to the debug-cart register ends the run with that exit code", "debugcart=true"},
    {"--limit-cycles", "N", OPT_U64, FIELD(limit_cycles),
     "run the machine and exit with code 1 after N cycles", NULL},
    {"--exit-screenshot", "FILE", OPT_STRING, FIELD(exit_screenshot),
     "when the run ends, write the machine's last frame to FILE (PNG)", NULL},
    {"--warp", NULL, OPT_FLAG, FIELD(warp), "run as fast as possible, not in real time", NULL},
    {"--time-travel", "on|off", OPT_ON_OFF, FIELD(time_travel),
     "the snapshot ring that time travel (execution_step_back, execution_rewind, "
     "execution_reverse_continue) needs, for every session (default on, or MCPHOST_TRAVEL=off; "
     "execution_rewind ring: \"on\"/\"off\" switches one session)", NULL},
    {"--time-travel-seconds", "N", OPT_U64, FIELD(travel_seconds),
     "how far back the ring reaches, 1 to 600 seconds of emulated time (default 60)", NULL},
    {"--time-travel-mib", "N", OPT_U64, FIELD(travel_mib),
     "the most memory the ring holds per session, 1 to 1024 MiB (default 3)", NULL},
    {"--orphan-grace", "SECONDS", OPT_U64, FIELD(orphan_grace),
     "when a client's connection ends, its machine sessions are paused and destroyed after "
     "SECONDS unless another client takes them over (default 120, or MCPHOST_ORPHAN_GRACE)",
     NULL},
    {"--no-confirm", NULL, OPT_FLAG, FIELD(no_confirm),
     "destructive tool calls (hard reset, snapshot load, overwrite...) need no confirmation "
     "token (for scripts)", NULL},
    {"--confirm-ttl", "SECONDS", OPT_U64, FIELD(confirm_ttl),
     "how long a confirmation token stays valid (default 60)", NULL},
    {"--gui", NULL, OPT_FLAG, FIELD(gui),
     "open the window (frontend sdl) beside the transport: a person debugs alongside the agent",
     NULL},
    {"--frontend", "NAME", OPT_STRING, FIELD(frontend), "open this frontend plugin (implies --gui)",
     NULL},
    {"--list-plugins", NULL, OPT_FLAG, FIELD(list_plugins), "list loaded plugins and exit", NULL},
    {"--log-level", "LEVEL", OPT_LEVEL, FIELD(log_level),
     "debug, info (default), notice, warning, error, ...", NULL},
    {"--log-file", "FILE", OPT_STRING, FIELD(log_file), "append the log to FILE, not stderr", NULL},
    {"--version", NULL, OPT_FLAG, FIELD(version), "print the version and exit", NULL},
    {"--help", NULL, OPT_FLAG, FIELD(help), "print this help and exit", NULL},
};

void mh_cli_usage(FILE *out)
{
    fprintf(out, "usage: mcphost [options]\n\n"
                 "A debugger host for emulated Commodore machines, driven over the Model "
                 "Context Protocol.\n\noptions:\n");
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        char left[40];
        snprintf(left, sizeof left, "%s%s%s", options[i].name, options[i].arg ? " " : "",
                 options[i].arg ? options[i].arg : "");
        if (strlen(left) > 24) /* too wide for the column: the help goes below */
            fprintf(out, "  %s\n  %-24s %s\n", left, "", options[i].help);
        else
            fprintf(out, "  %-24s %s\n", left, options[i].help);
    }
    fprintf(out, "\nfiles: clients (tools, session options) may only name files inside the\n"
                 "allowed directories (--allow-dir; default: the working directory); relative\n"
                 "paths are taken from the first one, \"..\" and links leading out are refused.\n"
                 "Files named on this command line (--autostart, --config NAME=FILE) are\n"
                 "allowed one by one wherever they are.\n");
    fprintf(out, "\nexamples:\n"
                 "  mcphost --machine c64 --transport stdio\n"
                 "  mcphost --machine c64 --allow-dir ~/c64 --autostart game.prg\n"
                 "  mcphost --machine c64 --transport http --port 6510\n"
                 "  mcphost --machine c64 --transport http --gui\n");
}

static const cli_option *find_option(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        if (strlen(options[i].name) == len && strncmp(options[i].name, name, len) == 0)
            return &options[i];
    return NULL;
}

static int parse_u64(const char *text, uint64_t max, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    if (!*text || *text == '-') return -1;
    unsigned long long v = strtoull(text, &end, 0);
    if (errno || *end || v > max) return -1;
    *out = v;
    return 0;
}

static int apply(mh_cli *cli, const cli_option *opt, const char *value, char *error,
                 size_t error_size)
{
    void *field = (char *)cli + opt->offset;
    uint64_t number;
    switch (opt->kind) {
    case OPT_STRING:
        *(const char **)field = value;
        return 0;
    case OPT_LIST:
        return mh_ptrvec_push(field, (void *)value);
    case OPT_FLAG:
        *(int *)field = 1;
        return 0;
    case OPT_LEVEL:
        if (mh_log_level_parse(value) < 0) {
            snprintf(error, error_size,
                     "%s takes debug, info, notice, warning, error, critical, alert or "
                     "emergency, not \"%s\"",
                     opt->name, value);
            return -1;
        }
        *(const char **)field = value;
        return 0;
    case OPT_ON_OFF:
        if (strcmp(value, "on") != 0 && strcmp(value, "off") != 0) {
            snprintf(error, error_size, "%s takes on or off, not \"%s\"", opt->name, value);
            return -1;
        }
        *(int *)field = strcmp(value, "on") == 0 ? 1 : -1;
        return 0;
    case OPT_CONFIG: {
        /* Kept as "key=value" text in the --config list. */
        char *item;
        char absolute[PATH_MAX];
        if (opt->arg && (strcmp(opt->arg, "FILE") == 0 || strcmp(opt->arg, "DIR") == 0)) {
            /* A file or directory the user named: resolved here (so an
             * absolute "/a/../b" is as good as "../b"), and taken from the
             * working directory even when --allow-dir makes another
             * directory the first one. */
            char cwd[PATH_MAX];
            if (realpath(value, absolute) ||
                (value[0] != '/' && getcwd(cwd, sizeof cwd) &&
                 snprintf(absolute, sizeof absolute, "%s/%s", cwd, value) < (int)sizeof absolute))
                value = absolute;
        }
        if (strchr(opt->config, '=')) {
            item = strdup(opt->config);
        } else {
            size_t size = strlen(opt->config) + strlen(value) + 2;
            item = malloc(size);
            if (item) snprintf(item, size, "%s=%s", opt->config, value);
        }
        if (!item || mh_ptrvec_push(&cli->owned, item) != 0 ||
            mh_ptrvec_push(&cli->configs, item) != 0) {
            snprintf(error, error_size, "out of memory");
            return -1;
        }
        return 0;
    }
    case OPT_PORT:
        if (parse_u64(value, 65535, &number) != 0) {
            snprintf(error, error_size,
                     "%s takes a port number from 1 to 65535 (or 0 for any free one), not \"%s\"",
                     opt->name, value);
            return -1;
        }
        *(unsigned *)field = (unsigned)number;
        return 0;
    case OPT_U64:
        if (parse_u64(value, UINT64_MAX, &number) != 0) {
            snprintf(error, error_size, "%s takes a whole number, not \"%s\"", opt->name, value);
            return -1;
        }
        *(uint64_t *)field = number;
        return 0;
    }
    return -1;
}

/* Without --transport: a run's own options (--debugcart, --limit-cycles,
 * --exit-screenshot) ask for a headless run, which would otherwise wait
 * on stdin for MCP; anything else serves MCP over stdio. */
static const char *default_transport(const mh_cli *cli)
{
    int runner = cli->limit_cycles != 0 || cli->exit_screenshot != NULL;
    for (size_t i = 0; i < cli->configs.count && !runner; i++)
        runner = strncmp((const char *)cli->configs.items[i], "debugcart=", 10) == 0;
    return runner ? "none" : "stdio";
}

int mh_cli_parse(mh_cli *cli, int argc, char **argv, char *error, size_t error_size)
{
    memset(cli, 0, sizeof *cli);
    cli->bind_host = "127.0.0.1";
    cli->port = 6510;
    cli->log_level = "info";
    cli->token = getenv("MCPHOST_TOKEN");
    cli->orphan_grace = 120;
    cli->confirm_ttl = 60;
    cli->travel_seconds = 60;
    cli->travel_mib = 3;
    const char *grace = getenv("MCPHOST_ORPHAN_GRACE");
    if (grace && *grace) {
        char *end = NULL;
        unsigned long long v = strtoull(grace, &end, 10);
        if (*grace == '-' || *end || v > 86400u * 365u) {
            snprintf(error, error_size, "MCPHOST_ORPHAN_GRACE=\"%s\" is not a number of seconds",
                     grace);
            return -1;
        }
        cli->orphan_grace = v;
    }
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *eq = strchr(arg, '=');
        size_t name_len = eq && strncmp(arg, "--", 2) == 0 ? (size_t)(eq - arg) : strlen(arg);
        const cli_option *opt = strncmp(arg, "--", 2) == 0 ? find_option(arg, name_len) : NULL;
        if (!opt) {
            snprintf(error, error_size, "unknown option \"%s\"; mcphost --help lists the options",
                     arg);
            return -1;
        }
        const char *value = NULL;
        if (opt->arg) {
            if (eq && name_len < strlen(arg))
                value = eq + 1;
            else if (i + 1 < argc)
                value = argv[++i];
            else {
                snprintf(error, error_size, "%s needs a value (%s)", opt->name, opt->arg);
                return -1;
            }
        } else if (name_len != strlen(arg)) {
            snprintf(error, error_size, "%s takes no value", opt->name);
            return -1;
        }
        if (apply(cli, opt, value, error, error_size) != 0) return -1;
    }
    if (cli->travel_seconds < 1 || cli->travel_seconds > 600) {
        snprintf(error, error_size, "--time-travel-seconds takes 1 to 600, not %llu",
                 (unsigned long long)cli->travel_seconds);
        return -1;
    }
    if (cli->travel_mib < 1 || cli->travel_mib > 1024) {
        snprintf(error, error_size, "--time-travel-mib takes 1 to 1024, not %llu",
                 (unsigned long long)cli->travel_mib);
        return -1;
    }
    if (!cli->transport) cli->transport = default_transport(cli);
    return 0;
}

void mh_cli_free(mh_cli *cli)
{
    for (size_t i = 0; i < cli->owned.count; i++) free(cli->owned.items[i]);
    mh_ptrvec_free(&cli->owned);
    mh_ptrvec_free(&cli->plugin_dirs);
    mh_ptrvec_free(&cli->allow_dirs);
    mh_ptrvec_free(&cli->configs);
    mh_ptrvec_free(&cli->transport_options);
}

static cJSON *config_value(const char *text)
{
    char *end = NULL;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (*text && !*end && !errno) return cJSON_CreateNumber((double)v);
    if (strcmp(text, "true") == 0) return cJSON_CreateTrue();
    if (strcmp(text, "false") == 0) return cJSON_CreateFalse();
    return cJSON_CreateString(text);
}

char *mh_cli_config_json(const mh_cli *cli, char *error, size_t error_size)
{
    cJSON *obj = cJSON_CreateObject();
    for (size_t i = 0; i < cli->configs.count; i++) {
        const char *item = cli->configs.items[i];
        const char *eq = strchr(item, '=');
        if (!eq || eq == item) {
            snprintf(error, error_size, "--config takes NAME=VALUE, not \"%s\"", item);
            cJSON_Delete(obj);
            return NULL;
        }
        char *name = strndup(item, (size_t)(eq - item));
        cJSON_DeleteItemFromObjectCaseSensitive(obj, name);
        cJSON_AddItemToObject(obj, name, config_value(eq + 1));
        free(name);
    }
    char *json = cJSON_PrintUnformatted(obj);
    cJSON_Delete(obj);
    return json;
}
