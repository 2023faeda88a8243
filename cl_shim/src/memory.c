/* Memory objects and buffer transfers. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"

#define V10 PYCL_V(1, 0)
#define V11 PYCL_V(1, 1)
#define V12 PYCL_V(1, 2)
#define V30 PYCL_V(3, 0)

cl_int pycl_buffer_create(cl_context context, const cl_mem_properties *properties, cl_mem_flags flags, size_t size,
                          void *host_ptr, cl_mem *buffer)
{
    if (properties && properties[0])
        PYCL_DISPATCH_CREATE(buffer, context, V30, clCreateBufferWithProperties, context, properties, flags, size, host_ptr);
    PYCL_DISPATCH_CREATE(buffer, context, V10, clCreateBuffer, context, flags, size, host_ptr);
}

/* NVIDIA OpenCL 3.0 (CUDA 13.0, driver 580.159, H200) crashes inside
 * clReleaseMemObject when a sub-buffer is destroyed while a younger sub-buffer
 * of the same parent lives, if the younger one was created over a range with
 * a write still referenced through the older one and was then read. PyOpenCL
 * 2026.1.4 crashes the same way. Destroying sub-buffers youngest first avoids
 * it, so the creator's release of a sub-buffer (pycl_sub_buffer_release) waits
 * until every younger sub-buffer of the same parent has been released. The
 * order costs nothing elsewhere: a sub-buffer's memory is its parent's. */
struct sub_buffer {
    cl_mem mem;
    cl_mem parent;
    int released;
    struct sub_buffer *older;
};

static struct sub_buffer *youngest_sub_buffer;
static pthread_mutex_t sub_buffer_lock = PTHREAD_MUTEX_INITIALIZER;

cl_int pycl_buffer_create_sub(cl_mem buffer, cl_mem_flags flags, size_t origin, size_t size, cl_mem *sub_buffer)
{
    cl_buffer_region region = {origin, size};
    const struct pycl_icd_dispatch *t = pycl_table_of(buffer);
    cl_int status = pycl_dispatch_check(buffer, V11, "clCreateSubBuffer", t ? (const void *)t->clCreateSubBuffer : NULL, &t);
    if (status != CL_SUCCESS)
        return status;
    struct sub_buffer *record = malloc(sizeof *record);
    if (!record)
        return CL_OUT_OF_HOST_MEMORY;
    *sub_buffer = t->clCreateSubBuffer(buffer, flags, CL_BUFFER_CREATE_TYPE_REGION, &region, &status);
    if (status != CL_SUCCESS) {
        free(record);
        return status;
    }
    record->mem = *sub_buffer;
    record->parent = buffer;
    record->released = 0;
    pthread_mutex_lock(&sub_buffer_lock);
    record->older = youngest_sub_buffer;
    youngest_sub_buffer = record;
    pthread_mutex_unlock(&sub_buffer_lock);
    return CL_SUCCESS;
}

void pycl_sub_buffer_release(cl_mem mem)
{
    struct sub_buffer *ready = NULL, **link, *record;
    pthread_mutex_lock(&sub_buffer_lock);
    for (record = youngest_sub_buffer; record && record->mem != mem; record = record->older)
        ;
    if (record) {
        cl_mem parent = record->parent;
        record->released = 1;
        /* Unlink the released sub-buffers of this parent from the youngest on,
         * up to the first one still in use. */
        link = &youngest_sub_buffer;
        while (*link) {
            struct sub_buffer *r = *link;
            if (r->parent != parent) {
                link = &r->older;
                continue;
            }
            if (!r->released)
                break;
            *link = r->older;
            r->older = ready;
            ready = r;
        }
    }
    pthread_mutex_unlock(&sub_buffer_lock);
    if (!record) {
        pycl_mem_release(mem); /* not made by pycl_buffer_create_sub */
        return;
    }
    /* `ready` holds the youngest last: reverse it to release youngest first. */
    struct sub_buffer *youngest_first = NULL;
    while (ready) {
        struct sub_buffer *next = ready->older;
        ready->older = youngest_first;
        youngest_first = ready;
        ready = next;
    }
    while (youngest_first) {
        struct sub_buffer *next = youngest_first->older;
        pycl_mem_release(youngest_first->mem);
        free(youngest_first);
        youngest_first = next;
    }
}

cl_int pycl_mem_get_info(cl_mem mem, cl_mem_info param, size_t size, void *value, size_t *size_ret)
{
    PYCL_DISPATCH(mem, V10, clGetMemObjectInfo, mem, param, size, value, size_ret);
}

cl_int pycl_mem_retain(cl_mem mem)
{
    PYCL_DISPATCH(mem, V10, clRetainMemObject, mem);
}

