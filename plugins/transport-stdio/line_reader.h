/* line_reader.h - splits a byte stream into newline-terminated messages with
 * a size limit. A line over the limit is reported once as too long and
 * skipped up to its newline. Owned by one reader thread; not thread-safe. */
#ifndef MH_STDIO_LINE_READER_H
#define MH_STDIO_LINE_READER_H

#include <stddef.h>

typedef struct mh_line_reader {
    char *buf;
    size_t len, cap, limit;
    int skipping; /* inside an over-long line */
} mh_line_reader;

typedef enum mh_line_event { MH_LINE_MESSAGE, MH_LINE_TOO_LONG } mh_line_event;

/* Called per complete line (without "\n" or a trailing "\r"); blank lines are
 * dropped. Return nonzero to stop feeding. */
typedef int (*mh_line_fn)(void *user, mh_line_event event, const char *line, size_t length);

void mh_line_reader_init(mh_line_reader *r, size_t limit);
void mh_line_reader_free(mh_line_reader *r);
/* Feeds bytes; returns -1 when out of memory, 1 when fn asked to stop, else 0. */
int mh_line_reader_feed(mh_line_reader *r, const char *data, size_t size, mh_line_fn fn,
                        void *user);
/* At end of input: delivers a last line that had no newline. */
int mh_line_reader_finish(mh_line_reader *r, mh_line_fn fn, void *user);

#endif
