/* cpu6502.port: the on-chip I/O port of the 6510 (C64) and 7501/8501
 * (Plus/4): $00 data direction, $01 data; output bits read back from the
 * latch, input bits from the pins (pull-ups by default, or the machine's
 * port_input callback); accesses still appear on the bus. The NMOS 6502
 * has no port: $00/$01 are memory. */
#include <string.h>

#include "mcphost/asm6502.h"
#include "mcphost/cpu6502.h"
#include "mh_test.h"

typedef struct port_machine {
    uint8_t mem[65536];
    int bus_writes_01, bus_reads_01;
    uint8_t last_bus_write;
    uint8_t pins; /* what port_input returns */
    int input_calls;
} port_machine;

static uint8_t pm_read(void *user, uint16_t addr)
{
    port_machine *m = user;
    if (addr == 1) m->bus_reads_01++;
    return m->mem[addr];
}

static void pm_write(void *user, uint16_t addr, uint8_t value)
{
    port_machine *m = user;
    if (addr == 1) {
        m->bus_writes_01++;
        m->last_bus_write = value;
    }
    m->mem[addr] = value;
}

static uint8_t pm_input(void *user)
{
    port_machine *m = user;
    m->input_calls++;
    return m->pins;
}

/* Runs `source` (at $1000) to its BRK-free end: n instructions. */
static void run_program(mh_cpu6502 *cpu, port_machine *m, const char *source, int instructions)
{
    mh_asm6502_result r;
    CU_ASSERT_EQUAL_FATAL(mh_asm6502_assemble(source, strlen(source), NULL, &r), MH_OK);
    mh_asm6502_to_image(&r, m->mem, NULL);
    mh_asm6502_result_free(&r);
    cpu->state = MH_CPU6502_STATE_FETCH;
    cpu->pc = 0x1000;
    for (int i = 0; i < instructions; i++) mh_cpu6502_step(cpu);
}

static void new_cpu(mh_cpu6502 *cpu, port_machine *m, mh_cpu6502_model model, int with_input)
{
    memset(m, 0, sizeof *m);
    mh_cpu6502_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.model = model;
    desc.read = pm_read;
    desc.write = pm_write;
    desc.user = m;
    if (with_input) desc.port_input = pm_input;
    CU_ASSERT_EQUAL_FATAL(mh_cpu6502_init(cpu, &desc), MH_OK);
}

static void test_6510_defaults_and_kernal_setup(void)
{
    mh_cpu6502 cpu;
    static port_machine m;
    new_cpu(&cpu, &m, MH_CPU6502_MODEL_6510, 0);
    CU_ASSERT_EQUAL(cpu.port.pins, 0x3F);
    CU_ASSERT_EQUAL(cpu.port.ddr, 0);
    /* all inputs after reset: the pulled-up pins read 1, bits 6-7 read 0 */
    CU_ASSERT_EQUAL(mh_cpu6502_port_read(&cpu, 0), 0x00);
    CU_ASSERT_EQUAL(mh_cpu6502_port_read(&cpu, 1), 0x3F);
    CU_ASSERT_EQUAL(mh_cpu6502_port_pins(&cpu), 0x3F);
    /* what the C64 KERNAL does at reset */
    m.mem[0] = m.mem[1] = 0x55; /* RAM under the port */
    run_program(&cpu, &m,
                "*= $1000\n LDA #$2F\n STA $00\n LDA #$37\n STA $01\n LDA $01\n LDX $00\n", 6);
    CU_ASSERT_EQUAL(cpu.port.ddr, 0x2F);
    CU_ASSERT_EQUAL(cpu.port.data, 0x37);
    CU_ASSERT_EQUAL(cpu.a, 0x37); /* bit 4 (cassette sense) is an input, pulled up */
    CU_ASSERT_EQUAL(cpu.x, 0x2F);
    CU_ASSERT_EQUAL(mh_cpu6502_port_pins(&cpu), 0x37);
    /* the accesses were on the bus; the write reached RAM too */
    CU_ASSERT_EQUAL(m.bus_writes_01, 1);
    CU_ASSERT_EQUAL(m.last_bus_write, 0x37);
    CU_ASSERT_EQUAL(m.bus_reads_01, 1);
    CU_ASSERT_EQUAL(m.mem[1], 0x37);
}

static void test_6510_inputs_and_outputs(void)
{
    mh_cpu6502 cpu;
    static port_machine m;
    new_cpu(&cpu, &m, MH_CPU6502_MODEL_6510, 0);
    /* a pressed cassette button pulls bit 4 low */
    cpu.port.input = 0x2F;
    m.mem[1] = 0xFF; /* RAM under $01 is never what a read returns */
    run_program(&cpu, &m, "*= $1000\n LDA #$2F\n STA $00\n LDA #$FF\n STA $01\n LDA $01\n", 5);
    CU_ASSERT_EQUAL(cpu.a, 0x2F);
    /* bits 6-7 exist in the latches: as outputs they read back */
    run_program(&cpu, &m, "*= $1000\n LDA #$C0\n STA $00\n LDA #$80\n STA $01\n LDA $01\n", 5);
    CU_ASSERT_EQUAL(cpu.a, 0x80 | (0x2F & 0x3F));
    CU_ASSERT_EQUAL(mh_cpu6502_port_pins(&cpu), 0x2F); /* no pins 6-7 */
    /* read-modify-write on the port works on the port's value */
    run_program(&cpu, &m, "*= $1000\n LDA #$07\n STA $00\n LDA #$05\n STA $01\n INC $01\n LDA $01\n", 6);
    /* the pins were read and written back; bit 7, output 1 until the DDR
     * write, still holds its charge as an input */
    CU_ASSERT_EQUAL(cpu.port.data, 0xAE);
    CU_ASSERT_EQUAL(cpu.a & 0x07, 0x06);
}