void pycl_mem_release(cl_mem mem)
{
    PYCL_DISPATCH_RELEASE(mem, clReleaseMemObject);
}

cl_int pycl_enqueue_read_buffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset, size_t size, void *ptr,
                                cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    PYCL_DISPATCH(queue, V10, clEnqueueReadBuffer, queue, buffer, blocking, offset, size, ptr, num_events, wait_list, event);
}

cl_int pycl_enqueue_write_buffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset, size_t size,
                                 const void *ptr, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    PYCL_DISPATCH(queue, V10, clEnqueueWriteBuffer, queue, buffer, blocking, offset, size, ptr, num_events, wait_list, event);
}

cl_int pycl_enqueue_copy_buffer(cl_command_queue queue, cl_mem src, cl_mem dst, size_t src_offset, size_t dst_offset, size_t size,
                                cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    PYCL_DISPATCH(queue, V10, clEnqueueCopyBuffer, queue, src, dst, src_offset, dst_offset, size, num_events, wait_list, event);
}

cl_int pycl_enqueue_read_buffer_rect(cl_command_queue queue, cl_mem buffer, cl_bool blocking, const size_t *buffer_origin,
                                     const size_t *host_origin, const size_t *region, size_t buffer_row_pitch,
                                     size_t buffer_slice_pitch, size_t host_row_pitch, size_t host_slice_pitch, void *ptr,
                                     cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    PYCL_DISPATCH(queue, V11, clEnqueueReadBufferRect, queue, buffer, blocking, buffer_origin, host_origin, region,
                  buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr, num_events, wait_list, event);
}

cl_int pycl_enqueue_write_buffer_rect(cl_command_queue queue, cl_mem buffer, cl_bool blocking, const size_t *buffer_origin,
                                      const size_t *host_origin, const size_t *region, size_t buffer_row_pitch,
                                      size_t buffer_slice_pitch, size_t host_row_pitch, size_t host_slice_pitch,
                                      const void *ptr, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    PYCL_DISPATCH(queue, V11, clEnqueueWriteBufferRect, queue, buffer, blocking, buffer_origin, host_origin, region,
                  buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr, num_events, wait_list, event);
}

/* A sub-buffer's byte (x, y, z) is its parent's byte (x + offset, y, z) for any
 * pitches, since a rect origin's linear offset is z * slice + y * row + x. */
static cl_int resolve_sub_buffer(cl_mem *mem, size_t origin[3])
{
    cl_mem parent = NULL;
    cl_int status = pycl_mem_get_info(*mem, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL);
    if (status != CL_SUCCESS || !parent)
        return status;
    size_t offset = 0;
    status = pycl_mem_get_info(*mem, CL_MEM_OFFSET, sizeof offset, &offset, NULL);
    if (status != CL_SUCCESS)
        return status;
    origin[0] += offset;
    *mem = parent;
    return CL_SUCCESS;
}

/* PoCL 3.0 and 3.1 segfault in clEnqueueCopyBufferRect when either side is a
 * sub-buffer (QUIRKS.md); the parent-relative copy is the same command. It can
 * go when no supported PoCL has the defect. */
cl_int pycl_enqueue_copy_buffer_rect(cl_command_queue queue, cl_mem src, cl_mem dst, const size_t *src_origin,
                                     const size_t *dst_origin, const size_t *region, size_t src_row_pitch,
                                     size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch, cl_uint num_events,
                                     const cl_event *wait_list, cl_event *event)
{
    size_t src_at[3], dst_at[3];
    if (!src_origin || !dst_origin)
        return CL_INVALID_VALUE;
    memcpy(src_at, src_origin, sizeof src_at);
    memcpy(dst_at, dst_origin, sizeof dst_at);
    cl_int status = resolve_sub_buffer(&src, src_at);
    if (status == CL_SUCCESS)
        status = resolve_sub_buffer(&dst, dst_at);
    if (status != CL_SUCCESS)
        return status;
    PYCL_DISPATCH(queue, V11, clEnqueueCopyBufferRect, queue, src, dst, src_at, dst_at, region, src_row_pitch,
                  src_slice_pitch, dst_row_pitch, dst_slice_pitch, num_events, wait_list, event);
}

cl_int pycl_enqueue_fill_buffer(cl_command_queue queue, cl_mem buffer, const void *pattern, size_t pattern_size, size_t offset,
                                size_t size, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    PYCL_DISPATCH(queue, V12, clEnqueueFillBuffer, queue, buffer, pattern, pattern_size, offset, size, num_events, wait_list, event);
}

