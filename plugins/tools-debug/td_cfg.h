/* td_cfg.h - the control-flow graph of the code that ran (cfg_get): basic
 * blocks and edges of one function, built from the profiler's tables
 * (mcphost/debug.h mh_profile_view: which addresses started instructions,
 * and the control transfers seen), with the bytes of memory for the
 * opcodes; and the graph as Graphviz DOT or Mermaid text.
 *
 * The function is what ran from its entry: sequential flow, the recorded
 * targets of its branches and jumps, and the instruction after each JSR
 * (calls are followed no further; a jump to another function's entry is
 * an exit). Leaders: the entry, branch and jump targets, and the
 * instruction after a branch, jump or return. An edge is "back" when it
 * goes to a block on the depth-first path from the entry (a loop).
 *
 * Ownership: td_cfg_build() allocates the graph; td_cfg_free(). The text
 * functions return malloc'ed strings. Pure: no host calls, any thread.
 */
#ifndef TD_CFG_H
#define TD_CFG_H

#include <stddef.h>
#include <stdint.h>

#include <mcphost/debug.h>

typedef struct td_cfg_input {
    uint16_t entry;
    const uint32_t *insn_count;          /* [65536]: nonzero where an instruction ran */
    const uint8_t *memory;               /* [65536]: the CPU's view (opcodes) */
    const uint32_t *edges;               /* pair table from << 16 | to */
    size_t edge_slots;
    const mh_profile_function *functions; /* [65536] or NULL: other entries end flow */
} td_cfg_input;

typedef enum td_cfg_kind { TD_EDGE_FALL = 0, TD_EDGE_TAKEN = 1, TD_EDGE_JUMP = 2 } td_cfg_kind;

typedef struct td_cfg_block {
    uint16_t start, last;  /* first and last instruction */
    uint32_t instructions;
    uint32_t count;        /* times its first instruction ran */
} td_cfg_block;

typedef struct td_cfg_edge {
    size_t from, to;       /* block indexes */
    td_cfg_kind kind;
    int back;
} td_cfg_edge;

typedef struct td_cfg {
    td_cfg_block *blocks;  /* ascending by start; blocks[0] is not always the entry */
    size_t block_count;
    td_cfg_edge *edges;
    size_t edge_count;
    size_t entry_block;
    size_t exits;          /* jumps out to other functions' entries */
} td_cfg;

/* 0, or -1 when out of memory. An entry that never ran gives no blocks. */
int td_cfg_build(const td_cfg_input *in, td_cfg *out);
void td_cfg_free(td_cfg *cfg);

const char *td_cfg_kind_name(td_cfg_kind kind);

/* The graph as text; title names it. NULL when out of memory. */
char *td_cfg_dot(const td_cfg *cfg, const char *title);
char *td_cfg_mermaid(const td_cfg *cfg);

#endif
