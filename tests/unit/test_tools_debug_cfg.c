/* Suite tools_debug.cfg: the control-flow graph builder (plugins/
 * tools-debug/td_cfg.h) on hand-made profiler tables: a loop gives a back
 * edge, a branch gives taken and fall-through edges, a JSR stays inside
 * its block and is not followed, a jump to another function's entry is an
 * exit, and the DOT and Mermaid texts name every block and edge. */
#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "mh_test.h"
#include "td_cfg.h"

typedef struct tables {
    uint32_t insn_count[65536];
    uint8_t memory[65536];
    uint32_t edges[64];
    size_t edge_count;
    mh_profile_function functions[65536];
} tables;

static void put(tables *t, uint16_t at, const uint8_t *bytes, size_t n, uint32_t ran)
{
    memcpy(t->memory + at, bytes, n);
    t->insn_count[at] = ran;
}

static void edge(tables *t, uint16_t from, uint16_t to)
{
    t->edges[t->edge_count++] = (uint32_t)from << 16 | to;
}

/* $C000 LDX #3
 * $C002 JSR $C100     loop
 * $C005 DEX
 * $C006 BNE $C002
 * $C008 CPY #0
 * $C00A BEQ $C00F
 * $C00C JMP $C200     (another function: an exit)
 * $C00F RTS */
static tables *loop_tables(void)
{
    tables *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    put(t, 0xC000, (const uint8_t[]){0xA2, 0x03}, 2, 1);
    put(t, 0xC002, (const uint8_t[]){0x20, 0x00, 0xC1}, 3, 3);
    put(t, 0xC005, (const uint8_t[]){0xCA}, 1, 3);
    put(t, 0xC006, (const uint8_t[]){0xD0, 0xFA}, 2, 3);
    put(t, 0xC008, (const uint8_t[]){0xC0, 0x00}, 2, 2);
    put(t, 0xC00A, (const uint8_t[]){0xF0, 0x03}, 2, 2);
    put(t, 0xC00C, (const uint8_t[]){0x4C, 0x00, 0xC2}, 3, 1);
    put(t, 0xC00F, (const uint8_t[]){0x60}, 1, 1);
    put(t, 0xC100, (const uint8_t[]){0x60}, 1, 3);
    put(t, 0xC200, (const uint8_t[]){0x60}, 1, 1);
    edge(t, 0xC002, 0xC100);
    edge(t, 0xC100, 0xC005);
    edge(t, 0xC006, 0xC002);
    edge(t, 0xC006, 0xC008);
    edge(t, 0xC00A, 0xC00C);
    edge(t, 0xC00A, 0xC00F);
    edge(t, 0xC00C, 0xC200);
    t->functions[0xC100].calls = 3;
    t->functions[0xC200].calls = 1;
    t->functions[0xC000].calls = 1;
    return t;
}

static td_cfg_input input_of(const tables *t, uint16_t entry)
{
    td_cfg_input in = {entry, t->insn_count, t->memory, t->edges, t->edge_count, t->functions};
    return in;
}

static const td_cfg_edge *find_edge(const td_cfg *g, uint16_t from, uint16_t to)
{
    for (size_t i = 0; i < g->edge_count; i++)
        if (g->blocks[g->edges[i].from].start == from && g->blocks[g->edges[i].to].start == to)
            return &g->edges[i];
    return NULL;
}

