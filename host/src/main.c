/* mcphost: parses the command line, loads plugins, starts the machine
 * session and serves MCP over the chosen transport. */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "core_tools.h"
#include "hostctx.h"
#include "loader.h"
#include "log.h"
#include "server.h"
#include "sessions.h"

typedef struct run_state {
    mh_hostctx *ctx;
    const mh_reg_transport *transport;
    mh_session *session;
    sigset_t signals;
    pthread_mutex_t lock;
    int exit_code;   /* set when the machine ended the run */
    int have_exit;
} run_state;

static void *signal_thread(void *arg)
{
    run_state *rs = arg;
    for (;;) {
        int sig = 0;
        if (sigwait(&rs->signals, &sig) != 0) continue;
        mh_log(MH_LOG_INFO, NULL, "received signal %d, shutting down", sig);
        if (rs->transport) rs->transport->desc.stop(rs->transport->desc.user_data);
        if (rs->session) mh_session_interrupt(rs->session, 128 + sig);
    }
    return NULL;
}

/* With a transport and --limit-cycles: the run's end also ends serving. */
static void *runner_watch_thread(void *arg)
{
    run_state *rs = arg;
    int code = mh_session_wait_finished(rs->session);
    pthread_mutex_lock(&rs->lock);
    rs->exit_code = code;
    rs->have_exit = 1;
    pthread_mutex_unlock(&rs->lock);
    if (rs->transport) rs->transport->desc.stop(rs->transport->desc.user_data);
    return NULL;
}

static void default_plugin_dirs(mh_ptrvec *dirs, char *exe_rel, size_t size)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) *slash = '\0';
        snprintf(exe_rel, size, "%s/%s", exe, MH_PLUGIN_RELDIR);
        mh_ptrvec_push(dirs, exe_rel);
    }
    char a[PATH_MAX], b[PATH_MAX];
    int same = n > 0 && realpath(exe_rel, a) && realpath(MH_PLUGIN_INSTALL_DIR, b) &&
               strcmp(a, b) == 0;
    if (!same) mh_ptrvec_push(dirs, (void *)MH_PLUGIN_INSTALL_DIR);
}

static void list_plugins(const mh_hostctx *ctx)
{
    printf("%-36s %-10s %-9s %s\n", "ID", "KIND", "VERSION", "FROM");
    for (size_t i = 0; i < ctx->plugins.count; i++) {
        const mh_plugin_record *p = ctx->plugins.items[i];
        printf("%-36s %-10s %-9s %s\n", p->entry->id, mh_plugin_kind_name(p->entry->kind),
               p->entry->version, p->path ? p->path : "(built in)");
    }
    printf("\nmachines:");
    for (size_t i = 0; i < ctx->registry.machines.count; i++)
        printf(" %s", ((mh_reg_machine *)ctx->registry.machines.items[i])->name);
    printf("\ntransports:");
    for (size_t i = 0; i < ctx->registry.transports.count; i++)
        printf(" %s", ((mh_reg_transport *)ctx->registry.transports.items[i])->name);
    printf("\ntools: %zu\n", ctx->registry.tools.count);
}

static int load_everything(mh_hostctx *ctx, const mh_cli *cli)
{
    char error[1024];
    if (mh_loader_add_builtin(ctx, &mh_core_tools_entry, error, sizeof error) != MH_OK) {
        mh_log(MH_LOG_CRITICAL, NULL, "%s", error);
        return -1;
    }
    mh_ptrvec dirs = {0};
    char exe_rel[PATH_MAX + 64] = "";
    for (size_t i = 0; i < cli->plugin_dirs.count; i++) mh_ptrvec_push(&dirs, cli->plugin_dirs.items[i]);
    default_plugin_dirs(&dirs, exe_rel, sizeof exe_rel);
    for (size_t i = 0; i < dirs.count; i++) {
        size_t n = mh_loader_load_dir(ctx, dirs.items[i]);
        mh_log(MH_LOG_DEBUG, NULL, "%zu plugin(s) from %s", n, (char *)dirs.items[i]);
    }
    mh_ptrvec_free(&dirs);
    return 0;
}

static void list_names(const mh_ptrvec *vec, char *out, size_t size)
{
    out[0] = '\0';
    for (size_t i = 0; i < vec->count; i++) {
        size_t len = strlen(out);
        /* registry entries start with owner then name */
        const char *name = ((const mh_reg_transport *)vec->items[i])->name;
        snprintf(out + len, size - len, "%s%s", len ? ", " : "", name);
    }
    if (!out[0]) snprintf(out, size, "none");
}

