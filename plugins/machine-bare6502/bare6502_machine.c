/* bare6502_machine.c - the machine type "bare6502" (mh_machine_desc in
 * mcphost/session.h) on the SDK's machine kit (mcphost/machine_kit.h):
 * create, destroy, run, clock_hz.
 *
 * create() reads the options, loads the program, opens the output, sets up
 * the CPU with the bus callbacks, runs its 7-cycle reset sequence and sets
 * the start address, then registers the chips. Start address: the `start`
 * option; else, when a program was loaded and the reset vector ($FFFC) is
 * zero, the program's load address; else the reset vector.
 *
 * run() is the kit's loop (chunks up to the budget, ending mid-instruction
 * when the budget does) with the output flushed at the end; it says:
 *   MH_RUN_EXIT    an exit-port write (the CPU halts right after it);
 *   MH_RUN_BREAK   a debugger's hook stopped the CPU;
 *   MH_RUN_JAMMED  the CPU is jammed: run() returns in the cycle it jams,
 *                  and later runs use their whole budget (the clock goes on,
 *                  so --limit-cycles still ends the run) and say JAMMED;
 *   MH_RUN_BUDGET  otherwise.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mcphost/file_write.h>

#include "bare6502.h"

static void run_end(void *machine) { bare6502_bus_flush(machine); }

static const mh_kit_run_ops run_ops = {sizeof(mh_kit_run_ops), 0, NULL, NULL, run_end, NULL};

/* A file output is opened through the SDK's file writer: never through a
 * symbolic link, only a regular file (a FIFO would block this session's
 * thread), and an existing file is truncated only with overwrite: true. */
static mh_status open_output(bare6502 *m, const char *output, int overwrite, char *error,
                             size_t error_size)
{
    m->output_name = malloc(strlen(output) + 1);
    if (!m->output_name) return MH_ERR_NO_MEMORY;
    strcpy(m->output_name, output);
    if (strcmp(output, "stderr") == 0) {
        m->out = stderr;
        return MH_OK;
    }
    if (strcmp(output, "stdout") == 0) {
        m->out = stdout;
        return MH_OK;
    }
    char why[1024];
    int fd = -1;
    mh_status status = mh_file_open_stream(output, overwrite ? MH_FILE_OVERWRITE : 0, &fd, why,
                                           sizeof why);
    if (status == MH_OK && !(m->out = fdopen(fd, "wb"))) {
        snprintf(why, sizeof why, "%s", strerror(errno));
        close(fd);
        status = MH_ERR_IO;
    }
    if (status != MH_OK) {
        snprintf(error, error_size, "output \"%s\": %s%s", output, why,
                 status == MH_ERR_EXISTS
                     ? "; pass overwrite: true (--config overwrite=true) to replace it, or give "
                       "another file"
                     : " (output takes \"stderr\", \"stdout\" or a file path)");
        return status;
    }
    m->out_owned = 1;
    return MH_OK;
}

static void machine_destroy(void *instance)
{
    bare6502 *m = instance;
    if (!m) return;
    bare6502_bus_flush(m);
    if (m->out_owned) fclose(m->out);
    free(m->output_name);
    free(m);
}

/* Resets the CPU on the machine's bus and puts PC where the program
 * starts. */
static mh_status start_cpu(bare6502 *m, const bare6502_config *config, int loaded,
                           uint16_t load_address)
{
    mh_cpu6502_desc desc = {0};
    desc.model = MH_CPU6502_MODEL_6502;
    desc.read = bare6502_bus_read;
    desc.write = bare6502_bus_write;
    desc.user = m;
    mh_status status = mh_cpu6502_init(&m->cpu, &desc);
    if (status != MH_OK) return status;
    mh_kit_init(&m->kit, &m->cpu, &m->run, &run_ops, m, bare6502_bus_read, bare6502_bus_write, m,
                0);
    mh_cpu6502_step(&m->cpu); /* the reset sequence: 7 cycles, PC from $FFFC */
    uint16_t reset_vector = (uint16_t)(m->ram[0xFFFC] | m->ram[0xFFFD] << 8);
    if (config->has_start)
        m->cpu.pc = config->start;
    else if (loaded && reset_vector == 0)
        m->cpu.pc = load_address;
    return MH_OK;
}

static mh_status machine_make(const mh_host *host, const char *options_json, void **instance,
                              char *error, size_t error_size)
{
    bare6502_config config;
    mh_status status = bare6502_options_parse(options_json, &config, error, error_size);
    if (status != MH_OK) return status;
    status = bare6502_confine_paths(host, &config, error, error_size);
    if (status != MH_OK) {
        bare6502_options_free(&config);
        return status;
    }

    bare6502 *m = calloc(1, sizeof *m);
    if (!m) {
        bare6502_options_free(&config);
        snprintf(error, error_size, "out of memory creating a bare6502");
        return MH_ERR_NO_MEMORY;
    }
    m->host = host;
    m->clock_hz = config.clock_hz;
    bare6502_bus_init(m, config.port);

    uint16_t load_address = 0;
    size_t size = 0;
    if (config.program)
        status = bare6502_program_load(&config, m->ram, &load_address, &size, error, error_size);
    if (status == MH_OK) status = open_output(m, config.output, config.overwrite, error, error_size);
    if (status == MH_OK) status = start_cpu(m, &config, config.program != NULL, load_address);
    if (status == MH_OK && config.program)
        mh_kit_log(host, MH_LOG_INFO,
                   "bare6502: loaded %s at $%04X-$%04X (%zu byte%s), starting at $%04X",
                   config.program, load_address, (unsigned)(load_address + size - 1), size,
                   size == 1 ? "" : "s", m->cpu.pc);
    bare6502_options_free(&config);
    if (status != MH_OK) {
        machine_destroy(m);
        return status;
    }
    *instance = m;
    return MH_OK;
}

static size_t machine_chips(void *instance, mh_chip *chips, size_t max)
{
    return bare6502_ifaces_chips(instance, chips, max);
}

static const mh_kit_machine_ops machine_ops = {sizeof(mh_kit_machine_ops), machine_make,
                                               machine_chips, machine_destroy, NULL};

static mh_status machine_create(void *user_data, mh_session *session, const char *options_json,
                                void **instance, char *error, size_t error_size)
{
    return mh_kit_machine_create(&machine_ops, user_data, session, options_json, instance, error,
                                 error_size);
}

static mh_status machine_run(void *instance, uint64_t max_cycles, mh_run_result *result)
{
    return mh_kit_run(&((bare6502 *)instance)->kit, max_cycles, result);
}

static uint64_t machine_clock_hz(void *instance) { return ((bare6502 *)instance)->clock_hz; }

void bare6502_machine_desc(mh_machine_desc *desc, const mh_host *host)
{
    memset(desc, 0, sizeof *desc);
    desc->struct_size = sizeof *desc;
    desc->name = "bare6502";
    desc->description = "Plain NMOS 6502 with 64 KiB RAM and output, exit and interrupt ports";
    desc->create = machine_create;
    desc->destroy = machine_destroy;
    desc->run = machine_run;
    desc->clock_hz = machine_clock_hz;
    desc->user_data = (void *)host;
}
