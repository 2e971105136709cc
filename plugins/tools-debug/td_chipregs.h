/* td_chipregs.h - which chip register an address is, for the frame trace
 * (tools_trace.c): the session's chips with their io_range() (chip_io.h),
 * a short name per register of each chip family the SDK has an interface
 * for (VIC-II, CIA, SID, VIA, VIC, TED), and a short decoded meaning where
 * it is cheap (colours, IRQ bits). Pure tables and lookups; [emu-thread]
 * inside a handler (it reads the session's chip list). */
#ifndef TD_CHIPREGS_H
#define TD_CHIPREGS_H

#include <stddef.h>
#include <stdint.h>

#include "tools_debug.h"

#define TD_CHIPS_MAX 16

/* One register-bearing chip of a session. */
typedef struct td_chip_map {
    const char *instance;  /* "vic2", "cia1" */
    const char *family;    /* "VIC-II", "CIA" ... */
    uint32_t base, size;   /* where its registers (with mirrors) are */
    uint32_t registers, stride;
    unsigned kind;         /* index into the name tables */
} td_chip_map;

/* The session's chips that have registers in the CPU's map; returns how
 * many (at most max). */
size_t td_chips_of(td_plugin *plugin, mh_session *session, td_chip_map *out, size_t max);

/* The chip (index into chips, -1 none) and register (-1 none) at address. */
int td_chip_at(const td_chip_map *chips, size_t n, uint16_t address, int *reg);

/* A register's short name ("EC", "ICR"); "" when it has none. */
const char *td_chip_reg_name(const td_chip_map *chip, int reg);

/* The register by name (case-insensitive) or -1. */
int td_chip_reg_by_name(const td_chip_map *chip, const char *name);

/* A short meaning of value written to reg ("border colour = red"), into
 * out ("" when there is nothing cheap to say). */
void td_chip_annotate(const td_chip_map *chip, int reg, uint8_t value, char *out, size_t size);

#endif
