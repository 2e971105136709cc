/* Suite debug.profile: the profiler's accounting (host/debug/
 * debug_profile.h) driven with made-up instruction boundaries: calls,
 * exclusive and inclusive cycles through nested JSRs, call sites and
 * returns, control-transfer edges, an IRQ's own cycles, a routine that
 * drops its return address, and the code/data marks. */
#include <CUnit/CUnit.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../host/debug/debug_profile.h"
#include "mh_test.h"

static void step(dbg_profile *p, uint64_t cycle, uint16_t pc, uint8_t s, uint8_t b0, uint8_t b1,
                 uint8_t b2)
{
    dbg_profile_at at = {0};
    at.cycle = cycle;
    at.pc = pc;
    at.s = s;
    at.bytes[0] = b0;
    at.bytes[1] = b1;
    at.bytes[2] = b2;
    dbg_profile_step(p, &at);
}

static int has_pair(const dbg_pairset *set, uint16_t a, uint16_t b)
{
    uint32_t key = (uint32_t)a << 16 | b;
    for (size_t i = 0; i < DBG_PAIRS_CAPACITY; i++)
        if (set->keys[i] == key) return 1;
    return 0;
}

/* main: $C000 JSR A; $C003 JSR B; $C006 NOP
 * A:    $C100 INX; $C101 RTS            (2 + 6 cycles)
 * B:    $C200 JSR A; $C203 RTS          (6 + 6 of its own) */
static void run_nested(dbg_profile *p)
{
    step(p, 0, 0xC000, 0xFF, 0x20, 0x00, 0xC1);
    step(p, 6, 0xC100, 0xFD, 0xE8, 0, 0);
    step(p, 8, 0xC101, 0xFD, 0x60, 0, 0);
    step(p, 14, 0xC003, 0xFF, 0x20, 0x00, 0xC2);
    step(p, 20, 0xC200, 0xFD, 0x20, 0x00, 0xC1);
    step(p, 26, 0xC100, 0xFB, 0xE8, 0, 0);
    step(p, 28, 0xC101, 0xFB, 0x60, 0, 0);
    step(p, 34, 0xC203, 0xFD, 0x60, 0, 0);
    step(p, 40, 0xC006, 0xFF, 0xEA, 0, 0);
    step(p, 42, 0xC007, 0xFF, 0xEA, 0, 0);
}

static void test_nested_calls(void)
{
    dbg_profile *p = dbg_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    run_nested(p);
    const mh_profile_function *a = &p->functions[0xC100], *b = &p->functions[0xC200];
    CU_ASSERT_EQUAL(a->calls, 2);
    CU_ASSERT_EQUAL(a->exclusive_cycles, 16);
    CU_ASSERT_EQUAL(a->inclusive_cycles, 16);
    CU_ASSERT_EQUAL(a->instructions, 4);
    CU_ASSERT_EQUAL(a->kinds, MH_ENTRY_JSR);
    CU_ASSERT_EQUAL(b->calls, 1);
    CU_ASSERT_EQUAL(b->exclusive_cycles, 12);
    CU_ASSERT_EQUAL(b->inclusive_cycles, 20);
    CU_ASSERT_EQUAL(p->functions[0xC000].calls, 0);
    CU_ASSERT_EQUAL(p->root_cycles, 6 + 6 + 2);
    CU_ASSERT_EQUAL(p->insn_count[0xC100], 2);
    CU_ASSERT_EQUAL(p->cycle_count[0xC100], 4);
    CU_ASSERT_EQUAL(p->cycle_count[0xC101], 12);
    CU_ASSERT_EQUAL(p->view.instructions, 10);
    CU_ASSERT_EQUAL(p->view.cycles, 42);
    CU_ASSERT_EQUAL(p->depth, 0);
    CU_ASSERT_TRUE(has_pair(&p->callers, 0xC100, 0xC000));
    CU_ASSERT_TRUE(has_pair(&p->callers, 0xC100, 0xC200));
    CU_ASSERT_TRUE(has_pair(&p->callers, 0xC200, 0xC003));
    CU_ASSERT_FALSE(has_pair(&p->callers, 0xC200, 0xC000));
    CU_ASSERT_TRUE(has_pair(&p->returns, 0xC100, 0xC101));
    CU_ASSERT_TRUE(has_pair(&p->returns, 0xC200, 0xC203));
    CU_ASSERT_TRUE(has_pair(&p->edges, 0xC000, 0xC100));
    CU_ASSERT_TRUE(has_pair(&p->edges, 0xC101, 0xC003));
    CU_ASSERT_TRUE(has_pair(&p->edges, 0xC101, 0xC203));
    CU_ASSERT_TRUE(has_pair(&p->edges, 0xC203, 0xC006));
    CU_ASSERT_FALSE(has_pair(&p->edges, 0xC100, 0xC101)); /* INX falls through: no edge */
    CU_ASSERT_EQUAL(p->edges.used, 6);
    CU_ASSERT_EQUAL(p->usage[0xC000], MH_USAGE_OPCODE);
    CU_ASSERT_EQUAL(p->usage[0xC001], MH_USAGE_OPERAND);
    CU_ASSERT_EQUAL(p->usage[0xC002], MH_USAGE_OPERAND);
    CU_ASSERT_EQUAL(p->usage[0xC102], 0);
    /* reset empties everything */
    dbg_profile_reset(p);
    CU_ASSERT_EQUAL(p->functions[0xC100].calls, 0);
    CU_ASSERT_EQUAL(p->edges.used, 0);
    CU_ASSERT_EQUAL(p->view.cycles, 0);
    CU_ASSERT_EQUAL(p->usage[0xC000], 0);
    dbg_profile_free(p);
}