static void test_loop_blocks_and_back_edge(void)
{
    tables *t = loop_tables();
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    td_cfg_input in = input_of(t, 0xC000);
    td_cfg g;
    CU_ASSERT_EQUAL_FATAL(td_cfg_build(&in, &g), 0);
    /* blocks: C000-C000, C002-C006, C008-C00A, C00C-C00C, C00F-C00F */
    CU_ASSERT_EQUAL_FATAL(g.block_count, 5);
    CU_ASSERT_EQUAL(g.blocks[0].start, 0xC000);
    CU_ASSERT_EQUAL(g.blocks[0].last, 0xC000);
    CU_ASSERT_EQUAL(g.blocks[1].start, 0xC002);
    CU_ASSERT_EQUAL(g.blocks[1].last, 0xC006);
    CU_ASSERT_EQUAL(g.blocks[1].instructions, 3);
    CU_ASSERT_EQUAL(g.blocks[1].count, 3);
    CU_ASSERT_EQUAL(g.blocks[2].start, 0xC008);
    CU_ASSERT_EQUAL(g.blocks[2].last, 0xC00A);
    CU_ASSERT_EQUAL(g.blocks[3].start, 0xC00C);
    CU_ASSERT_EQUAL(g.blocks[4].start, 0xC00F);
    CU_ASSERT_EQUAL(g.entry_block, 0);
    CU_ASSERT_EQUAL(g.exits, 1);
    CU_ASSERT_EQUAL(g.edge_count, 5);
    const td_cfg_edge *e = find_edge(&g, 0xC000, 0xC002);
    CU_ASSERT_TRUE(e && e->kind == TD_EDGE_FALL && !e->back);
    e = find_edge(&g, 0xC002, 0xC002);
    CU_ASSERT_TRUE(e && e->kind == TD_EDGE_TAKEN && e->back);
    e = find_edge(&g, 0xC002, 0xC008);
    CU_ASSERT_TRUE(e && e->kind == TD_EDGE_FALL && !e->back);
    e = find_edge(&g, 0xC008, 0xC00F);
    CU_ASSERT_TRUE(e && e->kind == TD_EDGE_TAKEN && !e->back);
    CU_ASSERT_PTR_NOT_NULL(find_edge(&g, 0xC008, 0xC00C));
    CU_ASSERT_PTR_NULL(find_edge(&g, 0xC002, 0xC100)); /* the call is not followed */

    char *dot = td_cfg_dot(&g, "main");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dot);
    CU_ASSERT_PTR_NOT_NULL(strstr(dot, "digraph \"main\" {"));
    CU_ASSERT_PTR_NOT_NULL(strstr(dot, "bC002 -> bC002 [label=\"taken (back)\" style=dashed];"));
    CU_ASSERT_PTR_NOT_NULL(strstr(dot, "bC008 [label=\"$C008-$C00A\\n2 instructions, ran 2\"];"));
    CU_ASSERT_EQUAL(dot[strlen(dot) - 2], '}');
    free(dot);
    char *mermaid = td_cfg_mermaid(&g);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mermaid);
    CU_ASSERT_EQUAL(strncmp(mermaid, "flowchart TD\n", 13), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(mermaid, "  bC002 -.->|taken| bC002\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(mermaid, "  bC000 -->|fall| bC002\n"));
    free(mermaid);
    td_cfg_free(&g);
    free(t);
}

static void test_entry_in_the_middle_and_unrun(void)
{
    tables *t = loop_tables();
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    /* from the loop head: C000 is not part of it */
    td_cfg_input in = input_of(t, 0xC002);
    td_cfg g;
    CU_ASSERT_EQUAL_FATAL(td_cfg_build(&in, &g), 0);
    CU_ASSERT_EQUAL(g.block_count, 4);
    CU_ASSERT_EQUAL(g.blocks[g.entry_block].start, 0xC002);
    td_cfg_free(&g);
    /* an address that never ran: nothing */
    in = input_of(t, 0xD000);
    CU_ASSERT_EQUAL_FATAL(td_cfg_build(&in, &g), 0);
    CU_ASSERT_EQUAL(g.block_count, 0);
    CU_ASSERT_EQUAL(g.edge_count, 0);
    char *dot = td_cfg_dot(&g, "none");
    CU_ASSERT_PTR_NOT_NULL(dot);
    free(dot);
    td_cfg_free(&g);
    free(t);
}

/* Every address ran, random bytes and a full table of random edges: the
 * builder stays in bounds and every edge joins two of its blocks. */
static void test_random_tables_stay_in_bounds(void)
{
    uint32_t *count = malloc(65536 * sizeof *count);
    uint8_t *memory = malloc(65536);
    uint32_t *edges = malloc(65536 * 3 * sizeof *edges);
    CU_ASSERT_FATAL(count && memory && edges);
    uint32_t seed = 12345;
    for (size_t i = 0; i < 65536; i++) {
        seed = seed * 1103515245u + 12345u;
        count[i] = 1;
        memory[i] = (uint8_t)(seed >> 16);
    }
    for (size_t i = 0; i < 65536 * 3; i++) {
        seed = seed * 1103515245u + 12345u;
        uint32_t from = seed >> 16;
        seed = seed * 1103515245u + 12345u;
        edges[i] = from << 16 | seed >> 16;
    }
    td_cfg_input in = {0x1234, count, memory, edges, 65536 * 3, NULL};
    td_cfg g;
    CU_ASSERT_EQUAL_FATAL(td_cfg_build(&in, &g), 0);
    CU_ASSERT_TRUE(g.block_count > 0 && g.block_count <= 65536);
    size_t bad = 0;
    for (size_t i = 0; i < g.edge_count; i++)
        bad += g.edges[i].from >= g.block_count || g.edges[i].to >= g.block_count;
    CU_ASSERT_EQUAL(bad, 0);
    char *dot = td_cfg_dot(&g, "random");
    CU_ASSERT_PTR_NOT_NULL(dot);
    free(dot);
    td_cfg_free(&g);
    free(count);
    free(memory);
    free(edges);
}

MH_SUITE("tools_debug.cfg", NULL, NULL, MH_TEST(test_loop_blocks_and_back_edge),
         MH_TEST(test_entry_in_the_middle_and_unrun), MH_TEST(test_random_tables_stay_in_bounds));
