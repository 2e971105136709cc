/* bare6502.h - the bare6502 machine's private header: its configuration,
 * its instance struct and the functions the plugin's files share.
 *
 * The machine is an NMOS 6502 (the SDK core, mcphost/cpu6502.h) on 64 KiB
 * of RAM with three I/O ports for test programs: a character output port,
 * an exit port and an interrupt control port (docs/machine-bare6502.md).
 *
 * Files, one job each:
 *   bare6502_options.c  the options JSON -> bare6502_config (all checks)
 *   bare6502_program.c  loading a .prg or raw binary into RAM
 *   bare6502_bus.c      the memory and I/O map: CPU bus callbacks, ports,
 *                       side-effect-free peek, CPU-like poke
 *   bare6502_ifaces.c   the capability interfaces registered as chips
 *                       (mh.cpu6502/1 "cpu", mh.memory/1 "memory")
 *   bare6502_machine.c  the machine type on the SDK's machine kit
 *                       (mcphost/machine_kit.h): create, destroy, run,
 *                       clock_hz
 *   bare6502_plugin.c   the plugin entry: registers the machine type
 *
 * Ownership: a bare6502 instance is created by bare6502_create() and owns
 * everything in it (the output FILE when it is a file it opened).
 * Threads: everything here is [emu-thread], called on the session's own
 * thread. There is no global mutable state: two instances share nothing.
 */
#ifndef BARE6502_H
#define BARE6502_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mcphost/cpu6502.h"
#include "mcphost/machine_kit.h"
#include "mcphost/mcphost.h"

/* The three ports, indexes into the port tables. */
enum {
    BARE6502_PORT_OUTPUT = 0, /* a write appends the byte to the output */
    BARE6502_PORT_EXIT = 1,   /* a write ends the run with that exit code */
    BARE6502_PORT_IRQ = 2,    /* bit 0 drives IRQ, bit 1 drives NMI */
    BARE6502_PORT_COUNT = 3
};

#define BARE6502_DEFAULT_OUTPUT_PORT 0xF001u
#define BARE6502_DEFAULT_EXIT_PORT 0xF002u
#define BARE6502_DEFAULT_IRQ_PORT 0xF003u
#define BARE6502_DEFAULT_CLOCK_HZ 1000000u
#define BARE6502_MIN_CLOCK_HZ 1000u
#define BARE6502_MAX_CLOCK_HZ 1000000000u
#define BARE6502_PORT_NONE (-1) /* a disabled port */

/* The interrupt port's bits. */
#define BARE6502_IRQ_BIT 0x01u
#define BARE6502_NMI_BIT 0x02u

/* Everything the options say, checked. Strings are malloc'ed copies. */
typedef struct bare6502_config {
    char *program;         /* path, or NULL for no program */
    int has_load_address;  /* 1: program is a raw binary loaded here */
    uint16_t load_address;
    int has_start;         /* 1: start overrides the default PC */
    uint16_t start;
    char *output;          /* "stderr", "stdout" or a file path; never NULL */
    int overwrite;         /* 1: an existing output file may be truncated */
    int32_t port[BARE6502_PORT_COUNT]; /* address, or BARE6502_PORT_NONE */
    uint64_t clock_hz;
} bare6502_config;

/* One machine instance. */
typedef struct bare6502 {
    mh_cpu6502 cpu;
    uint8_t ram[65536];

    /* I/O map: io_page[p] is 1 when page p holds an enabled port, so the
     * bus callbacks need one table look-up to know an access is plain RAM. */
    uint8_t io_page[256];
    int32_t port[BARE6502_PORT_COUNT];
    uint8_t output_latch; /* last byte written to the output port */
    uint8_t irq_latch;    /* bits 0-1 last written to the interrupt port */

    /* The machine kit's runner and its state (the exit port's request). */
    mh_machine_kit kit;
    mh_kit_state run;
    mh_kit_memory memory; /* the mh.memory/1 chip's context */

    FILE *out;          /* where output-port bytes go */
    int out_owned;      /* 1: fclose() it at destroy */
    int out_dirty;      /* bytes written since the last flush */
    char *output_name;  /* for messages */

    uint64_t clock_hz;
    const mh_host *host; /* for the log service */
} bare6502;

/* ---- bare6502_options.c ---- */

/* Parses and checks the options object. On failure writes a message that
 * names the option and what it takes, and leaves nothing allocated. */
mh_status bare6502_options_parse(const char *options_json, bare6502_config *config,
                                 char *error, size_t error_size);
void bare6502_options_free(bare6502_config *config);

/* ---- bare6502_program.c ---- */
/* Resolves config->program and a file config->output through the host's
 * mh.files/1 (allowed directories); the error names the option. A host
 * without the service leaves them as they are. */
mh_status bare6502_confine_paths(const mh_host *host, bare6502_config *config, char *error,
                                 size_t error_size);

/* Loads config->program into ram (a .prg, or a raw binary at
 * config->load_address) and stores where it went. On failure writes a
 * message naming the file. */
mh_status bare6502_program_load(const bare6502_config *config, uint8_t *ram,
                                uint16_t *load_address, size_t *size, char *error,
                                size_t error_size);

/* ---- bare6502_bus.c ---- */

/* Sets up the I/O map from the configured ports. */
void bare6502_bus_init(bare6502 *m, const int32_t port[BARE6502_PORT_COUNT]);
/* The CPU's bus callbacks (desc.read / desc.write; user is the bare6502). */
uint8_t bare6502_bus_read(void *user, uint16_t addr);
void bare6502_bus_write(void *user, uint16_t addr, uint8_t value);
/* What the CPU would read at addr, without side effects. */
uint8_t bare6502_bus_peek(const bare6502 *m, uint16_t addr);
/* Where the CPU's bytes from addr on can be read in place: the RAM at
 * addr with *length set to the bytes before the next port; or NULL with
 * *length 1 when addr is a port (bare6502_bus_peek reads it). */
const uint8_t *bare6502_bus_span(const bare6502 *m, uint16_t addr, uint32_t *length);
/* Writes like the CPU (ports act); from_cpu 0 for a debugger's poke. */
void bare6502_bus_poke(bare6502 *m, uint16_t addr, uint8_t value, int from_cpu);
/* The port at addr (BARE6502_PORT_*), or -1 when addr is RAM. */
int bare6502_bus_port_at(const bare6502 *m, uint16_t addr);
/* Flushes the output if anything was written. */
void bare6502_bus_flush(bare6502 *m);

/* ---- bare6502_ifaces.c ---- */

/* The chips to register: "cpu" (mh.cpu6502/1), "memory" (mh.memory/1),
 * "caps" (mh.caps/1); returns how many (max must be >= 3). */
size_t bare6502_ifaces_chips(bare6502 *m, mh_chip *chips, size_t max);

/* ---- bare6502_machine.c ---- */

/* The machine type the plugin registers (user_data: the mh_host). */
void bare6502_machine_desc(mh_machine_desc *desc, const mh_host *host);

#endif
