/* td_resolve.c - address arguments by number or label, and labels beside
 * addresses in results (td_resolve.h). */
#include "td_resolve.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <mcphost/args.h>

#define MAX_SUGGESTIONS 5
#define MAX_LABEL_DISTANCE 255u /* how far below an address a label still names it */

/* ---- finding a label ---- */

/* The part after the last "::" or '.' (a scope or namespace), or from the
 * last '@' (a cheap local: "fill@loop" ends in "@loop"). */
static const char *last_part(const char *name)
{
    const char *part = name;
    for (const char *s = name; *s; s++) {
        if (s[0] == ':' && s[1] == ':') part = s + 2;
        else if (s[0] == '.' && s[1]) part = s + 1;
        else if (s[0] == '@' && s != name) part = s;
    }
    return part;
}

static int same(const char *a, const char *b, size_t n, int nocase)
{
    return strlen(a) == n && (nocase ? strncasecmp(a, b, n) == 0 : strncmp(a, b, n) == 0);
}

/* Edit distance, case ignored, stopped early above limit. */
static size_t distance(const char *a, size_t n, const char *b, size_t m, size_t limit)
{
    if (n > 64 || m > 64) return limit + 1;
    size_t row[65];
    for (size_t j = 0; j <= m; j++) row[j] = j;
    for (size_t i = 1; i <= n; i++) {
        size_t diag = row[0], best = row[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t up = row[j];
            size_t cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            size_t v = diag + cost;
            if (up + 1 < v) v = up + 1;
            if (row[j - 1] + 1 < v) v = row[j - 1] + 1;
            row[j] = v;
            diag = up;
            if (v < best) best = v;
        }
        if (best > limit) return limit + 1;
    }
    return row[m];
}

typedef struct suggestion {
    const td_symbol *symbol;
    size_t score; /* lower is closer */
} suggestion;

static void consider(suggestion *best, size_t *count, const td_symbol *s, size_t score)
{
    for (size_t i = 0; i < *count; i++)
        if (best[i].symbol == s) return;
    size_t at = *count;
    while (at > 0 && best[at - 1].score > score) at--;
    if (at >= MAX_SUGGESTIONS) return;
    size_t n = *count < MAX_SUGGESTIONS ? *count : MAX_SUGGESTIONS - 1;
    memmove(best + at + 1, best + at, (n - at) * sizeof *best);
    best[at] = (suggestion){s, score};
    if (*count < MAX_SUGGESTIONS) (*count)++;
}

/* Writes "; closest: a ($C000), b ($C010)" or a hint when there are none. */
static void suggest(td_session_state *state, const char *name, size_t length, char *why,
                    size_t why_size, size_t used)
{
    suggestion best[MAX_SUGGESTIONS];
    size_t count = 0, limit = length / 2 + 2;
    for (size_t i = 0; i < state->symbol_count; i++) {
        const td_symbol *s = &state->symbols[i];
        const char *part = last_part(s->name);
        size_t plen = strlen(part);
        if (plen >= length && strncasecmp(part, name, length) == 0) {
            consider(best, &count, s, plen - length); /* a prefix: closest of all */
            continue;
        }
        size_t d = distance(name, length, part, plen, limit);
        if (d <= limit) consider(best, &count, s, 100 + d);
    }
    if (used >= why_size) return;
    if (count == 0) {
        snprintf(why + used, why_size - used, "; no label is close (symbols_list shows them)");
        return;
    }
    used += (size_t)snprintf(why + used, why_size - used, "; closest:");
    for (size_t i = 0; i < count && used < why_size; i++)
        used += (size_t)snprintf(why + used, why_size - used, "%s %s ($%04" PRIX32 ")",
                                 i ? "," : "", best[i].symbol->name, best[i].symbol->address);
}

