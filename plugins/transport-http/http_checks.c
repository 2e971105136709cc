/* http_checks.c - header value checks for transport-http (see http_checks.h). */
#include "http_checks.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>


static const char *skip_space(const char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    return s;
}

/* Whether the media range [start, end) ("text/event-stream", "text/any",
 * or the any/any range) admits type. */
static int range_admits(const char *start, const char *end, const char *type)
{
    while (end > start && (end[-1] == ' ' || end[-1] == '\t')) end--;
    size_t n = (size_t)(end - start);
    if (n == 3 && strncmp(start, "*/*", 3) == 0) return 1;
    const char *slash = strchr(type, '/');
    size_t major = (size_t)(slash - type);
    if (n == major + 2 && strncasecmp(start, type, major + 1) == 0 && start[major + 1] == '*')
        return 1;
    return n == strlen(type) && strncasecmp(start, type, n) == 0;
}

/* Whether the parameters [start, end) of one Accept entry say q=0. */
static int q_is_zero(const char *start, const char *end)
{
    const char *p = start;
    while (p < end) {
        p = skip_space(p);
        if (end - p >= 2 && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=') {
            double q = strtod(p + 2, NULL);
            return q <= 0.0;
        }
        const char *semi = memchr(p, ';', (size_t)(end - p));
        if (!semi) break;
        p = semi + 1;
    }
    return 0;
}

int http_accepts(const char *accept, const char *type)
{
    if (!accept) return 1;
    const char *p = accept;
    while (*p) {
        p = skip_space(p);
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma : p + strlen(p);
        const char *semi = memchr(p, ';', (size_t)(end - p));
        const char *range_end = semi ? semi : end;
        if (range_admits(p, range_end, type) && !(semi && q_is_zero(semi + 1, end))) return 1;
        if (!comma) break;
        p = comma + 1;
    }
    return 0;
}

int http_content_type_is(const char *content_type, const char *type)
{
    if (!content_type) return 0;
    const char *p = skip_space(content_type);
    const char *end = strchr(p, ';');
    if (!end) end = p + strlen(p);
    while (end > p && (end[-1] == ' ' || end[-1] == '\t')) end--;
    size_t n = (size_t)(end - p);
    return n == strlen(type) && strncasecmp(p, type, n) == 0;
}