/* An IRQ after INX: the 7 cycles of the sequence are the handler's, not
 * INX's; RTI returns it and the edge from INX goes where it would have. */
static void test_irq_cycles_are_the_handlers(void)
{
    dbg_profile *p = dbg_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    step(p, 0, 0xC100, 0xFF, 0xE8, 0, 0);
    dbg_profile_at irq = {0};
    irq.cycle = 9;
    irq.pc = 0xFF48;
    irq.bytes[0] = 0x40; /* RTI */
    irq.s = 0xFC;
    irq.interrupt = MH_ENTRY_IRQ;
    irq.interrupt_cycles = 7;
    irq.resume = 0xC101;
    dbg_profile_step(p, &irq);
    step(p, 15, 0xC101, 0xFF, 0xEA, 0, 0);
    step(p, 17, 0xC102, 0xFF, 0xEA, 0, 0);
    const mh_profile_function *h = &p->functions[0xFF48];
    CU_ASSERT_EQUAL(p->cycle_count[0xC100], 2);
    CU_ASSERT_EQUAL(h->calls, 1);
    CU_ASSERT_EQUAL(h->kinds, MH_ENTRY_IRQ);
    CU_ASSERT_EQUAL(h->exclusive_cycles, 7 + 6);
    CU_ASSERT_EQUAL(h->inclusive_cycles, 13);
    CU_ASSERT_TRUE(has_pair(&p->callers, 0xFF48, 0xC100));
    CU_ASSERT_TRUE(has_pair(&p->returns, 0xFF48, 0xFF48));
    CU_ASSERT_TRUE(has_pair(&p->edges, 0xFF48, 0xC101));
    CU_ASSERT_FALSE(has_pair(&p->edges, 0xC100, 0xFF48)); /* INX is no jump */
    CU_ASSERT_EQUAL(p->depth, 0);
    dbg_profile_free(p);
}

/* B drops its return address (PLA PLA) and returns from A's level: both
 * frames end at the one RTS, and only A is returned from properly. */
static void test_dropped_return_unwinds(void)
{
    dbg_profile *p = dbg_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    step(p, 0, 0xC000, 0xFF, 0x20, 0x00, 0xC1);  /* JSR A */
    step(p, 6, 0xC100, 0xFD, 0x20, 0x00, 0xC2);  /* A: JSR B */
    step(p, 12, 0xC200, 0xFB, 0x68, 0, 0);       /* B: PLA */
    step(p, 16, 0xC201, 0xFC, 0x68, 0, 0);       /* PLA */
    step(p, 20, 0xC202, 0xFD, 0x60, 0, 0);       /* RTS (to main) */
    step(p, 26, 0xC003, 0xFF, 0xEA, 0, 0);
    CU_ASSERT_EQUAL(p->depth, 0);
    CU_ASSERT_EQUAL(p->functions[0xC200].inclusive_cycles, 26 - 12);
    CU_ASSERT_EQUAL(p->functions[0xC100].inclusive_cycles, 26 - 6);
    CU_ASSERT_TRUE(has_pair(&p->returns, 0xC100, 0xC202));
    CU_ASSERT_FALSE(has_pair(&p->returns, 0xC200, 0xC202));
    dbg_profile_free(p);
}

static uint8_t fake_peek(void *user, uint16_t address) { return ((const uint8_t *)user)[address]; }

static void step_regs(dbg_profile *p, uint8_t *memory, uint16_t pc, uint8_t x, uint8_t y,
                      uint8_t s, uint8_t b0, uint8_t b1, uint8_t b2)
{
    dbg_profile_at at = {0};
    at.pc = pc;
    at.x = x;
    at.y = y;
    at.s = s;
    at.bytes[0] = b0;
    at.bytes[1] = b1;
    at.bytes[2] = b2;
    at.peek = fake_peek;
    at.peek_user = memory;
    dbg_profile_step(p, &at);
}

/* Reads come from what each instruction addresses, not from the bus's
 * dummy reads; writes from the bus. */
