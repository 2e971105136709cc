/* arena.c - bump allocator for parsed documents: values, member arrays and
 * decoded strings live in a few large blocks released together. */
#include "json_internal.h"

#include <stdalign.h>
#include <stdlib.h>

#define ARENA_FIRST_BLOCK 4096u
#define ARENA_MAX_BLOCK (1u << 20)

struct mh_arena_block {
    mh_arena_block *next;
    size_t size; /* usable bytes in data */
    size_t used;
    alignas(max_align_t) unsigned char data[];
};

static mh_arena_block *block_new(size_t size)
{
    if (size > SIZE_MAX - sizeof(mh_arena_block)) return NULL;
    mh_arena_block *block = malloc(sizeof(mh_arena_block) + size);
    if (!block) return NULL;
    block->next = NULL;
    block->size = size;
    block->used = 0;
    return block;
}

void *mh_arena_alloc(mh_arena *arena, size_t size, size_t align)
{
    if (size == 0) size = 1;
    mh_arena_block *head = arena->head;
    if (head) {
        size_t at = (head->used + (align - 1)) & ~(align - 1);
        if (at <= head->size && head->size - at >= size) {
            head->used = at + size;
            return head->data + at;
        }
    }
    if (arena->next_size == 0) arena->next_size = ARENA_FIRST_BLOCK;
    if (size > arena->next_size / 4) {
        /* A big request gets a block of its own behind the current one, so
         * the space left in the current block is not wasted. */
        mh_arena_block *big = block_new(size);
        if (!big) return NULL;
        big->used = size;
        if (head) {
            big->next = head->next;
            head->next = big;
        } else {
            arena->head = big;
        }
        return big->data;
    }
    mh_arena_block *block = block_new(arena->next_size);
    if (!block) return NULL;
    if (arena->next_size < ARENA_MAX_BLOCK) arena->next_size *= 2;
    block->next = head;
    arena->head = block;
    block->used = size;
    return block->data;
}

void mh_arena_release(mh_arena *arena)
{
    mh_arena_block *block = arena->head;
    while (block) {
        mh_arena_block *next = block->next;
        free(block);
        block = next;
    }
    arena->head = NULL;
    arena->next_size = 0;
}
