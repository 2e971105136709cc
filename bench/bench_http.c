/* bench_http - round trips of small MCP tool calls over Streamable HTTP
 * against the real mcphost binary (transport-http): `ping` (a host tool) and,
 * when the fixture plugins are given, `fixture_counter` (a tool that runs on
 * a machine session's thread, a stand-in for registers_get). Each client has
 * its own MCP session on one keep-alive connection, sends a request, waits
 * for its answer and repeats; with 1 and with 8 clients at once. Prints calls
 * per second and median/p99 latency; never asserts.
 *
 * Usage: bench_http [calls-per-client [fixture-plugin-dir]] */
#define _GNU_SOURCE /* memmem, strcasestr */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_mcp.h"

static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof a;
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0 ||
        getsockname(fd, (struct sockaddr *)&a, &len) != 0)
        return -1;
    close(fd);
    return ntohs(a.sin_port);
}

static int dial(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (fd < 0) return -1;
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

/* One keep-alive HTTP/1.1 connection with its MCP session. */
typedef struct client {
    int fd, port;
    char session[64];
    char buf[1 << 16];
    size_t have;
} client;

static int write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int fill(client *c)
{
    if (c->have == sizeof c->buf) return -1;
    ssize_t n = read(c->fd, c->buf + c->have, sizeof c->buf - c->have);
    if (n <= 0) return -1;
    c->have += (size_t)n;
    return 0;
}

static void consume(client *c, size_t n)
{
    memmove(c->buf, c->buf + n, c->have - n);
    c->have -= n;
}

/* POSTs one message and reads the whole response (Content-Length or
 * chunked) into body; returns the status or -1. */
static int request(client *c, const char *json, char *body, size_t body_size)
{
    char head[512];
    int n = snprintf(head, sizeof head,
                     "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                     "Accept: application/json, text/event-stream\r\n%s%s%sContent-Length: %zu\r\n\r\n",
                     c->port, c->session[0] ? "Mcp-Session-Id: " : "", c->session,
                     c->session[0] ? "\r\n" : "", strlen(json));
    if (write_all(c->fd, head, (size_t)n) || write_all(c->fd, json, strlen(json))) return -1;
    char *end;
    while (!(end = memmem(c->buf, c->have, "\r\n\r\n", 4)))
        if (fill(c)) return -1;
    size_t head_len = (size_t)(end - c->buf) + 4;
    char headers[4096];
    size_t hl = head_len < sizeof headers ? head_len : sizeof headers - 1;
    memcpy(headers, c->buf, hl);
    headers[hl] = '\0';
    consume(c, head_len);
    int status = atoi(headers + 9);
    char *sid = strcasestr(headers, "\r\nMcp-Session-Id: ");
    if (sid) sscanf(sid + 18, "%63[0-9a-f]", c->session);
    size_t out = 0;
    char *cl = strcasestr(headers, "\r\nContent-Length: ");
    if (cl) {
        size_t len = strtoul(cl + 18, NULL, 10);
        while (c->have < len)
            if (fill(c)) return -1;
        out = len < body_size - 1 ? len : body_size - 1;
        memcpy(body, c->buf, out);
        consume(c, len);
    } else if (strcasestr(headers, "chunked")) {
        for (;;) {
            char *eol;
            while (!(eol = memmem(c->buf, c->have, "\r\n", 2)))
                if (fill(c)) return -1;
            size_t size = strtoul(c->buf, NULL, 16);
            consume(c, (size_t)(eol - c->buf) + 2);
            while (c->have < size + 2)
                if (fill(c)) return -1;
            size_t take = size < body_size - 1 - out ? size : body_size - 1 - out;
            memcpy(body + out, c->buf, take);
            out += take;
            consume(c, size + 2);
            if (size == 0) break;
        }
    }
    body[out] = '\0';
    return status;
}

static int open_client(client *c, int port)
{
    memset(c, 0, sizeof *c);
    c->port = port;
    c->fd = dial(port);
    if (c->fd < 0) return -1;
    char body[8192];
    if (request(c, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                   "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{"
                   "\"name\":\"bench_http\",\"version\":\"1\"}}}",
                body, sizeof body) != 200 ||
        !c->session[0])
        return -1;
    if (request(c, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", body,
                sizeof body) != 202)
        return -1;
    return 0;
}

typedef struct job {
    client c;
    const char *tool;
    int calls;
    double *lat;
    int failed;
    pthread_barrier_t *start;
} job;

static void *run_job(void *arg)
{
    job *j = arg;
    char body[1 << 16], json[256];
    pthread_barrier_wait(j->start);
    for (int i = 0; i < j->calls; i++) {
        snprintf(json, sizeof json,
                 "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":{\"name\":"
                 "\"%s\"}}",
                 i + 10, j->tool);
        double t0 = bench_mcp_now_us();
        if (request(&j->c, json, body, sizeof body) != 200 || strstr(body, "\"isError\":true")) {
            fprintf(stderr, "bench_http: %s failed: %s\n", j->tool, body);
            j->failed = 1;
            return NULL;
        }
        j->lat[i] = bench_mcp_now_us() - t0;
    }
    return NULL;
}

static int measure(int port, const char *name, const char *tool, int clients, int calls)
{
    job *jobs = calloc((size_t)clients, sizeof *jobs);
    double *all = malloc(sizeof *all * (size_t)clients * (size_t)calls);
    pthread_t *threads = calloc((size_t)clients, sizeof *threads);
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, (unsigned)clients + 1);
    for (int k = 0; k < clients; k++) {
        if (open_client(&jobs[k].c, port) != 0) {
            fprintf(stderr, "bench_http: cannot open an MCP session\n");
            return -1;
        }
        jobs[k].tool = tool;
        jobs[k].calls = calls;
        jobs[k].lat = all + (size_t)k * (size_t)calls;
        jobs[k].start = &start;
        pthread_create(&threads[k], NULL, run_job, &jobs[k]);
    }
    pthread_barrier_wait(&start);
    double t0 = bench_mcp_now_us();
    int failed = 0;
    for (int k = 0; k < clients; k++) {
        pthread_join(threads[k], NULL);
        failed |= jobs[k].failed;
        close(jobs[k].c.fd);
    }
    double total = bench_mcp_now_us() - t0;
    if (!failed) {
        size_t n = (size_t)clients * (size_t)calls;
        qsort(all, n, sizeof *all, bench_mcp_compare);
        printf("  %-32s %d client%s  %8.0f calls/s   median %7.1f us   p99 %7.1f us\n", name,
               clients, clients == 1 ? " " : "s", (double)n / total * 1e6, all[n / 2],
               all[n * 99 / 100]);
    }
    pthread_barrier_destroy(&start);
    free(threads);
    free(all);
    free(jobs);
    return failed ? -1 : 0;
}

int main(int argc, char **argv)
{
    int calls = argc > 1 ? atoi(argv[1]) : 5000;
    const char *fixtures = argc > 2 ? argv[2] : NULL;
    char exe[4096];
    if (bench_mcp_binary(exe, sizeof exe) != 0 || calls <= 0) return 2;
    signal(SIGPIPE, SIG_IGN);

    int port = free_port();
    char port_text[16];
    snprintf(port_text, sizeof port_text, "%d", port);
    char *args[] = {exe, "--transport", "http", "--port", port_text, "--log-level", "error",
                    "--plugin-dir", (char *)(fixtures ? fixtures : "/nonexistent"),
                    fixtures ? "--machine" : NULL, "fixture", NULL};
    pid_t pid;
    if (posix_spawn(&pid, exe, NULL, NULL, args, environ) != 0) {
        perror("posix_spawn");
        return 2;
    }
    int fd = -1;
    for (int i = 0; i < 200 && fd < 0; i++) {
        fd = dial(port);
        if (fd < 0) usleep(20000);
    }
    if (fd < 0) {
        fprintf(stderr, "bench_http: mcphost did not listen on port %d\n", port);
        kill(pid, SIGTERM);
        return 1;
    }
    close(fd);
    printf("bench_http: %d calls per client, each client its own MCP session and connection\n",
           calls);
    int rc = 0;
    for (int clients = 1; clients <= 8 && rc == 0; clients += 7) {
        rc |= measure(port, "ping (host tool)", "ping", clients, calls);
        if (fixtures) rc |= measure(port, "fixture_counter (session tool)", "fixture_counter", clients, calls);
    }
    kill(pid, SIGTERM);
    int status;
    waitpid(pid, &status, 0);
    return rc ? 1 : 0;
}
