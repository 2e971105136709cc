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
 * Exit: an exit-port write from the CPU asks the machine kit to end the
 * run right after that cycle (mh_kit_request_exit: the CPU halts at its
 * next read on the kit's halted bus and the stalled cycles are taken back),
 * leaving the CPU exactly where the exiting instruction ended (at an
 * instruction boundary for every store).
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

const uint8_t *bare6502_bus_span(const bare6502 *m, uint16_t addr, uint32_t *length)
{
    if (bare6502_bus_port_at(m, addr) >= 0) {
        *length = 1;
        return NULL;
    }
    uint32_t next = 0x10000u; /* the first port above addr ends the RAM run */
    for (int i = 0; i < BARE6502_PORT_COUNT; i++)
        if (m->port[i] != BARE6502_PORT_NONE && m->port[i] > (int32_t)addr &&
            (uint32_t)m->port[i] < next)
            next = (uint32_t)m->port[i];
    *length = next - addr;
    return m->ram + addr;
}

static void write_output(bare6502 *m, uint8_t value)
{
    m->output_latch = value;
    if (m->out) {
        fputc(value, m->out);
        m->out_dirty = 1;
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
    if (m->run.exit_pending && from_cpu) {
        /* The run has ended; CPU writes still in flight (the second write of
         * a read-modify-write) reach no port. */
        return;
    }
    switch (port) {
    case BARE6502_PORT_OUTPUT: write_output(m, value); break;
    case BARE6502_PORT_EXIT: mh_kit_request_exit(&m->kit, value, from_cpu); break;
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

void bare6502_bus_flush(bare6502 *m)
{
    if (m->out && m->out_dirty) fflush(m->out);
    m->out_dirty = 0;
}