cl_int pycl_enqueue_map_buffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking, cl_map_flags flags, size_t offset,
                               size_t size, cl_uint num_events, const cl_event *wait_list, cl_event *event, void **mapped)
{
    PYCL_DISPATCH_CREATE(mapped, queue, V10, clEnqueueMapBuffer, queue, buffer, blocking, flags, offset, size, num_events,
                         wait_list, event);
}

cl_int pycl_enqueue_unmap(cl_command_queue queue, cl_mem mem, void *mapped, cl_uint num_events, const cl_event *wait_list,
                          cl_event *event)
{
    PYCL_DISPATCH(queue, V10, clEnqueueUnmapMemObject, queue, mem, mapped, num_events, wait_list, event);
}

cl_int pycl_enqueue_migrate(cl_command_queue queue, cl_uint num_mems, const cl_mem *mems, cl_mem_migration_flags flags,
                            cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    PYCL_DISPATCH(queue, V12, clEnqueueMigrateMemObjects, queue, num_mems, mems, flags, num_events, wait_list, event);
}

/* Mappings: see memory.h. The retains make the implicit unmap safe whatever
 * order the garbage collector frees the queue, buffer and map objects in. */
cl_int pycl_mapping_map_buffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking, cl_map_flags flags, size_t offset,
                               size_t size, cl_uint num_events, const cl_event *wait_list, cl_event *event,
                               struct pycl_mapping **mapping)
{
    struct pycl_mapping *m = calloc(1, sizeof *m);
    if (!m)
        return CL_OUT_OF_HOST_MEMORY;
    cl_event map_event = NULL;
    cl_int status = pycl_enqueue_map_buffer(queue, buffer, blocking, flags, offset, size, num_events, wait_list,
                                            &map_event, &m->ptr);
    if (status != CL_SUCCESS) {
        free(m);
        return status;
    }
    const struct pycl_icd_dispatch *t = pycl_table_of(queue);
    t->clRetainCommandQueue(queue);
    t->clRetainMemObject(buffer);
    t->clRetainEvent(map_event);
    m->queue = queue;
    m->mem = buffer;
    m->map_event = map_event;
    *event = map_event;
    *mapping = m;
    return CL_SUCCESS;
}

/* Whether the map command has completed: then the unmap needs no wait list
 * (PoCL wakes its worker thread later for a command with dependencies, which
 * made map+unmap 1.5x slower than without one). */
static int map_done(const struct pycl_mapping *mapping)
{
    cl_int status = CL_QUEUED;
    if (pycl_event_get_info(mapping->map_event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL) != CL_SUCCESS)
        return 0;
    return status == CL_COMPLETE;
}

cl_int pycl_mapping_unmap(struct pycl_mapping *mapping, cl_command_queue queue, cl_uint num_events, const cl_event *wait_list,
                          cl_event *event)
{
    if (!mapping || !mapping->ptr)
        return CL_INVALID_VALUE;
    if (!queue)
        queue = mapping->queue;
    cl_event small[16];
    cl_event *all = num_events < 16 ? small : malloc((num_events + 1) * sizeof *all);
    if (!all)
        return CL_OUT_OF_HOST_MEMORY;
    if (num_events)
        memcpy(all, wait_list, num_events * sizeof *all);
    cl_uint count = num_events;
    if (!map_done(mapping))
        all[count++] = mapping->map_event;
    cl_int status = pycl_enqueue_unmap(queue, mapping->mem, mapping->ptr, count, count ? all : NULL, event);
    if (all != small)
        free(all);
    if (status == CL_SUCCESS)
        mapping->ptr = NULL;
    return status;
}

void pycl_mapping_free(struct pycl_mapping *mapping)
{
    if (!mapping)
        return;
    const struct pycl_icd_dispatch *t = pycl_table_of(mapping->queue);
    if (mapping->ptr) {
        int done = map_done(mapping);
        t->clEnqueueUnmapMemObject(mapping->queue, mapping->mem, mapping->ptr, done ? 0 : 1, done ? NULL : &mapping->map_event,
                                   NULL);
    }
    t->clReleaseEvent(mapping->map_event);
    t->clReleaseMemObject(mapping->mem);
    t->clReleaseCommandQueue(mapping->queue);
    free(mapping);
}

typedef cl_int (*p2p_amd_fn)(cl_command_queue, cl_mem, cl_mem, size_t, size_t, size_t, cl_uint, const cl_event *, cl_event *);

cl_int pycl_enqueue_copy_buffer_p2p_amd(void *function, cl_command_queue queue, cl_mem src, cl_mem dst, size_t src_offset,
                                        size_t dst_offset, size_t size, cl_uint num_events, const cl_event *wait_list,
                                        cl_event *event)
{
    if (!function)
        return CL_INVALID_VALUE;
    return ((p2p_amd_fn)function)(queue, src, dst, src_offset, dst_offset, size, num_events, wait_list, event);
}