static int serve(run_state *rs, const mh_cli *cli)
{
    mh_hostctx *ctx = rs->ctx;
    int runner = strcmp(cli->transport, "none") == 0;
    if (!runner) {
        rs->transport = mh_registry_transport(&ctx->registry, cli->transport);
        if (!rs->transport) {
            char names[256];
            list_names(&ctx->registry.transports, names, sizeof names);
            mh_log(MH_LOG_CRITICAL, NULL,
                   "unknown transport \"%s\"; loaded transports: %s (or none)", cli->transport,
                   names);
            return 2;
        }
    } else if (!rs->session) {
        mh_log(MH_LOG_CRITICAL, NULL, "--transport none runs a machine: give --machine NAME");
        return 2;
    }

    pthread_t sig_thread;
    pthread_create(&sig_thread, NULL, signal_thread, rs);
    pthread_t watch_thread;
    int watching = 0;
    int code = 0;
    if (rs->session && (runner || cli->limit_cycles)) {
        mh_session_start(rs->session, cli->warp, cli->limit_cycles);
        if (!runner) watching = pthread_create(&watch_thread, NULL, runner_watch_thread, rs) == 0;
    }
    if (runner) {
        code = mh_session_wait_finished(rs->session);
    } else {
        mh_transport_options opts = {sizeof opts, cli->bind_host, (uint16_t)cli->port, cli->token};
        mh_status status = rs->transport->desc.serve(rs->transport->desc.user_data, &opts);
        code = status == MH_OK ? 0 : 1;
        if (status != MH_OK)
            mh_log(MH_LOG_ERROR, NULL, "transport %s ended with an error: %s", cli->transport,
                   mh_status_name(status));
    }
    if (watching) {
        mh_session_interrupt(rs->session, 0);
        pthread_join(watch_thread, NULL);
        pthread_mutex_lock(&rs->lock);
        if (rs->have_exit && cli->limit_cycles) code = rs->exit_code;
        pthread_mutex_unlock(&rs->lock);
    }
    pthread_cancel(sig_thread);
    pthread_join(sig_thread, NULL);
    return code;
}

int main(int argc, char **argv)
{
    mh_cli cli;
    char error[1024];
    if (mh_cli_parse(&cli, argc, argv, error, sizeof error) != 0) {
        fprintf(stderr, "mcphost: %s\n", error);
        mh_cli_free(&cli);
        return 2;
    }
    if (cli.help || cli.version) {
        if (cli.help) mh_cli_usage(stdout);
        else printf("mcphost %s (plugin ABI %d.%d)\n", MH_HOST_VERSION, MH_ABI_MAJOR, MH_ABI_MINOR);
        mh_cli_free(&cli);
        return 0;
    }
    if (mh_log_open(cli.log_file, (mh_log_level)mh_log_level_parse(cli.log_level)) != 0) {
        fprintf(stderr, "mcphost: cannot open log file %s: %s\n", cli.log_file, strerror(errno));
        mh_cli_free(&cli);
        return 2;
    }
    /* Signals are taken by one thread with sigwait; every other thread
     * inherits the blocked mask. A vanished client must not kill us. */
    run_state rs = {0};
    pthread_mutex_init(&rs.lock, NULL);
    sigemptyset(&rs.signals);
    sigaddset(&rs.signals, SIGINT);
    sigaddset(&rs.signals, SIGTERM);
    sigaddset(&rs.signals, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &rs.signals, NULL);
    signal(SIGPIPE, SIG_IGN);

    mh_hostctx ctx = {0};
    rs.ctx = &ctx;
    ctx.sessions = mh_sessions_new(&ctx);
    ctx.server = mh_server_new(&ctx);
    int code = 0;
    if (!ctx.sessions || !ctx.server || load_everything(&ctx, &cli) != 0) {
        code = 1;
        goto out;
    }
    if (cli.list_plugins) {
        list_plugins(&ctx);
        goto out;
    }
    if (cli.machine) {
        char *options = mh_cli_config_json(&cli, error, sizeof error);
        if (!options) {
            mh_log(MH_LOG_CRITICAL, NULL, "%s", error);
            code = 2;
            goto out;
        }
        mh_status status = mh_sessions_create(ctx.sessions, cli.machine, NULL, options,
                                              &rs.session, error, sizeof error);
        free(options);
        if (status != MH_OK) {
            mh_log(MH_LOG_CRITICAL, NULL, "cannot start machine %s: %s", cli.machine, error);
            code = 2;
            goto out;
        }
    }
    code = serve(&rs, &cli);
out:
    if (rs.session) mh_session_unref(rs.session);
    mh_sessions_free(ctx.sessions);
    mh_loader_unload_all(&ctx);
    mh_registry_free(&ctx.registry);
    mh_server_free(ctx.server);
    mh_cli_free(&cli);
    mh_log_close();
    pthread_mutex_destroy(&rs.lock);
    return code;
}
