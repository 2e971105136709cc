/* value.c - read access to a parsed tree: types, objects, arrays, scalars
 * and the mh_json_get_*() shortcuts. All NULL-safe. */
#include "json_internal.h"

#include <string.h>

mh_json_type mh_json_typeof(const mh_json *value)
{
    return value ? (mh_json_type)value->type : MH_JSON_NONE;
}

const char *mh_json_type_name(mh_json_type type)
{
    switch (type) {
    case MH_JSON_NULL: return "null";
    case MH_JSON_BOOL: return "boolean";
    case MH_JSON_NUMBER: return "number";
    case MH_JSON_STRING: return "string";
    case MH_JSON_ARRAY: return "array";
    case MH_JSON_OBJECT: return "object";
    case MH_JSON_NONE: break;
    }
    return "nothing";
}

const mh_json *mh_json_object_getn(const mh_json *object, const char *key, size_t key_length)
{
    if (!object || object->type != MH_JSON_OBJECT || !key) return NULL;
    const mh_json_member *m = object->u.obj.members;
    for (size_t i = 0; i < object->u.obj.count; i++)
        if (m[i].key_length == key_length && memcmp(m[i].key, key, key_length) == 0)
            return &m[i].value;
    return NULL;
}

const mh_json *mh_json_object_get(const mh_json *object, const char *key)
{
    return key ? mh_json_object_getn(object, key, strlen(key)) : NULL;
}

size_t mh_json_object_size(const mh_json *object)
{
    return object && object->type == MH_JSON_OBJECT ? object->u.obj.count : 0;
}

const char *mh_json_object_key(const mh_json *object, size_t index, size_t *key_length)
{
    if (index >= mh_json_object_size(object)) return NULL;
    const mh_json_member *m = &object->u.obj.members[index];
    if (key_length) *key_length = m->key_length;
    return m->key;
}

const mh_json *mh_json_object_value(const mh_json *object, size_t index)
{
    if (index >= mh_json_object_size(object)) return NULL;
    return &object->u.obj.members[index].value;
}

size_t mh_json_array_size(const mh_json *array)
{
    return array && array->type == MH_JSON_ARRAY ? array->u.arr.count : 0;
}

const mh_json *mh_json_array_get(const mh_json *array, size_t index)
{
    if (index >= mh_json_array_size(array)) return NULL;
    return &array->u.arr.items[index];
}

const char *mh_json_as_string(const mh_json *value, size_t *length)
{
    if (!value || value->type != MH_JSON_STRING) return NULL;
    if (length) *length = value->u.str.length;
    return value->u.str.bytes;
}

mh_status mh_json_as_bool(const mh_json *value, bool *out)
{
    if (!value) return MH_ERR_NOT_FOUND;
    if (value->type != MH_JSON_BOOL) return MH_ERR_INVALID_ARGUMENT;
    *out = (value->flags & MH_JSON_F_TRUE) != 0;
    return MH_OK;
}

mh_status mh_json_as_double(const mh_json *value, double *out)
{
    if (!value) return MH_ERR_NOT_FOUND;
    if (value->type != MH_JSON_NUMBER) return MH_ERR_INVALID_ARGUMENT;
    *out = value->u.num.value;
    return MH_OK;
}

/* Common part of the integer reads: the magnitude of a whole number. */
static mh_status whole_number(const mh_json *value, uint64_t *magnitude, int *negative)
{
    if (!value) return MH_ERR_NOT_FOUND;
    if (value->type != MH_JSON_NUMBER || !(value->flags & MH_JSON_F_INTEGRAL))
        return MH_ERR_INVALID_ARGUMENT;
    if (!(value->flags & MH_JSON_F_FITS)) return MH_ERR_LIMIT;
    *magnitude = value->u.num.magnitude;
    *negative = (value->flags & MH_JSON_F_NEGATIVE) && *magnitude != 0;
    return MH_OK;
}

mh_status mh_json_as_int64(const mh_json *value, int64_t *out)
{
    uint64_t m;
    int negative;
    mh_status st = whole_number(value, &m, &negative);
    if (st != MH_OK) return st;
    if (negative) {
        if (m > (uint64_t)INT64_MAX + 1) return MH_ERR_LIMIT;
        *out = m == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)m;
    } else {
        if (m > (uint64_t)INT64_MAX) return MH_ERR_LIMIT;
        *out = (int64_t)m;
    }
    return MH_OK;
}

mh_status mh_json_as_uint64(const mh_json *value, uint64_t *out)
{
    uint64_t m;
    int negative;
    mh_status st = whole_number(value, &m, &negative);
    if (st != MH_OK) return st;
    if (negative) return MH_ERR_LIMIT;
    *out = m;
    return MH_OK;
}

bool mh_json_is_integer(const mh_json *value)
{
    return value && value->type == MH_JSON_NUMBER && (value->flags & MH_JSON_F_INTEGRAL);
}

bool mh_json_is_null(const mh_json *value)
{
    return value && value->type == MH_JSON_NULL;
}

const char *mh_json_get_string(const mh_json *object, const char *key, const char *fallback)
{
    const char *s = mh_json_as_string(mh_json_object_get(object, key), NULL);
    return s ? s : fallback;
}

mh_status mh_json_get_int(const mh_json *object, const char *key, int64_t *out)
{
    return mh_json_as_int64(mh_json_object_get(object, key), out);
}

mh_status mh_json_get_uint(const mh_json *object, const char *key, uint64_t *out)
{
    return mh_json_as_uint64(mh_json_object_get(object, key), out);
}

mh_status mh_json_get_double(const mh_json *object, const char *key, double *out)
{
    return mh_json_as_double(mh_json_object_get(object, key), out);
}

mh_status mh_json_get_bool(const mh_json *object, const char *key, bool *out)
{
    return mh_json_as_bool(mh_json_object_get(object, key), out);
}
