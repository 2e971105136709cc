/* td_cfg.c - basic blocks and edges of the code that ran (td_cfg.h). */
#include "td_cfg.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/disasm6502.h>

typedef enum flow { FLOW_NONE, FLOW_BRANCH, FLOW_JUMP, FLOW_CALL, FLOW_END } flow;

/* The SDK's control-flow class, with every way out of a block that does not
 * come back to the next instruction (RTS, RTI, BRK, JAM) as one. */
static flow flow_of(uint8_t op)
{
    switch ((mh_flow6502)mh_op6502_get(op)->flow) {
    case MH_FLOW6502_NONE: return FLOW_NONE;
    case MH_FLOW6502_BRANCH: return FLOW_BRANCH;
    case MH_FLOW6502_JUMP: return FLOW_JUMP;
    case MH_FLOW6502_CALL: return FLOW_CALL;
    default: return FLOW_END;
    }
}

static int length_of(uint8_t op) { return mh_op6502_get(op)->length; }

/* The recorded edges sorted by from << 16 | to, for lookups by source. */
typedef struct edge_index {
    uint32_t *keys;
    size_t count;
} edge_index;

static int by_key(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static int index_edges(const td_cfg_input *in, edge_index *ix)
{
    ix->count = 0;
    ix->keys = malloc((in->edge_slots ? in->edge_slots : 1) * sizeof *ix->keys);
    if (!ix->keys) return -1;
    for (size_t i = 0; in->edges && i < in->edge_slots; i++)
        if (in->edges[i] != MH_PROFILE_PAIR_EMPTY) ix->keys[ix->count++] = in->edges[i];
    qsort(ix->keys, ix->count, sizeof *ix->keys, by_key);
    return 0;
}

/* The first recorded edge from `from` (its index), or count when none. */
static size_t first_from(const edge_index *ix, uint16_t from)
{
    size_t lo = 0, hi = ix->count;
    uint32_t key = (uint32_t)from << 16;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (ix->keys[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

#define FOR_TARGETS(ix, from, i)                                                                \
    for (size_t i = first_from(ix, from); i < (ix)->count && (ix)->keys[i] >> 16 == (from); i++)

static int other_entry(const td_cfg_input *in, uint16_t target)
{
    return in->functions && target != in->entry && in->functions[target].calls;
}

/* Queues a that ran and is not marked yet (each address once: the
 * worklist never holds more than 65536). */
static void reach(const td_cfg_input *in, uint8_t *member, uint16_t *work, size_t *n, uint16_t a)
{
    if (member[a] || !in->insn_count[a]) return;
    member[a] = 1;
    work[(*n)++] = a;
}

/* Marks the instructions of the function in member[]. */
static int collect(const td_cfg_input *in, const edge_index *ix, uint8_t *member, size_t *exits)
{
    uint16_t *work = malloc(65536 * sizeof *work);
    if (!work) return -1;
    size_t n = 0;
    reach(in, member, work, &n, in->entry);
    while (n) {
        uint16_t a = work[--n];
        uint8_t op = in->memory[a];
        uint16_t next = (uint16_t)(a + length_of(op));
        switch (flow_of(op)) {
        case FLOW_NONE:
        case FLOW_CALL: /* the call returns to the next instruction */
            reach(in, member, work, &n, next);
            break;
        case FLOW_BRANCH:
        case FLOW_JUMP:
            FOR_TARGETS(ix, a, i) {
                uint16_t to = (uint16_t)ix->keys[i];
                if (other_entry(in, to)) (*exits)++;
                else reach(in, member, work, &n, to);
            }
            break;
        case FLOW_END: break;
        }
    }
    free(work);
    return 0;
}

static void mark_leaders(const td_cfg_input *in, const edge_index *ix, const uint8_t *member,
                         uint8_t *leader)
{
    leader[in->entry] = 1;
    for (uint32_t a = 0; a < 65536; a++) {
        if (!member[a]) continue;
        uint8_t op = in->memory[a];
        flow f = flow_of(op);
        if (f == FLOW_NONE || f == FLOW_CALL) continue;
        uint16_t next = (uint16_t)(a + length_of(op));
        if (member[next]) leader[next] = 1;
        if (f == FLOW_END) continue;
        FOR_TARGETS(ix, (uint16_t)a, i) leader[(uint16_t)ix->keys[i]] = 1;
    }
}

static int push_edge(td_cfg *g, size_t *cap, size_t from, size_t to, td_cfg_kind kind)
{
    if (g->edge_count == *cap) {
        size_t grown = *cap ? *cap * 2 : 16;
        td_cfg_edge *e = realloc(g->edges, grown * sizeof *e);
        if (!e) return -1;
        g->edges = e;
        *cap = grown;
    }
    g->edges[g->edge_count++] = (td_cfg_edge){from, to, kind, 0};
    return 0;
}

static int build_blocks(const td_cfg_input *in, const uint8_t *member, const uint8_t *leader,
                        td_cfg *g, int32_t *block_at)
{
    size_t count = 0;
    for (uint32_t a = 0; a < 65536; a++) count += member[a];
    g->blocks = calloc(count ? count : 1, sizeof *g->blocks);
    if (!g->blocks) return -1;
    td_cfg_block *open = NULL;
    uint16_t expected = 0; /* where the open block's next instruction would be */
    for (uint32_t a = 0; a < 65536; a++) {
        if (!member[a]) continue;
        if (open && (leader[a] || expected != a)) open = NULL;
        if (!open) {
            open = &g->blocks[g->block_count++];
            *open = (td_cfg_block){(uint16_t)a, (uint16_t)a, 0, in->insn_count[a]};
            block_at[a] = (int32_t)(g->block_count - 1);
        }
        open->last = (uint16_t)a;
        open->instructions++;
        uint8_t op = in->memory[a];
        expected = (uint16_t)(a + length_of(op));
        flow f = flow_of(op);
        if (f != FLOW_NONE && f != FLOW_CALL) open = NULL;
    }
    return 0;
}

static int link_blocks(const td_cfg_input *in, const edge_index *ix, const int32_t *block_at,
                       td_cfg *g)
{
    size_t cap = 0;
    for (size_t b = 0; b < g->block_count; b++) {
        uint16_t last = g->blocks[b].last;
        uint8_t op = in->memory[last];
        uint16_t next = (uint16_t)(last + length_of(op));
        flow f = flow_of(op);
        if (f == FLOW_BRANCH || f == FLOW_JUMP) {
            FOR_TARGETS(ix, last, i) {
                int32_t to = block_at[(uint16_t)ix->keys[i]];
                if (to < 0) continue;
                td_cfg_kind kind = f == FLOW_JUMP ? TD_EDGE_JUMP
                                   : (uint16_t)ix->keys[i] == next ? TD_EDGE_FALL
                                                                   : TD_EDGE_TAKEN;
                if (push_edge(g, &cap, b, (size_t)to, kind) != 0) return -1;
            }
        } else if (f != FLOW_END && block_at[next] >= 0) {
            if (push_edge(g, &cap, b, (size_t)block_at[next], TD_EDGE_FALL) != 0) return -1;
        }
    }
    return 0;
}

/* Depth-first from the entry block: an edge to a block on the path is a
 * back edge. link_blocks() adds the edges block by block, so each block's
 * edges are one run starting at its next_edge. */
static int mark_back_edges(td_cfg *g)
{
    size_t n = g->block_count;
    uint8_t *state = calloc(n ? n : 1, 1); /* 0 new, 1 on the path, 2 done */
    size_t *stack = malloc((n ? n : 1) * sizeof *stack);
    size_t *next_edge = calloc(n ? n : 1, sizeof *next_edge);
    if (!state || !stack || !next_edge) {
        free(state);
        free(stack);
        free(next_edge);
        return -1;
    }
    for (size_t b = 0; b < n; b++) next_edge[b] = g->edge_count; /* none */
    for (size_t e = g->edge_count; e-- > 0;) next_edge[g->edges[e].from] = e;
    size_t depth = 0;
    if (n) {
        stack[depth++] = g->entry_block;
        state[g->entry_block] = 1;
    }
    while (depth) {
        size_t b = stack[depth - 1];
        size_t e = next_edge[b];
        if (e >= g->edge_count || g->edges[e].from != b) {
            state[b] = 2;
            depth--;
            continue;
        }
        next_edge[b] = e + 1;
        size_t to = g->edges[e].to;
        if (state[to] == 1) g->edges[e].back = 1;
        else if (state[to] == 0) {
            state[to] = 1;
            stack[depth++] = to;
        }
    }
    free(state);
    free(stack);
    free(next_edge);
    return 0;
}

int td_cfg_build(const td_cfg_input *in, td_cfg *out)
{
    memset(out, 0, sizeof *out);
    edge_index ix = {0};
    uint8_t *member = calloc(65536, 1);
    uint8_t *leader = calloc(65536, 1);
    int32_t *block_at = malloc(65536 * sizeof *block_at);
    int status = -1;
    if (!member || !leader || !block_at || index_edges(in, &ix) != 0) goto done;
    for (size_t i = 0; i < 65536; i++) block_at[i] = -1;
    if (collect(in, &ix, member, &out->exits) != 0) goto done;
    mark_leaders(in, &ix, member, leader);
    if (build_blocks(in, member, leader, out, block_at) != 0 ||
        link_blocks(in, &ix, block_at, out) != 0)
        goto done;
    out->entry_block = block_at[in->entry] >= 0 ? (size_t)block_at[in->entry] : 0;
    status = mark_back_edges(out);
done:
    if (status != 0) td_cfg_free(out);
    free(ix.keys);
    free(member);
    free(leader);
    free(block_at);
    return status;
}

void td_cfg_free(td_cfg *cfg)
{
    free(cfg->blocks);
    free(cfg->edges);
    memset(cfg, 0, sizeof *cfg);
}

const char *td_cfg_kind_name(td_cfg_kind kind)
{
    static const char *const names[] = {"fall", "taken", "jump"};
    return (unsigned)kind < 3 ? names[kind] : "?";
}

/* ---- text ---- */

typedef struct text {
    char *s;
    size_t length, capacity;
    int failed;
} text;

static void add(text *t, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void add(text *t, const char *format, ...)
{
    if (t->failed) return;
    for (;;) {
        va_list ap;
        va_start(ap, format);
        int n = vsnprintf(t->s ? t->s + t->length : NULL, t->s ? t->capacity - t->length : 0,
                          format, ap);
        va_end(ap);
        if (n < 0) {
            t->failed = 1;
            return;
        }
        if (t->s && t->length + (size_t)n < t->capacity) {
            t->length += (size_t)n;
            return;
        }
        size_t grown = (t->capacity + (size_t)n + 1) * 2;
        char *s = realloc(t->s, grown);
        if (!s) {
            t->failed = 1;
            return;
        }
        t->s = s;
        t->capacity = grown;
    }
}

static char *finish(text *t)
{
    if (t->failed) {
        free(t->s);
        return NULL;
    }
    return t->s;
}

char *td_cfg_dot(const td_cfg *cfg, const char *title)
{
    text t = {0};
    add(&t, "digraph \"%s\" {\n  node [shape=box fontname=monospace];\n", title);
    for (size_t i = 0; i < cfg->block_count; i++) {
        const td_cfg_block *b = &cfg->blocks[i];
        add(&t, "  b%04X [label=\"$%04X-$%04X\\n%u instructions, ran %u\"%s];\n", b->start,
            b->start, b->last, b->instructions, b->count,
            i == cfg->entry_block ? " style=bold" : "");
    }
    for (size_t i = 0; i < cfg->edge_count; i++) {
        const td_cfg_edge *e = &cfg->edges[i];
        add(&t, "  b%04X -> b%04X [label=\"%s%s\"%s];\n", cfg->blocks[e->from].start,
            cfg->blocks[e->to].start, td_cfg_kind_name(e->kind), e->back ? " (back)" : "",
            e->back ? " style=dashed" : "");
    }
    add(&t, "}\n");
    return finish(&t);
}

char *td_cfg_mermaid(const td_cfg *cfg)
{
    text t = {0};
    add(&t, "flowchart TD\n");
    for (size_t i = 0; i < cfg->block_count; i++) {
        const td_cfg_block *b = &cfg->blocks[i];
        add(&t, "  b%04X[\"$%04X-$%04X: %u instructions, ran %u\"]\n", b->start, b->start,
            b->last, b->instructions, b->count);
    }
    for (size_t i = 0; i < cfg->edge_count; i++) {
        const td_cfg_edge *e = &cfg->edges[i];
        add(&t, "  b%04X %s|%s| b%04X\n", cfg->blocks[e->from].start, e->back ? "-.->" : "-->",
            td_cfg_kind_name(e->kind), cfg->blocks[e->to].start);
    }
    if (!t.s) add(&t, "%s", "");
    return finish(&t);
}
