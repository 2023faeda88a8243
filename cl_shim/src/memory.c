/* Memory objects and buffer transfers. */
#define _POSIX_C_SOURCE 200809L
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
        PYCL_DISPATCH_CREATE(buffer, context, V30, clCreateBufferWithProperties, context, properties, flags, size,
                             host_ptr);
    PYCL_DISPATCH_CREATE(buffer, context, V10, clCreateBuffer, context, flags, size, host_ptr);
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

cl_int pycl_enqueue_read_buffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset, size_t size,
                                void *ptr, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    PYCL_DISPATCH(queue, V10, clEnqueueReadBuffer, queue, buffer, blocking, offset, size, ptr, num_events, wait_list,
                  event);
}

cl_int pycl_enqueue_write_buffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset, size_t size,
                                 const void *ptr, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    PYCL_DISPATCH(queue, V10, clEnqueueWriteBuffer, queue, buffer, blocking, offset, size, ptr, num_events, wait_list,
                  event);
}

cl_int pycl_enqueue_copy_buffer(cl_command_queue queue, cl_mem src, cl_mem dst, size_t src_offset, size_t dst_offset,
                                size_t size, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    PYCL_DISPATCH(queue, V10, clEnqueueCopyBuffer, queue, src, dst, src_offset, dst_offset, size, num_events, wait_list,
                  event);
}

/* {{{ rect transfers
 *
 * NVIDIA OpenCL 3.0 (CUDA 13.0.98, H200) refuses rect transfers that the spec
 * allows with CL_INVALID_VALUE when the buffer side's last slice, counted
 * whole, would pass the end of the buffer. Measured with
 * clEnqueueWriteBufferRect on a 4-byte buffer, region (1, 1, 1): buffer_origin
 * (0, 0, 1) with pitches (row 1, slice 3) is refused although the one byte it
 * touches is byte 3; the same byte as origin (3, 0, 0) with the same pitches
 * is accepted, and so are (0, 0, 1) with (1, 1), (0, 1, 0) with (1, 3) and
 * (1, 0, 1) with (2, 2). So the driver seems to require
 * (origin[2] + region[2]) * slice <= size, where the spec asks only that the
 * last byte touched lie in the buffer:
 *     offset + (region[2] - 1) * slice + (region[1] - 1) * row + region[0]
 * with offset = origin[0] + origin[1] * row + origin[2] * slice. The shim
 * assumes the strictest rule that these measurements allow: whole slices from
 * the origin's row (origin[0] did not count: origin (3, 0, 0) above was
 * accepted), applied to the read and copy entry points too (not measured
 * there):
 *     origin[1] * row + (origin[2] + region[2]) * slice <= size.
 * (Until 2026-11-27 it counted origin[0] too, which split a rect read that
 * ends at the end of its buffer into two commands where NVIDIA takes one: a
 * 1024 x 4096-byte read at x = 4096 from rows of 8192 bytes ran 1.18-1.52x
 * PyOpenCL's time on an H100.)
 * Calls that keep to it, and calls the spec itself refuses, go to the driver
 * as they are. Only a call the spec allows that breaks it (a region that ends
 * at the end of a buffer, with pitches wider than the region) is rewritten, as
 * the same bytes in pieces that keep to it: every buffer origin as its linear
 * offset (offset, 0, 0), which addresses the same bytes, each piece's pitches
 * as tight as its shape allows (a piece one slice deep needs no slice pitch
 * beyond its rows, one row no row pitch beyond its bytes), and
 *     - the first region[2] - 1 slices, if any, as one piece;
 *     - the last slice as one piece, or if even that breaks the rule, its
 *       first region[1] - 1 rows, then its last row.
 * All pieces go to the caller's queue, chained through events (so they also
 * keep their order on out-of-order queues); the caller's wait list goes to the
 * first, its blocking flag and event to the last. The host side has no size
 * in OpenCL and the driver does not check it: it keeps its origin form and
 * pitches, moved down by the piece's first row and slice. Other drivers accept
 * both forms; the rewrite runs there too, so the tests cover it everywhere.
 * It can go when no supported NVIDIA driver has the defect. */

