#include "chip_names.h"

#include <string.h>

static const struct {
    const char *prefix;
    const char *name;
} chip_names[] = {
    {"mh.chip.vic2/", "VIC-II chip"},
    {"mh.chip.vic/", "VIC (6560/6561) chip"},
    {"mh.chip.ted/", "TED chip"},
    {"mh.chip.sid/", "SID chip"},
    {"mh.chip.cia/", "CIA 6526 chip"},
    {"mh.chip.via/", "VIA 6522 chip"},
    {"mh.chip.cpu6502/", "6502-family CPU"},
    {"mh.media/", "media interface (disks, tapes, cartridges)"},
    {"mh.snapshot/", "snapshot interface"},
    {"mh.input/", "keyboard and joystick input"},
    {"mh.machine/", "machine reset interface"},
    {"mh.config/", "settings interface"},
    {"mh.audio/", "sound output"},
    {"mh.video/", "video output"},
};

const char *mh_chip_human_name(const char *interface_id)
{
    for (size_t i = 0; i < sizeof chip_names / sizeof chip_names[0]; i++)
        if (strncmp(interface_id, chip_names[i].prefix, strlen(chip_names[i].prefix)) == 0)
            return chip_names[i].name;
    return interface_id;
}
