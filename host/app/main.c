/* mcphost: parses the command line, loads plugins, starts the machine
 * session and serves MCP over the chosen transport. */
#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "content.h"
#include "core_tools.h"
#include "exe_dir.h"
#include "files.h"
#include "hostctx.h"
#include "loader.h"
#include "log.h"
#include "observe.h"
#include "mcphost/file_write.h"
#include "mcphost/machine.h"
#include "mcphost/png.h"
#include "server.h"
#include "sessions.h"
#include "stop_annotators.h"

typedef struct run_state {
    mh_hostctx *ctx;
    const mh_reg_transport *transport;
    const mh_reg_frontend *frontend; /* --gui / --frontend: owns the main thread */
    mh_transport_options transport_options;
    mh_status transport_status;
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
        if (rs->frontend) rs->frontend->desc.stop(rs->frontend->desc.user_data);
        if (rs->session) mh_session_interrupt(rs->session, 128 + sig);
    }
    return NULL;
}

/* With a transport and --limit-cycles, or a frontend on a headless run: the
 * run's end also ends serving and closes the window. */
static void *runner_watch_thread(void *arg)
{
    run_state *rs = arg;
    int code = mh_session_wait_finished(rs->session);
    pthread_mutex_lock(&rs->lock);
    rs->exit_code = code;
    rs->have_exit = 1;
    pthread_mutex_unlock(&rs->lock);
    if (rs->transport) rs->transport->desc.stop(rs->transport->desc.user_data);
    if (rs->frontend) rs->frontend->desc.stop(rs->frontend->desc.user_data);
    return NULL;
}

/* Transports serve on a thread of their own, so a frontend can have the
 * main thread. When the input ends, the window closes too. */
static void *transport_thread(void *arg)
{
    run_state *rs = arg;
    rs->transport_status =
        rs->transport->desc.serve(rs->transport->desc.user_data, &rs->transport_options);
    if (rs->frontend) rs->frontend->desc.stop(rs->frontend->desc.user_data);
    return NULL;
}

/* --gui picks the frontend named "sdl", else the only one loaded. */
static const mh_reg_frontend *choose_frontend(const mh_hostctx *ctx, const mh_cli *cli)
{
    const mh_registry *reg = &ctx->registry;
    if (cli->frontend) return mh_registry_frontend(reg, cli->frontend);
    const mh_reg_frontend *sdl = mh_registry_frontend(reg, "sdl");
    if (sdl) return sdl;
    return reg->frontends.count == 1 ? reg->frontends.items[0] : NULL;
}

/* --exit-screenshot: the frame is read on the session's thread (a job), so
 * it is the machine's consistent last complete frame. */
typedef struct screenshot_job {
    pthread_mutex_t lock;
    pthread_cond_t done_cond;
    int done;
    const char *path;
} screenshot_job;

static void screenshot_take(const char *path, mh_session *session)
{
    const mh_chip *chip = mh_session_service_impl.find_chip(session, MH_IFACE_VIDEO, NULL);
    if (!chip) {
        mh_log(MH_LOG_ERROR, NULL,
               "--exit-screenshot: machine %s has no %s interface; no screenshot written",
               mh_session_machine_name(session), MH_IFACE_VIDEO);
        return;
    }
    const mh_video_iface *video = chip->vtable;
    mh_video_frame frame;
    memset(&frame, 0, sizeof frame);
    frame.struct_size = sizeof frame;
    mh_status status = video->frame(chip->context, &frame);
    if (status != MH_OK || !frame.pixels || !frame.palette || frame.palette_size == 0 ||
        frame.palette_size > 256) {
        mh_log(MH_LOG_ERROR, NULL, "--exit-screenshot: the %s frame is not available (%s)",
               chip->instance, mh_status_name(status != MH_OK ? status : MH_ERR_STATE));
        return;
    }
    uint8_t palette[256 * 3];
    mh_png_desc desc;
    status = mh_png_desc_from_frame(&frame, 1, palette, &desc);
    uint8_t *png = NULL;
    size_t size = 0;
    char why[1024] = "";
    if (status == MH_OK) status = mh_png_encode(&desc, &png, &size);
    /* The user named the file for this run: it is replaced, but only if it
     * is a regular file, and never written through a link. */
    if (status == MH_OK) status = mh_file_write(path, png, size, MH_FILE_OVERWRITE, why, sizeof why);
    free(png);
    if (status != MH_OK)
        mh_log(MH_LOG_ERROR, NULL, "--exit-screenshot: cannot write %s: %s", path,
               why[0] ? why : mh_status_name(status));
    else
        mh_log(MH_LOG_INFO, NULL, "--exit-screenshot: wrote %s (%ux%u, frame %llu)", path,
               (unsigned)frame.width, (unsigned)frame.height,
               (unsigned long long)frame.frame_number);
}

