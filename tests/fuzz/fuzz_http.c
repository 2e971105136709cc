/* fuzz_http.c - libFuzzer target for what transport-http parses out of a
 * request's headers itself (plugins/transport-http/http_checks.c): Accept
 * and Content-Type media types, Host and Origin (DNS rebinding
 * protection), the bearer token, MCP-Protocol-Version and Last-Event-ID.
 * (libmicrohttpd parses the request line and header framing.)
 *
 * The input is split at NUL bytes into header values; each value goes
 * through every check. Invariants, each aborting on violation (ASan/UBSan
 * catch memory and undefined-behaviour bugs):
 *   1. a split host fits, is lower case and NUL-terminated; a Host or
 *      Origin that passes against a bound loopback address splits and
 *      names a loopback host (or the bound one); an allowed Origin is
 *      http(s);
 *   2. "Bearer <value>" is accepted with the token <value> (for a value
 *      without surrounding blanks) and refused with any other token;
 *   3. a Last-Event-ID that parses prints back ("<stream>-<seq>") to an id
 *      that parses to the same numbers, and its stream is not 0;
 *   4. Accept without a header admits everything; a Content-Type equal to
 *      the type matches.
 *
 *   build: CC=clang cmake -B build-fuzz -DMH_FUZZ=ON && make -C build-fuzz fuzz_http
 *   run:   build-fuzz/tests/fuzz/fuzz_http -max_total_time=60 -max_len=1024 CORPUS_DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "http_checks.h"
#include "fuzz_check.h"

static const char *const versions[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05",
                                       NULL};

static void check_host_and_origin(const char *value)
{
    char host[256];
    if (http_split_host(value, host, sizeof host) == 0) {
        size_t n = strlen(host);
        CHECK(n > 0 && n < sizeof host);
        for (size_t i = 0; i < n; i++) CHECK(!(host[i] >= 'A' && host[i] <= 'Z'));
    }
    if (http_host_allowed(value, "127.0.0.1", 0)) {
        CHECK(http_split_host(value, host, sizeof host) == 0);
        CHECK(http_is_loopback_name(host) || strcmp(host, "127.0.0.1") == 0);
    }
    CHECK(http_host_allowed(value, "127.0.0.1", 1)); /* a wildcard bind takes any Host */
    if (http_origin_allowed(value, "[::1]"))
        CHECK(strncasecmp(value, "http://", 7) == 0 || strncasecmp(value, "https://", 8) == 0);
}

static void check_token(const char *value)
{
    size_t n = strlen(value);
    if (n == 0 || n > 200 || value[0] == ' ' || value[0] == '\t' || value[n - 1] == ' ' ||
        value[n - 1] == '\t')
        return;
    char header[256], other[256];
    snprintf(header, sizeof header, "Bearer %s", value);
    CHECK(http_token_ok(header, value));
    snprintf(other, sizeof other, "%sx", value);
    CHECK(!http_token_ok(header, other));
    CHECK(!http_token_ok(value, value)); /* no "Bearer " */
    (void)http_token_ok(value, "secret");
}

static void check_event_id(const char *value)
{
    uint32_t stream = 0;
    uint64_t seq = 0;
    if (http_parse_event_id(value, &stream, &seq) != 0) return;
    CHECK(stream != 0);
    char again[64];
    snprintf(again, sizeof again, "%u-%llu", (unsigned)stream, (unsigned long long)seq);
    uint32_t stream2 = 0;
    uint64_t seq2 = 0;
    CHECK(http_parse_event_id(again, &stream2, &seq2) == 0);
    CHECK(stream2 == stream && seq2 == seq);
}

static void check_media_types(const char *value)
{
    (void)http_accepts(value, "application/json");
    (void)http_accepts(value, "text/event-stream");
    CHECK(http_accepts(NULL, "text/event-stream"));
    (void)http_content_type_is(value, "application/json");
    if (strchr(value, '/') && !strchr(value, ';') && !strchr(value, ',') &&
        value[0] != ' ' && value[0] != '\t' && value[strlen(value) - 1] != ' ' &&
        value[strlen(value) - 1] != '\t') {
        CHECK(http_content_type_is(value, value));
        CHECK(http_accepts(value, value));
    }
    (void)http_protocol_version_known(versions, value);
    (void)http_is_loopback_name(value);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size + 1);
    if (!copy) return 0;
    memcpy(copy, data, size);
    copy[size] = '\0';
    for (char *value = copy; value <= copy + size; value += strlen(value) + 1) {
        check_host_and_origin(value);
        check_token(value);
        check_event_id(value);
        check_media_types(value);
    }
    free(copy);
    return 0;
}
