#include "run_mcphost.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static void append(char *buf, size_t size, size_t *used, const char *data, size_t n)
{
    if (*used + n >= size) n = size - 1 - *used;
    memcpy(buf + *used, data, n);
    *used += n;
    buf[*used] = '\0';
}

int mh_test_run_mcphost(const char *const *args, int timeout_s, mh_test_output *r)
{
    memset(r, 0, sizeof *r);
    r->exit_code = -1;
    const char *argv[40];
    size_t argc = 0;
    argv[argc++] = MH_MCPHOST_BIN;
    for (size_t i = 0; args[i] && argc < 39; i++) argv[argc++] = args[i];
    argv[argc] = NULL;
    int out_pipe[2], err_pipe[2];
    if (pipe(out_pipe) != 0) return -1;
    if (pipe(err_pipe) != 0) {
        close(out_pipe[0]);
        close(out_pipe[1]);
        return -1;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
    posix_spawn_file_actions_addclose(&actions, out_pipe[0]);
    posix_spawn_file_actions_addclose(&actions, err_pipe[0]);
    posix_spawn_file_actions_addclose(&actions, out_pipe[1]);
    posix_spawn_file_actions_addclose(&actions, err_pipe[1]);
    pid_t pid;
    int rc = posix_spawn(&pid, MH_MCPHOST_BIN, &actions, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    close(out_pipe[1]);
    close(err_pipe[1]);
    if (rc != 0) {
        close(out_pipe[0]);
        close(err_pipe[0]);
        fprintf(stderr, "posix_spawn %s: %s\n", MH_MCPHOST_BIN, strerror(rc));
        return -1;
    }
    size_t out_used = 0, err_used = 0;
    struct pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
    int open_fds = 2;
    time_t deadline = time(NULL) + timeout_s;
    while (open_fds > 0) {
        int left = (int)(deadline - time(NULL));
        if (left <= 0 || poll(fds, 2, left * 1000) == 0) {
            kill(pid, SIGKILL);
            append(r->err, sizeof r->err, &err_used, "\n[test: mcphost killed]", 23);
            break;
        }
        for (int i = 0; i < 2; i++) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            char chunk[4096];
            ssize_t n = read(fds[i].fd, chunk, sizeof chunk);
            if (n > 0) {
                if (i == 0) append(r->out, sizeof r->out, &out_used, chunk, (size_t)n);
                else append(r->err, sizeof r->err, &err_used, chunk, (size_t)n);
            } else if (n == 0 || errno != EINTR) {
                close(fds[i].fd);
                fds[i].fd = -1;
                open_fds--;
            }
        }
    }
    for (int i = 0; i < 2; i++)
        if (fds[i].fd >= 0) close(fds[i].fd);
    int wstatus = 0;
    while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(wstatus)) r->exit_code = WEXITSTATUS(wstatus);
    return 0;
}
