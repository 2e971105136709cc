/* run_mcphost.h - runs the real mcphost binary (MH_MCPHOST_BIN) from a test
 * with stdin from /dev/null, capturing stdout and stderr and the exit code;
 * a run that hangs is killed after a timeout so the test fails instead of
 * blocking. Used by every suite that tests through the binary. */
#ifndef MH_TEST_RUN_MCPHOST_H
#define MH_TEST_RUN_MCPHOST_H

typedef struct mh_test_output {
    int exit_code; /* -1: did not exit normally */
    char out[8192];
    char err[16384];
} mh_test_output;

/* Runs MH_MCPHOST_BIN with args (NULL-terminated, without argv[0]); kills
 * it after timeout_s seconds. Returns 0 when it ran. */
int mh_test_run_mcphost(const char *const *args, int timeout_s, mh_test_output *r);

#endif
