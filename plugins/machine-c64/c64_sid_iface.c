/* c64_sid_iface.c - the SID's chip interface for the SID toolset
 * (placeholder until "mh.chip.sid/1" exists: registers nothing). */
#include "c64.h"

size_t c64_sid_chips(c64 *m, mh_chip *chips)
{
    (void)m;
    (void)chips;
    return 0;
}