/* The 6510's pinless bits 6-7 as inputs read the level they drove as
 * outputs (a write to $01 while they are inputs changes nothing) until it
 * fades to 0 (VICE testprogs CPU/cpuport). */
static void test_6510_pinless_bits_fade(void)
{
    mh_cpu6502 cpu;
    static port_machine m;
    new_cpu(&cpu, &m, MH_CPU6502_MODEL_6510, 0);
    run_program(&cpu, &m, "*= $1000\n LDA #$FF\n STA $00\n STA $01\n LDA #$3F\n STA $00\n"
                          " LDA #$00\n STA $01\n LDA $01\n", 8);
    CU_ASSERT_EQUAL(cpu.a & 0xC0, 0xC0);
    /* now drive 0 on bit 7, 1 on bit 6, turn both to input, write 1s */
    run_program(&cpu, &m, "*= $1000\n LDA #$FF\n STA $00\n LDA #$40\n STA $01\n LDA #$3F\n"
                          " STA $00\n LDA #$FF\n STA $01\n LDA $01\n", 9);
    CU_ASSERT_EQUAL(cpu.a & 0xC0, 0x40);
    /* the charge fades after port.fade_cycles */
    CU_ASSERT(cpu.port.fade_cycles > 0);
    cpu.cycles += cpu.port.fade_cycles;
    run_program(&cpu, &m, "*= $1000\n LDA $01\n", 1);
    CU_ASSERT_EQUAL(cpu.a & 0xC0, 0x00);
    CU_ASSERT_EQUAL(cpu.a & 0x3F, 0x3F); /* the pins pulled up as before */
}

static void test_port_input_callback(void)
{
    mh_cpu6502 cpu;
    static port_machine m;
    new_cpu(&cpu, &m, MH_CPU6502_MODEL_6510, 1);
    m.pins = 0x0F;
    run_program(&cpu, &m, "*= $1000\n LDA #$01\n STA $00\n LDA #$00\n STA $01\n LDA $01\n", 5);
    CU_ASSERT_EQUAL(cpu.a, 0x0E); /* bit 0 output low, the rest from the pins */
    CU_ASSERT(m.input_calls >= 1);
    m.pins = 0x00;
    CU_ASSERT_EQUAL(mh_cpu6502_port_read(&cpu, 1), 0x00);
    /* the fast path reads the callback the same way */
    static uint8_t flat[65536];
    mh_cpu6502_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.model = MH_CPU6502_MODEL_6510;
    desc.memory = flat;
    desc.user = &m;
    desc.port_input = pm_input;
    mh_cpu6502 fast;
    CU_ASSERT_EQUAL_FATAL(mh_cpu6502_init(&fast, &desc), MH_OK);
    m.pins = 0x2A;
    static const uint8_t prog[] = {0xA5, 0x01, 0xEA};
    memcpy(flat + 0x1000, prog, sizeof prog);
    fast.state = MH_CPU6502_STATE_FETCH;
    fast.pc = 0x1000;
    CU_ASSERT_EQUAL(mh_cpu6502_run(&fast, 3), 3);
    CU_ASSERT_EQUAL(fast.a, 0x2A);
}

static void test_7501_port(void)
{
    mh_cpu6502 cpu;
    static port_machine m;
    new_cpu(&cpu, &m, MH_CPU6502_MODEL_7501, 0);
    CU_ASSERT_EQUAL(cpu.port.pins, 0xDF); /* P5 does not exist */
    CU_ASSERT_EQUAL(mh_cpu6502_port_read(&cpu, 1), 0xDF);
    run_program(&cpu, &m, "*= $1000\n LDA #$FF\n STA $00\n LDA #$FF\n STA $01\n LDA $01\n", 5);
    CU_ASSERT_EQUAL(cpu.a, 0xFF);                      /* the latch reads back */
    CU_ASSERT_EQUAL(mh_cpu6502_port_pins(&cpu), 0xDF); /* but only 7 pins */
    /* reset clears direction and data */
    mh_cpu6502_reset(&cpu);
    CU_ASSERT_EQUAL(cpu.port.ddr, 0);
    CU_ASSERT_EQUAL(cpu.port.data, 0);
}

static void test_nmos_has_no_port(void)
{
    mh_cpu6502 cpu;
    static port_machine m;
    new_cpu(&cpu, &m, MH_CPU6502_MODEL_6502, 0);
    run_program(&cpu, &m, "*= $1000\n LDA #$12\n STA $00\n LDA #$34\n STA $01\n LDA $00\n LDX $01\n", 6);
    CU_ASSERT_EQUAL(cpu.a, 0x12);
    CU_ASSERT_EQUAL(cpu.x, 0x34);
    CU_ASSERT_EQUAL(cpu.port.ddr, 0);
    CU_ASSERT_EQUAL(mh_cpu6502_port_pins(&cpu), 0);
    CU_ASSERT_EQUAL(mh_cpu6502_port_read(&cpu, 1), 0);
}

MH_SUITE("cpu6502.port", NULL, NULL, MH_TEST(test_6510_defaults_and_kernal_setup),
         MH_TEST(test_6510_inputs_and_outputs), MH_TEST(test_6510_pinless_bits_fade),
         MH_TEST(test_port_input_callback),
         MH_TEST(test_7501_port), MH_TEST(test_nmos_has_no_port))
