/* host/src/chip_names.h - human names for chip interface ids, so "not
 * available" errors read "this machine has no VIC-II chip". [thread-safe] */
#ifndef MH_HOST_CHIP_NAMES_H
#define MH_HOST_CHIP_NAMES_H

/* "VIC-II" for "mh.chip.vic2/1"; the id itself when unknown. */
const char *mh_chip_human_name(const char *interface_id);

#endif
