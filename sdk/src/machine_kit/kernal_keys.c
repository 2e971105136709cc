/* kernal_keys.c - typed text through the KERNAL's keyboard buffer, and
 * autostart at the READY prompt (mcphost/kernal.h). */
#include <stdio.h>
#include <string.h>

#include "mcphost/kernal.h"

#include "kernal_trap.h"

mh_status mh_kernal_queue_push(mh_kernal_queue *q, const uint8_t *codes, size_t count,
                               char *error, size_t error_size)
{
    if (count > MH_KERNAL_QUEUE_SIZE - q->count) {
        snprintf(error, error_size,
                 "cannot queue %zu characters: %u are still waiting and the queue holds %u; "
                 "type the rest after these have been read",
                 count, (unsigned)q->count, (unsigned)MH_KERNAL_QUEUE_SIZE);
        return MH_ERR_LIMIT;
    }
    for (size_t i = 0; i < count; i++) {
        q->codes[(q->head + q->count) % MH_KERNAL_QUEUE_SIZE] = codes[i];
        q->count++;
    }
    return MH_OK;
}

void mh_kernal_queue_clear(mh_kernal_queue *q)
{
    q->head = 0;
    q->count = 0;
}

void mh_kernal_feed(const mh_kernal *k, mh_kernal_queue *q)
{
    const mh_kernal_layout *l = k->layout;
    if (!q->count || k->ram[l->keyboard_count] != 0 || (k->cpu->p & MH_CPU6502_FLAG_I)) return;
    unsigned n = 0;
    while (n < l->keyboard_size && q->count) {
        k->ram[(uint16_t)(l->keyboard_buffer + n++)] = q->codes[q->head];
        q->head = (q->head + 1) % MH_KERNAL_QUEUE_SIZE;
        q->count--;
    }
    k->ram[l->keyboard_count] = (uint8_t)n;
}

int mh_kernal_waits_for_key(const mh_kernal *k, uint16_t pc)
{
    const mh_kernal_layout *l = k->layout;
    if ((k->cpu->p & MH_CPU6502_FLAG_I) || k->ram[l->keyboard_count] != 0) return 0;
    uint16_t count = l->keyboard_count;
    if (count < 0x100) /* LDA zp */
        return kernal_peek(k, pc) == 0xA5 && kernal_peek(k, (uint16_t)(pc + 1)) == count;
    return kernal_peek(k, pc) == 0xAD && /* LDA abs */
           kernal_peek(k, (uint16_t)(pc + 1)) == (uint8_t)count &&
           kernal_peek(k, (uint16_t)(pc + 2)) == (uint8_t)(count >> 8);
}

uint32_t mh_kernal_inject(const mh_kernal *k, const uint8_t *data, size_t size,
                          uint16_t load_address, int type_run, char *typed, size_t typed_size)
{
    const mh_kernal_layout *l = k->layout;
    uint8_t *ram = k->ram;
    if (size > 0x10000u - load_address) size = 0x10000u - load_address;
    if (size) memcpy(ram + load_address, data, size);
    uint32_t end = load_address + (uint32_t)size;
    ram[l->load_end] = (uint8_t)end;
    ram[(uint16_t)(l->load_end + 1)] = (uint8_t)(end >> 8);
    uint16_t basic_start = (uint16_t)(ram[l->basic_start] | ram[(uint16_t)(l->basic_start + 1)] << 8);
    int basic = load_address == basic_start || load_address == l->basic_program;
    if (basic)
        for (uint16_t zp = l->basic_end; zp <= l->basic_end + 4; zp = (uint16_t)(zp + 2)) {
            ram[zp] = (uint8_t)end;
            ram[(uint16_t)(zp + 1)] = (uint8_t)(end >> 8);
        }
    if (typed_size) typed[0] = '\0';
    if (!type_run) return end;
    char keys[16];
    if (basic) snprintf(keys, sizeof keys, "RUN\r");
    else snprintf(keys, sizeof keys, "SYS%u\r", (unsigned)load_address);
    size_t n = strlen(keys);
    if (n > l->keyboard_size) n = l->keyboard_size;
    for (size_t i = 0; i < n; i++) ram[(uint16_t)(l->keyboard_buffer + i)] = (uint8_t)keys[i];
    ram[l->keyboard_count] = (uint8_t)n;
    snprintf(typed, typed_size, "%.*s", (int)(n && keys[n - 1] == '\r' ? n - 1 : n), keys);
    return end;
}
