#include "schema.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <mcphost/json.h>

#include "call.h" /* mh_cjson_view */

typedef struct validation {
    char *error;
    size_t error_size;
} validation;

/* The value being checked: a cJSON tree (arguments, a loosely parsed
 * result) or a strict parse (a tool's structured result, checked as it
 * was parsed, with no cJSON copy). Exactly one pointer is set; both NULL
 * is no value. The schema is always cJSON. */
typedef struct sval {
    const cJSON *c;
    const mh_json *j;
} sval;

static sval from_cjson(const cJSON *c) { return (sval){c, NULL}; }
static sval from_json(const mh_json *j) { return (sval){NULL, j}; }

static int is_object(sval v)
{
    return v.j ? mh_json_typeof(v.j) == MH_JSON_OBJECT : cJSON_IsObject(v.c);
}
static int is_array(sval v) { return v.j ? mh_json_typeof(v.j) == MH_JSON_ARRAY : cJSON_IsArray(v.c); }
static int is_string(sval v)
{
    return v.j ? mh_json_typeof(v.j) == MH_JSON_STRING : cJSON_IsString(v.c);
}
static int is_number(sval v)
{
    return v.j ? mh_json_typeof(v.j) == MH_JSON_NUMBER : cJSON_IsNumber(v.c);
}
static int is_bool(sval v) { return v.j ? mh_json_typeof(v.j) == MH_JSON_BOOL : cJSON_IsBool(v.c); }
static int is_null(sval v) { return v.j ? mh_json_typeof(v.j) == MH_JSON_NULL : cJSON_IsNull(v.c); }

static double number_of(sval v)
{
    double d = 0;
    if (v.j) mh_json_as_double(v.j, &d);
    else d = v.c->valuedouble;
    return d;
}

static const char *string_of(sval v)
{
    return v.j ? mh_json_as_string(v.j, NULL) : v.c->valuestring;
}

/* Items of an array or members of an object: a count, then each by index
 * (cJSON walks its list once, so iterate in order). */
typedef struct sval_iter {
    sval of;
    const cJSON *next; /* cJSON: the next child */
    size_t index, count;
} sval_iter;

static sval_iter iter_begin(sval v)
{
    sval_iter it = {v, v.c ? v.c->child : NULL, 0, 0};
    if (v.j)
        it.count = mh_json_typeof(v.j) == MH_JSON_OBJECT ? mh_json_object_size(v.j)
                                                           : mh_json_array_size(v.j);
    return it;
}

/* The next item (and its key for an object member); 0 at the end. */
static int iter_next(sval_iter *it, sval *item, const char **key)
{
    if (it->of.j) {
        if (it->index >= it->count) return 0;
        size_t i = it->index++;
        if (mh_json_typeof(it->of.j) == MH_JSON_OBJECT) {
            *item = from_json(mh_json_object_value(it->of.j, i));
            if (key) *key = mh_json_object_key(it->of.j, i, NULL);
        } else {
            *item = from_json(mh_json_array_get(it->of.j, i));
            if (key) *key = NULL;
        }
        return 1;
    }
    if (!it->next) return 0;
    *item = from_cjson(it->next);
    if (key) *key = it->next->string;
    it->next = it->next->next;
    it->index++;
    return 1;
}

static size_t item_count(sval v)
{
    if (v.j) return mh_json_array_size(v.j);
    return (size_t)cJSON_GetArraySize(v.c);
}

static int has_member(sval v, const char *key)
{
    return v.j ? mh_json_object_get(v.j, key) != NULL
               : cJSON_GetObjectItemCaseSensitive(v.c, key) != NULL;
}

/* value as a cJSON tree the caller deletes (a strict parse is viewed, so
 * only messages and container comparisons pay for it); NULL for cJSON
 * values, which are used as they are. */
static cJSON *as_tree(sval v, const cJSON **tree)
{
    if (!v.j) {
        *tree = v.c;
        return NULL;
    }
    cJSON *view = mh_cjson_view(v.j);
    *tree = view;
    return view;
}