enum rect_kind { RECT_READ, RECT_WRITE, RECT_COPY };

/* One side of a rect command, pitches made explicit as the spec derives them
 * when 0 (row = region[0], slice = region[1] * row). */
struct rect_side {
    cl_mem mem; /* NULL: host memory */
    size_t origin[3];
    size_t row, slice;
    size_t size; /* CL_MEM_SIZE, once size_known */
    int size_known;
};

struct rect_command {
    enum rect_kind kind;
    cl_command_queue queue;
    const struct pycl_icd_dispatch *t;
    struct rect_side side[2]; /* read and write: the buffer, the host; copy: src, dst */
    void *ptr;                /* the host memory of a read or write */
};

/* Which rows and slices of the region a piece is. */
struct rect_piece {
    size_t y0, z0;
    size_t region[3];
};

enum { RECT_FITS, RECT_NEEDS_PIECES, RECT_INVALID };

static void rect_side_init(struct rect_side *s, cl_mem mem, const size_t origin[3], const size_t region[3], size_t row,
                           size_t slice)
{
    s->mem = mem;
    memcpy(s->origin, origin, sizeof s->origin);
    s->row = row ? row : region[0];
    s->slice = slice ? slice : region[1] * s->row;
    s->size = 0;
    s->size_known = 0;
}

/* a * b + c, saturating at SIZE_MAX: a caller's values must not wrap around
 * in the shim's checks (a saturated end is past any buffer: the call then goes
 * to the driver as it is). */
static size_t mul_add(size_t a, size_t b, size_t c)
{
    size_t r;
    if (__builtin_mul_overflow(a, b, &r) || __builtin_add_overflow(r, c, &r))
        return SIZE_MAX;
    return r;
}

static size_t rect_offset(const struct rect_side *s)
{
    return mul_add(s->origin[2], s->slice, mul_add(s->origin[1], s->row, s->origin[0]));
}

/* How buffer side `form` over `region` stands with the strict rule (see
 * above); `whole` is the command's side, which caches the buffer's size. The
 * size is only asked (once) when the rule is stricter than the spec's for
 * these pitches, i.e. when they are wider than the region. The shim asks the
 * driver rather than taking the size from Python so that its C entry points
 * keep OpenCL's signatures for embedders; a CL_MEM_SIZE query is a host-side
 * lookup (a rect write with wide pitches measured within noise of one with
 * tight pitches on PoCL and Oclgrind). */
static cl_int rect_judge(struct rect_side *whole, const struct rect_side *form, const size_t region[3], int *verdict)
{
    size_t row = form->row, slice = form->slice;
    if (row < region[0] || slice < mul_add(region[1], row, 0) || slice % row) {
        *verdict = RECT_INVALID;
        return CL_SUCCESS;
    }
    size_t offset = rect_offset(form);
    size_t end = mul_add(region[2] - 1, slice, mul_add(region[1] - 1, row, mul_add(1, offset, region[0])));
    size_t strict_end = mul_add(form->origin[2] + region[2], slice, mul_add(form->origin[1], row, 0));
    if (form->origin[2] + region[2] < region[2])
        strict_end = SIZE_MAX;
    if (strict_end <= end) {
        *verdict = RECT_FITS;
        return CL_SUCCESS;
    }
    if (!whole->size_known) {
        cl_int status = pycl_mem_get_info(whole->mem, CL_MEM_SIZE, sizeof whole->size, &whole->size, NULL);
        if (status != CL_SUCCESS)
            return status;
        whole->size_known = 1;
    }
    *verdict = end > whole->size ? RECT_INVALID : strict_end > whole->size ? RECT_NEEDS_PIECES : RECT_FITS;
    return CL_SUCCESS;
}

/* The worst verdict of the buffer sides of `form`. */
static cl_int rect_judge_command(struct rect_command *c, const struct rect_side form[2], const size_t region[3],
                                 int *verdict)
{
    *verdict = RECT_FITS;
    if (!region[0] || !region[1] || !region[2]) {
        *verdict = RECT_INVALID;
        return CL_SUCCESS;
    }
    for (int i = 0; i < 2; i++) {
        int v;
        if (!c->side[i].mem)
            continue;
        cl_int status = rect_judge(&c->side[i], &form[i], region, &v);
        if (status != CL_SUCCESS)
            return status;
        if (v > *verdict)
            *verdict = v;
    }
    return CL_SUCCESS;
}

