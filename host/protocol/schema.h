/* host/protocol/schema.h - validates tool arguments (and structured results)
 * against the JSON Schema subset tools use: type (one or a list; "integer"
 * means a whole number), properties, required, additionalProperties (boolean
 * or schema), enum, const, minimum/maximum, exclusiveMinimum/Maximum,
 * minLength/maxLength, items, minItems/maxItems, anyOf/oneOf.
 * Unknown keywords are ignored, as JSON Schema requires. The value is a
 * cJSON tree or an SDK parse (mh_schema_validate_json); the schema is cJSON.
 * Thread: [thread-safe] (pure functions). */
#ifndef MH_HOST_SCHEMA_H
#define MH_HOST_SCHEMA_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* Returns 1 when value satisfies schema; otherwise 0 and a message naming the
 * argument and what is allowed, e.g. "argument 'count': must be at most 100,
 * got 500". */
int mh_schema_validate(const cJSON *schema, const cJSON *value, char *error, size_t error_size);

/* The same for a value of a strict parse (mcphost/json.h): a tool's
 * structured result is checked as it was parsed, with no cJSON copy. */
struct mh_json;
int mh_schema_validate_json(const cJSON *schema, const struct mh_json *value, char *error,
                            size_t error_size);

#endif
