/* transport_http.checks - the pure header checks of transport-http
 * (plugins/transport-http/http_checks.c): the bearer token, and every Origin
 * and Host form docs/transport-http.md ("Security") names, allowed and
 * refused. The live server's answers to the same headers are in e2e.http. */
#include <stdio.h>
#include <string.h>

#include "http_checks.h"
#include "mh_test.h"

/* A table row: a header value and whether the check lets it through. */
typedef struct check_case {
    const char *value;
    int allowed;
} check_case;

#define CHECK_TABLE(fn_call, cases)                                                 \
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {                   \
        const char *value = cases[i].value;                                         \
        int got = fn_call;                                                          \
        if (got != cases[i].allowed)                                                \
            fprintf(stderr, "\n  %s: \"%s\" gave %d, want %d\n", #fn_call,         \
                    value ? value : "(none)", got, cases[i].allowed);               \
        CU_ASSERT_EQUAL(got, cases[i].allowed);                                     \
    }

static void test_token(void)
{
    static const check_case cases[] = {
        {"Bearer s3cret", 1},
        {"bearer s3cret", 1},     /* the scheme is case-insensitive (RFC 7235) */
        {"BEARER s3cret", 1},
        {"Bearer \ts3cret  ", 1}, /* spaces around the token */
        {"  Bearer s3cret", 1},
        {"Bearer s3cretXYZ", 0}, /* the right token with a suffix */
        {"Bearer s3cret ", 1},
        {"Bearer s3cret x", 0},
        {"Bearer s3cre", 0},     /* a prefix of it */
        {"Bearer s", 0},
        {"Bearer S3CRET", 0},    /* the token itself is case-sensitive */
        {"Bearer s3creT", 0},
        {"Bearer ", 0},          /* empty */
        {"Bearer", 0},
        {"", 0},
        {NULL, 0},               /* no Authorization header */
        {"Bearers3cret", 0},
        {"Basic s3cret", 0},
        {"s3cret", 0},
        {"Bearer xs3cret", 0},
    };
    CHECK_TABLE(http_token_ok(value, "s3cret"), cases);
    CU_ASSERT_FALSE(http_token_ok("Bearer s3cret", NULL)); /* no token configured */
}

static void test_origin_loopback(void)
{
    /* http:// or https:// with localhost, 127.0.0.0/8 or [::1], any port. */
    static const check_case cases[] = {
        {NULL, 1}, /* no Origin: not a browser */
        {"http://localhost", 1},
        {"http://localhost:6510", 1},
        {"https://localhost", 1},
        {"HTTP://LOCALHOST:80", 1},
        {"http://localhost.", 1},
        {"http://127.0.0.1", 1},
        {"http://127.0.0.1:9999", 1},
        {"http://127.1.2.3:80", 1},
        {"https://127.255.255.255", 1},
        {"http://[::1]", 1},
        {"http://[::1]:1234", 1},
        {"http://localhost:6510/", 1},
    };
    CHECK_TABLE(http_origin_allowed(value, "127.0.0.1"), cases);
}

static void test_origin_foreign(void)
{
    static const check_case cases[] = {
        {"null", 0},
        {"", 0},
        {"file://", 0},
        {"chrome-extension://abcdef", 0},
        {"ws://localhost", 0},
        {"localhost", 0},
        {"http://", 0},
        {"http://evil.example.com", 0},
        {"https://localhost.evil.com", 0},
        {"http://127.0.0.1.evil.com:80", 0},
        {"http://128.0.0.1", 0},
        {"http://10.0.0.1", 0},
        {"http://[::2]", 0},
        {"http://[::1", 0},
        {"http://[::1]x", 0},
        {"http://::1", 0},
        /* user info: an origin never has any, and the host after "@" is
         * the one a browser would talk to */
        {"http://localhost@evil.example", 0},
        {"http://localhost:6510@evil.example", 0},
        {"http://127.0.0.1:80@evil.example:80", 0},
        {"http://[::1]:1@evil.example", 0},
        {"http://user@localhost", 0},
        {"http://user:pw@127.0.0.1:6510", 0},
        {"http://evil.example@localhost", 0},
    };
    CHECK_TABLE(http_origin_allowed(value, "127.0.0.1"), cases);
}

