/* stop_annotators.c - the plugins' stop annotators (stop_annotators.h). */
#include "stop_annotators.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "mcphost/json.h"

#define MAX_ANNOTATORS 8
#define MAX_MEMBERS 4096 /* bytes one annotator may add */

typedef struct annotator {
    uint64_t id; /* 0: free slot */
    mh_stop_annotate_fn fn;
    void *user;
} annotator;

struct mh_stop_annotators {
    pthread_rwlock_t lock; /* read: annotating; write: add, remove */
    annotator slots[MAX_ANNOTATORS];
    uint64_t next_id;
};

mh_stop_annotators *mh_stop_annotators_new(void)
{
    mh_stop_annotators *table = calloc(1, sizeof *table);
    if (!table) return NULL;
    if (pthread_rwlock_init(&table->lock, NULL) != 0) {
        free(table);
        return NULL;
    }
    return table;
}

void mh_stop_annotators_free(mh_stop_annotators *table)
{
    if (!table) return;
    pthread_rwlock_destroy(&table->lock);
    free(table);
}

uint64_t mh_stop_annotators_add(mh_stop_annotators *table, mh_stop_annotate_fn fn, void *user)
{
    if (!table || !fn) return 0;
    uint64_t id = 0;
    pthread_rwlock_wrlock(&table->lock);
    for (size_t i = 0; i < MAX_ANNOTATORS && !id; i++) {
        if (table->slots[i].id) continue;
        id = ++table->next_id;
        table->slots[i] = (annotator){id, fn, user};
    }
    pthread_rwlock_unlock(&table->lock);
    if (!id) mh_log(MH_LOG_WARNING, "debug", "no room for another stop annotator (%d kept)",
                    MAX_ANNOTATORS);
    return id;
}

void mh_stop_annotators_remove(mh_stop_annotators *table, uint64_t id)
{
    if (!table || !id) return;
    pthread_rwlock_wrlock(&table->lock); /* waits for running annotators */
    for (size_t i = 0; i < MAX_ANNOTATORS; i++)
        if (table->slots[i].id == id) memset(&table->slots[i], 0, sizeof table->slots[i]);
    pthread_rwlock_unlock(&table->lock);
}

/* Whether "{members}" is one valid JSON object (the strict parser also
 * refuses a key given twice, e.g. an annotator repeating "pc"). */
static int valid_object(const char *text, size_t length)
{
    mh_json_error error;
    mh_json_doc *doc = mh_json_parse(text, length, NULL, &error);
    int ok = doc && mh_json_typeof(mh_json_root(doc)) == MH_JSON_OBJECT;
    if (!doc) mh_log(MH_LOG_WARNING, "debug", "a stop annotator's members were dropped: %s",
                     error.message);
    mh_json_free(doc);
    return ok;
}

char *mh_stop_annotate(mh_stop_annotators *table, mh_session *session, uint16_t pc,
                       const char *record)
{
    size_t length = record ? strlen(record) : 0;
    if (!table || length < 2 || record[length - 1] != '}') return NULL;
    char *members = malloc(MAX_MEMBERS);
    char *out = NULL;
    if (!members) return NULL;
    pthread_rwlock_rdlock(&table->lock);
    for (size_t i = 0; i < MAX_ANNOTATORS; i++) {
        const annotator a = table->slots[i];
        if (!a.id) continue;
        members[0] = '\0';
        size_t n = a.fn(a.user, session, pc, members, MAX_MEMBERS);
        if (n == 0 || n >= MAX_MEMBERS || strlen(members) != n) continue;
        const char *base = out ? out : record;
        size_t base_length = strlen(base);
        int empty = base_length == 2 || base[base_length - 2] == '{';
        char *next = malloc(base_length + n + 2);
        if (!next) break;
        memcpy(next, base, base_length - 1); /* without the closing brace */
        size_t at = base_length - 1;
        if (!empty) next[at++] = ',';
        memcpy(next + at, members, n);
        at += n;
        next[at++] = '}';
        next[at] = '\0';
        if (!valid_object(next, at)) {
            free(next);
            continue;
        }
        free(out);
        out = next;
    }
    pthread_rwlock_unlock(&table->lock);
    free(members);
    return out;
}
