/* host/app/cli.h - the command line of mcphost, parsed from one table of
 * options. [main-thread] */
#ifndef MH_HOST_CLI_H
#define MH_HOST_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "ptrvec.h"

typedef struct mh_cli {
    const char *machine;      /* --machine */
    const char *transport;    /* --transport (default "stdio") */
    const char *bind_host;    /* --host */
    unsigned port;            /* --port */
    const char *token;        /* --token or MCPHOST_TOKEN */
    mh_ptrvec plugin_dirs;    /* --plugin-dir, repeatable (char*, borrowed from argv) */
    mh_ptrvec allow_dirs;     /* --allow-dir, repeatable (char*, borrowed from argv) */
    mh_ptrvec configs;        /* --config NAME=VALUE and the options that set one */
    mh_ptrvec transport_options; /* --transport-option NAME=VALUE (char*, borrowed from argv) */
    mh_ptrvec owned;          /* strings the parser made (freed by mh_cli_free) */
    const char *log_level;    /* --log-level */
    const char *log_file;     /* --log-file */
    uint64_t limit_cycles;    /* --limit-cycles */
    const char *exit_screenshot; /* --exit-screenshot: PNG of the last frame when the run ends */
    int warp;                 /* --warp */
    int time_travel;          /* --time-travel: 1 on, -1 off, 0 not given */
    uint64_t travel_seconds;  /* --time-travel-seconds (default 60) */
    uint64_t travel_mib;      /* --time-travel-mib (default 3) */
    uint64_t orphan_grace;    /* --orphan-grace SECONDS (default 120, MCPHOST_ORPHAN_GRACE) */
    int no_confirm;           /* --no-confirm */
    uint64_t confirm_ttl;     /* --confirm-ttl SECONDS (default 60) */
    int gui;                  /* --gui: open the window (the "sdl" frontend) */
    const char *frontend;     /* --frontend NAME: open this frontend */
    int list_plugins, help, version;
} mh_cli;

/* Parses argv into cli. Returns 0, or -1 with a message in error that names
 * the option and what it takes. */
int mh_cli_parse(mh_cli *cli, int argc, char **argv, char *error, size_t error_size);
void mh_cli_free(mh_cli *cli);
void mh_cli_usage(FILE *out);
/* The --config values as a JSON object text (malloc'ed), or NULL with a
 * message when one is not NAME=VALUE. Values that look like integers or
 * true/false become numbers/booleans. */
char *mh_cli_config_json(const mh_cli *cli, char *error, size_t error_size);

#endif
