/* Staged host<->buffer and host<->SVM copies through pinned slots, with host
 * threads doing the memcpy (see cl_shim/include/pycl/staging.h for why).
 *
 * Chunk i uses slot i % slots. A slot passes from chunk i to chunk i + slots
 * in order (`turn`), and its memory is reused only once the device command
 * that last used it has completed (`busy`). Worker threads take chunks in
 * order from a shared counter, so with slots >= threads every thread has a
 * slot to fill while earlier chunks are on the device. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"

#define MAX_THREADS 64

struct slot {
    cl_mem mem;
    void *host;
    size_t turn;   /* the chunk allowed to use the slot next */
    cl_event busy; /* the device command that last used it, or NULL */
};

struct between_job;

struct pycl_stager {
    cl_context context;
    cl_command_queue queue; /* maps and unmaps the slots */
    size_t chunk;
    cl_uint count;
    cl_uint threads;
    pthread_mutex_t busy_lock; /* one staged copy at a time */
    struct slot *slots;
    /* Copies between devices (pycl_staged_copy_between) run one after
     * another in the order they were asked for: non-blocking ones on the copy
     * thread (`jobs`, started at the first), blocking ones on the caller's
     * thread once no job is pending. */
    pthread_mutex_t jobs_lock;
    pthread_cond_t jobs_changed;
    struct between_job *jobs, *last_job;
    size_t pending; /* jobs not finished */
    int has_thread, closing;
};

/* A box of rows between host memory (rows `host_row_pitch` apart, slices
 * `host_slice_pitch` apart) and an image or a buffer rect: chunk k holds
 * `rows_per_chunk` rows of one slice, tightly packed in its slot. */
struct box {
    int image;
    int rows_are_layers; /* a 1D image array: its layers are the rows */
    size_t origin[3];    /* image: pixels; rect: bytes, rows, slices */
    size_t region[3];    /* region[0]: pixels (image) or bytes (rect) */
    size_t row_bytes;
    size_t buffer_row_pitch, buffer_slice_pitch; /* rects */
    size_t host_row_pitch, host_slice_pitch;
    size_t rows_per_chunk, chunks_per_slice;
};

struct job {
    struct pycl_stager *stager;
    cl_command_queue queue;
    cl_mem mem;            /* the buffer or image side, or NULL */
    char *svm;             /* else the SVM side */
    size_t mem_offset;     /* into mem (linear copies) */
    const struct box *box; /* a box of rows (images, rects), or NULL: linear */
    char *host;
    size_t size; /* linear copies: bytes */
    size_t chunks;
    int writing;
    cl_uint num_events;
    const cl_event *wait_list;
    pthread_mutex_t lock;
    pthread_cond_t turned;
    size_t next_chunk;
    cl_int status;
};

static void release_event(cl_event event)
{
    if (event)
        pycl_event_release(event);
}

cl_int pycl_stager_create(cl_context context, cl_command_queue queue, size_t chunk, cl_uint slots, cl_uint threads,
                          struct pycl_stager **out)
{
    if (!context || !queue || !chunk || !slots || !threads || threads > MAX_THREADS)
        return CL_INVALID_VALUE;
    struct pycl_stager *s = calloc(1, sizeof *s);
    if (!s)
        return CL_OUT_OF_HOST_MEMORY;
    s->slots = calloc(slots, sizeof *s->slots);
    if (!s->slots) {
        free(s);
        return CL_OUT_OF_HOST_MEMORY;
    }
    s->context = context;
    s->queue = queue;
    s->chunk = chunk;
    s->count = slots;
    s->threads = threads;
    pthread_mutex_init(&s->busy_lock, NULL);
    pthread_mutex_init(&s->jobs_lock, NULL);
    pthread_cond_init(&s->jobs_changed, NULL);
    pycl_context_retain(context);
    pycl_queue_retain(queue);
    cl_int status = CL_SUCCESS;
    for (cl_uint i = 0; i < slots && status == CL_SUCCESS; ++i) {
        struct slot *slot = &s->slots[i];
        status = pycl_buffer_create(context, NULL, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, chunk, NULL, &slot->mem);
        if (status == CL_SUCCESS)
            status = pycl_enqueue_map_buffer(queue, slot->mem, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, chunk, 0, NULL,
                                             NULL, &slot->host);
    }
    if (status != CL_SUCCESS) {
        pycl_stager_free(s);
        return status;
    }
    *out = s;
    return CL_SUCCESS;
}

static void destroy_stager(struct pycl_stager *s)
{
    for (cl_uint i = 0; i < s->count; ++i) {
        struct slot *slot = &s->slots[i];
        /* The unmap waits for the slot's last transfer, which may be on
         * another queue; OpenCL deletes the buffer once the unmap is done. */
        if (slot->host)
            pycl_enqueue_unmap(s->queue, slot->mem, slot->host, slot->busy ? 1 : 0, slot->busy ? &slot->busy : NULL,
                               NULL);
        release_event(slot->busy);
        if (slot->mem)
            pycl_mem_release(slot->mem);
    }
    pycl_queue_flush(s->queue);
    pycl_queue_release(s->queue);
    pycl_context_release(s->context);
    pthread_mutex_destroy(&s->busy_lock);
    pthread_mutex_destroy(&s->jobs_lock);
    pthread_cond_destroy(&s->jobs_changed);
    free(s->slots);
    free(s);
}

