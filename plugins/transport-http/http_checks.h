/* http_checks.h - pure checks on HTTP header values for transport-http:
 * Accept and Content-Type media types, Origin and Host against the bound
 * address (DNS rebinding protection), bearer tokens, loopback addresses,
 * protocol versions and Last-Event-ID. No state; [thread-safe]. */
#ifndef MH_HTTP_CHECKS_H
#define MH_HTTP_CHECKS_H

#include <stddef.h>
#include <stdint.h>

/* Whether an Accept header value admits `type` ("application/json"): the
 * exact type, its "type/any" range or the any/any range, with q > 0. A NULL header (none
 * sent) admits everything. */
int http_accepts(const char *accept, const char *type);

/* Whether a Content-Type value is `type`, ignoring parameters and case. */
int http_content_type_is(const char *content_type, const char *type);

/* Whether `name` (a host name or address, no port, IPv6 without brackets)
 * is a loopback name: localhost, 127.0.0.0/8 or ::1. */
int http_is_loopback_name(const char *name);

/* Splits "host[:port]" or "[v6][:port]" into the host part (no brackets,
 * lower case). Returns 0, or -1 when it does not parse or does not fit. */
int http_split_host(const char *hostport, char *host, size_t size);

/* The Host header check: loopback names always pass, the bound host passes,
 * and anything passes when bound to a wildcard address. NULL (no Host
 * header, HTTP/1.0) passes. */
int http_host_allowed(const char *host_header, const char *bind_host, int wildcard);

/* The Origin check: no Origin passes (not a browser); http(s) origins whose
 * host is a loopback name or the bound host pass; everything else
 * (including "null") is foreign. */
int http_origin_allowed(const char *origin, const char *bind_host);

/* Whether an Authorization header carries "Bearer <token>"; the comparison
 * takes the same time wherever the first difference is. */
int http_token_ok(const char *authorization, const char *token);

/* Whether `version` is an MCP protocol version this host serves. */
int http_protocol_version_known(const char *const *versions, const char *version);
/* "2025-11-25, 2025-06-18, ..." for messages. */
void http_protocol_versions_text(const char *const *versions, char *out, size_t size);

/* Parses a Last-Event-ID of ours, "<stream>-<seq>". Returns 0 or -1. */
int http_parse_event_id(const char *text, uint32_t *stream, uint64_t *seq);

/* Resolves a bind address ("127.0.0.1", "::1", "localhost", "0.0.0.0" ...)
 * into a socket address with `port`. Sets *loopback when every address the
 * name resolves to is a loopback one and *wildcard for 0.0.0.0 / ::. Returns
 * 0, or -1 with a message in error. */
struct sockaddr_storage;
int http_resolve_bind(const char *host, uint16_t port, struct sockaddr_storage *addr,
                      size_t *addr_len, int *loopback, int *wildcard, char *error,
                      size_t error_size);

#endif
