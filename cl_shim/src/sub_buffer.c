/* Sub-buffers, destroyed youngest first among their siblings.
 *
 * NVIDIA OpenCL 3.0 (CUDA 13.0, driver 580.159, H200) crashes inside
 * clReleaseMemObject when a sub-buffer is destroyed while a younger sub-buffer
 * of the same parent lives, if the younger one was created over a range with
 * a write still referenced through the older one and was then read. PyOpenCL
 * 2026.1.4 crashes the same way. Destroying sub-buffers youngest first avoids
 * it, so the creator's release of a sub-buffer (pycl_sub_buffer_release) waits
 * until every younger sub-buffer of the same parent has been released. The
 * order costs nothing elsewhere: a sub-buffer's memory is its parent's.
 *
 * Each parent's live sub-buffers form a family, a list from the youngest on.
 * A release marks its record and destroys what is released at the young end
 * of the family; the records and the families are found by handle in hash
 * maps, so a release costs the same however many sub-buffers live, and in
 * whatever order they are released (a list of every sub-buffer, searched at
 * each release, made releasing 40,000 of them oldest first take 3.5 s where
 * youngest first took 0.02 s). A parent cannot be destroyed before its
 * sub-buffers (OpenCL), so its handle names one family while any lives. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "dispatch.h"

#define V11 PYCL_V(1, 1)

struct family;

struct sub_buffer {
    cl_mem mem;
    struct family *family;
    int released;             /* by its creator's reference: waits for the younger ones */
    struct sub_buffer *older; /* the next older sibling */
};

struct family {
    cl_mem parent;
    struct sub_buffer *youngest;
};

/* {{{ handle maps: open addressing, linear probing, backward-shift deletion */

struct handle_map {
    const void **keys; /* NULL: a free slot */
    void **values;
    size_t capacity; /* a power of two, or 0 before the first entry */
    size_t count;
    unsigned shift; /* 64 - log2(capacity) */
};

static size_t slot_of(const struct handle_map *map, const void *key)
{
    /* Fibonacci hashing: the product's high bits, which every bit of the
     * handle reaches (its low bits are zero: handles are aligned
     * allocations). */
    return (size_t)(((uint64_t)(uintptr_t)key * 0x9E3779B97F4A7C15ull) >> map->shift);
}

static void *map_get(const struct handle_map *map, const void *key)
{
    if (!map->count)
        return NULL;
    for (size_t i = slot_of(map, key);; i = (i + 1) & (map->capacity - 1)) {
        if (map->keys[i] == key)
            return map->values[i];
        if (!map->keys[i])
            return NULL;
    }
}

static void map_insert(struct handle_map *map, const void *key, void *value)
{
    size_t i = slot_of(map, key);
    while (map->keys[i])
        i = (i + 1) & (map->capacity - 1);
    map->keys[i] = key;
    map->values[i] = value;
    map->count++;
}

/* Room for one more entry (kept at most half full); 0 where memory ran out. */
static int map_reserve(struct handle_map *map)
{
    if (2 * (map->count + 1) <= map->capacity)
        return 1;
    size_t capacity = map->capacity ? 2 * map->capacity : 64;
    unsigned shift = map->capacity ? map->shift - 1 : 64 - 6;
    const void **keys = calloc(capacity, sizeof *keys);
    void **values = calloc(capacity, sizeof *values);
    if (!keys || !values) {
        free(keys);
        free(values);
        return 0;
    }
    struct handle_map grown = {keys, values, capacity, 0, shift};
    for (size_t i = 0; i < map->capacity; i++)
        if (map->keys[i])
            map_insert(&grown, map->keys[i], map->values[i]);
    free(map->keys);
    free(map->values);
    *map = grown;
    return 1;
}