void pycl_stager_free(struct pycl_stager *s)
{
    pthread_mutex_lock(&s->jobs_lock);
    int has_thread = s->has_thread;
    s->closing = 1; /* the copy thread ends once its jobs are done, and frees `s` */
    pthread_cond_broadcast(&s->jobs_changed);
    pthread_mutex_unlock(&s->jobs_lock);
    if (!has_thread)
        destroy_stager(s);
}

static void fail(struct job *job, cl_int status)
{
    pthread_mutex_lock(&job->lock);
    if (job->status == CL_SUCCESS)
        job->status = status;
    pthread_cond_broadcast(&job->turned);
    pthread_mutex_unlock(&job->lock);
}

/* Chunk `index` of a box: its first row and slice, and its rows. */
static size_t box_piece(const struct box *box, size_t index, size_t *y, size_t *z)
{
    *z = index / box->chunks_per_slice;
    *y = index % box->chunks_per_slice * box->rows_per_chunk;
    return box->region[1] - *y < box->rows_per_chunk ? box->region[1] - *y : box->rows_per_chunk;
}

/* Copy chunk `index` between the caller's host memory and `slot`. */
static void copy_piece(struct job *job, size_t index, char *slot, int to_slot)
{
    const struct box *box = job->box;
    if (!box) {
        size_t offset = index * job->stager->chunk;
        size_t n = job->size - offset < job->stager->chunk ? job->size - offset : job->stager->chunk;
        if (to_slot)
            memcpy(slot, job->host + offset, n);
        else
            memcpy(job->host + offset, slot, n);
        return;
    }
    size_t y, z, rows = box_piece(box, index, &y, &z);
    char *host = job->host + z * box->host_slice_pitch + y * box->host_row_pitch;
    for (size_t r = 0; r < rows; ++r, host += box->host_row_pitch, slot += box->row_bytes) {
        if (to_slot)
            memcpy(slot, host, box->row_bytes);
        else
            memcpy(host, slot, box->row_bytes);
    }
}

/* Enqueue the device side of chunk `index` (non-blocking) from or into `slot`. */
static cl_int enqueue_piece(struct job *job, size_t index, void *slot, cl_uint num_events, const cl_event *wait_list,
                            cl_event *done)
{
    const struct box *box = job->box;
    int writing = job->writing;
    if (!box) {
        size_t offset = index * job->stager->chunk;
        size_t n = job->size - offset < job->stager->chunk ? job->size - offset : job->stager->chunk;
        if (job->mem && writing)
            return pycl_enqueue_write_buffer(job->queue, job->mem, CL_FALSE, job->mem_offset + offset, n, slot,
                                             num_events, wait_list, done);
        if (job->mem)
            return pycl_enqueue_read_buffer(job->queue, job->mem, CL_FALSE, job->mem_offset + offset, n, slot,
                                            num_events, wait_list, done);
        return writing ? pycl_enqueue_svm_memcpy(job->queue, CL_FALSE, job->svm + offset, slot, n, num_events,
                                                 wait_list, done)
                       : pycl_enqueue_svm_memcpy(job->queue, CL_FALSE, slot, job->svm + offset, n, num_events,
                                                 wait_list, done);
    }
    size_t y, z, rows = box_piece(box, index, &y, &z);
    size_t origin[3] = {box->origin[0], box->origin[1] + y, box->origin[2] + z};
    size_t region[3] = {box->region[0], rows, 1};
    if (box->image) {
        /* A 1D array's layer pitch is slice_pitch in the specification and
         * row_pitch on PoCL 3.1 (docs/quirks.md): both are the row here. */
        size_t slice_pitch = box->rows_are_layers ? box->row_bytes : 0;
        return writing ? pycl_enqueue_write_image(job->queue, job->mem, CL_FALSE, origin, region, box->row_bytes,
                                                  slice_pitch, slot, num_events, wait_list, done)
                       : pycl_enqueue_read_image(job->queue, job->mem, CL_FALSE, origin, region, box->row_bytes,
                                                 slice_pitch, slot, num_events, wait_list, done);
    }
    const size_t host_origin[3] = {0, 0, 0};
    return writing ? pycl_enqueue_write_buffer_rect(job->queue, job->mem, CL_FALSE, origin, host_origin, region,
                                                    box->buffer_row_pitch, box->buffer_slice_pitch, box->row_bytes, 0,
                                                    slot, num_events, wait_list, done)
                   : pycl_enqueue_read_buffer_rect(job->queue, job->mem, CL_FALSE, origin, host_origin, region,
                                                   box->buffer_row_pitch, box->buffer_slice_pitch, box->row_bytes, 0,
                                                   slot, num_events, wait_list, done);
}

/* One chunk: wait for the slot's turn and for its last device command, then
 * memcpy + enqueue (writes) or enqueue + wait + memcpy (reads). */
