/* bare6502_options.c - turns the session's options (a JSON object, from
 * `--config NAME=VALUE` or session_create's `options`) into a checked
 * bare6502_config.
 *
 * Every value is checked here, before anything is allocated or opened, so
 * create() fails early with one message that names the option and says what
 * it takes. Addresses use the SDK's shared argument conventions (args.h):
 * JSON numbers, "$F001", "0xF001", "61441". A name the machine does not
 * know is refused, listing the names it does know: a typo must not be
 * silently ignored.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bare6502.h"
#include "mcphost/args.h"
#include "mcphost/json.h"

/* The option names, in the order the error message lists them. */
static const char *const option_names[] = {
    "program", "load_address", "start", "output", "overwrite", "output_port", "exit_port",
    "irq_port", "clock_hz",
};
#define OPTION_COUNT (sizeof option_names / sizeof option_names[0])

static const char *const port_option[BARE6502_PORT_COUNT] = {"output_port", "exit_port",
                                                             "irq_port"};
static const int32_t port_default[BARE6502_PORT_COUNT] = {
    BARE6502_DEFAULT_OUTPUT_PORT, BARE6502_DEFAULT_EXIT_PORT, BARE6502_DEFAULT_IRQ_PORT};

static int known_option(const char *name, size_t length)
{
    for (size_t i = 0; i < OPTION_COUNT; i++)
        if (strlen(option_names[i]) == length && memcmp(option_names[i], name, length) == 0)
            return 1;
    return 0;
}

static mh_status check_names(const mh_json *root, char *error, size_t error_size)
{
    for (size_t i = 0; i < mh_json_object_size(root); i++) {
        size_t length = 0;
        const char *name = mh_json_object_key(root, i, &length);
        if (known_option(name, length)) continue;
        char list[200] = "";
        for (size_t k = 0; k < OPTION_COUNT; k++) {
            size_t used = strlen(list);
            snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "", option_names[k]);
        }
        snprintf(error, error_size, "unknown option \"%.*s\"; bare6502 takes %s",
                 (int)(length > 64 ? 64 : length), name, list);
        return MH_ERR_INVALID_ARGUMENT;
    }
    return MH_OK;
}

/* An optional non-empty string option; *out stays NULL when absent. */
static mh_status string_option(const mh_json *root, const char *name, const char *what,
                               const char **out, char *error, size_t error_size)
{
    size_t length = 0;
    mh_status status = mh_args_string(root, name, out, &length, error, error_size);
    if (status == MH_ERR_NOT_FOUND) return MH_OK;
    if (status != MH_OK) return status;
    if (length == 0) {
        snprintf(error, error_size, "%s: expected %s, got an empty string", name, what);
        return MH_ERR_INVALID_ARGUMENT;
    }
    return MH_OK;
}

/* An optional address option; *present says whether it was given. */
static mh_status address_option(const mh_json *root, const char *name, int *present,
                                uint16_t *out, char *error, size_t error_size)
{
    uint32_t value = 0;
    mh_status status = mh_args_address(root, name, 0xFFFF, &value, error, error_size);
    if (status == MH_ERR_NOT_FOUND) return MH_OK;
    if (status != MH_OK) return status;
    *present = 1;
    *out = (uint16_t)value;
    return MH_OK;
}

/* A port: an address, or "none" to disable it. */
static mh_status port_option_parse(const mh_json *root, size_t port, int32_t *out, char *error,
                                   size_t error_size)
{
    const char *name = port_option[port];
    const char *text = mh_json_get_string(root, name, NULL);
    if (text && strcmp(text, "none") == 0) {
        *out = BARE6502_PORT_NONE;
        return MH_OK;
    }
    uint32_t value = 0;
    mh_status status = mh_args_address(root, name, 0xFFFF, &value, error, error_size);
    if (status == MH_ERR_NOT_FOUND) return MH_OK; /* keep the default */
    if (status != MH_OK) {
        size_t used = strlen(error);
        snprintf(error + used, error_size - used, "; \"none\" disables the port");
        return status;
    }
    *out = (int32_t)value;
    return MH_OK;
}

