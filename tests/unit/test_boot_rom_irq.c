/* boot_rom.irq: the IRQ, BRK and NMI paths of the boot ROMs against the
 * original KERNALs (../shared/roms or $MCPHOST_TEST_ROMS; skipped, saying
 * so, when absent): the cycles from the interrupt to the first instruction
 * of a handler hooked into the RAM vector, the stack it leaves, and the
 * cycles from a handler's jump into an exit routine back to the
 * interrupted program; and the VIC-20's VIC register table at $EDE4. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot_rom.h"
#include "boot_rom_bus.h"
#include "mh_test.h"

#define LOOP 0x1001    /* JMP $1001: the interrupted program */
#define HANDLER 0x1100 /* the hook: JMP exit */

typedef enum { KIND_IRQ, KIND_BRK, KIND_NMI } kind;

typedef struct path_result {
    uint64_t entry_cycles, exit_cycles;
    uint8_t s;
    uint8_t stack[8];
    int ok;
} path_result;

/* Runs one interrupt through rom with the vector at `vector` hooked and
 * the handler jumping to exit_address. */
static path_result run_path(int plus4, const uint8_t *rom, size_t size, kind k, uint16_t vector,
                            uint16_t exit_address)
{
    path_result r;
    memset(&r, 0, sizeof r);
    rom_bus *b = calloc(1, sizeof *b);
    if (!b) return r;
    rom_bus_init(b, plus4, rom, size);
    mh_cpu6502_step(&b->cpu); /* the reset sequence */
    b->ram[vector] = (uint8_t)HANDLER;
    b->ram[vector + 1] = HANDLER >> 8;
    b->ram[HANDLER] = exit_address ? 0x4C : 0x40; /* JMP exit, or RTI */
    b->ram[HANDLER + 1] = (uint8_t)exit_address;
    b->ram[HANDLER + 2] = (uint8_t)(exit_address >> 8);
    b->ram[LOOP] = 0x4C;
    b->ram[LOOP + 1] = (uint8_t)LOOP;
    b->ram[LOOP + 2] = LOOP >> 8;
    b->ram[0x1000] = 0x00; /* BRK (with its padding byte at $1001) */
    b->cpu.pc = LOOP;
    b->cpu.s = 0xFF;
    b->cpu.p = 0x20 | 0x01 | 0x80; /* I clear, C and N set: the pushed P shows them */
    b->cpu.a = 0x11;
    b->cpu.x = 0x22;
    b->cpu.y = 0x33;
    mh_cpu6502_step(&b->cpu); /* one instruction of the program first */
    if (k == KIND_BRK) b->cpu.pc = 0x1000;
    uint64_t start = b->cpu.cycles;
    if (k == KIND_IRQ) b->cpu.irq = 1;
    if (k == KIND_NMI) b->cpu.nmi = 1;
    for (int i = 0; i < 200 && b->cpu.pc != HANDLER; i++) mh_cpu6502_step(&b->cpu);
    if (b->cpu.pc == HANDLER) {
        r.entry_cycles = b->cpu.cycles - start;
        r.s = b->cpu.s;
        for (int i = 0; i < 8; i++) r.stack[i] = b->ram[0x0100 + (uint8_t)(b->cpu.s + 1 + i)];
        b->cpu.irq = 0;
        b->cpu.nmi = 0;
        start = b->cpu.cycles;
        for (int i = 0; i < 200 && b->cpu.pc != LOOP && b->cpu.pc != 0x1002; i++)
            mh_cpu6502_step(&b->cpu);
        r.exit_cycles = b->cpu.cycles - start;
        r.ok = (b->cpu.pc == LOOP || b->cpu.pc == 0x1002) && b->cpu.a == 0x11 && r.entry_cycles &&
               b->cpu.x == 0x22 && b->cpu.y == 0x33 && b->cpu.s == 0xFF;
    }
    free(b);
    return r;
}

