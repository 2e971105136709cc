/* json_path.h - for decoder tests: a finished JSON writer parsed back,
 * and values looked up by a dotted path ("t1.counter", "voices.2.hz"),
 * numbers in a path being array indices. Test-only, header-only. */
#ifndef MH_TEST_JSON_PATH_H
#define MH_TEST_JSON_PATH_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/json.h>

/* Finishes and frees w; returns the parsed document (NULL on failure). */
static inline mh_json_doc *json_path_finish(mh_json_writer *w)
{
    size_t length = 0;
    char *text = mh_json_writer_finish(w, &length);
    mh_json_doc *doc = text ? mh_json_parse(text, length, NULL, NULL) : NULL;
    free(text);
    mh_json_writer_free(w);
    return doc;
}

static inline const mh_json *json_path_get(const mh_json_doc *doc, const char *path)
{
    const mh_json *v = doc ? mh_json_root(doc) : NULL;
    char part[64];
    while (v && *path) {
        size_t n = strcspn(path, ".");
        if (n >= sizeof part) return NULL;
        memcpy(part, path, n);
        part[n] = '\0';
        path += n + (path[n] == '.');
        if (part[0] >= '0' && part[0] <= '9')
            v = mh_json_array_get(v, (size_t)strtoul(part, NULL, 10));
        else
            v = mh_json_object_get(v, part);
    }
    return v;
}

/* The number at path, or -999999 when absent. */
static inline double json_path_num(const mh_json_doc *doc, const char *path)
{
    double d = -999999;
    if (mh_json_as_double(json_path_get(doc, path), &d) != MH_OK) return -999999;
    return d;
}

/* The string at path, or "" when absent. */
static inline const char *json_path_str(const mh_json_doc *doc, const char *path)
{
    const char *s = mh_json_as_string(json_path_get(doc, path), NULL);
    return s ? s : "";
}

/* 1 true, 0 false, -1 absent. */
static inline int json_path_bool(const mh_json_doc *doc, const char *path)
{
    bool b = false;
    if (mh_json_as_bool(json_path_get(doc, path), &b) != MH_OK) return -1;
    return b ? 1 : 0;
}

#endif
