#include "chip_names.h"

#include <string.h>

/* single: a capability a machine has once, so its tools take no
 * `instance`; example: the instance to name in a chip tool's schema;
 * roles: the jobs a chip does (MH_CHIP_ROLE_*), so a machine without a
 * chip can point at the one that does its job (the TED is video, sound and
 * timers in one). Capabilities have no role. */
static const struct {
    const char *prefix;
    const char *name;
    const char *example;
    int single;
    unsigned roles;
} chip_names[] = {
    {"mh.chip.vic2/", "VIC-II chip", "vic2", 0, MH_CHIP_ROLE_VIDEO},
    {"mh.chip.vic/", "VIC (6560/6561) chip", "vic", 0, MH_CHIP_ROLE_VIDEO | MH_CHIP_ROLE_SOUND},
    {"mh.chip.ted/", "TED chip", "ted", 0,
     MH_CHIP_ROLE_VIDEO | MH_CHIP_ROLE_SOUND | MH_CHIP_ROLE_TIMERS},
    {"mh.chip.sid/", "SID chip", "sid", 0, MH_CHIP_ROLE_SOUND},
    {"mh.chip.cia/", "CIA 6526 chip", "cia2", 0, MH_CHIP_ROLE_TIMERS},
    {"mh.chip.via/", "VIA 6522 chip", "via2", 0, MH_CHIP_ROLE_TIMERS},
    {"mh.chip.cpu6502/", "6502-family CPU", "cpu", 0, 0},
    {"mh.cpu6502/", "6502-family CPU", NULL, 1, 0},
    {"mh.memory/", "memory interface", NULL, 1, 0},
    {"mh.video/", "video output", NULL, 1, 0},
    {"mh.textscreen/", "text screen", NULL, 1, 0},
    {"mh.audio/", "sound output", NULL, 1, 0},
    {"mh.media/", "media interface (disks, tapes, cartridges)", NULL, 1, 0},
    {"mh.snapshot/", "snapshot interface", NULL, 1, 0},
    {"mh.input/", "keyboard and joystick input", NULL, 1, 0},
    {"mh.machine/", "machine reset interface", NULL, 1, 0},
    {"mh.config/", "settings interface", NULL, 1, 0},
    {"mh.caps/", "capability description", NULL, 1, 0},
};

static size_t find(const char *interface_id)
{
    for (size_t i = 0; i < sizeof chip_names / sizeof chip_names[0]; i++)
        if (strncmp(interface_id, chip_names[i].prefix, strlen(chip_names[i].prefix)) == 0)
            return i;
    return (size_t)-1;
}

const char *mh_chip_human_name(const char *interface_id)
{
    size_t i = find(interface_id);
    return i == (size_t)-1 ? interface_id : chip_names[i].name;
}

int mh_chip_takes_instance(const char *interface_id, const char **example)
{
    size_t i = find(interface_id);
    *example = i == (size_t)-1 ? NULL : chip_names[i].example;
    return i == (size_t)-1 || !chip_names[i].single;
}

unsigned mh_chip_roles(const char *interface_id)
{
    size_t i = find(interface_id);
    return i == (size_t)-1 ? 0 : chip_names[i].roles;
}