/* The sides of piece `p` of command `c`. */
static void rect_piece_sides(const struct rect_command *c, const struct rect_piece *p, struct rect_side form[2])
{
    for (int i = 0; i < 2; i++) {
        const struct rect_side *s = &c->side[i];
        struct rect_side *f = &form[i];
        *f = *s;
        if (!s->mem) {
            f->origin[1] += p->y0;
            f->origin[2] += p->z0;
            continue;
        }
        f->origin[0] = rect_offset(s) + p->z0 * s->slice + p->y0 * s->row;
        f->origin[1] = f->origin[2] = 0;
        if (p->region[1] == 1 && p->region[2] == 1)
            f->row = p->region[0];
        if (p->region[2] == 1)
            f->slice = p->region[1] * f->row;
    }
}

static cl_int rect_enqueue(const struct rect_command *c, const struct rect_side form[2], const size_t region[3],
                           cl_bool blocking, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    const struct rect_side *a = &form[0], *b = &form[1];
    switch (c->kind) {
    case RECT_READ:
        return c->t->clEnqueueReadBufferRect(c->queue, a->mem, blocking, a->origin, b->origin, region, a->row, a->slice,
                                             b->row, b->slice, c->ptr, num_events, wait_list, event);
    case RECT_WRITE:
        return c->t->clEnqueueWriteBufferRect(c->queue, a->mem, blocking, a->origin, b->origin, region, a->row,
                                              a->slice, b->row, b->slice, c->ptr, num_events, wait_list, event);
    default:
        return c->t->clEnqueueCopyBufferRect(c->queue, a->mem, b->mem, a->origin, b->origin, region, a->row, a->slice,
                                             b->row, b->slice, num_events, wait_list, event);
    }
}

/* A piece after the first failed (no failure is expected there: each piece is
 * a part of a call the driver took, but PoCL misjudges overlap on one buffer,
 * see pycl/transfer.py). The pieces already enqueued stay: a read or write
 * waits for them, so no host memory is touched after the error returns; a
 * copy puts a barrier after them instead, so whatever the caller enqueues next
 * (pycl copies row by row then) follows them, also on an out-of-order queue. */
static void rect_abandon(const struct rect_command *c, cl_event enqueued)
{
    if (c->kind == RECT_COPY && pycl_table_version(c->t) >= V12 && c->t->clEnqueueBarrierWithWaitList)
        c->t->clEnqueueBarrierWithWaitList(c->queue, 1, &enqueued, NULL);
    else
        c->t->clWaitForEvents(1, &enqueued);
    c->t->clReleaseEvent(enqueued);
}

static cl_int rect_run(struct rect_command *c, const size_t region[3], cl_bool blocking, cl_uint num_events,
                       const cl_event *wait_list, cl_event *event)
{
    int verdict;
    cl_int status = rect_judge_command(c, c->side, region, &verdict);
    if (status != CL_SUCCESS)
        return status;
    if (verdict != RECT_NEEDS_PIECES)
        return rect_enqueue(c, c->side, region, blocking, num_events, wait_list, event);

    size_t w = region[0], h = region[1], d = region[2];
    struct rect_piece pieces[3], last = {0, d - 1, {w, h, 1}};
    struct rect_side form[2];
    int n = 0;
    if (d > 1)
        pieces[n++] = (struct rect_piece){0, 0, {w, h, d - 1}};
    rect_piece_sides(c, &last, form);
    status = rect_judge_command(c, form, last.region, &verdict);
    if (status != CL_SUCCESS)
        return status;
    if (verdict == RECT_FITS || h == 1) {
        pieces[n++] = last;
    } else {
        pieces[n++] = (struct rect_piece){0, d - 1, {w, h - 1, 1}};
        pieces[n++] = (struct rect_piece){h - 1, d - 1, {w, 1, 1}};
    }

    cl_event previous = NULL;
    for (int i = 0; i < n; i++) {
        int final = i == n - 1;
        cl_event mine = NULL;
        rect_piece_sides(c, &pieces[i], form);
        status = rect_enqueue(c, form, pieces[i].region, final ? blocking : CL_FALSE, i ? 1 : num_events,
                              i ? &previous : wait_list, final ? event : &mine);
        if (status != CL_SUCCESS) {
            if (previous)
                rect_abandon(c, previous);
            return status;
        }
        if (previous)
            c->t->clReleaseEvent(previous);
        previous = mine;
    }
    return CL_SUCCESS;
}

