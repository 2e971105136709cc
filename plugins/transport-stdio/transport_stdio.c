/* transport-stdio: MCP over standard input and output, one compact JSON-RPC
 * message per line. Only messages are written to stdout: at start the real
 * stdout is kept on a private descriptor and fd 1 is pointed at stderr, so a
 * stray printf anywhere in the process cannot corrupt the stream. Ends
 * cleanly on end of input or stop() (SIGTERM). */
#define _GNU_SOURCE /* F_SETPIPE_SZ */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "line_reader.h"
#include "mcphost/mcphost.h"

#define MAX_MESSAGE (64u * 1024u * 1024u)

typedef struct stdio_transport {
    const mh_host *host;
    const mh_server_service *server;
    const mh_log_service *log;
    pthread_mutex_t write_lock;
    int out_fd;
    int write_failed;
    int stop_pipe[2];
    mh_conn *conn;
} stdio_transport;

static void log_msg(stdio_transport *t, mh_log_level level, const char *message)
{
    if (t->log) t->log->write(t->host, level, message);
}

static int write_all(int fd, struct iovec *iov, int count)
{
    while (count > 0) {
        ssize_t n = writev(fd, iov, count);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        while (count > 0 && (size_t)n >= iov->iov_len) {
            n -= (ssize_t)iov->iov_len;
            iov++;
            count--;
        }
        if (count > 0) {
            iov->iov_base = (char *)iov->iov_base + n;
            iov->iov_len -= (size_t)n;
        }
    }
    return 0;
}

/* [thread-safe] one message, one line. */
static void stdio_send(void *user, void *exchange, const char *json, size_t length)
{
    (void)exchange;
    stdio_transport *t = user;
    struct iovec iov[2] = {{(void *)json, length}, {(void *)"\n", 1}};
    pthread_mutex_lock(&t->write_lock);
    if (!t->write_failed && write_all(t->out_fd, iov, 2) != 0) {
        t->write_failed = 1;
        pthread_mutex_unlock(&t->write_lock);
        log_msg(t, MH_LOG_WARNING, "stdout is closed; dropping further output");
        return;
    }
    pthread_mutex_unlock(&t->write_lock);
}

static int on_line(void *user, mh_line_event event, const char *line, size_t length)
{
    stdio_transport *t = user;
    if (event == MH_LINE_TOO_LONG) {
        static const char too_long[] =
            "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":"
            "\"Parse error: message longer than 64 MiB; it was skipped\"}}";
        stdio_send(t, NULL, too_long, sizeof too_long - 1);
        return 0;
    }
    t->server->handle(t->conn, NULL, line, length);
    return 0;
}

static mh_status stdio_serve(void *user, const mh_transport_options *options)
{
    stdio_transport *t = user;
    if (MH_TRANSPORT_OPTIONS_HAVE_SETTINGS(options) && options->setting_count > 0) {
        char message[512];
        snprintf(message, sizeof message,
                 "the stdio transport has no settings, so --transport-option \"%.200s\" would "
                 "do nothing; leave it out (the http transport takes them)",
                 options->settings[0]);
        log_msg(t, MH_LOG_CRITICAL, message);
        return MH_ERR_INVALID_ARGUMENT;
    }
    t->out_fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (t->out_fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        log_msg(t, MH_LOG_ERROR, "cannot set up stdout");
        return MH_ERR_IO;
    }
#ifdef F_SETPIPE_SZ
    /* A pipe holds 64 KiB by default: a 64 KiB memory read's answer (88 KB
     * in base64) then goes out in pieces, each waiting for the client to
     * read. A larger pipe takes it in one write; where the system refuses
     * (pipe-max-size), the default stays. Not a pipe: nothing happens. */
    (void)fcntl(t->out_fd, F_SETPIPE_SZ, 1 << 20);
#endif
    mh_conn_desc desc = {sizeof desc, "stdio", t, stdio_send, NULL};
    t->conn = t->server->open(t->host, &desc);
    if (!t->conn) return MH_ERR_INTERNAL;

    mh_line_reader reader;
    mh_line_reader_init(&reader, MAX_MESSAGE);
    mh_status status = MH_OK;
    char buf[65536];
    for (;;) {
        struct pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {t->stop_pipe[0], POLLIN, 0}};
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            status = MH_ERR_IO;
            break;
        }
        if (fds[1].revents) break; /* stop() */
        if (!fds[0].revents) continue;
        ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            mh_line_reader_finish(&reader, on_line, t);
            break; /* end of input: the client went away */
        }
        if (mh_line_reader_feed(&reader, buf, (size_t)n, on_line, t) < 0) {
            log_msg(t, MH_LOG_ERROR, "out of memory reading a message");
            status = MH_ERR_NO_MEMORY;
            break;
        }
    }
    mh_line_reader_free(&reader);
    t->server->close(t->conn); /* waits for running requests to answer */
    t->conn = NULL;
    return status;
}

static void stdio_stop(void *user)
{
    stdio_transport *t = user;
    ssize_t ignored = write(t->stop_pipe[1], "x", 1);
    (void)ignored;
}

static void stdio_deinit(void *data)
{
    stdio_transport *t = data;
    if (!t) return;
    close(t->stop_pipe[0]);
    close(t->stop_pipe[1]);
    if (t->out_fd >= 0) close(t->out_fd);
    pthread_mutex_destroy(&t->write_lock);
    free(t);
}

static mh_status stdio_init(const mh_host *host, void **data)
{
    const mh_registry_service *reg = host->get_service(host, MH_REGISTRY_SERVICE_ID);
    const mh_server_service *server = host->get_service(host, MH_SERVER_SERVICE_ID);
    if (!reg || !server) return MH_ERR_VERSION;
    stdio_transport *t = calloc(1, sizeof *t);
    if (!t) return MH_ERR_NO_MEMORY;
    t->host = host;
    t->server = server;
    t->log = host->get_service(host, MH_LOG_SERVICE_ID);
    t->out_fd = -1;
    pthread_mutex_init(&t->write_lock, NULL);
    if (pipe(t->stop_pipe) != 0) {
        pthread_mutex_destroy(&t->write_lock);
        free(t);
        return MH_ERR_IO;
    }
    fcntl(t->stop_pipe[0], F_SETFD, FD_CLOEXEC);
    fcntl(t->stop_pipe[1], F_SETFD, FD_CLOEXEC);
    *data = t;
    mh_transport_desc desc = {sizeof desc, "stdio",
                              "MCP over stdin/stdout, one JSON-RPC message per line",
                              stdio_serve, stdio_stop, t};
    mh_status status = reg->add_transport(host, &desc);
    if (status != MH_OK) {
        stdio_deinit(t);
        *data = NULL;
    }
    return status;
}

MH_PLUGIN_DEFINE("org.mcphost.transport-stdio", "transport-stdio", "0.1.0",
                 "MCP over standard input/output", MH_PLUGIN_TRANSPORT, stdio_init, stdio_deinit);