static void map_remove(struct handle_map *map, const void *key)
{
    size_t mask = map->capacity - 1, i = slot_of(map, key);
    while (map->keys[i] != key)
        i = (i + 1) & mask;
    /* Move later entries of the probe run back over the hole, so that no
     * look-up stops at it early. */
    for (size_t j = (i + 1) & mask; map->keys[j]; j = (j + 1) & mask) {
        size_t home = slot_of(map, map->keys[j]);
        if (((j - home) & mask) >= ((j - i) & mask)) {
            map->keys[i] = map->keys[j];
            map->values[i] = map->values[j];
            i = j;
        }
    }
    map->keys[i] = NULL;
    map->values[i] = NULL;
    map->count--;
}

/* }}} */

static struct handle_map records;  /* sub-buffer handle -> its record */
static struct handle_map families; /* parent handle -> its family */
static pthread_mutex_t sub_buffer_lock = PTHREAD_MUTEX_INITIALIZER;

/* Files `record` (of the new sub-buffer `mem`) as the youngest of `parent`'s
 * family, which it starts where it is the first; 0 where memory ran out.
 * Under the lock. */
static int file_record(struct sub_buffer *record, cl_mem mem, cl_mem parent)
{
    if (!map_reserve(&records) || !map_reserve(&families))
        return 0;
    struct family *family = map_get(&families, parent);
    if (!family) {
        family = malloc(sizeof *family);
        if (!family)
            return 0;
        family->parent = parent;
        family->youngest = NULL;
        map_insert(&families, parent, family);
    }
    record->mem = mem;
    record->family = family;
    record->released = 0;
    record->older = family->youngest;
    family->youngest = record;
    map_insert(&records, mem, record);
    return 1;
}

cl_int pycl_buffer_create_sub(cl_mem buffer, cl_mem_flags flags, size_t origin, size_t size, cl_mem *sub_buffer)
{
    cl_buffer_region region = {origin, size};
    const struct pycl_icd_dispatch *t = pycl_table_of(buffer);
    cl_int status =
        pycl_dispatch_check(buffer, V11, "clCreateSubBuffer", t ? (const void *)t->clCreateSubBuffer : NULL, &t);
    if (status != CL_SUCCESS)
        return status;
    struct sub_buffer *record = malloc(sizeof *record);
    if (!record)
        return CL_OUT_OF_HOST_MEMORY;
    cl_mem mem = t->clCreateSubBuffer(buffer, flags, CL_BUFFER_CREATE_TYPE_REGION, &region, &status);
    if (status == CL_SUCCESS && !mem)
        status = CL_OUT_OF_RESOURCES; /* never seen; a NULL key would mean a free slot in the map */
    if (status != CL_SUCCESS) {
        free(record);
        return status;
    }
    pthread_mutex_lock(&sub_buffer_lock);
    int filed = file_record(record, mem, buffer);
    pthread_mutex_unlock(&sub_buffer_lock);
    if (!filed) {
        free(record);
        pycl_mem_release(mem);
        return CL_OUT_OF_HOST_MEMORY;
    }
    *sub_buffer = mem;
    return CL_SUCCESS;
}

void pycl_sub_buffer_release(cl_mem mem)
{
    struct sub_buffer *ready = NULL, **ready_end = &ready;
    struct family *emptied = NULL;
    pthread_mutex_lock(&sub_buffer_lock);
    struct sub_buffer *record = map_get(&records, mem);
    if (record) {
        struct family *family = record->family;
        record->released = 1;
        /* What is released at the young end goes, youngest first. */
        while (family->youngest && family->youngest->released) {
            struct sub_buffer *r = family->youngest;
            family->youngest = r->older;
            map_remove(&records, r->mem);
            r->older = NULL;
            *ready_end = r;
            ready_end = &r->older;
        }
        if (!family->youngest) {
            map_remove(&families, family->parent);
            emptied = family;
        }
    }
    pthread_mutex_unlock(&sub_buffer_lock);
    if (!record) {
        pycl_mem_release(mem); /* not made by pycl_buffer_create_sub */
        return;
    }
    free(emptied);
    while (ready) {
        struct sub_buffer *next = ready->older;
        pycl_mem_release(ready->mem);
        free(ready);
        ready = next;
    }
}