static void screenshot_job_run(void *arg, mh_session *session)
{
    screenshot_job *job = arg;
    if (session)
        screenshot_take(job->path, session);
    else
        mh_log(MH_LOG_ERROR, NULL, "--exit-screenshot: the session ended first; no screenshot");
    pthread_mutex_lock(&job->lock);
    job->done = 1;
    pthread_cond_signal(&job->done_cond);
    pthread_mutex_unlock(&job->lock);
}

static void exit_screenshot(mh_session *session, const char *path)
{
    screenshot_job job;
    memset(&job, 0, sizeof job);
    pthread_mutex_init(&job.lock, NULL);
    pthread_cond_init(&job.done_cond, NULL);
    job.path = path;
    mh_session_post(session, screenshot_job_run, &job);
    pthread_mutex_lock(&job.lock);
    while (!job.done) pthread_cond_wait(&job.done_cond, &job.lock);
    pthread_mutex_unlock(&job.lock);
    pthread_cond_destroy(&job.done_cond);
    pthread_mutex_destroy(&job.lock);
}

static void default_plugin_dirs(mh_ptrvec *dirs, char *exe_rel, size_t size)
{
    char exe[PATH_MAX];
    int found = mh_exe_dir(exe, sizeof exe) == 0;
    if (found) {
        snprintf(exe_rel, size, "%s/%s", exe, MH_PLUGIN_RELDIR);
        mh_ptrvec_push(dirs, exe_rel);
    }
    char a[PATH_MAX], b[PATH_MAX];
    int same = found && realpath(exe_rel, a) && realpath(MH_PLUGIN_INSTALL_DIR, b) &&
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
    printf("\nfrontends:");
    for (size_t i = 0; i < ctx->registry.frontends.count; i++)
        printf(" %s", ((mh_reg_frontend *)ctx->registry.frontends.items[i])->name);
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
    /* After the plugins: the content needs every machine type. */
    if (mh_loader_add_builtin(ctx, &mh_content_entry, error, sizeof error) != MH_OK)
        mh_log(MH_LOG_ERROR, NULL, "%s", error);
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
    } else if (!rs->session && !(cli->gui || cli->frontend)) {
        mh_log(MH_LOG_CRITICAL, NULL, "--transport none runs a machine: give --machine NAME");
        return 2;
    }
    if (cli->gui || cli->frontend) {
        rs->frontend = choose_frontend(ctx, cli);
        if (!rs->frontend) {
            char names[256];
            list_names(&ctx->registry.frontends, names, sizeof names);
            mh_log(MH_LOG_CRITICAL, NULL, "%s%s: no such frontend is loaded; loaded frontends: %s%s",
                   cli->frontend ? "--frontend " : "--gui", cli->frontend ? cli->frontend : "",
                   names, ctx->registry.frontends.count > 1 ? " (pick one with --frontend NAME)" : "");
            return 2;
        }
    }

    mh_frontend_options fopts = {sizeof fopts, rs->session ? mh_session_name(rs->session) : NULL,
                                 cli->warp, cli->transport};
    if (rs->frontend && rs->frontend->desc.open) {
        char error[512] = "";
        mh_status status = rs->frontend->desc.open(rs->frontend->desc.user_data,
                                                   &rs->frontend->owner->host, &fopts, error,
                                                   sizeof error);
        if (status != MH_OK) {
            mh_log(MH_LOG_CRITICAL, NULL, "frontend %s cannot start: %s", rs->frontend->name,
                   error[0] ? error : mh_status_name(status));
            return 2;
        }
    }

    if (cli->exit_screenshot && !(rs->session && (runner || cli->limit_cycles)))
        mh_log(MH_LOG_WARNING, NULL,
               "--exit-screenshot is for a run: give --machine with --transport none or "
               "--limit-cycles; no screenshot will be written");

    pthread_t sig_thread;
    pthread_create(&sig_thread, NULL, signal_thread, rs);
    pthread_t watch_thread;
    int watching = 0;
    int code = 0;
    if (rs->session && (runner || cli->limit_cycles)) {
        mh_session_start(rs->session, cli->warp, cli->limit_cycles);
        if (!runner || rs->frontend)
            watching = pthread_create(&watch_thread, NULL, runner_watch_thread, rs) == 0;
    }
    pthread_t serve_thread;
    int serving = 0;
    if (!runner) {
        rs->transport_options = (mh_transport_options){
            sizeof rs->transport_options, cli->bind_host, (uint16_t)cli->port, cli->token,
            (const char *const *)cli->transport_options.items, cli->transport_options.count};
        serving = pthread_create(&serve_thread, NULL, transport_thread, rs) == 0;
        if (!serving) {
            mh_log(MH_LOG_CRITICAL, NULL, "cannot start the transport's thread");
            rs->transport_status = MH_ERR_INTERNAL;
        }
    }
    if (rs->frontend) {
        mh_status status = rs->frontend->desc.run(rs->frontend->desc.user_data,
                                                  &rs->frontend->owner->host, &fopts);
        if (status != MH_OK)
            mh_log(MH_LOG_ERROR, NULL, "frontend %s ended with an error: %s", rs->frontend->name,
                   mh_status_name(status));
        /* the window closed: the transport and a headless run end too */
        if (rs->transport) rs->transport->desc.stop(rs->transport->desc.user_data);
        if (runner && rs->session) mh_session_interrupt(rs->session, status == MH_OK ? 0 : 1);
    }
    if (runner && rs->session) {
        code = mh_session_wait_finished(rs->session);
        if (cli->exit_screenshot) exit_screenshot(rs->session, cli->exit_screenshot);
    } else if (serving) {
        pthread_join(serve_thread, NULL);
        code = rs->transport_status == MH_OK ? 0 : 1;
        if (rs->transport_status != MH_OK)
            mh_log(MH_LOG_ERROR, NULL, "transport %s ended with an error: %s", cli->transport,
                   mh_status_name(rs->transport_status));
    }
    if (watching) {
        mh_session_interrupt(rs->session, 0);
        pthread_join(watch_thread, NULL);
        pthread_mutex_lock(&rs->lock);
        if (rs->have_exit && cli->limit_cycles) code = rs->exit_code;
        pthread_mutex_unlock(&rs->lock);
        if (cli->exit_screenshot && !runner) exit_screenshot(rs->session, cli->exit_screenshot);
    }
    pthread_cancel(sig_thread);
    pthread_join(sig_thread, NULL);
    return code;
}