static cl_int stage_chunk(struct job *job, size_t index)
{
    struct pycl_stager *s = job->stager;
    struct slot *slot = &s->slots[index % s->count];
    /* Only the first chunks wait for the caller's events: later ones follow
     * them in the in-order queue. */
    cl_uint num_events = index < s->count ? job->num_events : 0;
    const cl_event *wait_list = num_events ? job->wait_list : NULL;

    pthread_mutex_lock(&job->lock);
    while (slot->turn != index && job->status == CL_SUCCESS)
        pthread_cond_wait(&job->turned, &job->lock);
    cl_int failed = job->status;
    cl_event busy = failed == CL_SUCCESS ? slot->busy : NULL;
    if (failed == CL_SUCCESS)
        slot->busy = NULL;
    pthread_mutex_unlock(&job->lock);
    if (failed != CL_SUCCESS)
        return failed;
    cl_int status = CL_SUCCESS;
    if (busy) {
        status = pycl_event_wait(1, &busy);
        release_event(busy);
    }
    cl_event done = NULL;
    if (status == CL_SUCCESS && job->writing) {
        copy_piece(job, index, slot->host, 1);
        status = enqueue_piece(job, index, slot->host, num_events, wait_list, &done);
    } else if (status == CL_SUCCESS) {
        status = enqueue_piece(job, index, slot->host, num_events, wait_list, &done);
        if (status == CL_SUCCESS)
            status = pycl_event_wait(1, &done);
        if (status == CL_SUCCESS)
            copy_piece(job, index, slot->host, 0);
        release_event(done);
        done = NULL;
    }
    pthread_mutex_lock(&job->lock);
    slot->busy = done;
    slot->turn = index + s->count;
    pthread_cond_broadcast(&job->turned);
    pthread_mutex_unlock(&job->lock);
    return status;
}

static void *worker(void *argument)
{
    struct job *job = argument;
    size_t chunks = job->chunks;
    for (;;) {
        pthread_mutex_lock(&job->lock);
        size_t index = job->next_chunk++;
        int stop = job->status != CL_SUCCESS;
        pthread_mutex_unlock(&job->lock);
        if (stop || index >= chunks)
            return NULL;
        cl_int status = stage_chunk(job, index);
        if (status != CL_SUCCESS) {
            fail(job, status);
            return NULL;
        }
    }
}

/* The device side is `mem` (at `mem_offset`, or the rows of `box`) or, when
 * `mem` is NULL, `svm`. */
static cl_int staged_copy(struct pycl_stager *s, cl_command_queue queue, cl_mem mem, char *svm, size_t mem_offset,
                          const struct box *box, char *host, size_t size, int writing, cl_uint num_events,
                          const cl_event *wait_list, cl_event *event)
{
    if (!s || !queue || !(mem || svm) || (!host && size))
        return CL_INVALID_VALUE;
    struct job job;
    memset(&job, 0, sizeof job);
    job.stager = s;
    job.queue = queue;
    job.mem = mem;
    job.svm = svm;
    job.mem_offset = mem_offset;
    job.box = box;
    job.chunks = box ? box->chunks_per_slice * box->region[2] : (size + s->chunk - 1) / s->chunk;
    job.host = host;
    job.size = size;
    job.writing = writing;
    job.num_events = num_events;
    job.wait_list = wait_list;
    job.status = CL_SUCCESS;
    pthread_mutex_init(&job.lock, NULL);
    pthread_cond_init(&job.turned, NULL);

    pthread_mutex_lock(&s->busy_lock);
    for (cl_uint i = 0; i < s->count; ++i)
        s->slots[i].turn = i;
    size_t chunks = job.chunks;
    cl_uint threads = chunks < s->threads ? (cl_uint)chunks : s->threads;
    pthread_t ids[MAX_THREADS];
    cl_uint started = 0;
    /* The calling thread is a worker too. */
    for (; started + 1 < threads; ++started)
        if (pthread_create(&ids[started], NULL, worker, &job) != 0)
            break;
    worker(&job);
    for (cl_uint i = 0; i < started; ++i)
        pthread_join(ids[i], NULL);
    pthread_mutex_unlock(&s->busy_lock);

    cl_int status = job.status;
    pthread_cond_destroy(&job.turned);
    pthread_mutex_destroy(&job.lock);
    /* A marker stands for every chunk (the queue is in-order). */
    if (status == CL_SUCCESS && event)
        status = pycl_enqueue_marker(queue, chunks ? 0 : num_events, chunks ? NULL : wait_list, event);
    return status;
}

/* A staged write to `mem` (or `box` of it) or `svm`, waited for when `blocking`. */
static cl_int staged_write(struct pycl_stager *s, cl_command_queue queue, cl_mem mem, char *svm, size_t mem_offset,
                           const struct box *box, const void *src, size_t size, cl_bool blocking, cl_uint num_events,
                           const cl_event *wait_list, cl_event *event)
{
    cl_event marker = NULL;
    cl_int status = staged_copy(s, queue, mem, svm, mem_offset, box, (char *)src, size, 1, num_events, wait_list,
                                event || blocking ? &marker : NULL);
    if (status == CL_SUCCESS && blocking)
        status = pycl_event_wait(1, &marker);
    if (event)
        *event = marker;
    else
        release_event(marker);
    return status;
}