/* Whether the schema's value (enum option, const) equals value. */
static int same_value(const cJSON *want, sval v)
{
    if (!v.j) return cJSON_Compare(want, v.c, 1);
    switch (mh_json_typeof(v.j)) {
    case MH_JSON_NULL: return cJSON_IsNull(want);
    case MH_JSON_BOOL: {
        bool b = false;
        mh_json_as_bool(v.j, &b);
        return b ? cJSON_IsTrue(want) : cJSON_IsFalse(want);
    }
    case MH_JSON_NUMBER: return cJSON_IsNumber(want) && want->valuedouble == number_of(v);
    case MH_JSON_STRING: {
        size_t n = 0;
        const char *text = mh_json_as_string(v.j, &n);
        return cJSON_IsString(want) && strlen(want->valuestring) == n &&
               memcmp(want->valuestring, text, n) == 0;
    }
    default: { /* a container: rare in a schema, compared as trees */
        const cJSON *tree = NULL;
        cJSON *view = as_tree(v, &tree);
        int same = tree && cJSON_Compare(want, tree, 1);
        cJSON_Delete(view);
        return same;
    }
    }
}

/* Where a value sits ("a.b[2]"), built only when a check fails: a link
 * per level on the stack (NULL: the root), so a valid value costs no
 * string formatting. */
typedef struct vpath {
    const struct vpath *parent;
    const char *key; /* a member's name, or NULL: index is an array position */
    int index;
} vpath;

static void path_text(const vpath *p, char *out, size_t size)
{
    if (!p) {
        if (size) out[0] = '\0';
        return;
    }
    path_text(p->parent, out, size);
    size_t used = strlen(out);
    if (p->key)
        snprintf(out + used, size - used, "%s%s", used ? "." : "", p->key);
    else
        snprintf(out + used, size - used, "[%d]", p->index);
}