#define RECT_DISPATCH(c, slot)                                                                                    \
    do {                                                                                                          \
        (c).t = pycl_table_of((c).queue);                                                                         \
        cl_int s_ = pycl_dispatch_check((c).queue, V11, #slot, (c).t ? (const void *)(c).t->slot : NULL, &(c).t); \
        if (s_ != CL_SUCCESS)                                                                                     \
            return s_;                                                                                            \
    } while (0)

cl_int pycl_enqueue_read_buffer_rect(cl_command_queue queue, cl_mem buffer, cl_bool blocking,
                                     const size_t *buffer_origin, const size_t *host_origin, const size_t *region,
                                     size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
                                     size_t host_slice_pitch, void *ptr, cl_uint num_events, const cl_event *wait_list,
                                     cl_event *event)
{
    struct rect_command c = {.kind = RECT_READ, .queue = queue};
    RECT_DISPATCH(c, clEnqueueReadBufferRect);
    if (!buffer_origin || !host_origin || !region)
        return CL_INVALID_VALUE;
    rect_side_init(&c.side[0], buffer, buffer_origin, region, buffer_row_pitch, buffer_slice_pitch);
    rect_side_init(&c.side[1], NULL, host_origin, region, host_row_pitch, host_slice_pitch);
    c.ptr = ptr;
    return rect_run(&c, region, blocking, num_events, wait_list, event);
}

cl_int pycl_enqueue_write_buffer_rect(cl_command_queue queue, cl_mem buffer, cl_bool blocking,
                                      const size_t *buffer_origin, const size_t *host_origin, const size_t *region,
                                      size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
                                      size_t host_slice_pitch, const void *ptr, cl_uint num_events,
                                      const cl_event *wait_list, cl_event *event)
{
    struct rect_command c = {.kind = RECT_WRITE, .queue = queue};
    RECT_DISPATCH(c, clEnqueueWriteBufferRect);
    if (!buffer_origin || !host_origin || !region)
        return CL_INVALID_VALUE;
    rect_side_init(&c.side[0], buffer, buffer_origin, region, buffer_row_pitch, buffer_slice_pitch);
    rect_side_init(&c.side[1], NULL, host_origin, region, host_row_pitch, host_slice_pitch);
    c.ptr = (void *)ptr; /* only read: clEnqueueWriteBufferRect takes it as const */
    return rect_run(&c, region, blocking, num_events, wait_list, event);
}

/* A sub-buffer's byte (x, y, z) is its parent's byte (x + offset, y, z) for any
 * pitches, since a rect origin's linear offset is z * slice + y * row + x (the
 * rewrite above relies on the same formula). */
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
 * sub-buffer (docs/quirks.md); the parent-relative copy is the same command. It can
 * go when no supported PoCL has the defect. The strict rule above is then
 * judged against the parent's size. */
cl_int pycl_enqueue_copy_buffer_rect(cl_command_queue queue, cl_mem src, cl_mem dst, const size_t *src_origin,
                                     const size_t *dst_origin, const size_t *region, size_t src_row_pitch,
                                     size_t src_slice_pitch, size_t dst_row_pitch, size_t dst_slice_pitch,
                                     cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    struct rect_command c = {.kind = RECT_COPY, .queue = queue};
    RECT_DISPATCH(c, clEnqueueCopyBufferRect);
    if (!src_origin || !dst_origin || !region)
        return CL_INVALID_VALUE;
    rect_side_init(&c.side[0], src, src_origin, region, src_row_pitch, src_slice_pitch);
    rect_side_init(&c.side[1], dst, dst_origin, region, dst_row_pitch, dst_slice_pitch);
    cl_int status = resolve_sub_buffer(&c.side[0].mem, c.side[0].origin);
    if (status == CL_SUCCESS)
        status = resolve_sub_buffer(&c.side[1].mem, c.side[1].origin);
    if (status != CL_SUCCESS)
        return status;
    return rect_run(&c, region, CL_FALSE, num_events, wait_list, event);
}

/* }}} */

cl_int pycl_enqueue_fill_buffer(cl_command_queue queue, cl_mem buffer, const void *pattern, size_t pattern_size,
                                size_t offset, size_t size, cl_uint num_events, const cl_event *wait_list,
                                cl_event *event)
{
    PYCL_DISPATCH(queue, V12, clEnqueueFillBuffer, queue, buffer, pattern, pattern_size, offset, size, num_events,
                  wait_list, event);
}

cl_int pycl_enqueue_map_buffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking, cl_map_flags flags,
                               size_t offset, size_t size, cl_uint num_events, const cl_event *wait_list,
                               cl_event *event, void **mapped)
{
    PYCL_DISPATCH_CREATE(mapped, queue, V10, clEnqueueMapBuffer, queue, buffer, blocking, flags, offset, size,
                         num_events, wait_list, event);
}