static void test_data_reads_by_addressing_mode(void)
{
    dbg_profile *p = dbg_profile_new();
    uint8_t *memory = calloc(65536, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(memory);
    memory[0x10] = 0x00;
    memory[0x11] = 0x30;
    step_regs(p, memory, 0xC000, 0, 5, 0xF0, 0xAD, 0x00, 0x20); /* LDA $2000 */
    step_regs(p, memory, 0xC003, 0, 5, 0xF0, 0x99, 0x00, 0x21); /* STA $2100,Y */
    step_regs(p, memory, 0xC006, 0, 2, 0xF0, 0xB1, 0x10, 0);    /* LDA ($10),Y */
    step_regs(p, memory, 0xC008, 1, 2, 0xF0, 0xB5, 0x40, 0);    /* LDA $40,X */
    step_regs(p, memory, 0xC00A, 1, 2, 0xF0, 0x68, 0, 0);       /* PLA */
    step_regs(p, memory, 0xC00B, 1, 2, 0xF1, 0x6C, 0xFF, 0x20); /* JMP ($20FF) */
    step_regs(p, memory, 0xC00E, 1, 2, 0xF1, 0xEE, 0x00, 0x22); /* INC $2200 */
    dbg_profile_write(p, 0x2105);
    CU_ASSERT_EQUAL(p->usage[0x2000], MH_USAGE_READ);
    CU_ASSERT_EQUAL(p->usage[0x2105], MH_USAGE_WRITE);
    CU_ASSERT_EQUAL(p->reads[0x2105], 0);
    CU_ASSERT_EQUAL(p->writes[0x2105], 1);
    CU_ASSERT_EQUAL(p->reads[0x10], 1);
    CU_ASSERT_EQUAL(p->reads[0x11], 1);
    CU_ASSERT_EQUAL(p->reads[0x3002], 1);
    CU_ASSERT_EQUAL(p->reads[0x41], 1);
    CU_ASSERT_EQUAL(p->reads[0x40], 0); /* the zero page base: a dummy read */
    CU_ASSERT_EQUAL(p->reads[0x1F1], 1);
    CU_ASSERT_EQUAL(p->reads[0x20FF], 1);
    CU_ASSERT_EQUAL(p->reads[0x2000], 2); /* LDA, and JMP ($20FF)'s page-wrapped high byte */
    CU_ASSERT_EQUAL(p->reads[0x2100], 0);
    CU_ASSERT_EQUAL(p->reads[0x2200], 1);
    CU_ASSERT_EQUAL(p->usage[0xC00B], MH_USAGE_OPCODE);
    CU_ASSERT_EQUAL(p->usage[0xC00D], MH_USAGE_OPERAND);
    CU_ASSERT_TRUE(dbg_profile_is_flow(0xD0));
    CU_ASSERT_TRUE(dbg_profile_is_flow(0x4C));
    CU_ASSERT_FALSE(dbg_profile_is_flow(0xEA));
    CU_ASSERT_FALSE(dbg_profile_is_flow(0x11));
    free(memory);
    dbg_profile_free(p);
}

/* R calls itself once: its inclusive time is the outer call's alone. */
static void test_recursion_counts_once(void)
{
    dbg_profile *p = dbg_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    step(p, 0, 0xC000, 0xFF, 0x20, 0x00, 0xC1);  /* JSR R */
    step(p, 6, 0xC100, 0xFD, 0x20, 0x00, 0xC1);  /* R: JSR R */
    step(p, 12, 0xC100, 0xFB, 0x60, 0, 0);       /* inner call: RTS (made-up bytes) */
    step(p, 18, 0xC103, 0xFD, 0x60, 0, 0);       /* RTS */
    step(p, 24, 0xC003, 0xFF, 0xEA, 0, 0);
    const mh_profile_function *r = &p->functions[0xC100];
    CU_ASSERT_EQUAL(r->calls, 2);
    CU_ASSERT_EQUAL(r->inclusive_cycles, 24 - 6);
    CU_ASSERT_EQUAL(r->exclusive_cycles, 6 + 6 + 6);
    dbg_profile_free(p);
}

/* A reset (or a snapshot from the past) forgets the call stack. */
static void test_reset_forgets_the_stack(void)
{
    dbg_profile *p = dbg_profile_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    step(p, 100, 0xC000, 0xFF, 0x20, 0x00, 0xC1); /* JSR */
    step(p, 106, 0xC100, 0xFD, 0xEA, 0, 0);
    CU_ASSERT_EQUAL(p->depth, 1);
    dbg_profile_at at = {0};
    at.cycle = 120;
    at.pc = 0xFCE2;
    at.bytes[0] = 0xA2;
    at.reset = 1;
    dbg_profile_step(p, &at);
    CU_ASSERT_EQUAL(p->depth, 0);
    CU_ASSERT_EQUAL(p->functions[0xFCE2].calls, 0);
    CU_ASSERT_EQUAL(p->cycle_count[0xC100], 0); /* the gap is nobody's */
    step(p, 50, 0xC000, 0xFF, 0x20, 0x00, 0xC1); /* back in time */
    CU_ASSERT_EQUAL(p->cycle_count[0xFCE2], 0);
    CU_ASSERT_EQUAL(p->insn_count[0xC000], 2);
    dbg_profile_free(p);
}

MH_SUITE("debug.profile", NULL, NULL, MH_TEST(test_nested_calls),
         MH_TEST(test_irq_cycles_are_the_handlers), MH_TEST(test_dropped_return_unwinds),
         MH_TEST(test_data_reads_by_addressing_mode),
         MH_TEST(test_recursion_counts_once), MH_TEST(test_reset_forgets_the_stack));
