/* kitdemo.c - the smallest machine on the SDK's machine kit: a 6502 on
 * 64 KiB of RAM whose program writes 42 to an exit port at $FFF0. Built
 * out of tree by tests/sdk/external_build.sh against the installed SDK. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <mcphost/machine_kit.h>
#include <mcphost/mcphost.h>

#define EXIT_PORT 0xFFF0u

typedef struct demo {
    mh_cpu6502 cpu;
    mh_machine_kit kit;
    mh_kit_state run;
    mh_kit_memory memory;
    uint8_t ram[65536];
} demo;

static uint8_t bus_read(void *user, uint16_t addr) { return ((demo *)user)->ram[addr]; }

static void bus_write(void *user, uint16_t addr, uint8_t value)
{
    demo *m = user;
    if (addr == EXIT_PORT) {
        if (!m->run.exit_pending) mh_kit_request_exit(&m->kit, value, 1);
        return;
    }
    m->ram[addr] = value;
}

static const mh_kit_run_ops run_ops = {sizeof(mh_kit_run_ops), 0, NULL, NULL, NULL, NULL};

static const mh_kit_space spaces[] = {
    {{"cpu", "RAM", 65536, 0, 1}, offsetof(demo, ram), 0, NULL, NULL},
};
static const mh_kit_memory_map memory_map = {spaces, 1, NULL, NULL, NULL};

static mh_status make(const mh_host *host, const char *options, void **instance, char *error,
                      size_t error_size)
{
    (void)host;
    (void)options;
    (void)error;
    (void)error_size;
    demo *m = calloc(1, sizeof *m);
    if (!m) return MH_ERR_NO_MEMORY;
    /* $0200: LDA #42; STA $FFF0; JMP $0205 */
    const uint8_t program[] = {0xA9, 42, 0x8D, 0xF0, 0xFF, 0x4C, 0x05, 0x02};
    memcpy(m->ram + 0x0200, program, sizeof program);
    m->ram[0xFFFC] = 0x00;
    m->ram[0xFFFD] = 0x02;
    mh_cpu6502_desc desc = {0};
    desc.read = bus_read;
    desc.write = bus_write;
    desc.user = m;
    mh_cpu6502_init(&m->cpu, &desc);
    mh_kit_state_reset(&m->run);
    mh_kit_init(&m->kit, &m->cpu, &m->run, &run_ops, m, bus_read, bus_write, m, 0);
    *instance = m;
    return MH_OK;
}

static size_t chips(void *instance, mh_chip *out, size_t max)
{
    demo *m = instance;
    if (max < 1) return 0;
    out[0] = mh_kit_memory_chip(&m->memory, &memory_map, m, "64 KiB RAM");
    return 1;
}

static void destroy(void *instance) { free(instance); }

static const mh_kit_machine_ops machine_ops = {sizeof(mh_kit_machine_ops), make, chips, destroy,
                                               NULL};

static mh_status create(void *user_data, mh_session *session, const char *options,
                        void **instance, char *error, size_t error_size)
{
    return mh_kit_machine_create(&machine_ops, user_data, session, options, instance, error,
                                 error_size);
}

static mh_status run(void *instance, uint64_t max_cycles, mh_run_result *result)
{
    return mh_kit_run(&((demo *)instance)->kit, max_cycles, result);
}

static uint64_t clock_hz(void *instance)
{
    (void)instance;
    return 1000000;
}

static mh_status init(const mh_host *host, void **data)
{
    const mh_registry_service *registry = host->get_service(host, MH_REGISTRY_SERVICE_ID);
    if (!registry) return MH_ERR_UNSUPPORTED;
    mh_machine_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.struct_size = sizeof desc;
    desc.name = "kitdemo";
    desc.description = "A 6502 on the machine kit that exits with 42";
    desc.create = create;
    desc.destroy = destroy;
    desc.run = run;
    desc.clock_hz = clock_hz;
    desc.user_data = (void *)host;
    *data = NULL;
    return registry->add_machine(host, &desc);
}

MH_PLUGIN_DEFINE("org.example.kitdemo", "kitdemo", "1.0.0", "A machine on the SDK's machine kit",
                 MH_PLUGIN_MACHINE, init, NULL);