cl_int pycl_enqueue_unmap(cl_command_queue queue, cl_mem mem, void *mapped, cl_uint num_events,
                          const cl_event *wait_list, cl_event *event)
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
cl_int pycl_mapping_map_buffer(cl_command_queue queue, cl_mem buffer, cl_bool blocking, cl_map_flags flags,
                               size_t offset, size_t size, cl_uint num_events, const cl_event *wait_list,
                               cl_event *event, struct pycl_mapping **mapping)
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
    pycl_mapping_hold(m, queue, buffer, blocking ? NULL : map_event);
    *event = map_event;
    *mapping = m;
    return CL_SUCCESS;
}

void pycl_mapping_hold(struct pycl_mapping *m, cl_command_queue queue, cl_mem mem, cl_event map_event)
{
    const struct pycl_icd_dispatch *t = pycl_table_of(queue);
    t->clRetainCommandQueue(queue);
    t->clRetainMemObject(mem);
    if (map_event)
        t->clRetainEvent(map_event);
    m->queue = queue;
    m->mem = mem;
    m->map_event = map_event;
}

/* Whether the map command has completed: then the unmap needs no wait list
 * (PoCL wakes its worker thread later for a command with dependencies, which
 * made map+unmap slower: docs/design.md, "Lifetimes and deferred releases"). */
static int map_done(const struct pycl_mapping *mapping)
{
    if (!mapping->map_event)
        return 1; /* a blocking map: complete when it returned */
    cl_int status = CL_QUEUED;
    if (pycl_event_get_info(mapping->map_event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL) !=
        CL_SUCCESS)
        return 0;
    return status == CL_COMPLETE;
}

cl_int pycl_mapping_unmap(struct pycl_mapping *mapping, cl_command_queue queue, cl_uint num_events,
                          const cl_event *wait_list, cl_event *event)
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
        t->clEnqueueUnmapMemObject(mapping->queue, mapping->mem, mapping->ptr, done ? 0 : 1,
                                   done ? NULL : &mapping->map_event, NULL);
    }
    if (mapping->map_event)
        t->clReleaseEvent(mapping->map_event);
    t->clReleaseMemObject(mapping->mem);
    t->clReleaseCommandQueue(mapping->queue);
    free(mapping);
}

typedef cl_int (*p2p_amd_fn)(cl_command_queue, cl_mem, cl_mem, size_t, size_t, size_t, cl_uint, const cl_event *,
                             cl_event *);

cl_int pycl_enqueue_copy_buffer_p2p_amd(void *function, cl_command_queue queue, cl_mem src, cl_mem dst,
                                        size_t src_offset, size_t dst_offset, size_t size, cl_uint num_events,
                                        const cl_event *wait_list, cl_event *event)
{
    if (!function)
        return CL_INVALID_VALUE;
    return ((p2p_amd_fn)function)(queue, src, dst, src_offset, dst_offset, size, num_events, wait_list, event);
}
