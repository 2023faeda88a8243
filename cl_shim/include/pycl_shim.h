/* pycl's C shim: an OpenCL ICD loader and dispatcher with one status
 * convention. This umbrella header is what C code includes; the area files
 * below are also read, in this order, by pycl/build_ffi.py as cffi declarations. */
#ifndef PYCL_SHIM_H
#define PYCL_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "pycl/types.h"
#include "pycl/constants.h"
#include "pycl/loader.h"
#include "pycl/runtime.h"
#include "pycl/memory.h"
#include "pycl/svm.h"
#include "pycl/pool.h"
#include "pycl/image.h"
#include "pycl/staging.h"
#include "pycl/scalars.h"
#include "pycl/launch.h"
#include "pycl/program.h"
#include "pycl/embed.h"

#ifdef __cplusplus
}
#endif

#endif
