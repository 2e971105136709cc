/* cia_decode.c - pure helpers of the CIA toolset (cia_decode.h). */
#include "cia_decode.h"

#include <stdio.h>

int tc_cia_register(uint32_t value, const mh_chip_io_range *range)
{
    return mh_chip_io_register(range, 16, 16, value);
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