cl_int pycl_staged_write(struct pycl_stager *s, cl_command_queue queue, cl_mem dst, size_t dst_offset, const void *src,
                         size_t size, cl_bool blocking, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    return staged_write(s, queue, dst, NULL, dst_offset, NULL, src, size, blocking, num_events, wait_list, event);
}

cl_int pycl_staged_read(struct pycl_stager *s, cl_command_queue queue, cl_mem src, size_t src_offset, void *dst,
                        size_t size, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    return staged_copy(s, queue, src, NULL, src_offset, NULL, dst, size, 0, num_events, wait_list, event);
}

cl_int pycl_staged_svm_write(struct pycl_stager *s, cl_command_queue queue, void *dst, const void *src, size_t size,
                             cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    return staged_write(s, queue, NULL, dst, 0, NULL, src, size, CL_TRUE, num_events, wait_list, event);
}

cl_int pycl_staged_svm_read(struct pycl_stager *s, cl_command_queue queue, void *dst, const void *src, size_t size,
                            cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    return staged_copy(s, queue, NULL, (char *)src, 0, NULL, dst, size, 0, num_events, wait_list, event);
}

/* A staged box copy; `box` has its origin, region, row bytes and pitches. */
static cl_int staged_box(struct pycl_stager *s, cl_command_queue queue, cl_mem mem, struct box *box, int reading,
                         void *host, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    if (!s || !box->row_bytes || box->row_bytes > s->chunk)
        return CL_INVALID_VALUE; /* the callers take the driver's path for rows longer than a slot */
    box->rows_per_chunk = s->chunk / box->row_bytes;
    box->chunks_per_slice = (box->region[1] + box->rows_per_chunk - 1) / box->rows_per_chunk;
    if (reading)
        return staged_copy(s, queue, mem, NULL, 0, box, host, 0, 0, num_events, wait_list, event);
    return staged_write(s, queue, mem, NULL, 0, box, host, 0, CL_TRUE, num_events, wait_list, event);
}

cl_int pycl_staged_image(struct pycl_stager *s, cl_command_queue queue, cl_mem image, int reading, size_t origin_x,
                         size_t origin_y, size_t origin_z, size_t region_x, size_t region_y, size_t region_z,
                         size_t row_bytes, int rows_are_layers, size_t host_row_pitch, size_t host_slice_pitch,
                         void *host, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    struct box box = {.image = 1,
                      .rows_are_layers = rows_are_layers,
                      .origin = {origin_x, origin_y, origin_z},
                      .region = {region_x, region_y, region_z},
                      .row_bytes = row_bytes,
                      .host_row_pitch = host_row_pitch,
                      .host_slice_pitch = host_slice_pitch};
    if (s && row_bytes > s->chunk)
        return pycl_image_region(queue, image, reading, CL_TRUE, origin_x, origin_y, origin_z, region_x, region_y,
                                 region_z, host_row_pitch, host_slice_pitch, host, num_events, wait_list, event);
    return staged_box(s, queue, image, &box, reading, host, num_events, wait_list, event);
}

cl_int pycl_staged_rect(struct pycl_stager *s, cl_command_queue queue, cl_mem buffer, int reading, size_t buffer_x,
                        size_t buffer_y, size_t buffer_z, size_t region_x, size_t region_y, size_t region_z,
                        size_t buffer_row_pitch, size_t buffer_slice_pitch, size_t host_row_pitch,
                        size_t host_slice_pitch, void *host, cl_uint num_events, const cl_event *wait_list,
                        cl_event *event)
{
    struct box box = {.origin = {buffer_x, buffer_y, buffer_z},
                      .region = {region_x, region_y, region_z},
                      .row_bytes = region_x,
                      .buffer_row_pitch = buffer_row_pitch,
                      .buffer_slice_pitch = buffer_slice_pitch,
                      .host_row_pitch = host_row_pitch,
                      .host_slice_pitch = host_slice_pitch};
    if (s && region_x > s->chunk)
        return pycl_host_rect(queue, buffer, reading, CL_TRUE, buffer_x, buffer_y, buffer_z, 0, 0, 0, region_x,
                              region_y, region_z, buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
                              host_slice_pitch, host, num_events, wait_list, event);
    return staged_box(s, queue, buffer, &box, reading, host, num_events, wait_list, event);
}

/* Copies between two queues (two devices of a context, or two contexts).
 *
 * Chunk i is read on the source queue into slot i % slots and written from
 * it on the destination queue; a slot is read into again only after the
 * write of its previous chunk, and both devices' copy engines work at once,
 * each at its pinned-memory rate. Blocking copies are driven by the calling
 * thread (driven_copy). Non-blocking ones are enqueued at once and the host
 * never waits (relayed_copy): events cannot cross contexts, so between two
 * contexts an event is relayed, a callback on it setting a user event of the
 * other context. A slot's `busy` event always belongs to the stager's
 * context, which is the source queue's. */

