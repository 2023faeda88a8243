/* Staged host<->buffer copies through pinned slots, with host threads doing
 * the memcpy (see cl_shim/include/pycl/staging.h for why).
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

struct pycl_stager {
    cl_context context;
    cl_command_queue queue; /* maps and unmaps the slots */
    size_t chunk;
    cl_uint count;
    cl_uint threads;
    pthread_mutex_t busy_lock; /* one staged copy at a time */
    struct slot *slots;
};

struct job {
    struct pycl_stager *stager;
    cl_command_queue queue;
    cl_mem mem;
    size_t mem_offset;
    char *host;
    size_t size;
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

void pycl_stager_free(struct pycl_stager *s)
{
    for (cl_uint i = 0; i < s->count; ++i) {
        struct slot *slot = &s->slots[i];
        /* The unmap waits for the slot's last transfer, which may be on
         * another queue; OpenCL deletes the buffer once the unmap is done. */
        if (slot->host)
            pycl_enqueue_unmap(s->queue, slot->mem, slot->host, slot->busy ? 1 : 0, slot->busy ? &slot->busy : NULL, NULL);
        release_event(slot->busy);
        if (slot->mem)
            pycl_mem_release(slot->mem);
    }
    pycl_queue_flush(s->queue);
    pycl_queue_release(s->queue);
    pycl_context_release(s->context);
    pthread_mutex_destroy(&s->busy_lock);
    free(s->slots);
    free(s);
}

static void fail(struct job *job, cl_int status)
{
    pthread_mutex_lock(&job->lock);
    if (job->status == CL_SUCCESS)
        job->status = status;
    pthread_cond_broadcast(&job->turned);
    pthread_mutex_unlock(&job->lock);
}

/* One chunk: wait for the slot's turn and for its last device command, then
 * memcpy + enqueue (writes) or enqueue + wait + memcpy (reads). */
static cl_int stage_chunk(struct job *job, size_t index)
{
    struct pycl_stager *s = job->stager;
    struct slot *slot = &s->slots[index % s->count];
    size_t offset = index * s->chunk;
    size_t n = job->size - offset < s->chunk ? job->size - offset : s->chunk;
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
        memcpy(slot->host, job->host + offset, n);
        status = pycl_enqueue_write_buffer(job->queue, job->mem, CL_FALSE, job->mem_offset + offset, n, slot->host,
                                           num_events, wait_list, &done);
    } else if (status == CL_SUCCESS) {
        status = pycl_enqueue_read_buffer(job->queue, job->mem, CL_FALSE, job->mem_offset + offset, n, slot->host,
                                          num_events, wait_list, &done);
        if (status == CL_SUCCESS)
            status = pycl_event_wait(1, &done);
        if (status == CL_SUCCESS)
            memcpy(job->host + offset, slot->host, n);
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
    size_t chunks = (job->size + job->stager->chunk - 1) / job->stager->chunk;
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

static cl_int staged_copy(struct pycl_stager *s, cl_command_queue queue, cl_mem mem, size_t mem_offset, char *host,
                          size_t size, int writing, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    if (!s || !queue || !mem || (!host && size))
        return CL_INVALID_VALUE;
    struct job job;
    memset(&job, 0, sizeof job);
    job.stager = s;
    job.queue = queue;
    job.mem = mem;
    job.mem_offset = mem_offset;
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
    size_t chunks = (size + s->chunk - 1) / s->chunk;
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

cl_int pycl_staged_write(struct pycl_stager *s, cl_command_queue queue, cl_mem dst, size_t dst_offset, const void *src,
                         size_t size, cl_bool blocking, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    cl_event marker = NULL;
    cl_int status = staged_copy(s, queue, dst, dst_offset, (char *)src, size, 1, num_events, wait_list,
                                event || blocking ? &marker : NULL);
    if (status == CL_SUCCESS && blocking)
        status = pycl_event_wait(1, &marker);
    if (event)
        *event = marker;
    else
        release_event(marker);
    return status;
}

cl_int pycl_staged_read(struct pycl_stager *s, cl_command_queue queue, cl_mem src, size_t src_offset, void *dst,
                        size_t size, cl_uint num_events, const cl_event *wait_list, cl_event *event)
{
    return staged_copy(s, queue, src, src_offset, dst, size, 0, num_events, wait_list, event);
}
