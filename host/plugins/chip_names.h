/* host/plugins/chip_names.h - what the host knows about interface ids: human
 * names, so "not available" errors read "this machine has no VIC-II chip",
 * and which tools take an `instance` argument. [thread-safe] */
#ifndef MH_HOST_CHIP_NAMES_H
#define MH_HOST_CHIP_NAMES_H

/* "VIC-II" for "mh.chip.vic2/1"; the id itself when unknown. */
const char *mh_chip_human_name(const char *interface_id);

/* 1 when a tool requiring interface_id takes `instance` (a chip, or an
 * interface the host does not know); 0 for a capability a machine has once
 * (mh.machine/1, mh.video/1 ...). *example is an instance name to show
 * ("cia2" for mh.chip.cia/1), or NULL. */
int mh_chip_takes_instance(const char *interface_id, const char **example);

/* The jobs a chip interface does, so a tool for a chip a machine lacks can
 * point at the machine's own chip for that job (VIC-II -> VIC, SID -> VIC
 * or TED, CIA -> VIA or TED); 0 for capabilities and unknown ids. */
enum {
    MH_CHIP_ROLE_VIDEO = 1u << 0,
    MH_CHIP_ROLE_SOUND = 1u << 1,
    MH_CHIP_ROLE_TIMERS = 1u << 2 /* timers, ports, interrupts */
};
unsigned mh_chip_roles(const char *interface_id);

#endif