/* Completes `user_data` (a user event) as `event` completed, or with its
 * error, then drops the reference the relay held. */
static void relay_status(cl_event event, cl_int status, void *user_data)
{
    (void)event;
    cl_event target = user_data;
    pycl_user_event_set_status(target, status < 0 ? status : CL_COMPLETE);
    pycl_event_release(target);
}

/* `*out`: an event of `context` that completes when `event` does (`event`
 * itself, retained, if it already belongs to `context`); NULL if `event` has
 * completed already, or on failure. */
static cl_int relay(cl_event event, cl_context event_context, cl_context context, cl_event *out)
{
    *out = NULL;
    if (event_context == context) {
        cl_int status = pycl_event_retain(event);
        if (status == CL_SUCCESS)
            *out = event;
        return status;
    }
    /* Not relayed once complete: Oclgrind 21.10 never calls a callback set
     * on a completed event. */
    cl_int state;
    cl_int status = pycl_event_get_info(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof state, &state, NULL);
    if (status != CL_SUCCESS)
        return status;
    if (state < 0)
        return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    if (state == CL_COMPLETE)
        return CL_SUCCESS;
    cl_event user;
    status = pycl_user_event_create(context, &user);
    if (status != CL_SUCCESS)
        return status;
    pycl_event_retain(user); /* the callback's reference */
    status = pycl_event_set_callback(event, CL_COMPLETE, relay_status, user);
    if (status != CL_SUCCESS) {
        pycl_event_release(user);
        pycl_event_release(user);
        return status;
    }
    *out = user;
    return CL_SUCCESS;
}

/* `events` followed by `extra` (if not NULL), in `buffer` of `n` + 1. */
static const cl_event *with_event(cl_uint n, const cl_event *events, cl_event extra, cl_event *buffer, cl_uint *count)
{
    if (!extra) {
        *count = n;
        return n ? events : NULL;
    }
    for (cl_uint i = 0; i < n; ++i)
        buffer[i] = events[i];
    buffer[n] = extra;
    *count = n + 1;
    return buffer;
}

static cl_int queue_context(cl_command_queue queue, cl_context *context)
{
    return pycl_queue_get_info(queue, CL_QUEUE_CONTEXT, sizeof *context, context, NULL);
}

static void release_events(cl_uint n, cl_event *events)
{
    for (cl_uint i = 0; i < n; ++i)
        release_event(events[i]);
}

/* `waits[0 .. *n_waits)`: the `n_own` events of `context` (retained)
 * followed by relays into `context` of the `n_other` events of
 * `other_context` not yet complete; on failure none (all released). */
static cl_int gather_waits(cl_context context, cl_uint n_own, const cl_event *own, cl_context other_context,
                           cl_uint n_other, const cl_event *other, cl_event *waits, cl_uint *n_waits)
{
    cl_uint made = 0;
    cl_int status = CL_SUCCESS;
    for (cl_uint i = 0; i < n_own && status == CL_SUCCESS; ++i) {
        status = pycl_event_retain(own[i]);
        if (status == CL_SUCCESS)
            waits[made++] = own[i];
    }
    for (cl_uint i = 0; i < n_other && status == CL_SUCCESS; ++i) {
        status = relay(other[i], other_context, context, &waits[made]);
        if (waits[made])
            ++made;
    }
    if (status != CL_SUCCESS) {
        release_events(made, waits);
        made = 0;
    }
    *n_waits = made;
    return status;
}

/* Non-blocking: everything is enqueued at once, ordered by events, and the
 * host never waits. */
