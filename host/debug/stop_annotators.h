/* host/debug/stop_annotators.h - the plugins' stop annotators (mh.debug/1
 * add_stop_annotator): program knowledge (labels, source lines) added to
 * the stop records that go out as events, so the host never needs to know
 * a plugin's symbol tables.
 *
 * One table per host (mh_hostctx.annotators), created by main() before the
 * plugins load and freed after they unloaded. add/remove are
 * [thread-safe]; mh_stop_annotate runs on the stopped session's emulation
 * thread and holds a read lock while annotators run, so remove() returns
 * only when none of them is running.
 */
#ifndef MH_HOST_STOP_ANNOTATORS_H
#define MH_HOST_STOP_ANNOTATORS_H

#include <stdint.h>

#include "mcphost/debug.h"

typedef struct mh_stop_annotators mh_stop_annotators;

mh_stop_annotators *mh_stop_annotators_new(void);
void mh_stop_annotators_free(mh_stop_annotators *table); /* NULL is fine */

/* An id (never 0) or 0 when the table is full or fn is NULL. */
uint64_t mh_stop_annotators_add(mh_stop_annotators *table, mh_stop_annotate_fn fn, void *user);
void mh_stop_annotators_remove(mh_stop_annotators *table, uint64_t id);

/* record (a JSON object text) with every annotator's members for pc added
 * at its end: a new malloc'ed text, or NULL when nothing was added (no
 * table, no annotator, nothing to say, or members that would not make
 * valid JSON: those are logged and dropped). */
char *mh_stop_annotate(mh_stop_annotators *table, mh_session *session, uint16_t pc,
                       const char *record);

#endif