static void test_origin_bound_host(void)
{
    /* the --host name itself is allowed too, in any case, with any port */
    CU_ASSERT_TRUE(http_origin_allowed("http://myhost.lan:6510", "myhost.lan"));
    CU_ASSERT_TRUE(http_origin_allowed("https://MYHOST.LAN", "myhost.lan"));
    CU_ASSERT_TRUE(http_origin_allowed("http://192.168.1.5:6510", "192.168.1.5"));
    CU_ASSERT_TRUE(http_origin_allowed("http://[fe80::1]:6510", "[fe80::1]"));
    CU_ASSERT_TRUE(http_origin_allowed("http://[fe80::1]:6510", "fe80::1"));
    CU_ASSERT_FALSE(http_origin_allowed("http://otherhost.lan", "myhost.lan"));
    CU_ASSERT_FALSE(http_origin_allowed("http://myhost.lan.evil.com", "myhost.lan"));
    CU_ASSERT_FALSE(http_origin_allowed("http://myhost.lan@evil.example", "myhost.lan"));
    CU_ASSERT_FALSE(http_origin_allowed("http://192.168.1.6", "192.168.1.5"));
    CU_ASSERT_FALSE(http_origin_allowed("http://evil.example", ""));
    CU_ASSERT_FALSE(http_origin_allowed("http://evil.example", NULL));
}

static void test_host_header(void)
{
    static const check_case cases[] = {
        {NULL, 1}, /* no Host header (HTTP/1.0) */
        {"localhost", 1},
        {"localhost:6510", 1},
        {"LocalHost:6510", 1},
        {"127.0.0.1", 1},
        {"127.0.0.1:6510", 1},
        {"127.9.9.9:1", 1},
        {"[::1]", 1},
        {"[::1]:6510", 1},
        {"evil.example.com", 0},
        {"evil.example.com:6510", 0},
        {"localhost.evil.com:6510", 0},
        {"127.0.0.1.evil.com", 0},
        {"10.0.0.1:6510", 0},
        {"[::2]:6510", 0},
        {"[::1", 0},
        {"[::1]6510", 0},
        {"", 0},
        {":6510", 0},
    };
    CHECK_TABLE(http_host_allowed(value, "127.0.0.1", 0), cases);
}

static void test_host_bound_and_wildcard(void)
{
    CU_ASSERT_TRUE(http_host_allowed("myhost.lan:6510", "myhost.lan", 0));
    CU_ASSERT_TRUE(http_host_allowed("MYHOST.lan", "myhost.lan", 0));
    CU_ASSERT_TRUE(http_host_allowed("[fe80::1]:6510", "[fe80::1]", 0));
    CU_ASSERT_FALSE(http_host_allowed("other.lan:6510", "myhost.lan", 0));
    /* bound to a wildcard address any Host passes: the token protects it */
    CU_ASSERT_TRUE(http_host_allowed("evil.example.com:6510", "0.0.0.0", 1));
    CU_ASSERT_TRUE(http_host_allowed("anything", "::", 1));
}

static void test_loopback_names(void)
{
    static const check_case cases[] = {
        {"localhost", 1},  {"LOCALHOST", 1}, {"localhost.", 1}, {"127.0.0.1", 1},
        {"127.0.0.0", 1},  {"127.1.1.1", 1}, {"::1", 1},        {"0:0:0:0:0:0:0:1", 1},
        {"localhostx", 0}, {"126.0.0.1", 0}, {"0.0.0.0", 0},    {"::", 0},
        {"[::1]", 0},      {"", 0},
    };
    CHECK_TABLE(http_is_loopback_name(value), cases);
}

MH_SUITE("transport_http.checks", NULL, NULL, MH_TEST(test_token), MH_TEST(test_origin_loopback),
         MH_TEST(test_origin_foreign), MH_TEST(test_origin_bound_host), MH_TEST(test_host_header),
         MH_TEST(test_host_bound_and_wildcard), MH_TEST(test_loopback_names))