static cl_int relayed_copy(struct pycl_stager *s, cl_command_queue src_queue, cl_context src_context, cl_mem src,
                           size_t src_offset, cl_command_queue dst_queue, cl_context dst_context, cl_mem dst,
                           size_t dst_offset, size_t size, cl_uint num_src_events, const cl_event *src_events,
                           cl_uint num_dst_events, const cl_event *dst_events, cl_event *event)
{
    cl_int status;
    size_t chunks = (size + s->chunk - 1) / s->chunk;
    cl_uint n_waits = num_src_events + num_dst_events; /* at most */
    cl_event *writes = calloc(chunks ? chunks : 1, sizeof *writes);
    cl_event *waits = malloc(((size_t)n_waits + 1) * sizeof *waits);
    cl_event *scratch = malloc(((size_t)n_waits + 1) * sizeof *scratch);
    if (!writes || !waits || !scratch) {
        free(writes);
        free(waits);
        free(scratch);
        return CL_OUT_OF_HOST_MEMORY;
    }
    if (!chunks) {
        /* Nothing to move: the event completes after every wait. */
        status = gather_waits(dst_context, num_dst_events, dst_events, src_context, num_src_events, src_events, waits,
                              &n_waits);
        if (status == CL_SUCCESS) {
            status = pycl_enqueue_marker(dst_queue, n_waits, n_waits ? waits : NULL, event);
            release_events(n_waits, waits);
        }
        free(writes);
        free(waits);
        free(scratch);
        return status;
    }
    /* Every read waits for all of `wait_for` (the destination context's
     * events relayed), so no byte moves before any of them completes; the
     * writes follow the reads. */
    status =
        gather_waits(src_context, num_src_events, src_events, dst_context, num_dst_events, dst_events, waits, &n_waits);
    /* Relayed events of `dst_queue` (its marker for an out-of-order queue)
     * must run before the reads that wait for them: on Oclgrind 21.10, where
     * a flush is a finish, only this flush runs them. */
    if (status == CL_SUCCESS && num_dst_events) {
        status = pycl_queue_flush(dst_queue);
        if (status != CL_SUCCESS)
            release_events(n_waits, waits);
    }
    if (status != CL_SUCCESS) {
        free(writes);
        free(waits);
        free(scratch);
        return status;
    }
    pthread_mutex_lock(&s->busy_lock);
    size_t done = 0;
    for (; done < chunks && status == CL_SUCCESS; ++done) {
        struct slot *slot = &s->slots[done % s->count];
        size_t offset = done * s->chunk;
        size_t n = size - offset < s->chunk ? size - offset : s->chunk;
        cl_uint count;
        const cl_event *read_waits = with_event(n_waits, waits, slot->busy, scratch, &count);
        cl_event read = NULL, gate = NULL;
        status = pycl_enqueue_read_buffer(src_queue, src, CL_FALSE, src_offset + offset, n, slot->host, count,
                                          read_waits, &read);
        if (status == CL_SUCCESS)
            status = relay(read, src_context, dst_context, &gate);
        release_event(read);
        if (status != CL_SUCCESS)
            break;
        status = pycl_enqueue_write_buffer(dst_queue, dst, CL_FALSE, dst_offset + offset, n, slot->host, gate ? 1 : 0,
                                           gate ? &gate : NULL, &writes[done]);
        release_event(gate);
        cl_event busy = NULL;
        if (status == CL_SUCCESS)
            status = relay(writes[done], dst_context, src_context, &busy);
        if (status == CL_SUCCESS) {
            release_event(slot->busy);
            slot->busy = busy;
        }
        /* Each chunk starts at once: the devices work while later chunks are
         * enqueued. Oclgrind 21.10 runs a queue's commands only when it is
         * flushed, finished or waited on, so without these flushes the source
         * queue's reads never ran there (a flush is a finish on Oclgrind). */
        pycl_queue_flush(src_queue);
        pycl_queue_flush(dst_queue);
    }
    pthread_mutex_unlock(&s->busy_lock);
    release_events(n_waits, waits);
    if (status == CL_SUCCESS)
        status = pycl_enqueue_marker(dst_queue, (cl_uint)done, writes, event);
    release_events((cl_uint)done, writes);
    free(writes);
    free(waits);
    free(scratch);
    return status;
}

static cl_int enqueue_chunk_read(struct pycl_stager *s, cl_command_queue queue, cl_mem src, size_t src_offset,
                                 size_t size, size_t chunk, cl_uint num_events, const cl_event *events, cl_event *read)
{
    size_t offset = chunk * s->chunk;
    size_t n = size - offset < s->chunk ? size - offset : s->chunk;
    return pycl_enqueue_read_buffer(queue, src, CL_FALSE, src_offset + offset, n, s->slots[chunk % s->count].host,
                                    num_events, num_events ? events : NULL, read);
}

/* Blocking: the calling thread (or the copy thread, for a non-blocking copy
 * on `sides`) drives the pipeline, waiting for each read
 * before it enqueues the chunk's write, and for a write before its slot is
 * read into again; no event crosses a context. Reads run up to `slots` - 1
 * chunks ahead of the writes, so both devices copy at once. Relayed events,
 * set from callbacks, cost milliseconds per chunk on NVIDIA's OpenCL
 * (docs/design.md, "Several devices"). `*event` (unless `event` is NULL): a
 * marker on `dst_queue` after the last write. */