int http_is_loopback_name(const char *name)
{
    if (strcasecmp(name, "localhost") == 0 || strcasecmp(name, "localhost.") == 0) return 1;
    struct in_addr v4;
    if (inet_pton(AF_INET, name, &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
    struct in6_addr v6;
    if (inet_pton(AF_INET6, name, &v6) == 1) return IN6_IS_ADDR_LOOPBACK(&v6);
    return 0;
}

int http_split_host(const char *hostport, char *host, size_t size)
{
    const char *start = hostport, *end;
    if (*start == '[') {
        start++;
        end = strchr(start, ']');
        if (!end || (end[1] != '\0' && end[1] != ':')) return -1;
    } else {
        end = strchr(start, ':');
        if (!end) end = start + strlen(start);
    }
    size_t n = (size_t)(end - start);
    if (n == 0 || n >= size) return -1;
    for (size_t i = 0; i < n; i++) host[i] = (char)tolower((unsigned char)start[i]);
    host[n] = '\0';
    return 0;
}

/* The bound host without brackets, for comparing. */
static int same_host(const char *name, const char *bind_host)
{
    if (!bind_host || !*bind_host) return 0;
    char bound[256];
    const char *b = bind_host;
    size_t n = strlen(b);
    if (n >= 2 && b[0] == '[' && b[n - 1] == ']') {
        b++;
        n -= 2;
    }
    if (n >= sizeof bound) return 0;
    memcpy(bound, b, n);
    bound[n] = '\0';
    return strcasecmp(name, bound) == 0;
}

int http_host_allowed(const char *host_header, const char *bind_host, int wildcard)
{
    if (!host_header || wildcard) return 1;
    char name[256];
    if (http_split_host(host_header, name, sizeof name) != 0) return 0;
    return http_is_loopback_name(name) || same_host(name, bind_host);
}

int http_origin_allowed(const char *origin, const char *bind_host)
{
    if (!origin) return 1;
    const char *rest;
    if (strncasecmp(origin, "http://", 7) == 0)
        rest = origin + 7;
    else if (strncasecmp(origin, "https://", 8) == 0)
        rest = origin + 8;
    else
        return 0; /* "null", file:, chrome-extension: ... */
    char hostport[300];
    size_t n = strcspn(rest, "/?#");
    if (n == 0 || n >= sizeof hostport) return 0;
    memcpy(hostport, rest, n);
    hostport[n] = '\0';
    if (strchr(hostport, '@')) return 0; /* no user info in an origin */
    char name[256];
    if (http_split_host(hostport, name, sizeof name) != 0) return 0;
    return http_is_loopback_name(name) || same_host(name, bind_host);
}

int http_token_ok(const char *authorization, const char *token)
{
    if (!authorization || !token) return 0;
    const char *p = skip_space(authorization);
    if (strncasecmp(p, "Bearer", 6) != 0 || (p[6] != ' ' && p[6] != '\t')) return 0;
    p = skip_space(p + 6);
    size_t given = strlen(p);
    while (given > 0 && (p[given - 1] == ' ' || p[given - 1] == '\t')) given--;
    size_t want = strlen(token);
    unsigned diff = (unsigned)(given ^ want);
    for (size_t i = 0; i < want; i++) diff |= (unsigned char)(token[i] ^ (i < given ? p[i] : 0));
    return diff == 0;
}

int http_protocol_version_known(const char *const *versions, const char *version)
{
    for (size_t i = 0; versions && versions[i]; i++)
        if (strcmp(version, versions[i]) == 0) return 1;
    return 0;
}

void http_protocol_versions_text(const char *const *versions, char *out, size_t size)
{
    out[0] = '\0';
    for (size_t i = 0; versions && versions[i]; i++) {
        size_t len = strlen(out);
        snprintf(out + len, size - len, "%s%s", i ? ", " : "", versions[i]);
    }
}

int http_parse_event_id(const char *text, uint32_t *stream, uint64_t *seq)
{
    if (!text || !isdigit((unsigned char)*text)) return -1;
    char *end = NULL;
    errno = 0;
    unsigned long s = strtoul(text, &end, 10);
    if (errno || *end != '-' || s == 0 || s > UINT32_MAX || !isdigit((unsigned char)end[1])) return -1;
    const char *q_text = end + 1;
    unsigned long long q = strtoull(q_text, &end, 10);
    if (errno || *end != '\0') return -1;
    *stream = (uint32_t)s;
    *seq = q;
    return 0;
}

int http_resolve_bind(const char *host, uint16_t port, struct sockaddr_storage *addr,
                      size_t *addr_len, int *loopback, int *wildcard, char *error,
                      size_t error_size)
{
    char name[256];
    size_t n = strlen(host);
    if (n >= 2 && host[0] == '[' && host[n - 1] == ']') {
        host++;
        n -= 2;
    }
    if (n == 0 || n >= sizeof name) {
        snprintf(error, error_size, "--host \"%s\" is not an address or host name", host);
        return -1;
    }
    memcpy(name, host, n);
    name[n] = '\0';
    struct addrinfo hints = {0}, *list = NULL;
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    int rc = getaddrinfo(name, NULL, &hints, &list);
    if (rc != 0 || !list) {
        snprintf(error, error_size, "cannot resolve --host \"%s\": %s", name, gai_strerror(rc));
        return -1;
    }
    *loopback = 1;
    *wildcard = 0;
    for (struct addrinfo *ai = list; ai; ai = ai->ai_next) {
        if (ai->ai_family == AF_INET) {
            const struct sockaddr_in *in = (const struct sockaddr_in *)ai->ai_addr;
            uint32_t a = ntohl(in->sin_addr.s_addr);
            if ((a >> 24) != 127) *loopback = 0;
            if (a == 0) *wildcard = 1;
        } else if (ai->ai_family == AF_INET6) {
            const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)ai->ai_addr;
            if (!IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr)) *loopback = 0;
            if (IN6_IS_ADDR_UNSPECIFIED(&in6->sin6_addr)) *wildcard = 1;
        }
    }
    memcpy(addr, list->ai_addr, list->ai_addrlen);
    *addr_len = list->ai_addrlen;
    if (list->ai_family == AF_INET)
        ((struct sockaddr_in *)addr)->sin_port = htons(port);
    else
        ((struct sockaddr_in6 *)addr)->sin6_port = htons(port);
    freeaddrinfo(list);
    return 0;
}
