/* session_chips.c - the chips a machine registers in its session and the
 * services plugins reach them through: "mh.session/1" and "mh.events/1". */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "observe.h"
#include "session_internal.h"

static void free_chip(mh_chip *chip)
{
    free((char *)chip->interface_id);
    free((char *)chip->instance);
    free((char *)chip->description);
    free(chip);
}

void mh_session_free_chips(mh_session *s)
{
    for (size_t i = 0; i < s->chips.count; i++) free_chip(s->chips.items[i]);
    mh_ptrvec_free(&s->chips);
}

/* ---- mh.session/1 ---- */

static const char *svc_name(mh_session *s) { return s->name; }
static const char *svc_machine(mh_session *s) { return s->machine->name; }
static void *svc_instance(mh_session *s) { return s->instance; }

static mh_status svc_add_chip(mh_session *s, const mh_chip *chip)
{
    if (!chip || chip->struct_size < sizeof(mh_chip) || !chip->interface_id || !chip->instance ||
        !chip->vtable)
        return MH_ERR_INVALID_ARGUMENT;
    if (!s->accepting_chips) {
        mh_log(MH_LOG_ERROR, s->name, "add_chip(%s) outside the machine's create()",
               chip->interface_id);
        return MH_ERR_STATE;
    }
    for (size_t i = 0; i < s->chips.count; i++) {
        const mh_chip *c = s->chips.items[i];
        if (strcmp(c->interface_id, chip->interface_id) == 0 &&
            strcmp(c->instance, chip->instance) == 0)
            return MH_ERR_EXISTS;
    }
    mh_chip *copy = calloc(1, sizeof *copy);
    if (!copy) return MH_ERR_NO_MEMORY;
    copy->struct_size = sizeof *copy;
    copy->interface_id = strdup(chip->interface_id);
    copy->instance = strdup(chip->instance);
    copy->description = strdup(chip->description ? chip->description : chip->instance);
    copy->vtable = chip->vtable;
    copy->context = chip->context;
    if (!copy->interface_id || !copy->instance || !copy->description ||
        mh_ptrvec_push(&s->chips, copy) != 0) {
        free_chip(copy);
        return MH_ERR_NO_MEMORY;
    }
    return MH_OK;
}

static const mh_chip *svc_find_chip(mh_session *s, const char *interface_id, const char *instance)
{
    for (size_t i = 0; i < s->chips.count; i++) {
        const mh_chip *c = s->chips.items[i];
        if (strcmp(c->interface_id, interface_id) == 0 &&
            (!instance || strcmp(c->instance, instance) == 0))
            return c;
    }
    return NULL;
}

static size_t svc_chip_count(mh_session *s) { return s->chips.count; }

static const mh_chip *svc_chip_at(mh_session *s, size_t index)
{
    return index < s->chips.count ? s->chips.items[index] : NULL;
}

static void svc_post_event(mh_session *s, uint32_t type, const char *detail_json)
{
    if (s) mh_session_post_event(s, type, detail_json);
}

const mh_events_service mh_events_service_impl = {sizeof(mh_events_service), svc_post_event};

const mh_session_service mh_session_service_impl = {
    sizeof(mh_session_service), svc_name,      svc_machine,    svc_instance,
    svc_add_chip,               svc_find_chip, svc_chip_count, svc_chip_at,
};