static cl_int driven_copy(struct pycl_stager *s, cl_command_queue src_queue, cl_mem src, size_t src_offset,
                          cl_command_queue dst_queue, cl_mem dst, size_t dst_offset, size_t size,
                          cl_uint num_src_events, const cl_event *src_events, cl_uint num_dst_events,
                          const cl_event *dst_events, cl_event *event)
{
    size_t chunks = (size + s->chunk - 1) / s->chunk;
    cl_event *reads = calloc(chunks ? chunks : 1, sizeof *reads);
    cl_event *writes = calloc(chunks ? chunks : 1, sizeof *writes);
    if (!reads || !writes) {
        free(reads);
        free(writes);
        return CL_OUT_OF_HOST_MEMORY;
    }
    /* The destination context's events are waited for here: the reads
     * cannot wait for them on the device. */
    cl_int status = num_dst_events ? pycl_event_wait(num_dst_events, dst_events) : CL_SUCCESS;
    pthread_mutex_lock(&s->busy_lock);
    /* Slots still in use by an earlier non-blocking copy. */
    for (cl_uint i = 0; i < s->count && status == CL_SUCCESS; ++i) {
        if (s->slots[i].busy) {
            status = pycl_event_wait(1, &s->slots[i].busy);
            release_event(s->slots[i].busy);
            s->slots[i].busy = NULL;
        }
    }
    size_t reads_made = 0, writes_made = 0;
    for (; reads_made < chunks && reads_made < s->count && status == CL_SUCCESS; ++reads_made)
        status = enqueue_chunk_read(s, src_queue, src, src_offset, size, reads_made, num_src_events, src_events,
                                    &reads[reads_made]);
    pycl_queue_flush(src_queue);
    for (; writes_made < chunks && status == CL_SUCCESS; ++writes_made) {
        size_t i = writes_made;
        status = pycl_event_wait(1, &reads[i]);
        if (status != CL_SUCCESS)
            break;
        size_t offset = i * s->chunk;
        size_t n = size - offset < s->chunk ? size - offset : s->chunk;
        status = pycl_enqueue_write_buffer(dst_queue, dst, CL_FALSE, dst_offset + offset, n,
                                           s->slots[i % s->count].host, 0, NULL, &writes[i]);
        if (status != CL_SUCCESS)
            break;
        pycl_queue_flush(dst_queue);
        /* The previous chunk's slot is read into again once its write is done. */
        if (i > 0 && reads_made < chunks) {
            status = pycl_event_wait(1, &writes[i - 1]);
            if (status == CL_SUCCESS)
                status = enqueue_chunk_read(s, src_queue, src, src_offset, size, reads_made, num_src_events, src_events,
                                            &reads[reads_made]);
            if (status == CL_SUCCESS)
                ++reads_made;
            pycl_queue_flush(src_queue);
        }
    }
    /* Every slot is free again when this returns: the writes are waited for. */
    cl_int waited = writes_made ? pycl_event_wait((cl_uint)writes_made, writes) : CL_SUCCESS;
    if (reads_made > writes_made)
        pycl_event_wait((cl_uint)(reads_made - writes_made), reads + writes_made);
    pthread_mutex_unlock(&s->busy_lock);
    if (status == CL_SUCCESS)
        status = waited;
    if (status == CL_SUCCESS && event)
        status = pycl_enqueue_marker(dst_queue, 0, NULL, event);
    release_events((cl_uint)reads_made, reads);
    release_events((cl_uint)writes_made, writes);
    free(reads);
    free(writes);
    return status;
}

/* A non-blocking copy for the copy thread: `sides` are queues of pycl's own
 * on the source and destination devices, so that the copy neither waits
 * behind the caller's later commands nor holds them up (only the
 * destination queue's later commands wait, for `done`). */
struct between_job {
    struct between_job *next;
    cl_command_queue sides[2];
    cl_mem src, dst;
    size_t src_offset, dst_offset, size;
    cl_event after[2]; /* markers: the commands before the copy on each queue, and its wait_for */
    cl_event done;     /* a user event of the destination context, set when the copy is done */
    cl_event gate;     /* the destination queue's barrier, waiting for `done`: the copy's event */
};

static void release_job(struct between_job *job)
{
    for (int i = 0; i < 2; ++i) {
        if (job->sides[i])
            pycl_queue_release(job->sides[i]);
        release_event(job->after[i]);
    }
    if (job->src)
        pycl_mem_release(job->src);
    if (job->dst)
        pycl_mem_release(job->dst);
    release_event(job->done);
    release_event(job->gate);
    free(job);
}

/* The copy thread of `s`: runs its jobs in order, ends (freeing `s`) when
 * the stager is freed and no job is left. */