static mh_status check_ports(const int32_t port[BARE6502_PORT_COUNT], char *error,
                             size_t error_size)
{
    for (size_t a = 0; a < BARE6502_PORT_COUNT; a++)
        for (size_t b = a + 1; b < BARE6502_PORT_COUNT; b++)
            if (port[a] != BARE6502_PORT_NONE && port[a] == port[b]) {
                snprintf(error, error_size,
                         "%s: $%04X is also %s; give each port its own address (or \"none\")",
                         port_option[b], (unsigned)port[b], port_option[a]);
                return MH_ERR_INVALID_ARGUMENT;
            }
    return MH_OK;
}

static char *copy_string(const char *text)
{
    size_t length = strlen(text) + 1;
    char *copy = malloc(length);
    if (copy) memcpy(copy, text, length);
    return copy;
}

/* Reads every option of root into config (strings still borrowed). */
static mh_status read_options(const mh_json *root, bare6502_config *config,
                              const char **program, const char **output, char *error,
                              size_t error_size)
{
    mh_status status = check_names(root, error, error_size);
    if (status == MH_OK)
        status = string_option(root, "program", "the path of a .prg or raw binary file", program,
                               error, error_size);
    if (status == MH_OK)
        status = address_option(root, "load_address", &config->has_load_address,
                                &config->load_address, error, error_size);
    if (status == MH_OK)
        status = address_option(root, "start", &config->has_start, &config->start, error,
                                error_size);
    if (status == MH_OK)
        status = string_option(root, "output", "\"stderr\", \"stdout\" or a file path", output,
                               error, error_size);
    if (status == MH_OK) {
        bool overwrite = false;
        status = mh_args_bool(root, "overwrite", &overwrite, error, error_size);
        if (status == MH_ERR_NOT_FOUND) status = MH_OK;
        config->overwrite = overwrite;
    }
    for (size_t i = 0; status == MH_OK && i < BARE6502_PORT_COUNT; i++)
        status = port_option_parse(root, i, &config->port[i], error, error_size);
    if (status == MH_OK) status = check_ports(config->port, error, error_size);
    if (status == MH_OK) {
        int64_t hz = BARE6502_DEFAULT_CLOCK_HZ;
        status = mh_args_int(root, "clock_hz", BARE6502_MIN_CLOCK_HZ, BARE6502_MAX_CLOCK_HZ, &hz,
                             error, error_size);
        if (status == MH_ERR_NOT_FOUND) status = MH_OK;
        config->clock_hz = (uint64_t)hz;
    }
    if (status == MH_OK && config->has_load_address && !*program) {
        snprintf(error, error_size,
                 "load_address: only means something with program (the raw binary to load "
                 "there); give program too, or leave load_address out");
        status = MH_ERR_INVALID_ARGUMENT;
    }
    return status;
}

mh_status bare6502_options_parse(const char *options_json, bare6502_config *config,
                                 char *error, size_t error_size)
{
    memset(config, 0, sizeof *config);
    for (size_t i = 0; i < BARE6502_PORT_COUNT; i++) config->port[i] = port_default[i];
    config->clock_hz = BARE6502_DEFAULT_CLOCK_HZ;

    mh_json_error jerr;
    const char *text = options_json ? options_json : "{}";
    mh_json_doc *doc = mh_json_parse(text, strlen(text), NULL, &jerr);
    if (!doc) {
        snprintf(error, error_size, "options: %s", jerr.message);
        return jerr.status == MH_ERR_NO_MEMORY ? MH_ERR_NO_MEMORY : MH_ERR_INVALID_ARGUMENT;
    }
    const mh_json *root = mh_json_root(doc);
    if (mh_json_typeof(root) != MH_JSON_OBJECT) {
        snprintf(error, error_size, "options: expected a JSON object of NAME: VALUE, got %s",
                 mh_json_type_name(mh_json_typeof(root)));
        mh_json_free(doc);
        return MH_ERR_INVALID_ARGUMENT;
    }
    const char *program = NULL, *output = NULL;
    mh_status status = read_options(root, config, &program, &output, error, error_size);
    if (status == MH_OK) {
        config->program = program ? copy_string(program) : NULL;
        config->output = copy_string(output ? output : "stderr");
        if ((program && !config->program) || !config->output) {
            bare6502_options_free(config);
            snprintf(error, error_size, "out of memory reading the options");
            status = MH_ERR_NO_MEMORY;
        }
    }
    mh_json_free(doc);
    return status;
}

void bare6502_options_free(bare6502_config *config)
{
    free(config->program);
    free(config->output);
    config->program = NULL;
    config->output = NULL;
}