/* Answers of up to a few hundred KiB (a 64 KiB memory_read as hex) are built
 * and freed on every call; glibc would hand each to mmap and back to the
 * kernel, and the page faults cost more than the work. Keep them in the
 * heap instead (measured: 64 KiB memory_read over stdio 2.1 ms -> 0.6 ms). */
static void tune_malloc(void)
{
    mallopt(M_MMAP_THRESHOLD, 4 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
}

int main(int argc, char **argv)
{
    mh_cli cli;
    char error[1024];
    tune_malloc();
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
    ctx.orphan_grace_ms = (cli.orphan_grace > 31536000u ? 31536000u : cli.orphan_grace) * 1000u;
    ctx.no_confirm = cli.no_confirm;
    ctx.travel = cli.time_travel;
    ctx.travel_seconds = (uint32_t)cli.travel_seconds;
    ctx.travel_mib = (uint32_t)cli.travel_mib;
    ctx.confirm_ttl_ms = (cli.confirm_ttl > 86400u ? 86400u : cli.confirm_ttl) * 1000u;
    ctx.observe = mh_observe_new(&ctx);
    ctx.annotators = mh_stop_annotators_new();
    ctx.sessions = mh_sessions_new(&ctx);
    ctx.server = mh_server_new(&ctx);
    int code = 0;
    if (mh_files_setup(&ctx, &cli.allow_dirs, error, sizeof error) != 0) {
        mh_log(MH_LOG_CRITICAL, NULL, "%s; give an existing directory", error);
        code = 2;
        goto out;
    }
    for (size_t i = 0; i < cli.configs.count; i++) {
        const char *eq = strchr(cli.configs.items[i], '=');
        if (eq && mh_files_trust(&ctx, eq + 1) != 0) code = 1;
    }
    if (code) goto out;
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
    mh_observe_free(ctx.observe);
    mh_stop_annotators_free(ctx.annotators);
    mh_files_free(&ctx);
    mh_cli_free(&cli);
    mh_log_close();
    pthread_mutex_destroy(&rs.lock);
    return code;
}