static void *copy_thread(void *arg)
{
    struct pycl_stager *s = arg;
    pthread_mutex_lock(&s->jobs_lock);
    for (;;) {
        while (!s->jobs && !s->closing)
            pthread_cond_wait(&s->jobs_changed, &s->jobs_lock);
        struct between_job *job = s->jobs;
        if (!job)
            break;
        s->jobs = job->next;
        if (!s->jobs)
            s->last_job = NULL;
        pthread_mutex_unlock(&s->jobs_lock);
        /* Both markers (wait_for of either context, the earlier commands of
         * both queues), one at a time: events of one wait are of one context. */
        cl_int status = pycl_event_wait(1, &job->after[0]);
        if (status == CL_SUCCESS)
            status = pycl_event_wait(1, &job->after[1]);
        if (status == CL_SUCCESS)
            status = driven_copy(s, job->sides[0], job->src, job->src_offset, job->sides[1], job->dst, job->dst_offset,
                                 job->size, 0, NULL, 0, NULL, NULL);
        pycl_user_event_set_status(job->done, status == CL_SUCCESS ? CL_COMPLETE
                                              : status < 0         ? status
                                                                   : CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        /* The barrier's event is held until the barrier is done (see
         * threaded_copy: PoCL 3.1 aborts on a failure reaching a command
         * whose event no one holds). */
        pycl_event_wait(1, &job->gate);
        release_job(job);
        pthread_mutex_lock(&s->jobs_lock);
        --s->pending;
        pthread_cond_broadcast(&s->jobs_changed);
    }
    pthread_mutex_unlock(&s->jobs_lock);
    destroy_stager(s);
    return NULL;
}

/* Hands a non-blocking copy to the copy thread; the caller never waits. */
static cl_int threaded_copy(struct pycl_stager *s, cl_command_queue src_queue, cl_command_queue src_side, cl_mem src,
                            size_t src_offset, cl_command_queue dst_queue, cl_context dst_context,
                            cl_command_queue dst_side, cl_mem dst, size_t dst_offset, size_t size,
                            cl_uint num_src_events, const cl_event *src_events, cl_uint num_dst_events,
                            const cl_event *dst_events, cl_event *event)
{
    struct between_job *job = calloc(1, sizeof *job);
    if (!job)
        return CL_OUT_OF_HOST_MEMORY;
    cl_int status = pycl_enqueue_marker(src_queue, num_src_events, num_src_events ? src_events : NULL, &job->after[0]);
    if (status == CL_SUCCESS)
        status = pycl_enqueue_marker(dst_queue, num_dst_events, num_dst_events ? dst_events : NULL, &job->after[1]);
    if (status == CL_SUCCESS)
        status = pycl_user_event_create(dst_context, &job->done);
    pthread_mutex_lock(&s->jobs_lock);
    if (status == CL_SUCCESS && !s->has_thread) {
        pthread_t thread;
        if (pthread_create(&thread, NULL, copy_thread, s) == 0) {
            pthread_detach(thread);
            s->has_thread = 1;
        } else {
            status = CL_OUT_OF_HOST_MEMORY;
        }
    }
    /* The destination queue's later commands follow the copy. */
    if (status == CL_SUCCESS)
        /* Its event is asked for even if it were not the copy's: PoCL 3.1
         * aborts (pocl_update_event_failed) when a failure reaches a command
         * enqueued without one. */
        status = pycl_enqueue_barrier(dst_queue, 1, &job->done, &job->gate);
    if (status != CL_SUCCESS) {
        pthread_mutex_unlock(&s->jobs_lock);
        release_job(job);
        return status;
    }
    job->sides[0] = src_side;
    job->sides[1] = dst_side;
    job->src = src;
    job->dst = dst;
    pycl_queue_retain(src_side);
    pycl_queue_retain(dst_side);
    pycl_mem_retain(src);
    pycl_mem_retain(dst);
    job->src_offset = src_offset;
    job->dst_offset = dst_offset;
    job->size = size;
    /* The barrier's event is the copy's: NVIDIA's clWaitForEvents (CUDA 13)
     * answers CL_SUCCESS for a user event that failed, and fails for a
     * command that waited for it. */
    pycl_event_retain(job->gate);
    *event = job->gate;
    if (s->last_job)
        s->last_job->next = job;
    else
        s->jobs = job;
    s->last_job = job;
    ++s->pending;
    pthread_cond_broadcast(&s->jobs_changed);
    pthread_mutex_unlock(&s->jobs_lock);
    /* The markers run now rather than at the queues' next flush. */
    pycl_queue_flush(src_queue);
    pycl_queue_flush(dst_queue);
    return CL_SUCCESS;
}

cl_int pycl_staged_copy_between(struct pycl_stager *s, cl_command_queue src_queue, cl_command_queue src_side,
                                cl_mem src, size_t src_offset, cl_command_queue dst_queue, cl_command_queue dst_side,
                                cl_mem dst, size_t dst_offset, size_t size, cl_uint num_src_events,
                                const cl_event *src_events, cl_uint num_dst_events, const cl_event *dst_events,
                                int blocking, cl_event *event)
{
    if (!s || !src_queue || !src || !dst_queue || !dst || !event || !src_side != !dst_side)
        return CL_INVALID_VALUE;
    cl_context src_context, dst_context;
    cl_int status = queue_context(src_queue, &src_context);
    if (status == CL_SUCCESS)
        status = queue_context(dst_queue, &dst_context);
    if (status != CL_SUCCESS)
        return status;
    if (src_context != s->context)
        return CL_INVALID_CONTEXT;
    if (!blocking) {
        if (src_side)
            return threaded_copy(s, src_queue, src_side, src, src_offset, dst_queue, dst_context, dst_side, dst,
                                 dst_offset, size, num_src_events, src_events, num_dst_events, dst_events, event);
        return relayed_copy(s, src_queue, src_context, src, src_offset, dst_queue, dst_context, dst, dst_offset, size,
                            num_src_events, src_events, num_dst_events, dst_events, event);
    }
    if (s->count < 2)
        return CL_INVALID_VALUE; /* reads run ahead into another slot */
    /* After the copy thread's jobs, which were asked for earlier; none
     * starts until this copy is done. */
    pthread_mutex_lock(&s->jobs_lock);
    while (s->pending)
        pthread_cond_wait(&s->jobs_changed, &s->jobs_lock);
    status = driven_copy(s, src_queue, src, src_offset, dst_queue, dst, dst_offset, size, num_src_events, src_events,
                         num_dst_events, dst_events, event);
    pthread_mutex_unlock(&s->jobs_lock);
    return status;
}