static int fail(validation *v, const vpath *at, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(validation *v, const vpath *at, const char *format, ...)
{
    char path[256];
    path_text(at, path, sizeof path);
    char detail[768];
    va_list args;
    va_start(args, format);
    vsnprintf(detail, sizeof detail, format, args);
    va_end(args);
    if (*path)
        snprintf(v->error, v->error_size, "argument '%s': %s", path, detail);
    else
        snprintf(v->error, v->error_size, "arguments: %s", detail);
    return 0;
}

static const char *json_type_name(sval value)
{
    if (is_object(value)) return "object";
    if (is_array(value)) return "array";
    if (is_string(value)) return "string";
    if (is_bool(value)) return "boolean";
    if (is_null(value)) return "null";
    if (is_number(value)) {
        double d = number_of(value);
        return (d == floor(d) && fabs(d) < 9007199254740992.0) ? "integer" : "number";
    }
    return "invalid";
}

static int type_matches(const char *type, sval value)
{
    const char *actual = json_type_name(value);
    if (strcmp(type, actual) == 0) return 1;
    return strcmp(type, "number") == 0 && strcmp(actual, "integer") == 0;
}

/* Short text of a value for messages (strings quoted, long ones cut). */
static void describe_tree(const cJSON *value, char *out, size_t size)
{
    char *text = cJSON_PrintUnformatted(value);
    if (!text) {
        snprintf(out, size, "(a %s)", json_type_name(from_cjson(value)));
        return;
    }
    if (strlen(text) > 40)
        snprintf(out, size, "%.*s...", mh_utf8_prefix(text, 37), text);
    else
        snprintf(out, size, "%s", text);
    cJSON_free(text);
}

static void describe(sval value, char *out, size_t size)
{
    const cJSON *tree = NULL;
    cJSON *view = as_tree(value, &tree);
    describe_tree(tree, out, size);
    cJSON_Delete(view);
}

static int validate(validation *v, const cJSON *schema, sval value, const vpath *path);

static int check_type(validation *v, const cJSON *schema, sval value, const vpath *path)
{
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(schema, "type");
    if (!type) return 1;
    if (cJSON_IsString(type)) {
        if (type_matches(type->valuestring, value)) return 1;
        return fail(v, path, "expected %s %s, got %s", strchr("aeiou", type->valuestring[0]) ? "an" : "a",
                    type->valuestring, json_type_name(value));
    }
    if (!cJSON_IsArray(type)) return 1;
    char allowed[256] = "";
    const cJSON *t;
    cJSON_ArrayForEach(t, type)
    {
        if (!cJSON_IsString(t)) continue;
        if (type_matches(t->valuestring, value)) return 1;
        size_t len = strlen(allowed);
        snprintf(allowed + len, sizeof allowed - len, "%s%s", len ? " or " : "", t->valuestring);
    }
    return fail(v, path, "expected %s, got %s", allowed, json_type_name(value));
}

static int check_enum(validation *v, const cJSON *schema, sval value, const vpath *path)
{
    const cJSON *options = cJSON_GetObjectItemCaseSensitive(schema, "enum");
    const cJSON *constant = cJSON_GetObjectItemCaseSensitive(schema, "const");
    char got[64];
    if (constant && !same_value(constant, value)) {
        char want[64];
        describe_tree(constant, want, sizeof want);
        describe(value, got, sizeof got);
        return fail(v, path, "must be %s, got %s", want, got);
    }
    if (!cJSON_IsArray(options)) return 1;
    char allowed[512] = "";
    const cJSON *option;
    cJSON_ArrayForEach(option, options)
    {
        if (same_value(option, value)) return 1;
        char one[64];
        describe_tree(option, one, sizeof one);
        size_t len = strlen(allowed);
        snprintf(allowed + len, sizeof allowed - len, "%s%s", len ? ", " : "", one);
    }
    describe(value, got, sizeof got);
    return fail(v, path, "must be one of %s; got %s", allowed, got);
}

static int check_number(validation *v, const cJSON *schema, sval value, const vpath *path)
{
    if (!is_number(value)) return 1;
    double d = number_of(value);
    const cJSON *k;
    if ((k = cJSON_GetObjectItemCaseSensitive(schema, "minimum")) && cJSON_IsNumber(k) &&
        d < k->valuedouble)
        return fail(v, path, "must be at least %.17g, got %.17g", k->valuedouble, d);
    if ((k = cJSON_GetObjectItemCaseSensitive(schema, "maximum")) && cJSON_IsNumber(k) &&
        d > k->valuedouble)
        return fail(v, path, "must be at most %.17g, got %.17g", k->valuedouble, d);
    if ((k = cJSON_GetObjectItemCaseSensitive(schema, "exclusiveMinimum")) && cJSON_IsNumber(k) &&
        d <= k->valuedouble)
        return fail(v, path, "must be greater than %.17g, got %.17g", k->valuedouble, d);
    if ((k = cJSON_GetObjectItemCaseSensitive(schema, "exclusiveMaximum")) && cJSON_IsNumber(k) &&
        d >= k->valuedouble)
        return fail(v, path, "must be less than %.17g, got %.17g", k->valuedouble, d);
    return 1;
}

/* Length in characters (UTF-8 code points), as JSON Schema counts. */
static size_t utf8_length(const char *s)
{
    size_t n = 0;
    for (; *s; s++) n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static int check_string(validation *v, const cJSON *schema, sval value, const vpath *path)
{
    if (!is_string(value)) return 1;
    const cJSON *min = cJSON_GetObjectItemCaseSensitive(schema, "minLength");
    const cJSON *max = cJSON_GetObjectItemCaseSensitive(schema, "maxLength");
    if (!cJSON_IsNumber(min) && !cJSON_IsNumber(max)) return 1; /* a 128 KB string is not counted */
    size_t len = utf8_length(string_of(value));
    const cJSON *k;
    if ((k = min) && cJSON_IsNumber(k) &&
        (double)len < k->valuedouble)
        return fail(v, path, "must be at least %d characters long, got %zu", k->valueint, len);
    if ((k = max) && cJSON_IsNumber(k) &&
        (double)len > k->valuedouble)
        return fail(v, path, "must be at most %d characters long, got %zu", k->valueint, len);
    return 1;
}

static int check_array(validation *v, const cJSON *schema, sval value, const vpath *path)
{
    if (!is_array(value)) return 1;
    int size = (int)item_count(value);
    const cJSON *k;
    if ((k = cJSON_GetObjectItemCaseSensitive(schema, "minItems")) && cJSON_IsNumber(k) &&
        size < k->valueint)
        return fail(v, path, "needs at least %d item(s), got %d", k->valueint, size);
    if ((k = cJSON_GetObjectItemCaseSensitive(schema, "maxItems")) && cJSON_IsNumber(k) &&
        size > k->valueint)
        return fail(v, path, "takes at most %d item(s), got %d", k->valueint, size);
    const cJSON *items = cJSON_GetObjectItemCaseSensitive(schema, "items");
    if (!cJSON_IsObject(items)) return 1;
    int index = 0;
    sval_iter it = iter_begin(value);
    sval item;
    while (iter_next(&it, &item, NULL)) {
        vpath sub = {path, NULL, index++};
        if (!validate(v, items, item, &sub)) return 0;
    }
    return 1;
}

static void list_properties(const cJSON *props, char *out, size_t size)
{
    out[0] = '\0';
    const cJSON *p;
    cJSON_ArrayForEach(p, props)
    {
        size_t len = strlen(out);
        snprintf(out + len, size - len, "%s%s", len ? ", " : "", p->string);
    }
    if (!out[0]) snprintf(out, size, "none");
}

static int check_object(validation *v, const cJSON *schema, sval value, const vpath *path)
{
    if (!is_object(value)) return 1;
    const cJSON *props = cJSON_GetObjectItemCaseSensitive(schema, "properties");
    const cJSON *required = cJSON_GetObjectItemCaseSensitive(schema, "required");
    const cJSON *additional = cJSON_GetObjectItemCaseSensitive(schema, "additionalProperties");
    sval_iter it = iter_begin(value);
    sval member;
    const char *key = NULL;
    while (iter_next(&it, &member, &key)) {
        vpath sub = {path, key, 0};
        const cJSON *prop = cJSON_GetObjectItemCaseSensitive(props, key);
        if (prop) {
            if (!validate(v, prop, member, &sub)) return 0;
        } else if (cJSON_IsFalse(additional)) {
            char allowed[512];
            list_properties(props, allowed, sizeof allowed);
            return fail(v, &sub, "is not a known argument; allowed: %s", allowed);
        } else if (cJSON_IsObject(additional)) {
            if (!validate(v, additional, member, &sub)) return 0;
        }
    }
    const cJSON *r;
    cJSON_ArrayForEach(r, required)
    {
        if (!cJSON_IsString(r) || has_member(value, r->valuestring)) continue;
        vpath sub = {path, r->valuestring, 0};
        const cJSON *prop = cJSON_GetObjectItemCaseSensitive(props, r->valuestring);
        const cJSON *desc = cJSON_GetObjectItemCaseSensitive(prop, "description");
        return fail(v, &sub, "is required but missing%s%s", cJSON_IsString(desc) ? ": " : "",
                    cJSON_IsString(desc) ? desc->valuestring : "");
    }
    return 1;
}

/* anyOf / oneOf: the value must satisfy one (oneOf: exactly one) branch. */
static int check_alternatives(validation *v, const cJSON *schema, sval value,
                              const vpath *path)
{
    static const char *const keywords[] = {"anyOf", "oneOf"};
    for (size_t k = 0; k < 2; k++) {
        const cJSON *branches = cJSON_GetObjectItemCaseSensitive(schema, keywords[k]);
        if (!cJSON_IsArray(branches)) continue;
        int matches = 0;
        char first_error[512] = "";
        const cJSON *branch;
        cJSON_ArrayForEach(branch, branches)
        {
            char branch_error[512];
            validation sub = {branch_error, sizeof branch_error};
            if (validate(&sub, branch, value, path))
                matches++;
            else if (!first_error[0])
                snprintf(first_error, sizeof first_error, "%s", branch_error);
        }
        if (matches == 0) {
            snprintf(v->error, v->error_size, "%s", first_error);
            return 0;
        }
        if (k == 1 && matches > 1)
            return fail(v, path, "matches more than one allowed form; make it unambiguous");
    }
    return 1;
}

static int validate(validation *v, const cJSON *schema, sval value, const vpath *path)
{
    if (cJSON_IsTrue(schema)) return 1;
    if (cJSON_IsFalse(schema)) return fail(v, path, "is not allowed");
    if (!cJSON_IsObject(schema)) return 1;
    return check_type(v, schema, value, path) && check_enum(v, schema, value, path) &&
           check_number(v, schema, value, path) && check_string(v, schema, value, path) &&
           check_array(v, schema, value, path) && check_object(v, schema, value, path) &&
           check_alternatives(v, schema, value, path);
}

int mh_schema_validate(const cJSON *schema, const cJSON *value, char *error, size_t error_size)
{
    validation v = {error, error_size};
    if (error_size) error[0] = '\0';
    return validate(&v, schema, from_cjson(value), NULL);
}

int mh_schema_validate_json(const cJSON *schema, const mh_json *value, char *error,
                            size_t error_size)
{
    validation v = {error, error_size};
    if (error_size) error[0] = '\0';
    return validate(&v, schema, from_json(value), NULL);
}
