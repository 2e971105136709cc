#include "line_reader.h"

#include <stdlib.h>
#include <string.h>

void mh_line_reader_init(mh_line_reader *r, size_t limit)
{
    memset(r, 0, sizeof *r);
    r->limit = limit;
}

void mh_line_reader_free(mh_line_reader *r)
{
    free(r->buf);
    r->buf = NULL;
    r->len = r->cap = 0;
}

static int is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r') return 0;
    return 1;
}

static int deliver(mh_line_reader *r, mh_line_fn fn, void *user)
{
    size_t n = r->len;
    if (n && r->buf[n - 1] == '\r') n--;
    r->len = 0;
    if (is_blank(r->buf ? r->buf : "", n)) return 0;
    return fn(user, MH_LINE_MESSAGE, r->buf, n);
}

static int append(mh_line_reader *r, const char *data, size_t size)
{
    if (r->len + size + 1 > r->cap) {
        size_t cap = r->cap ? r->cap : 4096;
        while (cap < r->len + size + 1) cap *= 2;
        char *buf = realloc(r->buf, cap);
        if (!buf) return -1;
        r->buf = buf;
        r->cap = cap;
    }
    memcpy(r->buf + r->len, data, size);
    r->len += size;
    r->buf[r->len] = '\0';
    return 0;
}

int mh_line_reader_feed(mh_line_reader *r, const char *data, size_t size, mh_line_fn fn,
                        void *user)
{
    while (size > 0) {
        const char *nl = memchr(data, '\n', size);
        size_t chunk = nl ? (size_t)(nl - data) : size;
        if (!r->skipping) {
            if (r->len + chunk > r->limit) {
                r->skipping = 1;
                r->len = 0;
                if (fn(user, MH_LINE_TOO_LONG, NULL, 0)) return 1;
            } else if (append(r, data, chunk) != 0) {
                return -1;
            }
        }
        if (!nl) break;
        if (r->skipping) {
            r->skipping = 0;
        } else if (deliver(r, fn, user)) {
            return 1;
        }
        data = nl + 1;
        size -= chunk + 1;
    }
    return 0;
}

int mh_line_reader_finish(mh_line_reader *r, mh_line_fn fn, void *user)
{
    if (r->skipping || r->len == 0) return 0;
    return deliver(r, fn, user);
}