int td_resolve_label(td_session_state *state, const char *name, size_t length, uint32_t *value,
                     char *why, size_t why_size)
{
    char shown[80];
    snprintf(shown, sizeof shown, "%.*s", (int)(length < 64 ? length : 64), name);
    if (!state || state->symbol_count == 0) {
        if (why)
            snprintf(why, why_size, "unknown label \"%s\": the session has no symbols (load them "
                                    "with symbols_load)", shown);
        return 0;
    }
    const td_symbol *hit = td_symbols_find(state, name, length);
    if (hit) {
        *value = hit->address;
        return 1;
    }
    /* by its last part, then ignoring case: exactly one must match */
    for (int pass = 0; pass < 2; pass++) {
        const td_symbol *first = NULL;
        size_t matches = 0;
        for (size_t i = 0; i < state->symbol_count; i++) {
            const td_symbol *s = &state->symbols[i];
            if (same(last_part(s->name), name, length, pass) || (pass && same(s->name, name, length, 1))) {
                if (!first) first = s;
                matches++;
            }
        }
        if (matches == 1) {
            *value = first->address;
            return 1;
        }
        if (matches > 1) {
            if (why) {
                size_t used = (size_t)snprintf(why, why_size, "ambiguous label \"%s\": %zu labels "
                                               "match; give the full name", shown, matches);
                suggest(state, name, length, why, why_size, used);
            }
            return 0;
        }
    }
    if (why) {
        size_t used = (size_t)snprintf(why, why_size, "unknown label \"%s\"", shown);
        suggest(state, name, length, why, why_size, used);
    }
    return 0;
}

/* ---- address arguments ---- */

static int label_start(char c) { return isalpha((unsigned char)c) || c == '_' || c == '.' || c == '@'; }

