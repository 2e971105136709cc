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

#endif
