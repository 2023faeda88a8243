/* Event callbacks relayed to one thread of the shim's (runtime.h,
 * pycl_event_set_relayed_callback).
 *
 * A driver calls an event callback on a thread of its own, or (Oclgrind 21.10)
 * on the thread whose enqueue, flush or set_callback completed the event, and
 * may hold its own locks meanwhile. A callback that took the GIL there could
 * deadlock against a Python thread that holds the GIL while it waits for those
 * locks in a driver call, which is what the wrappers in pycl/build_ffi.py's
 * KEEPS_GIL do. So the driver's callback only queues (callback, status, user
 * data) and signals; one thread of the shim's takes them in the order the
 * driver called and alone calls the callbacks, holding no lock of the shim's
 * or of a driver's. The thread starts with the first relayed callback, has
 * every signal blocked (they stay with Python's threads), and is never joined:
 * it waits on its condition variable until the process ends. */
#define _POSIX_C_SOURCE 200809L /* pthread_sigmask */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

#include "dispatch.h"

struct relayed {
    void (*callback)(cl_int, void *);
    void *user_data;
    cl_int status;
    struct relayed *next;
};

static pthread_mutex_t relay_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t relay_ready = PTHREAD_COND_INITIALIZER;
static struct relayed *oldest, *newest; /* the queue, under relay_lock */
static int relay_running;               /* under relay_lock */

static void *relay_thread(void *unused)
{
    (void)unused;
    for (;;) {
        pthread_mutex_lock(&relay_lock);
        while (!oldest)
            pthread_cond_wait(&relay_ready, &relay_lock);
        struct relayed *r = oldest;
        oldest = r->next;
        if (!oldest)
            newest = NULL;
        pthread_mutex_unlock(&relay_lock);
        r->callback(r->status, r->user_data);
        free(r);
    }
    return NULL;
}

/* What the driver calls: queue the record and return. */
static void relay(cl_event event, cl_int status, void *user_data)
{
    (void)event;
    struct relayed *r = user_data;
    r->status = status;
    r->next = NULL;
    pthread_mutex_lock(&relay_lock);
    if (newest)
        newest->next = r;
    else
        oldest = r;
    newest = r;
    pthread_cond_signal(&relay_ready);
    pthread_mutex_unlock(&relay_lock);
}

/* A forked child has no relay thread: the next callback starts one. Records
 * queued in the parent stay with it (the child's driver never calls them). */
static void relay_after_fork(void)
{
    pthread_mutex_init(&relay_lock, NULL);
    pthread_cond_init(&relay_ready, NULL);
    oldest = newest = NULL;
    relay_running = 0;
}

/* Under relay_lock. */
static cl_int start_relay(void)
{
    static int fork_handler_set;
    if (relay_running)
        return CL_SUCCESS;
    if (!fork_handler_set && pthread_atfork(NULL, NULL, relay_after_fork) != 0)
        return CL_OUT_OF_HOST_MEMORY;
    fork_handler_set = 1;
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old); /* the new thread inherits the mask */
    pthread_attr_t attr;
    pthread_t thread;
    int failed = pthread_attr_init(&attr);
    if (!failed) {
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        failed = pthread_create(&thread, &attr, relay_thread, NULL);
        pthread_attr_destroy(&attr);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (failed)
        return CL_OUT_OF_HOST_MEMORY;
    relay_running = 1;
    return CL_SUCCESS;
}

cl_int pycl_event_set_relayed_callback(cl_event event, cl_int status, void (*callback)(cl_int, void *), void *user_data)
{
    struct relayed *r = malloc(sizeof *r);
    if (!r)
        return CL_OUT_OF_HOST_MEMORY;
    r->callback = callback;
    r->user_data = user_data;
    pthread_mutex_lock(&relay_lock);
    cl_int result = start_relay();
    pthread_mutex_unlock(&relay_lock);
    if (result == CL_SUCCESS)
        result = pycl_event_set_callback(event, status, relay, r);
    if (result != CL_SUCCESS)
        free(r);
    return result;
}
