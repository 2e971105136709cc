/* bare6502_bus.c - the memory and I/O map: what the CPU reads and writes.
 *
 * Map: 64 KiB of RAM everywhere (the vectors at $FFFA-$FFFF too), except
 * the enabled ports, which hide the RAM byte under them from the CPU:
 *
 *   port     default  write                          read
 *   output   $F001    appends the byte to the output  the last byte written
 *   exit     $F002    ends the run, exit code = byte  0
 *   irq      $F003    bit 0: IRQ line, bit 1: NMI     bits 0-1 as written
 *                     line (1 = asserted)
 *
 * Speed: the CPU calls bare6502_bus_read/_write once per cycle. A 256-entry
 * page table says whether a page holds a port, so a RAM access costs one
 * table look-up and one array access; only accesses to a port's page take
 * the slow path.
 *
 * Exit: the exit port must stop the CPU right after the write, but the SDK
 * core's run() has no "stop now" input in its no-hook loop (the fastest
 * loop with bus callbacks). So the write pulls the CPU's RDY line low,
 * which halts a 6502 at its next read cycle, as a hardware single-step
 * circuit does; the core then counts stalled cycles until its budget ends.
 * bare6502_bus_undo_exit_stall() takes those phantom cycles back off the
 * CPU's clock and releases RDY, leaving the CPU exactly where the exiting
 * instruction ended (at an instruction boundary for every store).
 */
#include <string.h>

#include "bare6502.h"

void bare6502_bus_init(bare6502 *m, const int32_t port[BARE6502_PORT_COUNT])
{
    memset(m->io_page, 0, sizeof m->io_page);
    for (size_t i = 0; i < BARE6502_PORT_COUNT; i++) {
        m->port[i] = port[i];
        if (port[i] != BARE6502_PORT_NONE) m->io_page[(uint32_t)port[i] >> 8] = 1;
    }
}

int bare6502_bus_port_at(const bare6502 *m, uint16_t addr)
{
    if (!m->io_page[addr >> 8]) return -1;
    for (int i = 0; i < BARE6502_PORT_COUNT; i++)
        if (m->port[i] == (int32_t)addr) return i;
    return -1;
}

uint8_t bare6502_bus_peek(const bare6502 *m, uint16_t addr)
{
    switch (bare6502_bus_port_at(m, addr)) {
    case BARE6502_PORT_OUTPUT: return m->output_latch;
    case BARE6502_PORT_EXIT: return 0;
    case BARE6502_PORT_IRQ: return m->irq_latch;
    default: return m->ram[addr];
    }
}

static void write_output(bare6502 *m, uint8_t value)
{
    m->output_latch = value;
    if (m->out) {
        fputc(value, m->out);
        m->out_dirty = 1;
    }
}

static void write_exit(bare6502 *m, uint8_t value, int from_cpu)
{
    m->exit_pending = 1;
    m->exit_code = value;
    if (from_cpu) {
        /* Halt the CPU at its next read cycle (see the header comment). */
        m->exit_from_cpu = 1;
        m->exit_end = m->cpu.cycles + 1; /* the core counts this cycle after we return */
        m->cpu.rdy = 0;
        /* The halted fetch must not reach a debugger's sync hook: that
         * instruction does not run in this run. */
        m->saved_sync = m->cpu.links.sync;
        m->cpu.links.sync = NULL;
    }
}

static void write_irq(bare6502 *m, uint8_t value)
{
    m->irq_latch = (uint8_t)(value & (BARE6502_IRQ_BIT | BARE6502_NMI_BIT));
    /* A line changed inside a bus callback counts for the current cycle. */
    mh_cpu6502_set_irq(&m->cpu, 1u, value & BARE6502_IRQ_BIT);
    mh_cpu6502_set_nmi(&m->cpu, 1u, value & BARE6502_NMI_BIT);
}

void bare6502_bus_poke(bare6502 *m, uint16_t addr, uint8_t value, int from_cpu)
{
    int port = bare6502_bus_port_at(m, addr);
    if (port < 0) {
        m->ram[addr] = value;
        return;
    }
    if (m->exit_pending && from_cpu) {
        /* The run has ended; CPU writes still in flight (the second write of
         * a read-modify-write) reach no port. Their cycles are real. */
        if (m->exit_from_cpu) m->exit_end = m->cpu.cycles + 1;
        return;
    }
    switch (port) {
    case BARE6502_PORT_OUTPUT: write_output(m, value); break;
    case BARE6502_PORT_EXIT: write_exit(m, value, from_cpu); break;
    case BARE6502_PORT_IRQ: write_irq(m, value); break;
    default: break;
    }
}

uint8_t bare6502_bus_read(void *user, uint16_t addr)
{
    bare6502 *m = user;
    if (m->io_page[addr >> 8]) return bare6502_bus_peek(m, addr); /* port reads have no side effects */
    return m->ram[addr];
}

void bare6502_bus_write(void *user, uint16_t addr, uint8_t value)
{
    bare6502 *m = user;
    if (m->io_page[addr >> 8])
        bare6502_bus_poke(m, addr, value, 1);
    else
        m->ram[addr] = value;
}

uint32_t bare6502_bus_undo_exit_stall(bare6502 *m)
{
    if (!m->exit_from_cpu) return 0;
    uint64_t stalled = m->cpu.cycles - m->exit_end;
    m->cpu.cycles = m->exit_end;
    m->cpu.rdy = 1;
    m->cpu.stalled = 0;
    m->cpu.links.sync = m->saved_sync;
    m->exit_from_cpu = 0;
    return (uint32_t)stalled;
}

void bare6502_bus_flush(bare6502 *m)
{
    if (m->out && m->out_dirty) fflush(m->out);
    m->out_dirty = 0;
}