mh_status td_resolve_value(td_store *store, const char *session, const mh_json *value,
                           const char *key, uint32_t max, uint32_t *out, char *err,
                           size_t err_size)
{
    size_t n = 0;
    const char *text = mh_json_typeof(value) == MH_JSON_STRING ? mh_json_as_string(value, &n) : NULL;
    /* Numbers keep the shared reader's forms and messages. */
    if (!text || n == 0 || !label_start(text[0]) ||
        (n > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')))
        return mh_args_address_value(value, key, max, out, err, err_size);
    size_t name_len = 0;
    while (name_len < n && text[name_len] != '+' && text[name_len] != '-' && text[name_len] != ' ')
        name_len++;
    int64_t offset = 0;
    size_t rest = name_len;
    while (rest < n && text[rest] == ' ') rest++;
    if (rest < n) {
        char sign = text[rest++];
        while (rest < n && text[rest] == ' ') rest++;
        char number[40];
        uint32_t magnitude = 0;
        if ((sign != '+' && sign != '-') || n - rest == 0 || n - rest >= sizeof number) {
            snprintf(err, err_size, "%s: expected a number, a label or label+offset, got \"%.*s\"",
                     key, (int)(n < 64 ? n : 64), text);
            return MH_ERR_INVALID_ARGUMENT;
        }
        char quoted[48];
        snprintf(number, sizeof number, "%.*s", (int)(n - rest), text + rest);
        snprintf(quoted, sizeof quoted, "\"%s\"", number);
        mh_json_doc *doc = mh_json_parse(quoted, strlen(quoted), NULL, NULL);
        mh_status st = doc ? mh_args_address_value(mh_json_root(doc), key, 0xFFFFFF, &magnitude,
                                                   err, err_size)
                           : MH_ERR_NO_MEMORY;
        mh_json_free(doc);
        if (st != MH_OK) {
            snprintf(err, err_size, "%s: the offset in \"%.*s\" is not a number ($10, 16)", key,
                     (int)(n < 64 ? n : 64), text);
            return MH_ERR_INVALID_ARGUMENT;
        }
        offset = sign == '-' ? -(int64_t)magnitude : (int64_t)magnitude;
    }
    uint32_t base = 0;
    char why[MH_ARGS_ERROR_SIZE];
    int found = 0;
    if (store) {
        td_session_state *state = td_store_lock(store, session ? session : "", 0);
        found = td_resolve_label(state, text, name_len, &base, why, sizeof why);
        td_store_unlock(store);
    } else {
        td_resolve_label(NULL, text, name_len, &base, why, sizeof why);
    }
    if (!found) {
        /* "C000" meant as hex: the shared reader's hint says how to write it */
        size_t hex = 0;
        while (hex < n && isxdigit((unsigned char)text[hex])) hex++;
        if (hex == n) return mh_args_address_value(value, key, max, out, err, err_size);
        snprintf(err, err_size, "%s: %s", key, why);
        return MH_ERR_INVALID_ARGUMENT;
    }
    int64_t address = (int64_t)base + offset;
    if (address < 0 || address > (int64_t)max) {
        snprintf(err, err_size, "%s: %.*s is $%" PRIX64 "%s, outside $0000-$%04" PRIX32, key,
                 (int)(n < 64 ? n : 64), text, (uint64_t)(address < 0 ? -address : address),
                 address < 0 ? " below zero" : "", max);
        return MH_ERR_LIMIT;
    }
    *out = (uint32_t)address;
    return MH_OK;
}

mh_status td_resolve_arg(td_store *store, const char *session, const mh_json *args,
                         const char *key, uint32_t max, uint32_t *out, char *err, size_t err_size)
{
    const mh_json *value = mh_json_typeof(args) == MH_JSON_OBJECT ? mh_json_object_get(args, key) : NULL;
    if (!value || mh_json_is_null(value))
        return mh_args_address_value(NULL, key, max, out, err, err_size); /* its "missing" message */
    return td_resolve_value(store, session, value, key, max, out, err, err_size);
}

int td_resolve_is_label(const mh_json *value)
{
    size_t n = 0;
    const char *text = value && mh_json_typeof(value) == MH_JSON_STRING ? mh_json_as_string(value, &n) : NULL;
    return text && n > 0 && label_start(text[0]) &&
           !(n > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'));
}

mh_status td_resolve_range(td_store *store, const char *session, const mh_json *args,
                           uint32_t max_address, uint32_t default_length, uint32_t max_length,
                           uint32_t *start, uint32_t *length, char *err, size_t err_size)
{
    const mh_json *address_value = mh_json_typeof(args) == MH_JSON_OBJECT ? mh_json_object_get(args, "address") : NULL;
    const mh_json *end_value = address_value ? mh_json_object_get(args, "end") : NULL;
    const mh_json *len_value = address_value ? mh_json_object_get(args, "length") : NULL;
    /* Numbers only: the shared reader, its rules and messages unchanged. */
    if (!td_resolve_is_label(address_value) && !td_resolve_is_label(end_value))
        return mh_args_range(args, max_address, default_length, max_length, start, length, err,
                             err_size);
    /* Labels: resolved to numbers, then the same reader on those. */
    uint32_t first = 0, last = 0;
    int64_t count = 0;
    mh_status st = td_resolve_value(store, session, address_value, "address", max_address, &first,
                                    err, err_size);
    if (st == MH_OK && end_value && !mh_json_is_null(end_value))
        st = td_resolve_value(store, session, end_value, "end", max_address, &last, err, err_size);
    else end_value = NULL;
    if (st == MH_OK && len_value && !mh_json_is_null(len_value))
        st = mh_args_int(args, "length", 1, INT64_MAX, &count, err, err_size);
    else len_value = NULL;
    if (st != MH_OK) return st;
    char text[96];
    int n = snprintf(text, sizeof text, "{\"address\":%" PRIu32, first);
    if (end_value) n += snprintf(text + n, sizeof text - (size_t)n, ",\"end\":%" PRIu32, last);
    if (len_value) n += snprintf(text + n, sizeof text - (size_t)n, ",\"length\":%" PRId64, count);
    snprintf(text + n, sizeof text - (size_t)n, "}");
    mh_json_doc *doc = mh_json_parse(text, strlen(text), NULL, NULL);
    if (!doc) {
        snprintf(err, err_size, "out of memory");
        return MH_ERR_NO_MEMORY;
    }
    st = mh_args_range(mh_json_root(doc), max_address, default_length, max_length, start, length,
                       err, err_size);
    mh_json_free(doc);
    return st;
}

/* ---- labels in results ---- */

int td_resolve_format(td_session_state *state, uint32_t address, char *out, size_t size)
{
    if (size) out[0] = '\0';
    if (!state || state->symbol_count == 0) return 0;
    const td_symbol *s = td_symbols_below(state, address);
    if (!s || address - s->address > MAX_LABEL_DISTANCE) return 0;
    if (address == s->address) snprintf(out, size, "%s", s->name);
    else snprintf(out, size, "%s+%" PRIu32, s->name, address - s->address);
    return 1;
}

int td_resolve_format_locked(td_store *store, const char *session, uint32_t address, char *out,
                             size_t size)
{
    if (size) out[0] = '\0';
    if (!store || !session) return 0;
    td_session_state *state = td_store_lock(store, session, 0);
    int found = td_resolve_format(state, address, out, size);
    td_store_unlock(store);
    return found;
}
