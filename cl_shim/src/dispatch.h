/* Private: how the shim's entry points find a vendor's table and check that a
 * slot exists at the object's OpenCL version before calling it. */
#ifndef PYCL_DISPATCH_H
#define PYCL_DISPATCH_H

#include "icd.h"

#define PYCL_V(major, minor) ((major) * 100 + (minor))

/* Finds the table of `object` (any CL handle) and checks that the platform it
 * belongs to implements `need` (PYCL_V) and fills slot `entry`. Sets
 * pycl_unavailable_reason() and returns PYCL_UNAVAILABLE if not. */
cl_int pycl_dispatch_check(const void *object, unsigned need, const char *entry, const void *slot_value,
                           const struct pycl_icd_dispatch **table);
const struct pycl_icd_dispatch *pycl_table_of(const void *object);
/* The table's effective version (after PYCL_FORCE_CL_VERSION), 0 if the
 * object comes from a vendor the shim did not load. */
unsigned pycl_table_version(const struct pycl_icd_dispatch *table);
/* The version the platform reports, uncapped: for the shim's own workarounds
 * of driver defects, which PYCL_FORCE_CL_VERSION must not switch off. */
unsigned pycl_table_real_version(const struct pycl_icd_dispatch *table);
void pycl_set_unavailable(const char *format, ...);

/* Makes a new mapping record hold its own references to the queue, the mapped
 * memory object and, for a non-blocking map, the map's event (NULL for a
 * blocking one, which has completed: its unmap needs no wait and the record
 * spares a retain, a release and a status query; memory.c, buffer and image
 * maps). */
void pycl_mapping_hold(struct pycl_mapping *mapping, cl_command_queue queue, cl_mem mem, cl_event map_event);

/* `return` the slot's status, after the checks. */
#define PYCL_DISPATCH(object, need, slot, ...)                                                             \
    do {                                                                                                   \
        const struct pycl_icd_dispatch *t_ = pycl_table_of(object);                                        \
        cl_int s_ = pycl_dispatch_check((object), (need), #slot, t_ ? (const void *)t_->slot : NULL, &t_); \
        if (s_ != CL_SUCCESS)                                                                              \
            return s_;                                                                                     \
        return t_->slot(__VA_ARGS__);                                                                      \
    } while (0)

/* For creators that return a handle and report through errcode_ret. */
#define PYCL_DISPATCH_CREATE(result, object, need, slot, ...)                                              \
    do {                                                                                                   \
        const struct pycl_icd_dispatch *t_ = pycl_table_of(object);                                        \
        cl_int s_ = pycl_dispatch_check((object), (need), #slot, t_ ? (const void *)t_->slot : NULL, &t_); \
        if (s_ != CL_SUCCESS)                                                                              \
            return s_;                                                                                     \
        s_ = CL_SUCCESS;                                                                                   \
        *(result) = t_->slot(__VA_ARGS__, &s_);                                                            \
        return s_;                                                                                         \
    } while (0)

/* For release functions used as ffi.gc destructors: no status to report. */
#define PYCL_DISPATCH_RELEASE(object, slot)                         \
    do {                                                            \
        const struct pycl_icd_dispatch *t_ = pycl_table_of(object); \
        if (t_ && t_->slot)                                         \
            t_->slot(object);                                       \
    } while (0)

#endif
