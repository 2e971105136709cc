/* cia_decode.c - pure helpers of the CIA toolset (cia_decode.h). */
#include "cia_decode.h"

#include <stdio.h>
#include <string.h>

int tc_cia_register(uint32_t value, const char *instance)
{
    if (value < 0x10u) return (int)value;
    const int page = value >= 0xDC00u && value <= 0xDCFFu   ? 1
                     : value >= 0xDD00u && value <= 0xDDFFu ? 2
                                                            : 0;
    if (!page) return -1;
    if (instance && ((strcmp(instance, "cia1") == 0 && page != 1) ||
                     (strcmp(instance, "cia2") == 0 && page != 2)))
        return -2;
    return (int)(value & 0x0Fu);
}

const char *tc_input_name(unsigned input)
{
    static const char *const names[4] = {"phi2", "cnt", "timer_a", "timer_a_while_cnt"};
    return names[input & 3u];
}

const char *tc_icr_source(unsigned bit)
{
    static const char *const names[5] = {"timer_a", "timer_b", "alarm", "serial", "flag"};
    return bit < 5 ? names[bit] : "unknown";
}

void tc_time_text(const mh_chip_cia_time *t, char out[16])
{
    snprintf(out, 16, "%02u:%02u:%02u.%u %s", (unsigned)t->hours % 100u,
             (unsigned)t->minutes % 100u, (unsigned)t->seconds % 100u,
             (unsigned)t->tenths % 10u, t->pm ? "PM" : "AM");
}

const char *tc_register_name(unsigned reg)
{
    static const char *const names[16] = {"PRA",   "PRB",   "DDRA",  "DDRB", "TALO", "TAHI",
                                          "TBLO",  "TBHI",  "TOD10", "TODSEC", "TODMIN",
                                          "TODHR", "SDR",   "ICR",   "CRA",  "CRB"};
    return names[reg & 15u];
}