static void compare(int plus4, const uint8_t *original, const uint8_t *ours, size_t size, kind k,
                    uint16_t vector, uint16_t exit_address)
{
    path_result o = run_path(plus4, original, size, k, vector, exit_address);
    path_result m = run_path(plus4, ours, size, k, vector, exit_address);
    if (getenv("MH_BOOT_ROM_VERBOSE"))
        fprintf(stderr, "\n  kind %d exit $%04X: entry %llu/%llu, exit %llu/%llu cycles\n", (int)k,
                exit_address, (unsigned long long)m.entry_cycles,
                (unsigned long long)o.entry_cycles, (unsigned long long)m.exit_cycles,
                (unsigned long long)o.exit_cycles);
    CU_ASSERT_TRUE(o.ok);
    CU_ASSERT_TRUE(m.ok);
    CU_ASSERT_EQUAL(m.entry_cycles, o.entry_cycles);
    CU_ASSERT_EQUAL(m.exit_cycles, o.exit_cycles);
    CU_ASSERT_EQUAL(m.s, o.s);
    /* Y, X, A, P, PC (an NMI hook sees only P and PC) */
    CU_ASSERT_EQUAL(memcmp(m.stack, o.stack, k == KIND_NMI ? 3 : 6), 0);
    if (m.entry_cycles != o.entry_cycles || m.exit_cycles != o.exit_cycles)
        fprintf(stderr, "\n  exit $%04X: entry %llu/%llu exit %llu/%llu cycles (ours/original)\n",
                exit_address, (unsigned long long)m.entry_cycles,
                (unsigned long long)o.entry_cycles, (unsigned long long)m.exit_cycles,
                (unsigned long long)o.exit_cycles);
}

static void test_vic20_paths(void)
{
    static const char *const names[2] = {"VIC20/kernal.901486-07.bin", "VIC20/kernal.901486-06.bin"};
    for (int ntsc = 0; ntsc <= 1; ntsc++) {
        uint8_t *original = malloc(8192);
        if (!original || !rom_bus_load_original(names[ntsc], original, 8192)) {
            free(original);
            continue;
        }
        size_t size = 0;
        const uint8_t *ours = mh_boot_rom_vic20_kernal(ntsc, &size);
        /* the VIC's power-on registers where programs read them ($EDE4) */
        CU_ASSERT_EQUAL(memcmp(ours + 0x0DE4, original + 0x0DE4, 16), 0);
        /* IRQ through CINV, to the timer-acknowledging exit and the bare ones */
        compare(0, original, ours, size, KIND_IRQ, 0x0314, 0xEB15);
        compare(0, original, ours, size, KIND_IRQ, 0x0314, 0xEB18);
        compare(0, original, ours, size, KIND_IRQ, 0x0314, 0xFF56);
        /* BRK through CBINV; NMI through NMINV (which gets no saved
         * registers, so the hook ends with a plain RTI) */
        compare(0, original, ours, size, KIND_BRK, 0x0316, 0xFF56);
        compare(0, original, ours, size, KIND_NMI, 0x0318, 0);
        free(original);
    }
}

static void test_plus4_paths(void)
{
    static const char *const names[2] = {"PLUS4/kernal-318004-05.bin", "PLUS4/kernal-318005-05.bin"};
    for (int ntsc = 0; ntsc <= 1; ntsc++) {
        uint8_t *original = malloc(16384);
        if (!original || !rom_bus_load_original(names[ntsc], original, 16384)) {
            free(original);
            continue;
        }
        size_t size = 0;
        const uint8_t *ours = mh_boot_rom_plus4_kernal(ntsc, &size);
        /* IRQ: $FCB3 entry (bank switch), $CE00 dispatch, CINV; $FCBE exit */
        compare(1, original, ours, size, KIND_IRQ, 0x0314, 0xFCBE);
        compare(1, original, ours, size, KIND_BRK, 0x0316, 0xFCBE);
        free(original);
    }
}

MH_SUITE("boot_rom.irq", NULL, NULL, MH_TEST(test_vic20_paths), MH_TEST(test_plus4_paths))
